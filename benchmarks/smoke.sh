#!/usr/bin/env bash
# Smoke test of the benchmark runner: every case, briefly, with every subject available here; then
# compare and gate on the result. Usage: benchmarks/smoke.sh [PHP options, default see test/common.sh]
set -u
source "$(dirname "$0")/test/common.sh"
start_redis

run=(php "${php_options[@]}" "$bench_dir/run")
result="$work_dir/smoke.json"
cases=$(ls "$bench_dir"/Cases/Benchmark*.php | wc -l)

check "every case runs" expect_exit 0 "${run[@]}" --duration 0.2 --runs 1 --warmup 0 --workers 1,2 --out "$result"
cat "$work_dir/out"
check "a table per case" test "$(grep -c ' Executing ' "$work_dir/out")" -eq "$cases"
check "JSON results for every case" php -r '
  $document = json_decode(file_get_contents($argv[1]), true);
  $cases = array_unique(array_column($document["results"], "case"));
  exit(count($document["cases"]) === (int) $argv[2] && count($cases) === (int) $argv[2] ? 0 : 1);' "$result" "$cases"
# APCu's benchmark code on table.apcu_compat=1 runs beside APCu wherever both the table and APCu are
# loaded (benchmarks/test/apcu_table_check.sh checks it further).
if php "${php_options[@]}" -r 'exit(extension_loaded("table") && extension_loaded("apcu") && ini_get("apc.enable_cli") ? 0 : 1);' 2>/dev/null; then
  check "APCu(table) ran in every case at 1 and 2 workers" php -r '
    $rows = json_decode(file_get_contents($argv[1]), true)["results"];
    $table = array_filter($rows, fn ($r) => $r["subject"] === "APCu(table)");
    exit(count($table) === 2 * count(array_unique(array_column($rows, "case"))) ? 0 : 1);' "$result"
fi
check "compare of a result with itself" expect_exit 0 php "$bench_dir/compare" "$result" "$result"
check "gate of a result with itself" expect_exit 0 php "$bench_dir/gate" "$result" "$result" --threshold=0
check "an unknown option is a usage error" expect_exit 2 "${run[@]}" --no-such-option

# The eviction benchmark (benchmarks/eviction), on a short trace and a small budget.
eviction="$work_dir/eviction.json"
check "the eviction benchmark runs" expect_exit 0 php "${php_options[@]}" "$bench_dir/eviction" --ops 20000 --keys 20000 --memory 4M --out "$eviction"
cat "$work_dir/out"
check "eviction: Table ran, never wiped, every set stored" php -r '
  $results = json_decode(file_get_contents($argv[1]), true)["results"];
  $table = array_filter($results, fn ($r) => str_starts_with($r["cache"] ?? "", "Table"));
  exit($table !== [] && array_sum(array_column($table, "wipes")) === 0 && array_sum(array_column($table, "failed_sets")) === 0 ? 0 : 1);' "$eviction"
# gdsf ranks by no clock and samples the heap, not the (randomly keyed) index: a second table, with its
# own hash key, gives the same hits on the same trace, and values that compress change nothing for it.
again="$work_dir/eviction-again.json"
check "eviction: gdsf runs again, on JSON-like values" expect_exit 0 php "${php_options[@]}" "$bench_dir/eviction" --ops 20000 --keys 20000 --memory 4M --filter table-gdsf --compressible --out "$again"
check "eviction: gdsf gives the same hit ratio on every run" php -r '
  $hits = [];
  foreach ([$argv[1], $argv[2]] as $f) {
      foreach (json_decode(file_get_contents($f), true)["results"] as $r) {
          if (($r["subject"] ?? "") === "table-gdsf") { $hits[] = $r["hits"] ?? -1; }
      }
  }
  exit(count($hits) === 2 && $hits[0] > 0 && $hits[0] === $hits[1] ? 0 : 1);' "$eviction" "$again"
check "eviction: an unknown option is a usage error" expect_exit 2 php "$bench_dir/eviction" --no-such-option

summary smoke
