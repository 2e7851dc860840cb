# php/wordpress/tests/lib.sh - what tests/run.sh and benchmarks/wordpress/run.sh both need to serve
# WordPress: a private MariaDB, and the small helpers around it. Source it after scripts/lib.sh, with
# PHP_BIN set (php_tools); it defines:
#
#   stop PID                  TERM, then KILL after 10 s
#   wait_for SECONDS 'TEST'   TEST every 100 ms until it holds (status 0) or the deadline passes (status 1)
#   json FIELD... <<<"$JSON"  a field (nested by the following names); true/false/null as words
#   mariadb_find              MDB_INSTALL and MDBD: MariaDB's install and server programs (empty: missing)
#   mariadb_start DIR POOL    a MariaDB of its own in DIR/db on the socket DIR/db.sock (SOCK), no network,
#                             InnoDB buffer pool POOL (e.g. 32M); sets DB_PID; status 1 with WP_LIB_ERROR
#                             saying why when it does not come up in 120 s
#   sql ARGS...               the mariadb client on that socket, as root
#   fpm_conf_d DIR            DIR/conf.d: a copy of php-fpm's own scan dir ($FPM_BIN) without an installed
#                             table.ini, so that the php.ini's table.so is the one loaded
#   fpm_conf DIR PORT N       DIR/fpm.conf: a php-fpm master (pid and log in DIR) with one pool, "wordpress",
#                             of N static workers on 127.0.0.1:PORT (as root when run as root)
#   nginx_server PORT DOCROOT FPM_PORT   an nginx server block: WordPress in DOCROOT on 127.0.0.1:PORT,
#                             its PHP through php-fpm on 127.0.0.1:FPM_PORT

stop() {
	[ -n "$1" ] || return 0
	kill -TERM "$1" 2>/dev/null || return 0
	for _ in $(seq 1 100); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
	kill -KILL "$1" 2>/dev/null || true
}

wait_for() {
	for _ in $(seq 1 $(($1 * 10))); do
		eval "$2" && return 0
		sleep 0.1
	done
	return 1
}

json() {
	"$PHP_BIN" -n -r '$v = json_decode(stream_get_contents(STDIN), true); foreach (array_slice($argv, 1) as $k) { $v = is_array($v) ? ($v[$k] ?? null) : null; }
		echo match (true) { $v === null => "null", is_bool($v) => ($v ? "true" : "false"), is_scalar($v) => $v, default => json_encode($v) };' "$@"
}

mariadb_find() {
	MDB_INSTALL=$(command -v mariadb-install-db || command -v mysql_install_db || true)
	MDBD=$(command -v mariadbd || true)
	[ -z "$MDBD" ] && [ -x /usr/sbin/mariadbd ] && MDBD=/usr/sbin/mariadbd
	return 0
}

sql() { mariadb --no-defaults --socket="$SOCK" -uroot "$@"; }

mariadb_start() {
	local user=()
	SOCK=$1/db.sock
	[ "$(id -u)" -eq 0 ] && user=(--user=root)
	if ! "$MDB_INSTALL" --no-defaults --datadir="$1/db" --auth-root-authentication-method=normal --skip-test-db \
		"${user[@]}" >"$1/db-install.log" 2>&1; then
		WP_LIB_ERROR="mariadb-install-db: $(tail -n 5 "$1/db-install.log" | tr '\n' ' ')"
		return 1
	fi
	"$MDBD" --no-defaults --datadir="$1/db" --socket="$SOCK" --skip-networking --pid-file="$1/db.pid" \
		--log-error="$1/db-error.log" --innodb-buffer-pool-size="$2" "${user[@]}" >"$1/db-stdout.log" 2>&1 &
	DB_PID=$!
	if ! wait_for 120 'sql -e "SELECT 1" >/dev/null 2>&1'; then
		WP_LIB_ERROR="MariaDB does not start: $(tail -n 5 "$1/db-error.log" 2>/dev/null | tr '\n' ' ')"
		return 1
	fi
}

fpm_conf() {
	cat >"$1/fpm.conf" <<CONF
[global]
pid = $1/fpm.pid
error_log = $1/fpm-error.log
daemonize = no
[wordpress]
$([ "$(id -u)" -eq 0 ] && printf 'user = root\ngroup = root')
listen = 127.0.0.1:$2
pm = static
pm.max_children = $3
catch_workers_output = yes
clear_env = no
CONF
}

nginx_server() {
	cat <<CONF
    server {
        listen 127.0.0.1:$1;
        root $2;
        index index.php;
        location / { try_files \$uri \$uri/ /index.php?\$args; }
        location ~ \.php\$ {
            # not Debian's fastcgi_params: its HTTP_HOST is \$host, without the port, and WordPress would
            # redirect to WP_HOME's host:port; request headers, Host included, reach PHP as HTTP_* anyway
            fastcgi_param SCRIPT_FILENAME \$document_root\$fastcgi_script_name;
            fastcgi_param SCRIPT_NAME \$fastcgi_script_name;
            fastcgi_param DOCUMENT_ROOT \$document_root;
            fastcgi_param QUERY_STRING \$query_string;
            fastcgi_param REQUEST_METHOD \$request_method;
            fastcgi_param CONTENT_TYPE \$content_type;
            fastcgi_param CONTENT_LENGTH \$content_length;
            fastcgi_param REQUEST_URI \$request_uri;
            fastcgi_param SERVER_PROTOCOL \$server_protocol;
            fastcgi_param SERVER_NAME 127.0.0.1;
            fastcgi_param SERVER_PORT \$server_port;
            fastcgi_param REMOTE_ADDR \$remote_addr;
            fastcgi_pass 127.0.0.1:$3;
        }
    }
CONF
}

fpm_conf_d() {
	local scan f
	scan=$(env -u PHP_INI_SCAN_DIR "$FPM_BIN" -i 2>/dev/null | sed -n 's/^Scan this dir for additional .ini files => //p')
	mkdir -p "$1/conf.d"
	[ -n "$scan" ] && [ "$scan" != "(none)" ] || return 0
	for f in "$scan"/*.ini; do
		[ -f "$f" ] && ! grep -qE '^[[:space:]]*extension[[:space:]]*=[[:space:]]*"?([^"]*/)?table(\.so)?"?' "$f" && cp "$f" "$1/conf.d/"
	done
	return 0
}
