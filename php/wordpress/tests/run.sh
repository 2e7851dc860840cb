#!/usr/bin/env bash
# php/wordpress/tests/run.sh - the object-cache drop-in (php/wordpress/object-cache.php) in a real WordPress:
# Debian's `wordpress` package (6.1 on Debian 12, 6.8 on Debian 13), on MariaDB, served by php-fpm behind
# nginx on loopback. The same script runs on both releases: CI's `wordpress` step on the host (Debian 12),
# `php84-wordpress` inside the Debian 13 tree (scripts/debian-tree.sh, a chroot sharing the host's network:
# every port is asked of the kernel, free, at run time).
#
#   bash php/wordpress/tests/run.sh [TABLE_SO]        (or TABLE_SO=...; without it, table.so is built)
#
# As root (or with password-less sudo) it installs what it needs from Debian's archive (NO_INSTALL=1: don't):
# wordpress, a theme (twentytwentyone where Debian has it, else twentytwentyfive; WP_THEME=NAME: another),
# mariadb-server, nginx, curl, redis-server and the php-fpm, php-cli and php-mysql of the PHP that php-config
# names. Everything it starts lives in a temporary directory: a MariaDB server of its own (own datadir, a
# Unix socket, no TCP), a redis-server of its own (a Unix socket) when TABLE_SO has the Redis tier, three
# php-fpm masters (one pool of 3 static workers each, 2 for master 3, loading TABLE_SO and the PHP's usual
# extensions but not an installed table.ini; master 3 on a named segment), and one nginx on loopback ports.
# Each site's document root is a WordPress tree of its own (WordPress's entry points copied, wp-includes and
# wp-admin's includes and assets symlinked to Debian's /usr/share/wordpress; Debian's /etc/wordpress is not
# used) with its own wp-config.php and a wp-content holding the drop-in (a symlink named object-cache.php),
# the theme, and a test must-use plugin (tests/site/table-test.php); each has its own database, and
# WordPress is installed from the CLI (tests/site/install.php), without the table, so through the drop-in's
# fallback. Sites 1 and 2 are two installs on master 1 (site 1 sets WP_CACHE_KEY_SALT, site 2 does not:
# its namespace is derived from DB_NAME, the table prefix, DB_HOST and ABSPATH); site 3 is a subdirectory
# network on master 1; site 4 is served by masters 1 and 2 (two tables: two "hosts") with its namespace
# tiered to Redis; master 3 serves sites 1 and 2 again from a named segment in the temporary directory,
# which CLI processes of the sites (tests/site/cli.php, as WP-CLI runs WordPress) name too. It checks:
#   0. tests/oracle.php: ORACLE_SEQUENCES (default 600) random sequences against WordPress's own class
#   1. installing through the drop-in without the table works, and tells WordPress the cache is not persistent
#   2. under php-fpm: the home page and a post render; wp_using_ext_object_cache() is true; the namespace is
#      the salt's; wp_cache_supports() says yes to each feature; Site Health's persistent object cache test
#      is good; stats() prints its status line
#   3. the cache persists: the home page right after wp_cache_flush() runs more database queries than the
#      next one
#   4. logged-in edits, each seen by the next request, served by another worker (the editing worker is held
#      busy meanwhile), and on the post's page, with post 1 in the cache before the edit: a person's edit
#      (log in through wp-login.php with a cookie jar, open wp-admin/post.php?post=1&action=edit, submit its
#      form, action=editpost, with a new title: tests/form.php sends what a browser would), then the block
#      editor's save (the REST API with the login cookie and the X-WP-Nonce of admin-ajax.php's rest-nonce)
#   5. two installs on one table stay apart: namespaces differ; post 1 of site two keeps its title after site
#      one's edit; a key set in both reads back each site's own value; wp_cache_flush() of site one leaves
#      site two's key
#  5b. two installs on one named segment: a key a CLI process of site 1 sets is read through master 3, not
#      master 1; one key set in both sites reads back each site's own value; wp_cache_flush() in a CLI
#      process of site 2 (what `wp cache flush` does) empties site 2 for php-fpm, and not site 1
#   6. a subdirectory network (site 3: populate_network(), then a blog /two/; served as http://net.test/,
#      which curl sends to nginx's third port): both blogs render from the network's one namespace; post 1
#      of each blog (same ID, same group) stays apart; switch_to_blog() reads the other blog's; a global
#      group is shared by the blogs and a per-blog group is not; flush_group() of a per-blog group empties
#      it for every blog and nothing else; a key set in each of 3,000 blogs (wp_cache_switch_to_blog) adds
#      no table namespace, reads back per blog, and one flush_group() empties it in all of them; flush()
#      empties the network and not the other sites
#   7. the Redis tier (skipped when TABLE_SO lacks it): the oracle with every namespace tiered; site 4's
#      namespace tiered and site 1's not; post 1 edited on host A is read on host B (once B's copy is
#      invalidated: a wait for that event); a key set on A is read on B; flush() on B empties the site on A
#   8. PHP's error log is written, and holds nothing about the drop-in and no fatal error
# No timing assertions: every wait is for an event, with a deadline far past what a busy machine needs.
# KEEP=1 keeps the temporary directory (always kept when a check failed). Output: `ok`/`not ok`/`skip`
# lines, then `wordpress: N passed, N failed[, N skipped]`; exit status 1 on any failure.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../../../scripts/lib.sh"
. "$HERE/lib.sh"
cd "$TABLE_ROOT"

PASS=0 FAIL=0 SKIP=0
ok() { PASS=$((PASS + 1)); echo "ok     $*"; }
skip() { SKIP=$((SKIP + 1)); echo "skip   $*"; }
notok() { FAIL=$((FAIL + 1)); echo "not ok $*"; }
check() { if eval "$1"; then ok "$2"; else notok "$2${3:+ ($3)}"; fi; }   # check 'test' 'what' ['detail']
finish() {
	if [ "$SKIP" -gt 0 ]; then echo "wordpress: $PASS passed, $FAIL failed, $SKIP skipped"; else echo "wordpress: $PASS passed, $FAIL failed"; fi
	[ "$FAIL" -eq 0 ] && [ "$PASS" -gt 0 ] && exit 0
	exit 1
}

SO=${1:-${TABLE_SO:-}}
if [ "${NO_INSTALL:-0}" != 1 ]; then
	pkgs=(mariadb-server nginx curl redis-server $(php_deb_pkgs fpm cli mysql))
	[ -z "$SO" ] && pkgs+=($(php_deb_pkgs dev) build-essential autoconf automake libtool)
	apt_ensure "${pkgs[@]}"
	# wordpress depends on "apache2 | httpd" and "libapache2-mod-php | php": with nginx and php-fpm already
	# there, and the PHP metapackage (satisfied by php-fpm), apt takes those, and no Apache is installed.
	apt_ensure "php$(php_minor php-config)"
	apt_ensure wordpress
fi
# The theme: Debian 12's twentytwentyone; Debian 13 packages only the block themes, of which twentytwentyfive
# is the one WordPress 6.8 ships. WP_THEME=NAME picks another (wordpress-theme-NAME).
THEMES=/usr/share/wordpress/wp-content/themes
THEME=${WP_THEME:-}
if [ -z "$THEME" ]; then
	for t in twentytwentyone twentytwentyfive; do
		if [ -d "$THEMES/$t" ] || { [ "${NO_INSTALL:-0}" != 1 ] && apt-cache show "wordpress-theme-$t" >/dev/null 2>&1; }; then
			THEME=$t
			break
		fi
	done
fi
if [ "${NO_INSTALL:-0}" != 1 ] && [ -n "$THEME" ]; then apt_ensure "wordpress-theme-$THEME"; fi
php_tools
if [ -z "$SO" ]; then
	table_build "$TABLE_ROOT/build/wordpress" 0 "-O2 -g" || { notok "build table.so"; finish; }
	SO=$EXT_SO
fi
[ -f "$SO" ] || { notok "table.so at $SO"; finish; }
SO=$(cd "$(dirname "$SO")" && pwd)/$(basename "$SO")
WP=/usr/share/wordpress
DROPIN=$(realpath "${DROPIN:-$TABLE_ROOT/php/wordpress/object-cache.php}")   # DROPIN=FILE: test another
V=$(php_minor "$PHP_CONFIG")
FPM_BIN=$(command -v "php-fpm$V" || true)
[ -z "$FPM_BIN" ] && [ -x "/usr/sbin/php-fpm$V" ] && FPM_BIN=/usr/sbin/php-fpm$V
NGINX_BIN=$(command -v nginx || echo /usr/sbin/nginx)
mariadb_find
for t in "$FPM_BIN" "$NGINX_BIN" "$MDB_INSTALL" "$MDBD" "$(command -v mariadb || true)" "$(command -v curl || true)" "$WP/wp-settings.php" "$THEMES/${THEME:-none}"; do
	{ [ -n "$t" ] && [ -e "$t" ]; } || { notok "tools present: php-fpm$V, nginx, MariaDB, curl, WordPress and its theme (NO_INSTALL=1 given?)"; finish; }
done

ROOT_USER=0
[ "$(id -u)" -eq 0 ] && ROOT_USER=1
DIR=$(mktemp -d /tmp/table-wordpress.XXXXXX)
DB_PID="" FPM_PID="" FPM2_PID="" FPM3_PID="" NGINX_PID="" REDIS_PID="" HOLD_PID="" HELPER_PIDS=""
cleanup() {
	set +e
	trap - ERR
	touch "$DIR/release"
	[ -n "$HOLD_PID" ] && kill "$HOLD_PID" 2>/dev/null
	[ -n "$NGINX_PID" ] && kill -QUIT "$NGINX_PID" 2>/dev/null
	[ -n "$FPM_PID" ] && kill -QUIT "$FPM_PID" 2>/dev/null
	[ -n "$FPM2_PID" ] && kill -QUIT "$FPM2_PID" 2>/dev/null
	[ -n "$FPM3_PID" ] && kill -QUIT "$FPM3_PID" 2>/dev/null
	stop "$NGINX_PID"
	stop "$FPM_PID"
	stop "$FPM2_PID"
	stop "$FPM3_PID"
	# The Redis tier's helpers (one a table) run detached and leave within a second of their table's last
	# process: wait for that, then make sure (only of a pid that is still a PHP process, not one reused).
	for p in $HELPER_PIDS; do
		wait_for 10 '! kill -0 $p 2>/dev/null' || { grep -qa php "/proc/$p/cmdline" 2>/dev/null && stop "$p"; }
	done
	stop "$DB_PID"
	stop "$REDIS_PID"
	wait 2>/dev/null
	if [ "${KEEP:-0}" = 1 ] || [ "$FAIL" -gt 0 ]; then echo "(configs and logs kept in $DIR)"; else rm -rf "$DIR"; fi
}
trap cleanup EXIT
# a command failing where nothing expects it: still a failure with a summary, not a silent exit
trap 'notok "unexpected failure of the command at line $LINENO"; finish' ERR
trap 'echo "wordpress: interrupted"; exit 1' INT TERM


# --- 0. the oracle: the drop-in against WordPress's own WP_Object_Cache, within one request --------------
ORACLE=$("$PHP_BIN" -n -d extension="$SO" "$HERE/oracle.php" --wordpress="$WP" --sequences="${ORACLE_SEQUENCES:-600}" 2>&1) || true
check 'grep -q "^oracle: [1-9][0-9]* passed, 0 failed$" <<<"$ORACLE"' \
	"oracle: $(grep -m1 'sequences of' <<<"$ORACLE" | sed 's/^oracle: //'): $(tail -n 1 <<<"$ORACLE" | sed 's/^oracle: //')" \
	"$(head -n 20 <<<"$ORACLE")"

# --- MariaDB -------------------------------------------------------------------------------------------
mariadb_start "$DIR" 32M || { notok "MariaDB starts" "$WP_LIB_ERROR"; finish; }
sql -e "CREATE DATABASE wp_one; CREATE DATABASE wp_two; CREATE DATABASE wp_net; CREATE DATABASE wp_tier;" ||
	{ notok "create the databases"; finish; }

# --- the sites --------------------------------------------------------------------------------------------
# Site 1 and site 2: two installs on one php-fpm master. Site 3: a network. Site 4: the Redis tier's, served
# by both masters. Free loopback ports, all asked for while the earlier ones are held, so they differ.
PORTS=$("$PHP_BIN" -n -r '$h = []; for ($i = 0; $i < 10; $i++) { $h[] = $s = stream_socket_server("tcp://127.0.0.1:0"); $n = stream_socket_get_name($s, false); echo substr($n, strrpos($n, ":") + 1), " "; }')
read -r PORT1 PORT2 PORT3 PORT4 PORT5 PORT6 PORT7 FPM_PORT FPM2_PORT FPM3_PORT <<<"$PORTS"
[ -n "$FPM3_PORT" ] || { notok "free loopback ports ($PORTS)"; finish; }
URL4="http://127.0.0.1:$PORT4"   # site 4 through host A (php-fpm master 1)
URL5="http://127.0.0.1:$PORT5"   # site 4 through host B (php-fpm master 2: another table)
URL1="http://127.0.0.1:$PORT1"
URL2="http://127.0.0.1:$PORT2"
URL6="http://127.0.0.1:$PORT6"   # site 1 through php-fpm master 3, on the named segment
URL7="http://127.0.0.1:$PORT7"   # site 2 through php-fpm master 3
# the network: a name without a port (multisite wants one), which curl sends to 127.0.0.1:PORT3
NET=net.test
URL3="http://$NET"
URL3B="http://$NET/two"
TOKEN=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
# A site's document root is a WordPress tree of its own, as an install unpacked from wordpress.org is: the
# entry points (the top-level *.php, wp-admin's) are copies, because WordPress finds wp-load.php, hence
# ABSPATH and the wp-config.php beside it, from the entry point's own directory (__DIR__, where PHP has
# resolved symlinks); wp-includes and wp-admin's includes and assets are symlinks into Debian's package.
wp_tree() { # DIR
	local e
	mkdir -p "$1/wp-admin"
	for e in "$WP"/*.php; do [[ "$(basename "$e")" == wp-config*.php ]] || cp "$e" "$1/"; done
	ln -s "$WP/wp-includes" "$1/wp-includes"
	for e in "$WP"/wp-admin/*; do
		case "$(basename "$e")" in
			includes|css|js|images) ln -s "$e" "$1/wp-admin/" ;;
			*) cp -R "$e" "$1/wp-admin/" ;;
		esac
	done
}
make_site() { # N DB URL SALT(empty: none) [network]
	local d=$DIR/site$1
	wp_tree "$d"
	mkdir -p "$d/wp-content/mu-plugins" "$d/wp-content/plugins" "$d/wp-content/uploads"
	ln -s "$DROPIN" "$d/wp-content/object-cache.php"
	ln -s "$THEMES" "$d/wp-content/themes"
	cp "$HERE/site/table-test.php" "$d/wp-content/mu-plugins/"
	{
		echo "<?php"
		echo "define( 'DB_NAME', '$2' );"
		echo "define( 'DB_USER', 'root' );"
		echo "define( 'DB_PASSWORD', '' );"
		echo "define( 'DB_HOST', 'localhost:$SOCK' );"
		echo "define( 'DB_CHARSET', 'utf8mb4' );"
		echo "define( 'DB_COLLATE', '' );"
		for k in AUTH_KEY SECURE_AUTH_KEY LOGGED_IN_KEY NONCE_KEY AUTH_SALT SECURE_AUTH_SALT LOGGED_IN_SALT NONCE_SALT; do
			echo "define( '$k', '$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')' );"
		done
		[ -n "$4" ] && echo "define( 'WP_CACHE_KEY_SALT', '$4' );"
		echo "\$table_prefix = 'wp_';"
		# a network's blogs each have their own home and siteurl options
		[ -z "${5:-}" ] && echo "define( 'WP_HOME', '$3' );" && echo "define( 'WP_SITEURL', '$3' );"
		echo "define( 'WP_CONTENT_DIR', __DIR__ . '/wp-content' );"
		echo "define( 'WP_CONTENT_URL', '$3/wp-content' );"
		echo "define( 'WP_DEFAULT_THEME', '$THEME' );"
		echo "define( 'DISABLE_WP_CRON', true );"
		echo "define( 'AUTOMATIC_UPDATER_DISABLED', true );"
		# no request leaves the machine (wp-admin checks for updates, Site Health for the PHP version...)
		echo "define( 'WP_HTTP_BLOCK_EXTERNAL', true );"
		echo "define( 'WP_DEBUG', true );"
		echo "define( 'WP_DEBUG_DISPLAY', false );"
		echo "define( 'WP_DEBUG_LOG', false );"
		echo "define( 'TABLE_TEST_TOKEN', '$TOKEN' );"
		echo "define( 'TABLE_TEST_DIR', '$DIR' );"
		echo "if ( file_exists( __DIR__ . '/multisite.php' ) ) { require __DIR__ . '/multisite.php'; }"
		echo "if ( ! defined( 'ABSPATH' ) ) { define( 'ABSPATH', __DIR__ . '/' ); }"
		echo "require_once ABSPATH . 'wp-settings.php';"
	} >"$d/wp-config.php"
}
make_site 1 wp_one "$URL1" "table-test-one"
make_site 2 wp_two "$URL2" ""
make_site 3 wp_net "$URL3" "table-test-net" network
make_site 4 wp_tier "$URL4" "table-test-tier"

# --- 1. install, without the table ----------------------------------------------------------------------
php_without_installed_table "$PHP_BIN"
for n in 1 2 3 4; do
	out=$(HTTP_HOST=127.0.0.1 "$PHP_BIN" -d display_errors=stderr "$HERE/site/install.php" "$DIR/site$n" "Table test $n" 2>"$DIR/install$n.err") || true
	echo "$out" >"$DIR/install$n.json"
	if [ "$(json user_id <<<"$out")" = 1 ] && [ "$(json password <<<"$out")" != null ]; then
		ok "site $n: WordPress installed from the CLI (wp_install) with the drop-in loaded, without the table"
	else
		notok "site $n: WordPress installed" "$out $(tail -n 5 "$DIR/install$n.err" | tr '\n' ' ')"
		finish
	fi
	eval "PASS$n=\$(json password <<<\"\$out\")"
done
# site 3 becomes a subdirectory network with a second blog, /two/
NETOUT=$("$PHP_BIN" -d display_errors=stderr "$HERE/site/network.php" "$DIR/site3" "$NET" 2>"$DIR/network.err") || true
if [ "$(json ok <<<"$NETOUT")" = true ]; then
	cat >"$DIR/site3/multisite.php" <<-EOF
	<?php
	define( 'MULTISITE', true );
	define( 'SUBDOMAIN_INSTALL', false );
	define( 'DOMAIN_CURRENT_SITE', '$NET' );
	define( 'PATH_CURRENT_SITE', '/' );
	define( 'SITE_ID_CURRENT_SITE', 1 );
	define( 'BLOG_ID_CURRENT_SITE', 1 );
	EOF
	NETOUT=$("$PHP_BIN" -d display_errors=stderr "$HERE/site/network.php" "$DIR/site3" "$NET" blog /two/ "Blog two" 2>>"$DIR/network.err") || true
fi
check '[ "$(json blog_id <<<"$NETOUT")" = 2 ]' "site 3: made a subdirectory network (populate_network) with a second blog, /two/" \
	"$NETOUT $(tail -n 5 "$DIR/network.err" | tr '\n' ' ')"
OUT1=$(cat "$DIR/install1.json")
check '[ "$(json dropin <<<"$OUT1")" = true ] && [ "$(json persistent <<<"$OUT1")" = false ] && [ "$(json ext <<<"$OUT1")" = false ]' \
	"without the table the drop-in falls back, and wp_using_ext_object_cache() is false (transients go to the database)" "$OUT1"

# --- php-fpm and nginx ------------------------------------------------------------------------------------
# The PHP's usual extensions (its php-fpm scan dir) but not an installed table.ini; TABLE_SO from our php.ini.
mkdir -p "$DIR/tmp"
fpm_conf_d "$DIR"
# The Redis tier, when this table.so has it: a redis-server of our own (a Unix socket, no persistence), and
# site 4's namespace tiered in both php-fpm masters; the other sites' namespaces stay local.
TIER=0 TIER_INI=""
if [ "$("$PHP_BIN" -n -d extension="$SO" -r 'echo array_key_exists("redis", Shm\Table::stats()) ? 1 : 0;' 2>/dev/null)" = 1 ] &&
	command -v redis-server >/dev/null 2>&1; then
	redis-server --port 0 --unixsocket "$DIR/redis.sock" --unixsocketperm 700 --save '' --appendonly no --dir "$DIR" \
		>"$DIR/redis.log" 2>&1 &
	REDIS_PID=$!
	if wait_for 60 '[ -S "$DIR/redis.sock" ]'; then
		TIER=1
		TIER_INI="table.redis=\"unix://$DIR/redis.sock\"
table.redis_namespaces=wp:table-test-tier"
	else
		notok "redis-server starts" "$(tail -n 3 "$DIR/redis.log" | tr '\n' ' ')"
	fi
fi
cat >"$DIR/php.ini" <<EOF
extension=$SO
$TIER_INI
table.memory=64M
memory_limit=256M
display_errors=0
log_errors=1
error_log=$DIR/php-error.log
error_reporting=E_ALL
max_execution_time=150
EOF
fpm_conf "$DIR" "$FPM_PORT" 3
server() { nginx_server "$1" "$2" "${3:-$FPM_PORT}"; }   # PORT DOCROOT [FPM_PORT]
cat >"$DIR/nginx.conf" <<EOF
$([ $ROOT_USER = 1 ] && echo 'user root root;')
worker_processes 1;
pid $DIR/nginx.pid;
error_log $DIR/nginx-error.log warn;
events { worker_connections 256; }
http {
    access_log off;
    client_body_temp_path $DIR/tmp/body;
    fastcgi_temp_path $DIR/tmp/fastcgi;
    proxy_temp_path $DIR/tmp/proxy;
    uwsgi_temp_path $DIR/tmp/uwsgi;
    scgi_temp_path $DIR/tmp/scgi;
$(server "$PORT1" "$DIR/site1")
$(server "$PORT2" "$DIR/site2")
$(server "$PORT3" "$DIR/site3")
$(server "$PORT4" "$DIR/site4")
$(server "$PORT5" "$DIR/site4" "$FPM2_PORT")
$(server "$PORT6" "$DIR/site1" "$FPM3_PORT")
$(server "$PORT7" "$DIR/site2" "$FPM3_PORT")
}
EOF
FPM_ARGS=(-F -y "$DIR/fpm.conf" -c "$DIR/php.ini")
[ $ROOT_USER = 1 ] && FPM_ARGS+=(-R)
PHP_INI_SCAN_DIR="$DIR/conf.d" "$FPM_BIN" "${FPM_ARGS[@]}" >"$DIR/fpm-stdout.log" 2>&1 &
FPM_PID=$!
# host B: a second master, hence a second table, serving site 4 only
sed -e "s|$DIR/fpm.pid|$DIR/fpm2.pid|; s|$DIR/fpm-error.log|$DIR/fpm2-error.log|; s|127.0.0.1:$FPM_PORT|127.0.0.1:$FPM2_PORT|" \
	"$DIR/fpm.conf" >"$DIR/fpm2.conf"
FPM_ARGS[2]=$DIR/fpm2.conf
PHP_INI_SCAN_DIR="$DIR/conf.d" "$FPM_BIN" "${FPM_ARGS[@]}" >"$DIR/fpm2-stdout.log" 2>&1 &
FPM2_PID=$!
# master 3: sites 1 and 2 again, on a named segment (SEG_INI), which CLI processes of the sites name too
SEG_INI=(-d table.segment=wordpress -d "table.segment_dir=$DIR/segments" -d table.memory=16M)
mkdir -p "$DIR/segments"
sed -e "s|$DIR/fpm.pid|$DIR/fpm3.pid|; s|$DIR/fpm-error.log|$DIR/fpm3-error.log|; s|127.0.0.1:$FPM_PORT|127.0.0.1:$FPM3_PORT|; s|max_children = 3|max_children = 2|" \
	"$DIR/fpm.conf" >"$DIR/fpm3.conf"
FPM_ARGS[2]=$DIR/fpm3.conf
PHP_INI_SCAN_DIR="$DIR/conf.d" "$FPM_BIN" "${FPM_ARGS[@]}" "${SEG_INI[@]}" >"$DIR/fpm3-stdout.log" 2>&1 &
FPM3_PID=$!
"$NGINX_BIN" -p "$DIR" -c "$DIR/nginx.conf" -e "$DIR/nginx-error.log" -g 'daemon off;' >"$DIR/nginx-stdout.log" 2>&1 &
NGINX_PID=$!

# fetch URL [CURL ARGS...]: the body on stdout; the status in $DIR/status, headers in $DIR/headers
fetch() {
	local url=$1; shift
	curl -s -m 150 -D "$DIR/headers" -o "$DIR/body" -w '%{http_code}' --connect-to "$NET:80:127.0.0.1:$PORT3" "$@" "$url" \
		>"$DIR/status" || echo 000 >"$DIR/status"
	cat "$DIR/body"
}
status() { cat "$DIR/status"; }
served_by() { sed -n 's/^X-Table-Pid: \([0-9]*\).*/\1/ip' "$DIR/headers" | tail -n 1; }
api() { fetch "$1/?table-test=$2&token=$TOKEN${3:+&$3}"; }   # api URL OP [QUERY]
comment() { { grep -o "<!-- table-test [^>]*-->" <<<"$1" || true; } | sed -n "s/.* $2=\([0-9]*\).*/\1/p"; }   # comment BODY FIELD

if ! wait_for 60 'curl -s -o /dev/null -m 5 -w "%{http_code}" "$URL1/?table-test=info&token=$TOKEN" 2>/dev/null | grep -q 200 &&
	curl -s -o /dev/null -m 5 -w "%{http_code}" "$URL5/?table-test=info&token=$TOKEN" 2>/dev/null | grep -q 200 &&
	curl -s -o /dev/null -m 5 -w "%{http_code}" "$URL6/?table-test=info&token=$TOKEN" 2>/dev/null | grep -q 200'; then
	notok "php-fpm and nginx serve the site" "$(tail -n 5 "$DIR"/fpm*-error.log "$DIR/nginx-error.log" "$DIR/php-error.log" 2>/dev/null | tr '\n' ' ')"
	finish
fi

# --- 2. pages render with the drop-in active --------------------------------------------------------------
HOME1=$(fetch "$URL1/")
check '[ "$(status)" = 200 ] && grep -q "<title>Table test 1" <<<"$HOME1" && [ "$(comment "$HOME1" ext)" = 1 ]' \
	"site 1: the home page renders under php-fpm, with wp_using_ext_object_cache() true" "status $(status), $(grep -o '<title>[^<]*' <<<"$HOME1") $(grep -o '<!-- table-test.*' <<<"$HOME1")"
POST1=$(fetch "$URL1/?p=1")
check '[ "$(status)" = 200 ] && grep -q "Hello world!" <<<"$POST1" && grep -q "Welcome to WordPress" <<<"$POST1"' \
	"site 1: post 1 renders" "status $(status)"
INFO1=$(api "$URL1" info)
INFO2=$(api "$URL2" info)
check '[ "$(json ext <<<"$INFO1")" = true ] && [ "$(json persistent <<<"$INFO1")" = true ] && [ "$(json namespace <<<"$INFO1")" = "wp:table-test-one" ]' \
	"site 1: the drop-in uses the table, namespace wp:<WP_CACHE_KEY_SALT>" "$INFO1"
check '[ "$(json ext <<<"$INFO2")" = true ] && [[ "$(json namespace <<<"$INFO2")" == wp:wp_two:wp_:* ]]' \
	"site 2 (no salt): namespace derived from DB_NAME and the table prefix" "$(json namespace <<<"$INFO2")"
check '[ "$(json supports <<<"$INFO1")" = "{\"add_multiple\":true,\"set_multiple\":true,\"get_multiple\":true,\"delete_multiple\":true,\"flush_runtime\":true,\"flush_group\":true}" ]' \
	"wp_cache_supports() is true for add/set/get/delete_multiple, flush_runtime, flush_group" "$(json supports <<<"$INFO1")"
check '[ "$(json health <<<"$INFO1")" = good ]' "Site Health's persistent object cache test passes" "$(json health <<<"$INFO1")"
check 'grep -q "Shm\\\\Table, namespace wp:table-test-one, [0-9,]* entries" <<<"$(json stats <<<"$INFO1")"' \
	"stats() prints the status line" "$(json stats <<<"$INFO1" | head -c 300)"

# --- 3. the cache persists across requests --------------------------------------------------------------
api "$URL1" flush >/dev/null
COLD=$(fetch "$URL1/")
WARM=$(fetch "$URL1/")
QC=$(comment "$COLD" queries) QW=$(comment "$WARM" queries) HW=$(comment "$WARM" hits)
check '[ -n "$QC" ] && [ -n "$QW" ] && [ "$QW" -lt "$QC" ] && [ "$HW" -gt 0 ]' \
	"site 1: the home page after wp_cache_flush() runs $QC database queries, the next one $QW ($HW cache hits)" "cold $QC, warm $QW, hits $HW"

# --- 4. logged-in edits, seen by another worker -----------------------------------------------------------
# hold_worker PID: keep php-fpm worker PID busy (a hold request it serves, waiting for $DIR/release), so that
# the next request is another worker's: hold requests go out until one lands on it. Status 1 if none did.
hold_worker() {
	rm -f "$DIR/held" "$DIR/release"
	for _ in $(seq 1 200); do
		curl -s -m 150 -o /dev/null "$URL1/?table-test=hold&token=$TOKEN&pid=$1" &
		HOLD_PID=$!
		if wait_for 60 '[ -f "$DIR/held" ] || ! kill -0 $HOLD_PID 2>/dev/null'; then
			[ -f "$DIR/held" ] && return 0
		fi
		wait "$HOLD_PID" 2>/dev/null || true
		HOLD_PID=""
	done
	return 1
}
release_worker() {
	touch "$DIR/release"
	[ -n "$HOLD_PID" ] && { wait "$HOLD_PID" 2>/dev/null || true; HOLD_PID=""; }
	return 0
}
# seen_elsewhere EDITOR TITLE HOW: with worker EDITOR held, the next request reads post 1 (and its page).
# (check's test is eval'ed inside check: it names globals, not this function's $1, $2.)
seen_elsewhere() {
	S_EDITOR=$1 S_TITLE=$2
	if hold_worker "$S_EDITOR"; then
		READ=$(api "$URL1" read id=1)
		READER=$(json pid <<<"$READ")
		check '[ -n "$READER" ] && [ "$READER" != "$S_EDITOR" ] && [ "$(json title <<<"$READ")" = "$S_TITLE" ]' \
			"$3: the next request, served by worker $READER while $S_EDITOR is busy, reads the new title (found in the cache: $(json found <<<"$READ"))" "$READ"
		PAGE=$(fetch "$URL1/?p=1")
		check '[ "$(status)" = 200 ] && grep -qF "$S_TITLE" <<<"$PAGE" && [ "$(served_by)" != "$S_EDITOR" ]' "$3: post 1's page shows the new title (worker $(served_by))"
	else
		notok "$3: hold the editing worker $S_EDITOR busy (no hold request reached it)"
	fi
	release_worker
}
# cached TITLE: post 1 is in the cache before an edit (a stale copy would show the old title after it)
cached() {
	S_TITLE=$1
	api "$URL1" read id=1 >/dev/null
	READ=$(api "$URL1" read id=1)
	check '[ "$(json found <<<"$READ")" = true ] && [ "$(json title <<<"$READ")" = "$S_TITLE" ]' "post 1 is in the cache before the edit, titled \"$S_TITLE\"" "$READ"
}

# As a person does it: log in through wp-login.php (curl keeps the cookies), open the post in the editor
# (the classic editor's form: the test plugin turns the block editor off), change the title and click Update.
JAR=$DIR/cookies.txt
fetch "$URL1/wp-login.php" -c "$JAR" >/dev/null   # WordPress's test cookie
fetch "$URL1/wp-login.php" -b "$JAR" -c "$JAR" --data-urlencode log=admin --data-urlencode "pwd=$PASS1" \
	--data-urlencode "wp-submit=Log In" --data-urlencode "redirect_to=$URL1/wp-admin/" --data-urlencode testcookie=1 >/dev/null
check '[ "$(status)" = 302 ] && grep -qi "^Location: $URL1/wp-admin/" "$DIR/headers" && grep -q wordpress_logged_in_ "$JAR"' \
	"site 1: logged in as admin through wp-login.php (a cookie jar)" "status $(status), $(grep -i '^Location' "$DIR/headers")"
cached "Hello world!"
EDITPAGE=$(fetch "$URL1/wp-admin/post.php?post=1&action=edit" -b "$JAR" -c "$JAR")
check '[ "$(status)" = 200 ] && grep -q "<form name=\"post\" action=\"post.php\" method=\"post\" id=\"post\"" <<<"$EDITPAGE" && grep -q "name=\"_wpnonce\"" <<<"$EDITPAGE"' \
	"site 1: wp-admin/post.php?post=1&action=edit shows the edit form, with its nonce" "status $(status), $(grep -o '<title>[^<]*' <<<"$EDITPAGE")"
TITLE="Edited in wp-admin $(date +%s%N)"
if "$PHP_BIN" -n "$HERE/form.php" post --click=publish "post_title=$TITLE" <<<"$EDITPAGE" >"$DIR/edit-form.txt" 2>"$DIR/edit-form.err"; then
	fetch "$URL1/wp-admin/post.php" -b "$JAR" -c "$JAR" --data-binary "@$DIR/edit-form.txt" >/dev/null
	EDITOR=$(served_by)
	check '[ "$(status)" = 302 ] && grep -qi "^Location: .*post.php?post=1&action=edit&message=1" "$DIR/headers" && [ -n "$EDITOR" ]' \
		"site 1: the edit form submitted (action=editpost), WordPress answers \"Post updated\" (worker $EDITOR)" "status $(status), $(grep -i '^Location' "$DIR/headers")"
	seen_elsewhere "$EDITOR" "$TITLE" "wp-admin edit"
else
	notok "site 1: the edit form found on the page" "$(cat "$DIR/edit-form.err")"
fi

# As the block editor saves: the REST API, with the login cookies and the nonce it gets from admin-ajax.php
OLD=$TITLE
cached "$OLD"
NONCE=$(fetch "$URL1/wp-admin/admin-ajax.php?action=rest-nonce" -b "$JAR")
TITLE="Edited through the REST API $(date +%s%N)"
EDIT=$(fetch "$URL1/?rest_route=/wp/v2/posts/1" -b "$JAR" -H "X-WP-Nonce: $NONCE" -X POST --data-urlencode "title=$TITLE")
EDITOR=$(served_by)
check '[ "$(status)" = 200 ] && [ "$(json title raw <<<"$EDIT")" = "$TITLE" ] && [ -n "$EDITOR" ]' \
	"site 1: post 1 edited through the REST API with the login cookie and X-WP-Nonce, as the block editor saves (worker $EDITOR)" "status $(status), nonce '$NONCE': $(head -c 300 <<<"$EDIT")"
seen_elsewhere "$EDITOR" "$TITLE" "REST API edit"

# --- 5. two installs on one table stay apart ------------------------------------------------------------
check '[ "$(json namespace <<<"$INFO1")" != "$(json namespace <<<"$INFO2")" ]' "the two sites have namespaces of their own"
READ2=$(api "$URL2" read id=1)
check '[ "$(json title <<<"$READ2")" = "Hello world!" ]' "site 2's post 1 keeps its title after site 1's edit" "$READ2"
S1=$(api "$URL1" set "key=shared-name&value=one")
S2=$(api "$URL2" set "key=shared-name&value=two")
G1=$(api "$URL1" get key=shared-name)
G2=$(api "$URL2" get key=shared-name)
check '[ "$(json ok <<<"$S1")" = true ] && [ "$(json ok <<<"$S2")" = true ] && [ "$(json value <<<"$G1")" = one ] && [ "$(json value <<<"$G2")" = two ]' \
	"one key set in both sites reads back each site's own value" "$G1 $G2"
api "$URL1" flush >/dev/null
G1=$(api "$URL1" get key=shared-name)
G2=$(api "$URL2" get key=shared-name)
check '[ "$(json found <<<"$G1")" = false ] && [ "$(json value <<<"$G2")" = two ]' \
	"wp_cache_flush() of site 1 empties site 1 only" "$G1 $G2"
HOME2=$(fetch "$URL2/")
check '[ "$(status)" = 200 ] && grep -q "<title>Table test 2" <<<"$HOME2"' "site 2: the home page renders" "status $(status)"

# --- 5b. two installs on one named segment: php-fpm master 3 and CLI processes --------------------------
# cli SITE QUERY: the test plugin's operation in a CLI process of site SITE (site/cli.php), as WP-CLI runs
cli() { PHP_INI_SCAN_DIR="$DIR/conf.d" "$PHP_BIN" -c "$DIR/php.ini" "${SEG_INI[@]}" "$HERE/site/cli.php" "$DIR/site$1" "table-test=$2&token=$TOKEN${3:+&$3}" 2>>"$DIR/cli.err"; }
C1=$(cli 1 set "key=seg&value=cli-one")
G6=$(api "$URL6" get key=seg)
G1=$(api "$URL1" get key=seg)
check '[ "$(json ok <<<"$C1")" = true ] && [ "$(json value <<<"$G6")" = cli-one ] && [ "$(json found <<<"$G1")" = false ]' \
	"named segment: a key set by a CLI process of site 1 is read through php-fpm master 3 (same segment), not master 1 (its own table)" "$C1 $G6 $G1"
S7=$(api "$URL7" set "key=seg&value=fpm-two")
C2=$(cli 2 get key=seg)
G6=$(api "$URL6" get key=seg)
check '[ "$(json ok <<<"$S7")" = true ] && [ "$(json value <<<"$C2")" = fpm-two ] && [ "$(json value <<<"$G6")" = cli-one ]' \
	"named segment: the two installs on it read back each its own value of one key" "$S7 $C2 $G6"
F2=$(cli 2 flush)
G7=$(api "$URL7" get key=seg)
G6=$(api "$URL6" get key=seg)
check '[ "$(json ok <<<"$F2")" = true ] && [ "$(json found <<<"$G7")" = false ] && [ "$(json value <<<"$G6")" = cli-one ]' \
	"named segment: wp_cache_flush() in a CLI process of site 2 (as \`wp cache flush\`) empties site 2 for php-fpm, and not site 1" "$F2 $G7 $G6"

# --- 6. a subdirectory network: global and per-blog groups ---------------------------------------------
HOME3=$(fetch "$URL3/")
check '[ "$(status)" = 200 ] && grep -q "<title>Table test 3" <<<"$HOME3" && [ "$(comment "$HOME3" ext)" = 1 ]' \
	"network: the main blog's home page renders with the drop-in" "status $(status) $(grep -o '<title>[^<]*' <<<"$HOME3")"
HOME3B=$(fetch "$URL3B/")
check '[ "$(status)" = 200 ] && grep -q "<title>Blog two" <<<"$HOME3B" && [ "$(comment "$HOME3B" ext)" = 1 ]' \
	"network: blog two's home page renders with the drop-in" "status $(status) $(grep -o '<title>[^<]*' <<<"$HOME3B")"
INFO3=$(api "$URL3" info)
INFO3B=$(api "$URL3B" info)
check '[ "$(json blog <<<"$INFO3")" = 1 ] && [ "$(json blog <<<"$INFO3B")" = 2 ] && [ "$(json namespace <<<"$INFO3")" = "wp:table-test-net" ] && [ "$(json namespace <<<"$INFO3B")" = "wp:table-test-net" ]' \
	"network: both blogs use the network's one namespace" "$INFO3 $INFO3B"
# post 1 of each blog: the same ID in the same group, apart because the blog is part of the key
U=$(api "$URL3B" update "id=1&title=Blog+two+edited")
R1=$(api "$URL3" read id=1)   # loads it into the cache, if it was not
R1=$(api "$URL3" read id=1)
R2=$(api "$URL3B" read id=1)
check '[ "$(json ok <<<"$U")" = true ] && [ "$(json title <<<"$R1")" = "Hello world!" ] && [ "$(json found <<<"$R1")" = true ] && [ "$(json title <<<"$R2")" = "Blog two edited" ]' \
	"network: post 1 of blog two edited; blog one's post 1, cached, keeps its title" "$U $R1 $R2"
SW=$(api "$URL3" read "id=1&blog=2")
check '[ "$(json title <<<"$SW")" = "Blog two edited" ] && [ "$(json blog <<<"$SW")" = 2 ]' \
	"network: switch_to_blog(2) in a request of blog one reads blog two's post 1" "$SW"
api "$URL3" set "key=k&value=global-one&group=table-test-global" >/dev/null
api "$URL3" set "key=k&value=blog-one" >/dev/null
GG=$(api "$URL3B" get "key=k&group=table-test-global")
GB=$(api "$URL3B" get key=k)
check '[ "$(json value <<<"$GG")" = global-one ] && [ "$(json found <<<"$GB")" = false ]' \
	"network: a global group's key set on blog one is read on blog two; a per-blog group's is not" "$GG $GB"
api "$URL3B" set "key=k&value=blog-two" >/dev/null
FG=$(api "$URL3B" flush_group)
G1=$(api "$URL3" get key=k)
G2=$(api "$URL3B" get key=k)
GG=$(api "$URL3" get "key=k&group=table-test-global")
check '[ "$(json ok <<<"$FG")" = true ] && [ "$(json found <<<"$G1")" = false ] && [ "$(json found <<<"$G2")" = false ] && [ "$(json value <<<"$GG")" = global-one ]' \
	"network: wp_cache_flush_group() of a per-blog group on blog two empties it for every blog, and leaves other groups" "$FG $G1 $G2 $GG"
# a large network: thousands of blogs in the site's one namespace, and one flush_group() for all of them
NB=3000
MB=$(api "$URL3" blogs "n=$NB")
MR=$(api "$URL3B" blogs "n=$NB&read=1")
check '[ "$(json count <<<"$MB")" = $NB ] && [ "$(json namespaces_added <<<"$MB")" = 0 ] && [ "$(json count <<<"$MR")" = $NB ]' \
	"network: a per-blog key set in each of $NB blogs (wp_cache_switch_to_blog) adds no table namespace; the next request reads each blog's own" "$MB $MR"
api "$URL3" flush_group >/dev/null
MR=$(api "$URL3B" blogs "n=$NB&read=1")
check '[ "$(json count <<<"$MR")" = 0 ]' "network: one wp_cache_flush_group() empties that group in all $NB blogs" "$MR"
api "$URL1" set "key=shared-name&value=one-again" >/dev/null
api "$URL3" flush >/dev/null
G1=$(api "$URL1" get key=shared-name)
GG=$(api "$URL3B" get "key=k&group=table-test-global")
check '[ "$(json value <<<"$G1")" = one-again ] && [ "$(json found <<<"$GG")" = false ]' \
	"network: wp_cache_flush() empties the whole network (blog two's view too) and not site 1" "$G1 $GG"

# --- 7. the Redis tier: two hosts (two php-fpm masters, two tables), one WordPress ---------------------
if [ $TIER = 1 ]; then
	ORACLE=$("$PHP_BIN" -n -d extension="$SO" -d "table.redis=unix://$DIR/redis.sock" -d 'table.redis_namespaces=*' \
		"$HERE/oracle.php" --wordpress="$WP" --sequences="$(( ${ORACLE_SEQUENCES:-600} / 4 ))" 2>&1) || true
	check 'grep -q "^oracle: [1-9][0-9]* passed, 0 failed$" <<<"$ORACLE"' \
		"tier: the oracle with every namespace tiered to Redis: $(tail -n 1 <<<"$ORACLE" | sed 's/^oracle: //')" "$(head -n 20 <<<"$ORACLE")"
	INFOA=$(api "$URL4" info)
	INFOB=$(api "$URL5" info)
	for h in "$(json helper_pid <<<"$INFOA")" "$(json helper_pid <<<"$INFOB")"; do
		[[ "$h" =~ ^[1-9][0-9]*$ ]] && HELPER_PIDS="$HELPER_PIDS $h"
	done
	check '[ "$(json namespace <<<"$INFOA")" = wp:table-test-tier ] && grep -q "tiered to Redis" <<<"$(json stats <<<"$INFOA")" && [ "$(json namespace <<<"$INFO1")" = wp:table-test-one ] && ! grep -q "tiered" <<<"$(json stats <<<"$INFO1")"' \
		"tier: site 4's namespace is tiered (stats() says so), site 1's is not" "$(json stats <<<"$INFOA" | head -c 200)"
	for url in "$URL4" "$URL4" "$URL5" "$URL5"; do RB=$(api "$url" read id=1); done
	check '[ "$(json found <<<"$RB")" = true ] && [ "$(json title <<<"$RB")" = "Hello world!" ]' "tier: post 1 is in host B's cache" "$RB"
	U=$(api "$URL4" update "id=1&title=Edited+on+host+A")
	# host B's copy is dropped when Redis's invalidation reaches its helper: wait for that event
	if wait_for 60 'RB=$(api "$URL5" read id=1); [ "$(json title <<<"$RB")" = "Edited on host A" ]'; then
		ok "tier: post 1 edited on host A is read on host B"
	else
		notok "tier: post 1 edited on host A is read on host B" "$U $RB"
	fi
	api "$URL4" set "key=k&value=from-a" >/dev/null
	GB=$(api "$URL5" get key=k)
	FB=$(api "$URL5" flush)
	wait_for 60 'GA=$(api "$URL4" get key=k); [ "$(json found <<<"$GA")" = false ]' || true
	G1=$(api "$URL1" get key=shared-name)
	check '[ "$(json value <<<"$GB")" = from-a ] && [ "$(json found <<<"$GA")" = false ] && [ "$(json value <<<"$G1")" = one-again ]' \
		"tier: a key set on host A is read on host B; wp_cache_flush() on host B empties the site on host A, not site 1" "$GB $FB $GA $G1"
else
	skip "the Redis tier (this table.so is built without it, or no redis-server)"
fi

# --- 8. logs ------------------------------------------------------------------------------------------------
api "$URL1" log line=end-of-run >/dev/null
check 'grep -q "table-test: end-of-run" "$DIR/php-error.log" 2>/dev/null' "PHP's error log is written where it is checked"
BADLOG=$(grep -hE 'object-cache\.php|Shm\\Table|Fatal error|Uncaught' "$DIR/php-error.log" "$DIR/install1.err" "$DIR/install2.err" "$DIR/cli.err" 2>/dev/null | head -n 5 || true)
check '[ -z "$BADLOG" ]' "PHP's error log has nothing from the drop-in and no fatal error" "$BADLOG"
finish
