#!/usr/bin/env bash
# Instructions per get() of a hit, by key length, counted by callgrind (deterministic, unlike timings
# on a shared machine): keys up to 128 bytes are hashed multilinearly, longer ones with SipHash-1-3
# (core/hash.h), and this shows what each costs from the PHP call on.
#
#   bash benchmarks/instructions/key_length.sh [--so PATH] [LENGTH ...]     (default: 16 64 128 129 200 1000)
#
# PATH: the table.so to measure (default build/release/modules/table.so, which scripts/test.sh builds).
set -euo pipefail
cd "$(dirname "$0")/../.."
SO=build/release/modules/table.so
[ "${1:-}" = --so ] && { SO=$2; shift 2; }
[ $# -gt 0 ] || set -- 16 64 128 129 200 1000
[ -f "$SO" ] || { echo "key_length.sh: no $SO (build it: bash scripts/test.sh --layers=phpt)" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "key_length.sh: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
ROUNDS=20
count() { # LENGTH MODE -> instructions of the whole run
	valgrind --tool=callgrind --callgrind-out-file=/dev/null php -n -d "extension=$SO" \
		benchmarks/instructions/key_length.php "$1" "$ROUNDS" "$2" 2>&1 |
		sed -nE 's/.*Collected : ([0-9]+).*/\1/p'
}
printf '%-12s %s\n' "key bytes" "instructions per get()"
for len in "$@"; do
	get=$(count "$len" get) loop=$(count "$len" loop)
	[ -n "$get" ] && [ -n "$loop" ] || { echo "key_length.sh: callgrind gave no count for $len" >&2; exit 1; }
	printf '%-12s %d\n' "$len" $(( (get - loop) / (ROUNDS * 2000) ))
done
