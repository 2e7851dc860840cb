#!/usr/bin/env bash
# run --table-segment: InMemoryGet with Table and Table(segment), 1 and 2 workers, briefly; the report has
# rows of both at each worker count whose every iteration did operations and missed none, the header
# shows Table on the anonymous segment and Table(segment) on its own, in a directory that is gone once
# the run ends. The same with zero-copy on, which the second PHP must show it had. A second PHP that
# cannot open its segment fails the run and leaves no directory either, and a PHP already on a named
# segment is refused. No timing is checked.
# Usage: benchmarks/test/table_segment_check.sh [PHP options, default see common.sh]
set -u
source "$(dirname "$0")/common.sh"

if ! php "${php_options[@]}" -r 'exit(extension_loaded("table") && PHP_OS_FAMILY !== "Windows" ? 0 : 1);'; then
  echo "note: the table extension is not loaded; nothing to check"
  echo "table_segment_check: 0 passed, 0 failed, 10 skipped"
  exit 0
fi
run=("$bench_dir/run" --filter Table --table-segment --workers 1,2 --duration 0.2 --runs 1 --warmup 0)

# report_ok JSON ZERO_COPY: both rows at 1 and 2 workers, every iteration with operations and no miss,
# and the settings each reported; prints the segment's directory.
report_ok() {
  php -r '
    $report = json_decode((string) file_get_contents($argv[1]), true);
    $rows = [];
    foreach ($report["results"] ?? [] as $result) {
        foreach ($result["runs"] as $run) {
            foreach ($run["iterations"] as $it) {
                if ($it["ops"] <= 0 || $it["misses"] !== 0) {
                    fprintf(STDERR, "%s x%d: %d ops, %d misses\n", $result["subject"], $result["workers"], $it["ops"], $it["misses"]);
                    exit(1);
                }
            }
        }
        $rows[] = "{$result["subject"]}@{$result["workers"]}";
    }
    sort($rows);
    if ($rows !== ["Table(segment)@1", "Table(segment)@2", "Table@1", "Table@2"]) {
        fprintf(STDERR, "rows: %s\n", implode(", ", $rows));
        exit(2);
    }
    $table = $report["environment"]["subjects"]["Table"]["settings"] ?? [];
    $named = $report["environment"]["subjects"]["Table(segment)"]["settings"] ?? [];
    if (($table["segment"] ?? null) !== "anonymous" || !preg_match("/^bench\\.\\d+\\.[0-9a-f]+$/", $named["segment"] ?? "")
        || ($named["segment_dir"] ?? "") === "" || ($table["zero-copy"] ?? null) !== $argv[2] || ($named["zero-copy"] ?? null) !== $argv[2]) {
        fprintf(STDERR, "settings: %s\n", json_encode($report["environment"]["subjects"] ?? null));
        exit(3);
    }
    echo $named["segment_dir"], "\n";' "$1" "$2"
}

for zero_copy in off on; do
  json="$work_dir/segment-$zero_copy.json"
  options=("${php_options[@]}")
  [ "$zero_copy" = on ] && options+=(-d table.zero_copy=1)
  check "InMemoryGet with --table-segment, zero-copy $zero_copy, runs" \
    expect_exit 0 php "${options[@]}" "${run[@]}" --json --out "$json" InMemoryGet
  dir=$(report_ok "$json" "$zero_copy")
  check "... rows of Table and Table(segment) at 1 and 2 workers with operations, zero-copy $zero_copy in both" \
    test -n "$dir"
  check "... and its segment directory ${dir:-(none reported)} is gone" test -n "$dir" -a ! -e "$dir"
done

# table.segment_mode=0400 is refused for a named segment only: this PHP's Table runs, the second PHP's
# Table(segment) cannot, and the run must fail and still remove the directory it made.
check "a second PHP that cannot open its segment fails the run" \
  expect_exit 1 php "${php_options[@]}" -d table.segment_mode=0400 "${run[@]}" InMemoryGet
dir=$(sed -nE 's/.* in (\/[^ ]*table-bench\.[0-9]+\.[0-9a-f]+) failed \(exit status.*/\1/p' "$work_dir/out" | head -n 1)
check "... and its segment directory ${dir:-(not named in the output)} is gone" test -n "$dir" -a ! -e "$dir"

own="$work_dir/own-segment"
mkdir "$own"
check "--table-segment on a PHP already on a named segment is refused" \
  expect_exit 1 php "${php_options[@]}" -d table.segment=own -d "table.segment_dir=$own" "${run[@]}" InMemoryGet
check "... saying why" grep -q 'has table.segment=own already' "$work_dir/out"

summary table_segment_check
