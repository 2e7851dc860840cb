#!/usr/bin/env bash
# benchmarks/interleave/run.sh: two builds (here the same table.so twice), two short rounds: one line per
# build with its ratio to the first, the raw results kept on request, and usage errors exit 2.
# Usage: benchmarks/test/interleave_check.sh [PHP options, default see common.sh]
set -u
source "$(dirname "$0")/common.sh"

so=$(table_so_option | tail -n 1)
if [ -z "$so" ] || [ ! -f "$so" ]; then
  echo "note: no table.so among the PHP options; nothing to check"
  echo "interleave_check: 0 passed, 0 failed, 3 skipped"
  exit 0
fi
run="$bench_dir/interleave/run.sh"
raw="$work_dir/raw.txt"
check "two builds, two rounds run" expect_exit 0 bash "$run" --rounds 2 --loops 3 --raw "$raw" a="$so" b="$so"
check "... print one line per build, the first at ratio 1.000" bash -c '
  [ "$(grep -c "ns/get .* vs a: median ratio [0-9.]* (quartiles [0-9.]*, [0-9.]*; 2 rounds)" "$1")" = 2 ] &&
  grep -q "^a .* median ratio 1.000 " "$1"' _ "$work_dir/out"
check "... and keep the result of every process" bash -c '
  [ "$(wc -l < "$1")" = 4 ] && awk "NF != 3 || \$3 <= 0 { exit 1 }" "$1"' _ "$raw"
check "one build is a usage error" expect_exit 2 bash "$run" a="$so"
check "a missing table.so is a usage error" expect_exit 2 bash "$run" a="$so" b=/nonexistent/table.so

summary interleave_check
