#!/usr/bin/env bash
# check-binding-layers.sh - the Zend side calls one way: table.c (the module: INI, start-up and shutdown,
# request start and end, phpinfo) sits above binding/, and binding/ and serializer/ never use anything
# table.c defines. core/ is Zend-free and below them all (core/Makefile's check-zend-free and
# check-layers check it).
#
#   bash scripts/check-binding-layers.sh BUILD_DIR      BUILD_DIR: a table_build of the extension (lib.sh)
#
# Reads the objects the build left (.libs/*.o): every global symbol table.o defines may be used only by
# the module loader (get_module, table_module_entry), never by another object of the extension.
# Ends with `binding-layers: N passed, N failed`.
set -uo pipefail
B=${1:?usage: check-binding-layers.sh BUILD_DIR}
fail() { echo "binding-layers: $*"; echo "binding-layers: 0 passed, 1 failed"; exit 1; }
top=$B/.libs/table.o
[ -f "$top" ] || fail "no $top (build the extension first)"
mapfile -t others < <(find "$B/binding" "$B/serializer" "$B/core" -path '*/.libs/*.o' 2>/dev/null)
[ ${#others[@]} -gt 0 ] || fail "no objects under $B/binding, $B/serializer, $B/core"
defined=$(nm --defined-only -g "$top" | awk 'NF == 3 { print $3 }' | sort -u)
used=$(nm -u "${others[@]}" 2>/dev/null | awk 'NF >= 2 { print $NF }' | sort -u)
bad=$(comm -12 <(echo "$defined") <(echo "$used"))
if [ -n "$bad" ]; then
	echo "binding-layers: table.c defines what binding/ (or serializer/, core/) uses; it should only call down:"
	for s in $bad; do
		echo "  $s, used by: $(for o in "${others[@]}"; do nm -u "$o" | awk '{ print $NF }' | grep -qx "$s" && basename "$o" .o; done | tr '\n' ' ')"
	done
	echo "binding-layers: 0 passed, 1 failed"
	exit 1
fi
echo "binding-layers: table.o defines $(echo "$defined" | grep -c .) global symbols, none used by the ${#others[@]} other objects"
echo "binding-layers: 1 passed, 0 failed"
