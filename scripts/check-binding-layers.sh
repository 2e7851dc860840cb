#!/usr/bin/env bash
# check-binding-layers.sh - the Zend side calls one way, down: table.c (the module: INI, start-up and
# shutdown, request start and end, phpinfo) above binding/'s APCu API (php_table_apcu*), that above the
# methods (binding/'s method files), they above the Redis tier's (php_table_tier*: each method's work on a
# tiered namespace, and the helper launcher), all above the helpers they share (values, the users' view,
# glob), those above errors (php_table_throw), that above the state (php_table_state.c: the process's
# table), the state above serializer/, and serializer/ above core/ and redis/ (which are Zend-free:
# core/Makefile's check-zend-free and check-layers check core/ itself). What a lower layer needs from
# above (the serializer's exception class; the state's hooks: the tier's settings resolver, the users'
# view) is handed down at start-up.
#
#   bash scripts/check-binding-layers.sh BUILD_DIR      BUILD_DIR: a table_build of the extension (lib.sh)
#
# Reads the objects the build left (.libs/*.o): no object may use a global symbol that an object of a
# higher layer defines; of table.o's, only the module loader may use get_module and table_module_entry.
# Ends with `binding-layers: N passed, N failed`.
set -uo pipefail
B=${1:?usage: check-binding-layers.sh BUILD_DIR}
fail() { echo "binding-layers: $*"; echo "binding-layers: 0 passed, 1 failed"; exit 1; }
[ -f "$B/.libs/table.o" ] || fail "no $B/.libs/table.o (build the extension first)"

# The layers, top first: "name dir..." (the module is table.o alone, at the build's top). The APCu API
# (binding/php_table_apcu*.c, table.apcu_compat) is a binding of its own above the methods' binding:
# "dir:P1,P2" takes only that folder's objects whose name starts with one of the prefixes, "dir:-P1,P2"
# all others.
HELPERS=php_table_values,php_table_users,php_table_glob
LAYERS=("module ." "apcu binding:php_table_apcu" "methods binding:-php_table_apcu,php_table_tier,$HELPERS,php_table_errors,php_table_state"
	"tier binding:php_table_tier" "helpers binding:$HELPERS" "errors binding:php_table_errors" "state binding:php_table_state"
	"serializer serializer" "core core redis")
objects() { # DIR... -> the objects of those folders (the module: table.o only)
	local d p o base hit
	for d in "$@"; do
		case $d in
			.) echo "$B/.libs/table.o" ;;
			*:*)
				local want=${d#*:} invert=0
				[ "${want:0:1}" = - ] && { invert=1; want=${want:1}; }
				while read -r o; do
					base=$(basename "$o") hit=0
					for p in ${want//,/ }; do [[ $base == "$p"* ]] && hit=1; done
					[ $hit != $invert ] && echo "$o"
				done < <(find "$B/${d%%:*}" -path '*/.libs/*.o' 2>/dev/null)
				;;
			*) find "$B/$d" -path '*/.libs/*.o' 2>/dev/null ;;
		esac
	done
}
bad=0 nobj=0
for ((i = 0; i < ${#LAYERS[@]}; i++)); do
	read -r upper_name upper_dirs <<<"${LAYERS[$i]}"
	mapfile -t upper < <(objects $upper_dirs)
	[ ${#upper[@]} -gt 0 ] || fail "no objects for $upper_name under $B"
	nobj=$((nobj + ${#upper[@]}))
	defined=$(nm --defined-only -g "${upper[@]}" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u)
	for ((j = i + 1; j < ${#LAYERS[@]}; j++)); do
		read -r lower_name lower_dirs <<<"${LAYERS[$j]}"
		mapfile -t lower < <(objects $lower_dirs)
		for o in "${lower[@]}"; do
			for s in $(comm -12 <(echo "$defined") <(nm -u "$o" | awk 'NF >= 2 { print $NF }' | sort -u)); do
				echo "binding-layers: $(basename "$o" .o) ($lower_name) uses $s, which $upper_name defines: calls go down only"
				bad=$((bad + 1))
			done
		done
	done
done
[ $bad -eq 0 ] || { echo "binding-layers: 0 passed, 1 failed"; exit 1; }
echo "binding-layers: ${#LAYERS[@]} layers, $nobj objects, no call or data reference upwards"
echo "binding-layers: 1 passed, 0 failed"
