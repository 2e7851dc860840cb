#!/usr/bin/env bash
# benchmarks/instructions/key_length.sh: one line per key length with a count of instructions per get()
# (no bound on the count: this checks that it measures, not what it measures), and a missing table.so
# is an error.
# Usage: benchmarks/test/key_length_check.sh [PHP options, default see common.sh]
set -u
source "$(dirname "$0")/common.sh"

so=$(table_so_option | tail -n 1)
if [ -z "$so" ] || [ ! -f "$so" ] || ! command -v valgrind >/dev/null; then
  echo "note: no table.so among the PHP options, or no valgrind; nothing to check"
  echo "key_length_check: 0 passed, 0 failed, 3 skipped"
  exit 0
fi
run="$bench_dir/instructions/key_length.sh"
check "two key lengths, one on each side of 128 bytes, measured" expect_exit 0 bash "$run" --so "$so" 100 200
check "... one line each, a positive count" bash -c '
  [ "$(grep -cE "^(100|200) +[1-9][0-9]*$" "$1")" = 2 ]' _ "$work_dir/out"
check "a missing table.so is an error" expect_exit 1 bash "$run" --so /nonexistent/table.so 16

summary key_length_check
