#!/usr/bin/env bash
# APCu(table), APCu's benchmark code on table.apcu_compat=1 (issue #34), briefly: beside APCu(default) in
# one run, every case at 1 and 2 workers, rows whose every iteration did operations and missed none, a
# Factor, and a header that shows it ran on the table. Its second PHP is started with -n and without
# APCu. A PHP whose own apcu_*() are the table's runs it in-process, as its only APCu row. Without the
# table extension, naming it in --filter fails the run. No timing is checked.
# Usage: benchmarks/test/apcu_table_check.sh [PHP options, default see common.sh]
set -u
source "$(dirname "$0")/common.sh"

so=$(table_so_option)
if [ -z "$so" ] || ! php "${php_options[@]}" -r 'exit(extension_loaded("table") ? 0 : 1);'; then
  echo "note: no table.so among the PHP options; nothing to check"
  echo "apcu_table_check: 0 passed, 0 failed, 9 skipped"
  exit 0
fi
has_apcu=0
php "${php_options[@]}" -r 'exit(extension_loaded("apcu") && ini_get("apc.enable_cli") ? 0 : 1);' 2>/dev/null && has_apcu=1
cases=$(ls "$bench_dir"/Cases/Benchmark*.php | wc -l)

# rows_ok JSON SUBJECT...: every case has a row of each SUBJECT at 1 and 2 workers and no other, every
# iteration did operations and missed none, each row has a factor, and APCu(table)'s header settings
# and version say it ran on the table through table.apcu_compat.
rows_ok() {
  php -r '
    [, $file, $cases] = $argv;
    $subjects = array_slice($argv, 3);
    $report = json_decode((string) file_get_contents($file), true);
    $rows = [];
    foreach ($report["results"] ?? [] as $result) {
        foreach ($result["runs"] as $run) {
            foreach ($run["iterations"] as $it) {
                if ($it["ops"] <= 0 || $it["misses"] !== 0) {
                    fprintf(STDERR, "%s %s x%d: %d ops, %d misses\n", $result["case"], $result["subject"], $result["workers"], $it["ops"], $it["misses"]);
                    exit(1);
                }
            }
        }
        if (!is_numeric($result["factor"] ?? null)) {
            fprintf(STDERR, "%s %s x%d: no factor\n", $result["case"], $result["subject"], $result["workers"]);
            exit(1);
        }
        $rows[] = "{$result["case"]}/{$result["subject"]}@{$result["workers"]}";
    }
    $expected = [];
    foreach (array_unique(array_column($report["results"] ?? [], "case")) as $case) {
        foreach ($subjects as $subject) {
            $expected[] = "$case/$subject@1";
            $expected[] = "$case/$subject@2";
        }
    }
    sort($rows);
    sort($expected);
    if ($rows !== $expected || count(array_unique(array_column($report["results"], "case"))) !== (int) $cases) {
        fprintf(STDERR, "rows: %s\n", implode(", ", $rows));
        exit(2);
    }
    $table = $report["environment"]["subjects"]["APCu(table)"] ?? [];
    if (($table["settings"]["via"] ?? null) !== "table.apcu_compat=1" || !str_contains($table["version"] ?? "", "API on table")) {
        fprintf(STDERR, "APCu(table) in the header: %s\n", json_encode($table));
        exit(3);
    }' "$@"
}

run=("$bench_dir/run" --duration 0.2 --runs 1 --warmup 0 --workers 1,2)

if [ "$has_apcu" = 1 ]; then
  json="$work_dir/beside.json"
  check "every case with APCu(default) and APCu(table) runs" \
    expect_exit 0 php "${php_options[@]}" "${run[@]}" -v --filter 'APCu(default),APCu(table)' --apcu-serializers default --out "$json"
  cp "$work_dir/out" "$work_dir/beside.out"
  check "... a row of each at 1 and 2 workers in every case, operations and no miss, a factor, on the table" \
    rows_ok "$json" "$cases" 'APCu(default)' 'APCu(table)'
  check "... the table shows APCu(table) beside APCu(default)" \
    bash -c "grep -q '^| APCu(table) ' '$work_dir/beside.out' && grep -q '^| APCu(default) ' '$work_dir/beside.out'"
  # The second PHP's command line, as -v prints it: -n, the table.so, compat on, and no APCu.
  second=$(grep -m1 "'--filter' 'APCu(table)'" "$work_dir/beside.out")
  check "... its second PHP reads no php.ini (-n), loads this table.so with table.apcu_compat=1, and not APCu" \
    bash -c "grep -q \"^  '[^']*' '-n' \" <<<\"\$1\" && grep -qF \"'extension=\$2'\" <<<\"\$1\" && grep -qF \"'table.apcu_compat=1'\" <<<\"\$1\" && ! grep -q 'extension=apcu' <<<\"\$1\"" _ "$second" "$(realpath "$so")"
  check "the family APCu selects APCu(table) too" \
    expect_exit 0 php "${php_options[@]}" "${run[@]}" --workers 1 --filter APCu --apcu-serializers default InMemoryGet
  check "... as a row of its own" grep -q '^| APCu(table) ' "$work_dir/out"
else
  echo "note: APCu is not loaded (or apc.enable_cli is off) in this PHP; APCu(table) beside APCu is not checked"
  echo "ok # skip 5 checks of APCu(table) beside APCu"
fi

# A PHP whose apcu_*() are the table's: APCu(table) runs in this process, the only APCu row.
bare=(-n)
extension_dir=$(php -r 'echo ini_get("extension_dir");')
for extension in pcntl posix; do
  [ -f "$extension_dir/$extension.so" ] && bare+=(-d "extension=$extension")
done
bare+=(-d "extension=$so" -d table.apcu_compat=1 -d apc.enable_cli=1)
json="$work_dir/in-process.json"
check "a PHP without APCu and with table.apcu_compat=1 runs APCu(table) itself" \
  expect_exit 0 php "${bare[@]}" "${run[@]}" --filter APCu --out "$json"
check "... every case, one APCu row per worker count, operations and no miss, on the table" \
  rows_ok "$json" "$cases" 'APCu(table)'

# Without the table extension, APCu(table) cannot run: named in --filter, it fails the run.
if [ "$has_apcu" = 1 ] && ! php -d apc.enable_cli=1 -r 'exit(extension_loaded("table") ? 0 : 1);' 2>/dev/null; then
  check "APCu(table) named in --filter without the table extension fails the run" \
    expect_exit 1 php -d apc.enable_cli=1 "$bench_dir/run" --filter 'APCu(table)' --duration 0.1 --runs 1 --warmup 0 InMemoryGet
  check "... saying why" grep -q 'APCu(table) was selected with --filter but cannot run: extension table is not loaded' "$work_dir/out"
else
  echo "ok # skip: this PHP loads the table extension without being told to (or has no APCu)"
fi

summary apcu_table_check
