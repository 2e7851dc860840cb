#!/usr/bin/env bash
# Runs every case under zend.signal_check=1 with 1, 2, 4 and 12 workers, and fails when any process
# prints a zend_signal warning, the runner fails, or a process of the run outlives it. Each run gets a
# session of its own (setsid), so that everything it forks, down to the workers of a second PHP, is
# found by its process group afterwards.
# The in-memory subjects only: what is checked is the runner's forking and reaping, and a network
# server that another job on the machine may stop or restart has no place in that.
# Usage: benchmarks/test/signal_check.sh [PHP options, default see common.sh]
set -u
source "$(dirname "$0")/common.sh"

subjects=Table
php "${php_options[@]}" -r 'exit(extension_loaded("apcu") && ini_get("apc.enable_cli") ? 0 : 1);' && subjects=Table,APCu
for workers in 1 2 4 12; do
  log="$work_dir/workers-$workers.log"
  setsid php -d zend.signal_check=1 "${php_options[@]}" "$bench_dir/run" --filter "$subjects" \
    --workers "$workers" --duration 0.2 --runs 1 --warmup 0 >"$log" 2>&1 &
  runner=$!
  wait "$runner"
  status=$?
  check "$workers worker(s): the run succeeds" test "$status" -eq 0
  check "$workers worker(s): no zend_signal warning" bash -c "! grep -n zend_signal '$log'"
  check "$workers worker(s): no process left in the run's group" bash -c "! pgrep -g '$runner' >/dev/null"
  if [ "$status" -ne 0 ]; then
    tail -n 20 "$log" | sed 's/^/  | /'
  fi
done

summary signal_check
