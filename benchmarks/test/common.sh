# Sourced by the benchmark test scripts: PHP options, a local redis-server, and pass/fail counting.
#
# The PHP options are the script's arguments or, by default, APCu enabled for the CLI plus
# modules/table.so where it has been built. A redis-server is started on 127.0.0.1:6379 only when
# none answers there and one is installed; the script stops the one it started, by its pid, on exit.

bench_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
repo_dir=$(dirname "$bench_dir")
work_dir=$(mktemp -d /tmp/bench-test.XXXXXX)
redis_pidfile=""
passed=0
failed=0

php_options=("$@")
if [ ${#php_options[@]} -eq 0 ]; then
  php_options=(-d apc.enable_cli=1)
  if [ -f "$repo_dir/modules/table.so" ]; then
    php_options+=(-d "extension=$repo_dir/modules/table.so")
  fi
fi

bench_cleanup() {
  if [ -n "$redis_pidfile" ] && [ -f "$redis_pidfile" ]; then
    kill "$(cat "$redis_pidfile")" 2>/dev/null
  fi
  rm -rf "$work_dir"
}
trap bench_cleanup EXIT

start_redis() {
  if redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
    return
  fi
  if ! command -v redis-server >/dev/null; then
    echo "note: no redis-server installed; the Redis subject is skipped"
    return
  fi
  redis_pidfile="$work_dir/redis.pid"
  redis-server --port 6379 --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
    --pidfile "$redis_pidfile" --logfile "$work_dir/redis.log"
  for _ in $(seq 50); do
    redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && return
    sleep 0.1
  done
  echo "note: the redis-server started did not answer; the Redis subject is skipped"
}

# table_so_option: prints the table.so named by an extension= among the PHP options (nothing if none).
table_so_option() {
  local opt
  for opt in "${php_options[@]}"; do
    case $opt in extension=*table*.so) echo "${opt#extension=}" ;; esac
  done
}

# check DESCRIPTION COMMAND...: runs COMMAND and counts it passed when it exits 0.
check() {
  local description=$1
  shift
  if "$@"; then
    passed=$((passed + 1))
    echo "ok - $description"
  else
    failed=$((failed + 1))
    echo "not ok - $description"
  fi
}

# expect_exit STATUS COMMAND...: runs COMMAND, output to $work_dir/out, and succeeds when it exits with STATUS.
expect_exit() {
  local expected=$1
  shift
  "$@" >"$work_dir/out" 2>&1
  local status=$?
  if [ "$status" -ne "$expected" ]; then
    echo "  exit status $status, expected $expected; output:"
    sed 's/^/  | /' "$work_dir/out" | tail -n 20
    return 1
  fi
}

# summary NAME: the closing line, and the exit status.
summary() {
  echo "$1: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
