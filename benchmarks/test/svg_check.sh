#!/usr/bin/env bash
# The runner's pictures and its terminal progress line: `run --svg FILE` and `compare A B --svg FILE` write
# a well-formed, self-contained SVG (checked with xmllint, from Debian's libxml2-utils) naming every
# subject that ran, with one bar per subject and worker count; the progress line (case, subject, workers,
# iteration i of n, time left) appears on a terminal (faked with script(1)) and never when stderr is not
# one. Usage: benchmarks/test/svg_check.sh [PHP options, default see common.sh]
set -u
source "$(dirname "$0")/common.sh"

run=(php "${php_options[@]}" "$bench_dir/run" --duration 0.1 --runs 1 --warmup 0 --workers 1,2)
svg="$work_dir/run.svg"

check "run --svg writes the chart" expect_exit 0 "${run[@]}" --out "$work_dir/run.json" --svg "$svg" InMemoryGet
if command -v xmllint >/dev/null; then
  check "... well-formed XML" xmllint --noout "$svg"
else
  echo "note: xmllint not installed (apt-get install libxml2-utils); well-formedness not checked"
fi
# The checks below use no PHP extension (a debug PHP built from source may have no dom or xml).
check "... an <svg> root, self-contained (no script, no external reference)" php -r '
  $s = file_get_contents($argv[1]);
  if (!preg_match("~^<\\?xml[^>]*\\?>\\s*<svg xmlns=\"http://www.w3.org/2000/svg\"~", $s)) exit(1);
  if (preg_match("~<(script|image|use|foreignObject)\\b|(href|src)=|url\\(|@import~i", $s)) exit(2);' "$svg"
# every subject of the JSON results has a bar at every worker count, with the factor the JSON reports
check "... one bar per subject and worker count, at the factor the results report" php -r '
  $results = json_decode(file_get_contents($argv[2]), true)["results"];
  $s = file_get_contents($argv[1]);
  preg_match_all("~<rect [^>]*data-subject=\"([^\"]*)\" data-workers=\"(\\d+)\" data-factor=\"([0-9.]+)\"~", $s, $m, PREG_SET_ORDER);
  $bars = [];
  foreach ($m as [, $subject, $workers, $factor]) $bars[html_entity_decode($subject, ENT_XML1 | ENT_QUOTES) . "@$workers"] = (float) $factor;
  preg_match_all("~<text [^>]*>([^<]*)</text>~", $s, $t);
  $names = array_map(fn($n) => html_entity_decode($n, ENT_XML1 | ENT_QUOTES), $t[1]);
  if ($results === [] || count($bars) !== count($results)) { fwrite(STDERR, count($bars) . " bars, " . count($results) . " results\n"); exit(1); }
  foreach ($results as $r) {
    $f = $bars[$r["subject"] . "@" . $r["workers"]] ?? null;
    if ($f === null || abs($f - $r["factor"]) > 0.001 * $r["factor"] || !in_array($r["subject"], $names, true)) { fwrite(STDERR, "{$r["subject"]} x{$r["workers"]}: " . var_export($f, true) . " vs {$r["factor"]}\n"); exit(2); }
  }' "$svg" "$work_dir/run.json"
check "... names the subject Table" grep -q '>Table</text>' "$svg"

check "compare --svg writes the chart of both runs" expect_exit 0 php "$bench_dir/compare" "$work_dir/run.json" "$work_dir/run.json" --svg "$work_dir/compare.svg"
if command -v xmllint >/dev/null; then
  check "... well-formed XML" xmllint --noout "$work_dir/compare.svg"
fi
check "... two bars per subject and worker count" php -r '
  $n = count(json_decode(file_get_contents($argv[2]), true)["results"]);
  exit($n > 0 && preg_match_all("~<rect [^>]*data-subject=~", file_get_contents($argv[1])) === 2 * $n ? 0 : 1);' "$work_dir/compare.svg" "$work_dir/run.json"
check "compare with --svg but no file is a usage error" expect_exit 2 php "$bench_dir/compare" "$work_dir/run.json" "$work_dir/run.json" --svg=

# progress: quiet when stderr is a file, one rewritten line on a terminal
check "no progress line when stderr is not a terminal" expect_exit 0 "${run[@]}" InMemoryGet
check "... (stderr holds only warnings)" bash -c '! grep -q "left" "$1"' _ "$work_dir/out"
if command -v script >/dev/null; then
  cmd=$(printf '%q ' "${run[@]}" InMemoryGet)
  check "a progress line on a terminal" expect_exit 0 script -qfec "$cmd >/dev/null" /dev/null
  check "... naming case, subject, workers, iteration i of n and the time left" \
    grep -qE 'InMemoryGet, Table, 2 workers, iteration 1 of 1, [0-9]+:[0-9]{2} left' "$work_dir/out"
else
  echo "note: script(1) not installed; the terminal progress line is not checked"
fi

summary svg_check
