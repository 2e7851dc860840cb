#!/usr/bin/env bash
# Proves that the runner refuses to report numbers from a subject that does not hold the data: a value
# that reads back different after seeding, a miss during timing, and APCu asked for by name when the
# CLI cannot use it. The faults come from FakeTable.php, a userland Shm\Table, so this runs only where
# the table extension is not loaded: PHP options given as arguments (as to the other scripts) are not
# used. Usage: benchmarks/test/verify_check.sh
set -u
source "$(dirname "$0")/common.sh"

run=(php -d apc.enable_cli=1 -d "auto_prepend_file=$bench_dir/test/FakeTable.php" "$bench_dir/run"
  --filter Table --workers 2 --duration 0.2 --runs 1 --warmup 0 InMemoryGet)

if ! php -r 'exit(extension_loaded("apcu") ? 0 : 1);'; then
  # FakeTable.php keeps its data in APCu, and the last two checks are about APCu itself.
  echo "note: APCu is not loaded in this PHP ($(php -r 'echo PHP_VERSION;')); these checks need it"
  echo "verify_check: 0 passed, 0 failed, 7 skipped"
  exit 0
fi
if php -r 'exit(extension_loaded("table") ? 0 : 1);'; then
  echo "note: the table extension is loaded by php.ini; FakeTable.php cannot stand in for it"
else
  check "the fake Table runs clean" expect_exit 0 "${run[@]}"
  check "a value changed at seeding aborts the run" expect_exit 1 env BENCH_FAKE_TABLE_FAULT=corrupt "${run[@]}"
  check "... naming the key" grep -q 'key "bench:meteorite:[0-9]*" differs from what was stored after seeding' "$work_dir/out"
  check "a miss during timing aborts the run" expect_exit 1 env BENCH_FAKE_TABLE_FAULT=miss "${run[@]}"
  check "... counting the misses" grep -q 'operations missed or failed in iteration 1 with 2 worker(s)' "$work_dir/out"
fi
check "APCu named in --filter without apc.enable_cli aborts" \
  expect_exit 1 php -d apc.enable_cli=0 "$bench_dir/run" --filter APCu --duration 0.1 --runs 1 InMemoryGet
check "... saying why" grep -q 'apc.enable_cli=0' "$work_dir/out"

summary verify_check
