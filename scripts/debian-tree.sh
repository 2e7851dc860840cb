#!/usr/bin/env bash
# scripts/debian-tree.sh - a Debian tree of another release (default 13, "trixie", whose PHP is 8.4), made
# with debootstrap and cached outside the clone, to build and test the extension on that release's PHP.
#
#   bash scripts/debian-tree.sh ensure       create the tree, or make it anew when stale; print its path
#   bash scripts/debian-tree.sh run CMD...   run CMD as root inside the tree, with this checkout at /table
#   bash scripts/debian-tree.sh path         print the tree's path (made or not)
#
# Environment:
#   DEBIAN_TREE_SUITE=trixie        the release to bootstrap
#   TABLE_CACHE=/var/cache/table-ci the cache folder: the tree is $TABLE_CACHE/debian-<suite>, and the
#                                   tree's own /var/cache/table-ci (its debug PHP build) is kept apart in
#                                   $TABLE_CACHE/debian-<suite>-cache, so that making the tree anew keeps it
#   DEBIAN_TREE_MAX_AGE_DAYS=7      a tree older than this is made anew (its packages were a week old)
#
# `run` enters the tree with chroot inside a mount namespace of its own (unshare): /proc, a fresh tmpfs on
# /dev/shm, /dev/pts, the checkout on /table and the cache above are mounted there, and all of it goes away
# with the namespace, however CMD ends, so nothing is ever left mounted on the host. Processes that CMD leaves
# running in that namespace are killed when it returns (other runs in the same tree are left alone). The tree gets the host's resolv.conf and hosts (apt
# inside needs the same Debian mirror the host uses; nothing else is reached). Exit status: CMD's.
set -euo pipefail
# The body is one compound command, read whole before it runs: editing this file mid-run is safe.
{
. "$(dirname "$0")/lib.sh"

SUITE=${DEBIAN_TREE_SUITE:-trixie}
CACHE=${TABLE_CACHE:-/var/cache/table-ci}
TREE="$CACHE/debian-$SUITE"
TREE_CACHE="$CACHE/debian-$SUITE-cache"
MAX_AGE_DAYS=${DEBIAN_TREE_MAX_AGE_DAYS:-7}
STAMP=.table-tree-made

tree_fresh() {
	[ -f "$TREE/$STAMP" ] && [ -x "$TREE/usr/bin/apt-get" ] &&
		[ -n "$(find "$TREE/$STAMP" -mtime "-$MAX_AGE_DAYS" 2>/dev/null)" ]
}

# debootstrap into a new folder, then swap it in: a run that dies half-way leaves the old tree (or none).
make_tree() {
	apt_ensure debootstrap
	local new="$TREE.new" t0=$SECONDS
	log "debootstrap --variant=minbase $SUITE $new"
	as_root rm -rf "$new"
	as_root debootstrap --variant=minbase "$SUITE" "$new" >"$CACHE/debootstrap-$SUITE.log" 2>&1 ||
		{ tail -n 20 "$CACHE/debootstrap-$SUITE.log" >&2; die "debootstrap $SUITE failed (log: $CACHE/debootstrap-$SUITE.log)"; }
	# Like the host: no recommended packages, and no prompts.
	printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' |
		as_root tee "$new/etc/apt/apt.conf.d/90table-no-recommends" >/dev/null
	date -u +%FT%TZ | as_root tee "$new/$STAMP" >/dev/null
	as_root rm -rf "$TREE"
	as_root mv "$new" "$TREE"
	log "made $TREE in $((SECONDS - t0))s"
}

ensure() {
	mkdir -p "$CACHE" "$TREE_CACHE"
	if tree_fresh; then return 0; fi
	[ -d "$TREE" ] && log "$TREE is missing or older than $MAX_AGE_DAYS days: making it anew"
	make_tree
}

# Processes still in this run's mount namespace (left behind by CMD: a server a test started, say). Only
# this run's: another run in the same tree has a namespace of its own and is left alone.
kill_left_in_tree() {
	local ns=$1 p pids=()
	[ -n "$ns" ] || return 0
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/ns/mnt" 2>/dev/null)" = "$ns" ] && pids+=("${p#/proc/}")
	done
	[ ${#pids[@]} -eq 0 ] && return 0
	log "killing processes left running in the tree: ${pids[*]}"
	kill -KILL "${pids[@]}" 2>/dev/null || true
}

run_in_tree() {
	[ $# -gt 0 ] || die "run needs a command"
	ensure
	as_root cp /etc/resolv.conf "$TREE/etc/resolv.conf"
	as_root cp /etc/hosts "$TREE/etc/hosts"
	as_root mkdir -p "$TREE/table" "$TREE/var/cache/table-ci"
	local rc=0 nsfile ns
	nsfile=$(mktemp "${TMPDIR:-/tmp}/table-tree-ns.XXXXXX")
	# Inside the namespace: mount, chroot, run. The mounts live only as long as the namespace does.
	as_root unshare --mount --propagation private --fork -- /bin/bash -c '
		set -e
		T=$1 ROOT=$2 TCACHE=$3 NSFILE=$4; shift 4
		readlink /proc/self/ns/mnt >"$NSFILE"
		mount -t proc proc "$T/proc"
		mount -t tmpfs -o mode=1777,size=50% tmpfs "$T/dev/shm"
		mkdir -p "$T/dev/pts" && mount -t devpts -o newinstance,ptmxmode=0666 devpts "$T/dev/pts" 2>/dev/null || true
		mount --bind "$ROOT" "$T/table"
		mount --bind "$TCACHE" "$T/var/cache/table-ci"
		cd "$T/table"
		set +e
		chroot "$T" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LANG=C.UTF-8 TERM=dumb CI="${CI:-}" NO_INTERACTION=1 DEBIAN_FRONTEND=noninteractive \
			${TABLE_TREE_ENV:-} /bin/bash -c "cd /table && exec \"\$@\"" bash "$@"
	' bash "$TREE" "$TABLE_ROOT" "$TREE_CACHE" "$nsfile" "$@" || rc=$?
	ns=$(cat "$nsfile" 2>/dev/null || true)
	rm -f "$nsfile"
	kill_left_in_tree "$ns"
	return $rc
}

# What the project's scripts need before they can install anything themselves: git (the scripts copy the
# files a clone has), ps (test.sh ends what a test left running).
BASE_TOOLS="git procps ca-certificates"
base_tools() {
	[ -x "$TREE/usr/bin/git" ] && [ -x "$TREE/usr/bin/ps" ] && return 0
	log "installing $BASE_TOOLS in the tree"
	run_in_tree bash -c "apt-get update -qq && apt-get install -y -qq $BASE_TOOLS >/dev/null" ||
		die "could not install $BASE_TOOLS in $TREE"
}

case "${1:-}" in
	ensure) shift; ensure; echo "$TREE" ;;
	path) echo "$TREE" ;;
	run) shift; ensure; base_tools; run_in_tree "$@" ;;
	-h|--help|"") sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; [ -n "${1:-}" ] ;;
	*) die "unknown command: $1 (ensure, run, path)" ;;
esac
exit
}
