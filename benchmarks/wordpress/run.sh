#!/usr/bin/env bash
# benchmarks/wordpress/run.sh - WordPress pages without a persistent object cache and with the Shm\Table
# drop-in (php/wordpress/object-cache.php), local and tiered to Redis, in one run (issue #35).
#
#   bash benchmarks/wordpress/run.sh [--so PATH] [--requests N] [--repeat R] [--warmup W] [--posts P]
#
# What it measures: for the home page and one single post (with its comments) of the same WordPress and the
# same database, under three configurations:
#   none    no object-cache.php: WordPress's own cache, which lasts one request
#   local   the drop-in on the table (one host, shared memory)
#   redis   the drop-in with the site's namespace tiered to a redis-server (table.redis_namespaces)
# the page time as the client sees it (curl's time_total, through nginx and php-fpm), median and p90 of
# N x R sequential requests on one keep-alive connection; the database queries a page runs
# ($wpdb->num_queries, from a must-use plugin, site/wpbench.php); and the object cache's own share of
# the page: time inside wp_cache_*() over the page's time in PHP (from the top of index.php to its last
# shutdown action), measured on a profiling twin of each site (same database, same cache namespace, so
# the same warm cache) whose object-cache.php is a timing wrapper around the real one (site/profile.php);
# the timed sites run the drop-in unchanged, and the wrapper never touches the drop-in itself. For none,
# the wrapper is around WordPress's own wp-includes/cache.php (and keeps wp_using_ext_object_cache() false).
# Each configuration's cache is warmed first (W requests of each page, which also fill opcache); the run
# stops there unless Redis then holds entries (the tiered rows must have gone through the tier). The R
# rounds each run N requests of each page under each configuration, in an order rotated each round; the
# profiling requests (N per page and configuration) come after. Factor = median of none / median of this
# configuration (above 1: faster). The goals of issue #35 (on a warm cache: at most a third of the
# uncached page's queries, a lower median, wp_cache_* under 5% of the page) are printed as information:
# nothing here passes or fails on a time.
#
# Setup, as php/wordpress/tests/run.sh does it (its setup is copied here, not shared): Debian's `wordpress`
# package and the twentytwentyone theme; a MariaDB server of its own (own datadir, a Unix socket); a
# redis-server of its own (a Unix socket, no persistence; the redis configuration is left out when the
# table.so has no Redis tier); one php-fpm master (pm = static, 2 workers; the PHP's usual extensions from
# its scan dir, opcache among them, but not an installed table.ini; table.so from our php.ini) and one nginx
# on loopback ports, one server per site. Each site is a document root with its own wp-config.php and
# wp-content; all six (three configurations, each with its profiling twin) use one database, installed and
# seeded from the CLI (site/setup.php: --posts posts with categories, tags and 6 comments each; pretty
# permalinks; the theme's default widgets). Everything lives in a temporary directory.
#
# Defaults: --requests 50 --repeat 3 --warmup 10 --posts 50; --so: TABLE_SO, else table.so is built in
# build/wordpress-bench. Installs what it needs from Debian's archive as root (NO_INSTALL=1: don't). Stops
# every process it started (trap), the table's Redis helper included; KEEP=1 keeps the temporary directory
# (it is kept when the setup failed). Exit status: 0 after the report, 1 when the setup failed or a page
# did not answer 200, 2 on a bad command line.
set -euo pipefail
export LC_ALL=C
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../../scripts/lib.sh"
. "$HERE/../../php/wordpress/tests/lib.sh"
cd "$TABLE_ROOT"

usage() { # message: the usage line and the message on stderr, exit 2; none: the whole header, exit 0
	if [ -z "${1:-}" ]; then sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0; fi
	sed -n '5p' "$0" | sed 's/^# \{0,1\}//' >&2
	echo "wordpress-bench: $1" >&2
	exit 2
}
count_arg() { [[ "$2" =~ ^[1-9][0-9]*$ ]] || usage "$1 must be a positive integer, not '$2'"; echo "$2"; }

# --- command line --------------------------------------------------------------------------------------
SO=${TABLE_SO:-}
REQUESTS=50 REPEAT=3 WARMUP=10 POSTS=50
while [ $# -gt 0 ]; do
	opt=$1 val=""
	case "$opt" in
		--*=*) val=${opt#*=} opt=${opt%%=*} ;;
		--so|--requests|--repeat|--warmup|--posts)
			[ $# -ge 2 ] || usage "$opt needs a value"
			val=$2
			shift ;;
	esac
	case "$opt" in
		--so) SO=$val ;;
		--requests) REQUESTS=$(count_arg "$opt" "$val") || exit 2 ;;
		--repeat) REPEAT=$(count_arg "$opt" "$val") || exit 2 ;;
		--warmup) WARMUP=$(count_arg "$opt" "$val") || exit 2 ;;
		--posts) POSTS=$(count_arg "$opt" "$val") || exit 2 ;;
		-h|--help) usage ;;
		*) usage "unknown argument: $opt" ;;
	esac
	shift
done

FAILED=0
fail() { # MESSAGE [DETAIL]: the setup failed; the temporary directory is kept
	FAILED=1
	echo "wordpress-bench: FAILED: $1" >&2
	[ -n "${2:-}" ] && printf '%s\n' "$2" | head -n 20 | sed 's/^/  /' >&2
	exit 1
}

# --- tools ---------------------------------------------------------------------------------------------
if [ "${NO_INSTALL:-0}" != 1 ]; then
	pkgs=(mariadb-server nginx curl redis-server $(php_deb_pkgs fpm cli mysql opcache))
	[ -z "$SO" ] && pkgs+=($(php_deb_pkgs dev) build-essential autoconf automake libtool pkg-config libhiredis-dev)
	apt_ensure "${pkgs[@]}"
	# wordpress depends on "apache2 | httpd" and "libapache2-mod-php | php": with nginx and php-fpm already
	# there, and the PHP metapackage (satisfied by php-fpm), apt takes those, and no Apache is installed.
	apt_ensure "php$(php_minor php-config)"
	apt_ensure wordpress wordpress-theme-twentytwentyone
fi
php_tools
if [ -z "$SO" ]; then
	table_build "$TABLE_ROOT/build/wordpress-bench" 0 "-O2 -g" || fail "build table.so"
	SO=$EXT_SO
fi
[ -f "$SO" ] || usage "no table.so at $SO"
SO=$(cd "$(dirname "$SO")" && pwd)/$(basename "$SO")
WP=/usr/share/wordpress
DROPIN=$TABLE_ROOT/php/wordpress/object-cache.php
THEMES=$WP/wp-content/themes
V=$(php_minor "$PHP_CONFIG")
FPM_BIN=$(command -v "php-fpm$V" || true)
[ -z "$FPM_BIN" ] && [ -x "/usr/sbin/php-fpm$V" ] && FPM_BIN=/usr/sbin/php-fpm$V
NGINX_BIN=$(command -v nginx || echo /usr/sbin/nginx)
mariadb_find
for t in "$FPM_BIN" "$NGINX_BIN" "$MDB_INSTALL" "$MDBD" "$(command -v mariadb || true)" "$(command -v curl || true)" "$WP/wp-settings.php" "$THEMES/twentytwentyone" "$DROPIN"; do
	{ [ -n "$t" ] && [ -e "$t" ]; } || fail "tools present: php-fpm$V, nginx, MariaDB, curl, WordPress and its theme (NO_INSTALL=1 given?)" "missing: ${t:-(not found)}"
done
php_without_installed_table "$PHP_BIN"

ROOT_USER=0
[ "$(id -u)" -eq 0 ] && ROOT_USER=1
DIR=$(mktemp -d /tmp/table-wordpress-bench.XXXXXX)
DB_PID="" FPM_PID="" NGINX_PID="" REDIS_PID="" HELPER_PID=""
cleanup() {
	set +e
	[ -n "$NGINX_PID" ] && kill -QUIT "$NGINX_PID" 2>/dev/null
	[ -n "$FPM_PID" ] && kill -QUIT "$FPM_PID" 2>/dev/null
	stop "$NGINX_PID"
	stop "$FPM_PID"
	# FPM's and nginx's own children, should their master have died without them
	for f in "$DIR"/*-children; do [ -f "$f" ] && xargs -r kill -KILL <"$f" 2>/dev/null; done
	# The Redis tier's helper runs detached and leaves within a second of the table's last process; make
	# sure of it (only if that pid is still a PHP process: it is not reused by something else).
	if [ -n "$HELPER_PID" ]; then
		for _ in $(seq 1 50); do kill -0 "$HELPER_PID" 2>/dev/null || break; sleep 0.1; done
		if kill -0 "$HELPER_PID" 2>/dev/null && grep -qa php "/proc/$HELPER_PID/cmdline" 2>/dev/null; then stop "$HELPER_PID"; fi
	fi
	stop "$REDIS_PID"
	stop "$DB_PID"
	wait 2>/dev/null
	if [ "${KEEP:-0}" = 1 ] || [ "$FAILED" = 1 ]; then echo "(configs and logs kept in $DIR)" >&2; else rm -rf "$DIR"; fi
}
trap cleanup EXIT
trap 'FAILED=1; echo "wordpress-bench: unexpected failure of the command at line $LINENO" >&2' ERR
trap 'echo "wordpress-bench: interrupted" >&2; exit 1' INT TERM


# --- MariaDB -------------------------------------------------------------------------------------------
mariadb_start "$DIR" 128M || fail "MariaDB starts" "$WP_LIB_ERROR"
sql -e "CREATE DATABASE wpbench" || fail "create the database"

# --- the sites -----------------------------------------------------------------------------------------
TIER=0
if [ "$("$PHP_BIN" -n -d extension="$SO" -r 'echo array_key_exists("redis", Shm\Table::stats()) ? 1 : 0;' 2>/dev/null)" = 1 ] &&
	command -v redis-server >/dev/null 2>&1; then
	TIER=1
fi
CONFIGS=(none local)
[ $TIER = 1 ] && CONFIGS+=(redis)
SITES=()
for c in "${CONFIGS[@]}"; do SITES+=("$c" "$c-prof"); done
PORTS=$("$PHP_BIN" -n -r '$h = []; for ($i = 0; $i < (int) $argv[1]; $i++) { $h[] = $s = stream_socket_server("tcp://127.0.0.1:0"); $n = stream_socket_get_name($s, false); echo substr($n, strrpos($n, ":") + 1), " "; }' $(( ${#SITES[@]} + 1 )))
read -r -a PORT_LIST <<<"$PORTS"
FPM_PORT=${PORT_LIST[${#SITES[@]}]:-}
[ -n "$FPM_PORT" ] || fail "free loopback ports ($PORTS)"
declare -A PORT URL
for i in "${!SITES[@]}"; do
	PORT[${SITES[$i]}]=${PORT_LIST[$i]}
	URL[${SITES[$i]}]="http://127.0.0.1:${PORT_LIST[$i]}"
done
# Every site has the same secret keys, so that nothing that derives from them (nonces...) differs.
KEYS_PHP=""
for k in AUTH_KEY SECURE_AUTH_KEY LOGGED_IN_KEY NONCE_KEY AUTH_SALT SECURE_AUTH_SALT LOGGED_IN_SALT NONCE_SALT; do
	KEYS_PHP+="define( '$k', '$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')' );"$'\n'
done
make_site() { # SITE
	local s=$1 c=${1%-prof} d=$DIR/sites/$1
	mkdir -p "$d/wp-content/mu-plugins" "$d/wp-content/uploads"
	ln -s "$THEMES" "$d/wp-content/themes"
	cp "$HERE/site/wpbench.php" "$d/wp-content/mu-plugins/"
	case "$s" in
		none) ;;   # no object-cache.php at all
		local|redis) ln -s "$DROPIN" "$d/wp-content/object-cache.php" ;;
		none-prof) "$PHP_BIN" -n "$HERE/site/profile.php" "$WP/wp-includes/cache.php" "$d/wp-content" --core >/dev/null ;;
		*-prof) "$PHP_BIN" -n "$HERE/site/profile.php" "$DROPIN" "$d/wp-content" >/dev/null ;;
	esac
	{
		echo "<?php"
		echo "define( 'DB_NAME', 'wpbench' );"
		echo "define( 'DB_USER', 'root' );"
		echo "define( 'DB_PASSWORD', '' );"
		echo "define( 'DB_HOST', 'localhost:$SOCK' );"
		echo "define( 'DB_CHARSET', 'utf8mb4' );"
		echo "define( 'DB_COLLATE', '' );"
		printf '%s' "$KEYS_PHP"
		# a profiling twin shares its site's namespace: the same warm cache
		[ "$c" != none ] && echo "define( 'WP_CACHE_KEY_SALT', 'wpbench-$c' );"
		echo "\$table_prefix = 'wp_';"
		echo "define( 'WP_HOME', '${URL[$s]}' );"
		echo "define( 'WP_SITEURL', '${URL[$s]}' );"
		echo "define( 'WP_CONTENT_DIR', __DIR__ . '/wp-content' );"
		echo "define( 'WP_CONTENT_URL', '${URL[$s]}/wp-content' );"
		echo "define( 'WP_DEFAULT_THEME', 'twentytwentyone' );"
		echo "define( 'DISABLE_WP_CRON', true );"
		echo "define( 'AUTOMATIC_UPDATER_DISABLED', true );"
		echo "define( 'WP_DEBUG', false );"
		echo "if ( ! defined( 'ABSPATH' ) ) { define( 'ABSPATH', '$WP/' ); }"
		echo "require_once ABSPATH . 'wp-settings.php';"
	} >"$d/wp-config.php"
	# WordPress's index.php and wp-blog-header.php, with this site's wp-config.php instead of wp-load.php's,
	# and the clock the page's time in PHP starts from
	cat >"$d/index.php" <<-'EOF'
	<?php
	define( 'WPBENCH_T0', hrtime( true ) );
	define( 'WP_USE_THEMES', true );
	require __DIR__ . '/wp-config.php';
	wp();
	require ABSPATH . WPINC . '/template-loader.php';
	EOF
}
for s in "${SITES[@]}"; do make_site "$s" || fail "make site $s"; done

# --- install and seed, from the CLI, on the site without a persistent cache --------------------------------
SEED=$(HTTP_HOST=127.0.0.1 "$PHP_BIN" -d display_errors=stderr -d memory_limit=512M "$HERE/site/setup.php" "$DIR/sites/none" "$POSTS" 2>"$DIR/setup.err") ||
	fail "install and seed WordPress (site/setup.php)" "$SEED $(tail -n 5 "$DIR/setup.err")"
SINGLE=$(json single <<<"$SEED")
SINGLE_TITLE=$(json title <<<"$SEED")
[ "$(json posts <<<"$SEED")" = "$POSTS" ] && [ "$SINGLE" != null ] || fail "seeded $POSTS posts" "$SEED"

# --- redis-server, php-fpm, nginx ----------------------------------------------------------------------
# The PHP's usual extensions (its php-fpm scan dir) but not an installed table.ini; table.so from our php.ini.
mkdir -p "$DIR/tmp"
fpm_conf_d "$DIR"
TIER_INI=""
if [ $TIER = 1 ]; then
	redis-server --port 0 --unixsocket "$DIR/redis.sock" --unixsocketperm 700 --save '' --appendonly no --dir "$DIR" \
		>"$DIR/redis.log" 2>&1 &
	REDIS_PID=$!
	wait_for 60 '[ -S "$DIR/redis.sock" ]' || fail "redis-server starts" "$(tail -n 3 "$DIR/redis.log")"
	TIER_INI="table.redis=\"unix://$DIR/redis.sock\"
table.redis_namespaces=wp:wpbench-redis"
fi
cat >"$DIR/php.ini" <<EOF
extension=$SO
$TIER_INI
table.memory=64M
memory_limit=256M
opcache.enable=1
opcache.memory_consumption=128
display_errors=0
log_errors=1
error_log=$DIR/php-error.log
error_reporting=E_ALL
max_execution_time=120
EOF
fpm_conf "$DIR" "$FPM_PORT" 2
server() { nginx_server "$1" "$2" "$FPM_PORT"; }   # PORT DOCROOT
{
	[ $ROOT_USER = 1 ] && echo 'user root root;'
	echo "worker_processes 1;"
	echo "pid $DIR/nginx.pid;"
	echo "error_log $DIR/nginx-error.log warn;"
	echo "events { worker_connections 256; }"
	echo "http {"
	echo "    access_log off;"
	echo "    keepalive_requests 100000;"
	for t in body fastcgi proxy uwsgi scgi; do echo "    ${t}_temp_path $DIR/tmp/$t;" | sed 's/^    body_/    client_body_/'; done
	for s in "${SITES[@]}"; do server "${PORT[$s]}" "$DIR/sites/$s"; done
	echo "}"
} >"$DIR/nginx.conf"
FPM_ARGS=(-F -y "$DIR/fpm.conf" -c "$DIR/php.ini")
[ $ROOT_USER = 1 ] && FPM_ARGS+=(-R)
PHP_INI_SCAN_DIR="$DIR/conf.d" "$FPM_BIN" "${FPM_ARGS[@]}" >"$DIR/fpm-stdout.log" 2>&1 &
FPM_PID=$!
"$NGINX_BIN" -p "$DIR" -c "$DIR/nginx.conf" -e "$DIR/nginx-error.log" -g 'daemon off;' >"$DIR/nginx-stdout.log" 2>&1 &
NGINX_PID=$!
info() { curl -s -m 60 "${URL[$1]}/?wpbench=info"; }
wait_for 60 'curl -s -o /dev/null -m 5 -w "%{http_code}" "${URL[none]}/?wpbench=info" 2>/dev/null | grep -q 200' ||
	fail "php-fpm and nginx serve the sites" "$(tail -n 5 "$DIR/fpm-error.log" "$DIR/nginx-error.log" "$DIR/php-error.log" 2>/dev/null)"
pgrep -P "$FPM_PID" >"$DIR/fpm-children" 2>/dev/null || true
pgrep -P "$NGINX_PID" >"$DIR/nginx-children" 2>/dev/null || true

# --- each site is what it claims to be -------------------------------------------------------------------
for s in "${SITES[@]}"; do
	I=$(info "$s")
	[ "$(json opcache <<<"$I")" = true ] || fail "site $s: opcache is on in php-fpm" "$I"
	case "$s" in
		none|none-prof) ok='[ "$(json ext <<<"$I")" != true ] && [ "$(json namespace <<<"$I")" = null ]' ;;
		local*) ok='[ "$(json ext <<<"$I")" = true ] && [ "$(json persistent <<<"$I")" = true ] && [ "$(json namespace <<<"$I")" = wp:wpbench-local ] && [ "$(json info tiered <<<"$I")" = false ]' ;;
		redis*) ok='[ "$(json ext <<<"$I")" = true ] && [ "$(json persistent <<<"$I")" = true ] && [ "$(json namespace <<<"$I")" = wp:wpbench-redis ] && [ "$(json info tiered <<<"$I")" = true ]' ;;
	esac
	[[ "$s" == *-prof ]] && ok="$ok"' && [ "$(json profiled <<<"$I")" = true ]' || ok="$ok"' && [ "$(json profiled <<<"$I")" = false ]'
	eval "$ok" || fail "site $s: the object cache it should have (none: WordPress's own; local: the drop-in on the table; redis: tiered; -prof: the timing wrapper)" "$I"
done

# --- measuring ---------------------------------------------------------------------------------------------
declare -A PATH_OF=([home]=/ [post]="$SINGLE")
PAGES=(home post)
mkdir -p "$DIR/res"
# fetch SITE PAGE COUNT OUT: COUNT sequential requests on one connection; appends to OUT one line per
# request: ms queries php_ns cache_ns calls ext floor_ns. A response other than 200, or without the plugin's comment,
# fails the run.
fetch() {
	local url=${URL[$1]}${PATH_OF[$2]} urls=() raw=$DIR/raw.txt
	for _ in $(seq 1 "$3"); do urls+=("$url"); done
	curl -s -m 120 -w '\n@@wpbench %{http_code} %{time_total}\n' "${urls[@]}" >"$raw" || true
	awk -v want="$3" -v out="$4" '
		/<!-- wpbench / { for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] } seen = 1 }
		/^@@wpbench / {
			if ($2 != 200 || !seen) { bad = "HTTP " $2 (seen ? "" : ", no wpbench comment"); exit }
			printf "%.3f %d %d %d %d %d %d\n", $3 * 1000, f["queries"], f["php_ns"], f["cache_ns"], f["calls"], f["ext"], f["floor_ns"] >> out
			n++; seen = 0
		}
		END { if (bad != "" || n != want) { print (bad != "" ? bad : n " of " want " responses"); exit 1 } }' "$raw" ||
		fail "$2 page of site $1 ($url): every response 200, with the plugin's comment" "$(awk -v want="$3" '/^@@wpbench / { print; exit }' "$raw") $(grep -o '<title>[^<]*' "$raw" | head -n 1)"
}
# the pages render what was seeded
for c in "${CONFIGS[@]}"; do
	H=$(curl -s -m 60 "${URL[$c]}/")
	P=$(curl -s -m 60 "${URL[$c]}$SINGLE")
	grep -q "Benchmark post $POSTS:" <<<"$H" && grep -qF "$SINGLE_TITLE" <<<"$P" && grep -q 'class="comment-body"' <<<"$P" ||
		fail "site $c: the home page lists the newest seeded post, the single post shows its title and comments" "$(grep -o '<title>[^<]*' <<<"$H$P")"
done

echo "wordpress-bench: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); PHP $("$PHP_BIN" -r 'echo PHP_VERSION;'), WordPress $("$PHP_BIN" -n -r 'include $argv[1]; echo $wp_version;' "$WP/wp-includes/version.php"), MariaDB $(sql -N -e 'SELECT VERSION()')$([ $TIER = 1 ] && echo ", $(redis-server --version | grep -o 'v=[0-9.]*' | sed 's/v=/Redis /')")"
echo "  module $SO; php-fpm $FPM_BIN (pm = static, 2 workers, opcache on) behind nginx on loopback; work dir $DIR"
echo "  content: $(json posts <<<"$SEED") posts, $(json comments <<<"$SEED") comments, $(json terms <<<"$SEED") terms; home = /, post = $SINGLE ($(json comments_on_single <<<"$SEED") comments)"
echo "  $WARMUP warmup requests per page and configuration, then $REPEAT round(s) x $REQUESTS sequential requests; then $REQUESTS profiling requests each"
[ $TIER = 1 ] || echo "  (no Redis tier in this table.so, or no redis-server: the redis configuration is left out)"

# warm: the caches (each configuration's), opcache (every site's files)
for s in "${SITES[@]}"; do
	n=$WARMUP
	[[ "$s" == *-prof ]] && n=3
	for p in "${PAGES[@]}"; do fetch "$s" "$p" "$n" "$DIR/res/warmup"; done
done
if [ $TIER = 1 ]; then
	HELPER_PID=$(json redis helper_pid <<<"$(info redis)")
	[[ "$HELPER_PID" =~ ^[1-9][0-9]*$ ]] || HELPER_PID=""
	# The tiered rows are tiered only if the warm-up's writes reached Redis (only that configuration uses
	# this redis-server): wait for them, since the tier may write behind the request.
	rkeys() { redis-cli -s "$DIR/redis.sock" DBSIZE 2>/dev/null | tr -dc '0-9'; }
	wait_for 60 '[ "$(rkeys)" -gt 0 ] 2>/dev/null' ||
		fail "the tiered configuration's warm-up wrote its entries to Redis (DBSIZE: $(rkeys))" "$(info redis)"
	echo "  Redis: $(rkeys) keys after the warm-up (the tiered configuration's entries)"
fi
# The timed rounds. Within a round, each page's N requests per configuration go in blocks of BLOCK, the
# configurations taking turns block by block, so that a change in the machine's load falls on all of them;
# the order of the turns rotates each round.
BLOCK=10
for r in $(seq 1 "$REPEAT"); do
	order=()
	for i in "${!CONFIGS[@]}"; do order+=("${CONFIGS[$(((i + r - 1) % ${#CONFIGS[@]}))]}"); done
	for p in "${PAGES[@]}"; do
		for ((done_n = 0; done_n < REQUESTS; done_n += BLOCK)); do
			n=$((REQUESTS - done_n < BLOCK ? REQUESTS - done_n : BLOCK))
			for c in "${order[@]}"; do fetch "$c" "$p" "$n" "$DIR/res/$p.$c.$r"; done
		done
		for c in "${order[@]}"; do cat "$DIR/res/$p.$c.$r" >>"$DIR/res/$p.$c"; done
	done
	echo "  round $r of $REPEAT done (load average $(cut -d' ' -f1 /proc/loadavg))" >&2
done
# the profiling requests
for p in "${PAGES[@]}"; do
	for c in "${CONFIGS[@]}"; do fetch "$c-prof" "$p" "$REQUESTS" "$DIR/res/$p.$c.prof"; done
done

# --- report ------------------------------------------------------------------------------------------------
# col FILE N: column N of FILE, sorted numerically
col() { awk -v n="$2" '{ print $n }' "$1" | sort -g; }
median() { awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
p90() { awk '{ v[NR] = $1 } END { i = int(NR * 0.9); if (i < NR * 0.9) i++; print (NR ? v[i] : "nan") }'; }
declare -A MED P90 Q QMIN QMAX RUNS SHARE CMS CALLS PMS FLOOR
for p in "${PAGES[@]}"; do
	for c in "${CONFIGS[@]}"; do
		f=$DIR/res/$p.$c
		MED[$p.$c]=$(col "$f" 1 | median)
		PMS[$p.$c]=$(awk '{ print $3 / 1e6 }' "$f" | sort -g | median)
		P90[$p.$c]=$(col "$f" 1 | p90)
		Q[$p.$c]=$(col "$f" 2 | median)
		QMIN[$p.$c]=$(col "$f" 2 | head -n 1)
		QMAX[$p.$c]=$(col "$f" 2 | tail -n 1)
		RUNS[$p.$c]=$(for r in $(seq 1 "$REPEAT"); do col "$f.$r" 1 | median; done | awk '{ printf "%s%.1f", (NR > 1 ? ", " : ""), $1 }')
		# the profiling twin: share = time in wp_cache_*() / time in PHP, per request; medians
		SHARE[$p.$c]=$(awk '$3 > 0 { print 100 * $4 / $3 }' "$f.prof" | sort -g | median)
		CMS[$p.$c]=$(awk '{ print $4 / 1e6 }' "$f.prof" | sort -g | median)
		CALLS[$p.$c]=$(col "$f.prof" 5 | median)
		FLOOR[$p.$c]=$(col "$f.prof" 7 | median)
	done
done
label() { case "$1" in none) echo "no persistent cache" ;; local) echo "drop-in, local" ;; redis) echo "drop-in, tiered to Redis" ;; esac; }
echo
echo "| Page | Configuration | median ms | p90 ms | round medians ms | in PHP ms | DB queries/page | wp_cache_* calls | wp_cache_* ms (share) | Factor |"
echo "|---|---|---:|---:|---|---:|---:|---:|---:|---:|"
for p in "${PAGES[@]}"; do
	for c in "${CONFIGS[@]}"; do
		q=${Q[$p.$c]}
		[ "${QMIN[$p.$c]}" != "${QMAX[$p.$c]}" ] && q="$q (${QMIN[$p.$c]}-${QMAX[$p.$c]})"
		awk -v page="$p" -v conf="$(label "$c")" -v med="${MED[$p.$c]}" -v p90="${P90[$p.$c]}" -v runs="${RUNS[$p.$c]}" -v pms="${PMS[$p.$c]}" -v q="$q" \
			-v calls="${CALLS[$p.$c]}" -v cms="${CMS[$p.$c]}" -v share="${SHARE[$p.$c]}" -v base="${MED[$p.none]}" 'BEGIN {
			printf "| %s | %s | %.1f | %.1f | %s | %.1f | %s | %d | %.2f (%.1f%%) | %.2fx |\n", page, conf, med, p90, runs, pms, q, calls, cms, share, (med > 0 ? base / med : 0)
		}'
	done
done
echo
echo "Median ms, p90 ms: curl's time_total over $((REQUESTS * REPEAT)) requests ($REPEAT rounds of $REQUESTS, one keep-alive connection); Factor = median without a persistent cache / median of the row."
echo "In PHP ms: median time from the top of index.php to the last shutdown action, same requests. DB queries/page: \$wpdb->num_queries, median (min-max when they differ)."
echo "wp_cache_* calls, ms (share): from $REQUESTS more requests to each configuration's profiling twin (same cache, a timing wrapper around wp_cache_*()): median calls per page, median time inside them, and the median of each page's time inside them / its time in PHP."
echo "  The timer's own cost is in it (an upper bound): $(FL=$(for k in "${!FLOOR[@]}"; do echo "${FLOOR[$k]}"; done | sort -g | median); printf '%.0f' "$FL") ns per call on an empty function, measured in the same requests, i.e. $(for p in "${PAGES[@]}"; do awk -v p="$p" -v c="${CALLS[$p.local]}" -v f="${FLOOR[$p.local]}" 'BEGIN { printf "%s%.2f ms of the %s page with the drop-in", (p == "home" ? "" : ", "), c * f / 1e6, p }'; done)."
echo
echo "Goals of issue #35 (information only; timings on this machine are not a pass/fail):"
for p in "${PAGES[@]}"; do
	for c in "${CONFIGS[@]}"; do
		[ "$c" = none ] && continue
		awk -v page="$p" -v conf="$(label "$c")" -v q="${Q[$p.$c]}" -v q0="${Q[$p.none]}" -v m="${MED[$p.$c]}" -v m0="${MED[$p.none]}" -v s="${SHARE[$p.$c]}" 'BEGIN {
			printf "  %-5s %-25s queries %s vs %s (<= 1/3: %s); median %.1f vs %.1f ms (lower: %s); wp_cache_* %.1f%% of the page (< 5%%: %s)\n",
				page, conf ":", q, q0, (3 * q <= q0 ? "met" : "NOT met"), m, m0, (m < m0 ? "met" : "NOT met"), s, (s < 5 ? "met" : "NOT met")
		}'
	done
done

# --- logs: what went wrong is worth knowing, but does not change the numbers ------------------------------
PHPERR=$(grep -v 'PHP Deprecated' "$DIR/php-error.log" 2>/dev/null | head -n 3 || true)
[ -z "$PHPERR" ] || echo "note: PHP's error log is not empty: $PHPERR"
