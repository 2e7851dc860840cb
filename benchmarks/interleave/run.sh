#!/usr/bin/env bash
# benchmarks/interleave/run.sh - compare builds of table.so on one tight loop, on a noisy machine.
#
#   bash benchmarks/interleave/run.sh [--rounds N] [--loops N] [--raw FILE] NAME=/abs/path/table.so NAME=...
#
# A change to the read path moves a get by a few percent, and on a shared 2-core VM single runs spread by
# 10% or more, drifting over minutes. So each round runs get_loop.php once under every build, in an order
# that rotates from round to round, and the comparison is the median over rounds of the per-round ratio
# to the first build named (its baseline). Prints, per build, the minimum and median ns per get and that
# ratio with its quartiles. --rounds (default 100) times --loops (default 400: about 0.3 s a process)
# sets the run time; --raw keeps every process's result ("round name ns"). Needs only PHP CLI; no other
# extension is loaded (php -n).
set -euo pipefail

rounds=100 loops=400 raw= names=() libs=()
while [ $# -gt 0 ]; do
	case $1 in
		--rounds) rounds=$2; shift 2 ;;
		--loops) loops=$2; shift 2 ;;
		--raw) raw=$2; shift 2 ;;
		*=*) names+=("${1%%=*}"); libs+=("${1#*=}"); shift ;;
		*) sed -n '2,12p' "$0" >&2; exit 2 ;;
	esac
done
if [ ${#names[@]} -lt 2 ]; then sed -n '2,12p' "$0" >&2; exit 2; fi
for lib in "${libs[@]}"; do
	[ -f "$lib" ] || { echo "no such file: $lib" >&2; exit 2; }
done

loop="$(cd "$(dirname "$0")" && pwd)/get_loop.php"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
k=${#names[@]}
for ((r = 0; r < rounds; r++)); do
	for ((j = 0; j < k; j++)); do
		i=$(((r + j) % k))
		printf '%d %s %s\n' "$r" "${names[$i]}" "$(php -n -d extension="${libs[$i]}" "$loop" "$loops")" >>"$out"
	done
done

[ -z "$raw" ] || cp "$out" "$raw"
base=${names[0]}
for name in "${names[@]}"; do
	awk -v n="$name" -v b="$base" '
		$2 == b { base[$1] = $3 }
		$2 == n { t[$1] = $3 }
		END {
			c = 0
			for (r in t) { v[++c] = t[r]; if (r in base) q[++m] = t[r] / base[r] }
			asort_num(v, c); asort_num(q, m)
			printf "%-12s min %7.2f  median %7.2f ns/get", n, v[1], v[int((c + 1) / 2)]
			printf "   vs %s: median ratio %.3f", b, q[int((m + 1) / 2)]
			printf " (quartiles %.3f, %.3f; %d rounds)\n", q[int(m / 4) + 1], q[int(3 * m / 4)], m
		}
		function asort_num(a, len,   i, j, x) {   # insertion sort: mawk has no asort()
			for (i = 2; i <= len; i++) {
				x = a[i]
				for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]
				a[j + 1] = x
			}
		}' "$out"
done
