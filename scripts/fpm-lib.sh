# scripts/fpm-lib.sh - what the scripts that run their own php-fpm behind nginx share (stress/fpm/run.sh,
# benchmarks/fpm/run.sh): the pass/fail bookkeeping, finding the binaries, and the process plumbing.
# Source it first, with FPM_LIB_NAME set to the name the summary line starts with. The script sets DIR
# (its temporary directory) before it starts anything, FPM_PID and NGINX_PID once it has, and records
# their workers' pids in "$DIR"/*-children files.

PASS=0
FAIL=0
FPM_PID=""
NGINX_PID=""
ok() { PASS=$((PASS + 1)); echo "  ok    $*"; }
bad() { FAIL=$((FAIL + 1)); echo "  FAIL  $*"; }
check() { if eval "$1"; then ok "$2"; else bad "$2${3:+ ($3)}"; fi; }   # check 'test' 'what' ['detail on failure']
# The summary line, and the exit status: 0 only when something passed and nothing failed.
finish() {
	echo "$FPM_LIB_NAME: $PASS passed, $FAIL failed"
	[ "$FAIL" -eq 0 ] && [ "$PASS" -gt 0 ] && exit 0
	exit 1
}

# FPM_BIN and NGINX_BIN (empty when not installed; /usr/sbin is often not on a user's PATH).
fpm_find_bins() {
	# The php-fpm of the same PHP as the `php` on PATH (Debian names it php-fpmX.Y, in /usr/sbin).
	local v
	v=$(php -r 'echo PHP_MAJOR_VERSION, ".", PHP_MINOR_VERSION;' 2>/dev/null || true)
	FPM_BIN=$(command -v "php-fpm$v" || true)
	[ -z "$FPM_BIN" ] && [ -x "/usr/sbin/php-fpm$v" ] && FPM_BIN="/usr/sbin/php-fpm$v"
	[ -z "$FPM_BIN" ] && FPM_BIN=$(command -v php-fpm || true)
	NGINX_BIN=$(command -v nginx || true)
	[ -z "$NGINX_BIN" ] && [ -x /usr/sbin/nginx ] && NGINX_BIN=/usr/sbin/nginx
}

# Stop only the processes this script started, by pid: gracefully, then for good after 5 s.
fpm_stop_all() {
	[ -n "$NGINX_PID" ] && kill -QUIT "$NGINX_PID" 2>/dev/null
	[ -n "$FPM_PID" ] && kill -QUIT "$FPM_PID" 2>/dev/null
	for _ in $(seq 1 50); do
		{ [ -z "$NGINX_PID" ] || ! kill -0 "$NGINX_PID" 2>/dev/null; } &&
			{ [ -z "$FPM_PID" ] || ! kill -0 "$FPM_PID" 2>/dev/null; } && break
		sleep 0.1
	done
	[ -n "$NGINX_PID" ] && kill -KILL "$NGINX_PID" 2>/dev/null
	[ -n "$FPM_PID" ] && kill -KILL "$FPM_PID" 2>/dev/null
	# FPM's and nginx's own children, should their master have died without them
	for f in "$DIR"/*-children; do
		[ -f "$f" ] && xargs -r kill -KILL <"$f" 2>/dev/null
	done
	wait 2>/dev/null
	NGINX_PID="" FPM_PID=""
}

# The EXIT trap: stop everything; keep the configs and logs when something failed (or KEEP=1), for
# whoever has to look.
fpm_cleanup() {
	fpm_stop_all
	if [ "${KEEP:-0}" = 1 ] || [ "$FAIL" -gt 0 ]; then echo "(configs and logs kept in $DIR)"; else rm -rf "$DIR"; fi
}

# A free TCP port on 127.0.0.1.
fpm_free_port() {
	php -n -r '$s = stream_socket_server("tcp://127.0.0.1:0"); $n = stream_socket_get_name($s, false); echo substr($n, strrpos($n, ":") + 1);'
}

# fpm_wait_for SECONDS 'TEST': poll TEST every 100 ms; status 0 as soon as it holds, 1 at the deadline.
fpm_wait_for() {
	local i
	for i in $(seq 1 $(($1 * 10))); do
		eval "$2" && return 0
		sleep 0.1
	done
	return 1
}
