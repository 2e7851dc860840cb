#!/usr/bin/env bash
# With zero-copy on, every iteration of every repeat of InMemoryGet must read without copying: 0 bytes
# allocated per get, in the JSON report's every iteration. The runner verifies the data in forked
# children for this reason: a CLI runner that read the records itself would hold them (1,024 entries at
# most, until it exits), its forked workers would inherit those holds, and from the second seeding on
# the workers would copy every record they read.
# Usage: benchmarks/test/zero_copy_check.sh [PHP options, default see common.sh]
set -u
source "$(dirname "$0")/common.sh"

if ! php "${php_options[@]}" -r 'exit(extension_loaded("table") && PHP_OS_FAMILY !== "Windows" ? 0 : 1);'; then
  echo "note: the table extension is not loaded; nothing to check"
  echo "zero_copy_check: 0 passed, 0 failed, 2 skipped"
  exit 0
fi
json="$work_dir/zero-copy.json"
check "three repeats of InMemoryGet with zero-copy on run" \
  expect_exit 0 php "${php_options[@]}" -d table.zero_copy=1 "$bench_dir/run" --filter Table --workers 1,2 \
  --duration 0.2 --runs 2 --warmup 1 --repeat 3 --json --out "$json" InMemoryGet
check "... and no iteration copied (0 bytes per get in every one)" php -r '
  $report = json_decode((string) file_get_contents($argv[1]), true);
  $iterations = 0;
  foreach ($report["results"] ?? [] as $result) {
      foreach ($result["runs"] as $run) {
          foreach ($run["iterations"] as $it) {
              $iterations++;
              if ($it["memory"] !== 0) {
                  fprintf(STDERR, "%d workers: %d bytes per get\n", $result["workers"], $it["memory"]);
                  exit(1);
              }
          }
      }
  }
  exit($iterations === 2 * 3 * 2 ? 0 : 1);' "$json"

summary zero_copy_check
