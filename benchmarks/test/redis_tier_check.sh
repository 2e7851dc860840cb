#!/usr/bin/env bash
# benchmarks/redis_tier/run.sh --quick on the table.so among the PHP options: every case runs, verifies
# what it read, and shows in the tables. No timing is checked. Skips (exit 0) when that build has no
# Redis tier or redis-server is missing, unless REDIS_TESTS_REQUIRED=1; and when phpredis does not load
# into this PHP (a PHP built from source has none), whatever REDIS_TESTS_REQUIRED says: phpredis is only
# the benchmark's yardstick, and tests/15_redis_tier test the tier without it.
# Usage: benchmarks/test/redis_tier_check.sh [PHP options, default see common.sh]
set -u
source "$(dirname "$0")/common.sh"

skip() {
  if [ "${REDIS_TESTS_REQUIRED:-0}" = 1 ] && [[ "$1" != phpredis* ]]; then
    echo "not ok - $1 (REDIS_TESTS_REQUIRED=1)"
    echo "redis_tier_check: 0 passed, 1 failed"
    exit 1
  fi
  echo "note: $1; nothing to check"
  echo "redis_tier_check: 0 passed, 0 failed, 2 skipped"
  exit 0
}

so=$(table_so_option | tail -n 1)
if [ -z "$so" ] || [ ! -f "$so" ]; then
  echo "note: no table.so among the PHP options; nothing to check"
  echo "redis_tier_check: 0 passed, 0 failed, 2 skipped"
  exit 0
fi
# With a table.so that knows cluster:// (one built before the cluster client calls the value "not
# valid"), the cluster rows too (run.sh --cluster). The PHP is run.sh's: php-config's (PHP_CONFIG).
cluster=(--cluster)
php_bin=$("${PHP_CONFIG:-php-config}" --php-binary 2>/dev/null || command -v php)
if "$php_bin" -n -d "extension=$so" -d table.redis=cluster://127.0.0.1:1 -d table.redis_namespaces=tiered \
    -r 'try { Shm\Table::get("k", "tiered"); } catch (Throwable $e) { echo $e->getMessage(); }' 2>&1 | grep -q 'not valid'; then
  cluster=()
fi
NO_INSTALL=1 bash "$bench_dir/redis_tier/run.sh" --quick "${cluster[@]}" --so "$so" >"$work_dir/out" 2>&1
status=$?
if [ $status -eq 3 ]; then
  skip "$(grep -a 'cannot run:' "$work_dir/out" | sed 's/.*cannot run: //' | head -n 1)"
fi
check "run.sh --quick runs every case" bash -c '
  [ "$1" -eq 0 ] || { echo "  exit status $1; output:"; sed "s/^/  | /" "$2" | tail -n 20; exit 1; }' _ "$status" "$work_dir/out"
# report.php lists what it verified case by case, each case's single-server rows before its cluster rows.
verified="a/string 100 B a/small array b/miss, 100 B string c/invalidation latency d/1 writer d/2 writers "
[ ${#cluster[@]} -gt 0 ] && verified="a/string 100 B a/small array a/string 100 B (RedisCluster) a/small array (RedisCluster) b/miss, 100 B string b/miss, 100 B string (RedisCluster) c/invalidation latency d/1 writer d/2 writers "
check "... every case verified its reads, and each has its row" bash -c '
  grep -qF "verified: $2" "$1" &&
  for row in "| string 100 B " "| small array " "| miss, 100 B string " "| from A.s set() returning " "| 1 writer " "| 2 writers "; do
    grep -q "^$row" "$1" || { echo "  no row: $row"; exit 1; }
  done' _ "$work_dir/out" "$verified"
if [ ${#cluster[@]} -gt 0 ]; then
  check "... and against a Redis Cluster: cases a and b have RedisCluster rows" bash -c '
    for row in "| string 100 B +| RedisCluster " "| small array +| RedisCluster " "| miss, 100 B string +| RedisCluster "; do
      grep -Eq "^$row" "$1" || { echo "  no row: $row"; exit 1; }
    done' _ "$work_dir/out"
else
  echo "note: $so does not know cluster:// yet; the cluster rows are not checked"
fi

summary redis_tier_check
