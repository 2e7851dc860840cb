#!/usr/bin/env bash
# check-layers.sh - the core's layers (core/DESIGN.md, "Layers"), checked: calls and includes go down.
#
#   bash core/check-layers.sh [OBJDIR]
#
# Every core/*.c and core/*.h belongs to one layer below. A file may include the headers of its own layer
# and of the layers beneath it, never one above; and, given OBJDIR (the objects of a build of the core,
# as core/Makefile's check-layers passes), no object may use a symbol that an object of a higher layer
# defines. table_core.h is the contract with the embedder, declarations only: any file may include it to
# define the public functions it implements (the symbol check still sees every call), but no header may
# include it, or every file including that header would see the whole API. Tests, benchmarks
# and fuzz targets sit above everything and are not checked. A file in no layer fails the check: a new
# file gets its place here (and in DESIGN.md's picture) when it is added.
# Ends with `check-layers: N files, N include edges, N call edges, N violations`; exit 1 on a violation.
set -uo pipefail
objdir=${1:-}
[ -z "$objdir" ] || objdir=$(cd "$objdir" && pwd) || exit 1
cd "$(dirname "$0")"

# Bottom first. One line per layer: its name, then its files.
LAYERS=(
	"base     platform.h crash.h status.h status.c clock_posix.c clock_win32.c proc.h proc_posix.c proc_win32.c
	          random_posix.c random_win32.c hash.h hash.c lock.h lock_pthread.c lock_win32.c shm.h shm_mmap.c
	          shm_file.c shm_win32.c"
	"alloc    alloc.h alloc.c"
	"layout   table_types.h segment.h integer.h index.h usage.h"
	"frames   frame.h frame.c serial_scan.h serial_scan.c"
	"locks    sync.h sync.c"
	"reclaim  epoch.h epoch.c"
	"entries  entry.h entry.c"
	"expire   expire.h expire.c"
	"window   window.h window.c"
	"gdsf     gdsf.h gdsf.c"
	"evict    evict.h evict.c"
	"room     room.h room.c"
	"values   split.h split.c ns.h ns.c gc.h gc.c claim.c"
	"ops      read.c write.h write.c tier.h tier.c stats.c table_core.c"
	"tools    check.c"
)
CONTRACT=table_core.h

declare -A layer_of name_of
i=0
for l in "${LAYERS[@]}"; do
	set -- $l
	name_of[$i]=$1
	shift
	for f in "$@"; do layer_of[$f]=$i; done
	i=$((i + 1))
done

lname() { echo "${name_of[${layer_of[$1]}]}"; }

bad=0 nfiles=0 nincl=0 ncalls=0
for f in *.c *.h; do
	[ "$f" = "$CONTRACT" ] && continue
	nfiles=$((nfiles + 1))
	if [ -z "${layer_of[$f]+x}" ]; then
		echo "check-layers: $f is in no layer (give it one in core/check-layers.sh and core/DESIGN.md)"
		bad=$((bad + 1))
	fi
done
for f in *.c *.h; do
	[ "$f" = "$CONTRACT" ] || [ -z "${layer_of[$f]+x}" ] && continue
	while read -r inc; do
		if [ "$inc" = "$CONTRACT" ]; then
			case $f in
			*.h) echo "check-layers: $f includes $CONTRACT: a header passes it on to every file beneath the API"
			     bad=$((bad + 1)) ;;
			esac
			continue
		fi
		[ -f "$inc" ] || continue
		nincl=$((nincl + 1))
		if [ -z "${layer_of[$inc]+x}" ]; then
			continue   # reported above
		fi
		if [ "${layer_of[$inc]}" -gt "${layer_of[$f]}" ]; then
			echo "check-layers: $f ($(lname "$f")) includes $inc ($(lname "$inc"), above it)"
			bad=$((bad + 1))
		fi
	done < <(sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]+)".*/\1/p' "$f")
done

if [ -n "$objdir" ]; then
	declare -A def_in
	for o in "$objdir"/*.o; do
		[ -f "$o" ] || { echo "check-layers: no objects in $objdir"; exit 1; }
		src=$(basename "$o" .o).c
		while read -r sym; do
			def_in[$sym]=$src
		done < <(nm --defined-only -g "$o" | awk 'NF == 3 && $2 ~ /[TDBR]/ { print $3 }')
	done
	for o in "$objdir"/*.o; do
		src=$(basename "$o" .o).c
		[ -n "${layer_of[$src]+x}" ] || continue
		while read -r sym; do
			d=${def_in[$sym]:-}
			[ -n "$d" ] && [ "$d" != "$src" ] || continue
			ncalls=$((ncalls + 1))
			[ -n "${layer_of[$d]+x}" ] || continue
			if [ "${layer_of[$d]}" -gt "${layer_of[$src]}" ]; then
				echo "check-layers: $src ($(lname "$src")) uses $sym of $d ($(lname "$d"), above it)"
				bad=$((bad + 1))
			fi
		done < <(nm -u "$o" | awk '{ print $NF }')
	done
fi

echo "check-layers: $nfiles files, $nincl include edges, $ncalls call edges, $bad violations"
[ $bad -eq 0 ]
