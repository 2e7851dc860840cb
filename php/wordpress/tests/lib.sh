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
