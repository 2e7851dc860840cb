#!/usr/bin/env bash
# scripts/pecl-install-check.sh - the PECL round trip, as a user would do it, offline:
#
#   1. `pecl package` on a copy of exactly the files package.xml lists (what a clone has), giving
#      table-X.Y.Z.tgz (X.Y.Z = PHP_TABLE_VERSION in php_table.h)
#   2. `printf '\n\n\n' | pecl install ./table-X.Y.Z.tgz` (the igbinary, lz4 and zstd prompts answered with
#      their default, no),
#      then load the installed module with `php -n -d extension=table`, check `--ri table`, run a smoke
#      script, check that table.serializer=igbinary fails with a clear message, `pecl uninstall table`
#   3. the same with `pecl install -D 'enable-table-igbinary="yes"'`, loaded with
#      `-d extension=igbinary -d extension=table -d table.serializer=igbinary`, and a check that the module
#      refuses to load without igbinary, then `pecl uninstall table`
#
#   bash scripts/pecl-install-check.sh [--no-install]
#
# Installs php-pear, phpX.Y-dev, php-igbinary and build-essential from Debian's archive when one is missing
# (--no-install or NO_INSTALL=1: don't). Needs root: pecl installs into PHP's extension directory. It
# refuses to run when a table.so that pecl did not install is already in the extension directory, and
# leaves the system as it found it: every install is uninstalled, also on failure or interruption.
# Concurrent runs wait for each other (flock): pecl's registry is system-wide.
#
# Output: the last lines of each install transcript (the full ones are in build/pecl/), a line per check,
# and as the last line `pecl: N passed, N failed`. Exit status 1 when anything failed.
set -uo pipefail
# The body is one compound command, read whole before it runs: editing this file mid-run is safe.
{
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
export DEBIAN_FRONTEND=noninteractive NO_INTERACTION=1
NO_INSTALL=${NO_INSTALL:-0}
unset TABLE_SERIALIZER
for a in "$@"; do
	case "$a" in
		--no-install) NO_INSTALL=1 ;;
		-h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
		*) echo "unknown argument: $a" >&2; exit 2 ;;
	esac
done

PASS=0 FAIL=0
ok()   { PASS=$((PASS + 1)); echo "ok   $1"; }
fail() { FAIL=$((FAIL + 1)); echo "FAIL $1"; }
finish() { echo "pecl: $PASS passed, $FAIL failed"; [ "$FAIL" -eq 0 ]; exit; }
log() { printf '\n===== %s\n' "$*"; }

[ "$(id -u)" -eq 0 ] || { fail "setup: run as root (pecl installs into PHP's extension directory)"; finish; }

# --- packages --------------------------------------------------------------------------------------------
if [ "$NO_INSTALL" != 1 ]; then
	missing=()
	# The PHP on PATH (phpX.Y-dev), or the release's default PHP when there is none yet (php-dev).
	phpv=$(php-config --version 2>/dev/null | cut -d. -f1,2 || true)
	for p in php-pear "php$phpv-dev" "php$phpv-cli" php-igbinary build-essential autoconf; do
		[[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" == *"install ok installed"* ]] || missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		log "apt-get install ${missing[*]}"
		apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" ||
			{ fail "setup: apt-get install ${missing[*]}"; finish; }
	fi
fi
for c in pecl php php-config phpize; do
	command -v "$c" >/dev/null 2>&1 || { fail "setup: $c not found (apt-get install php-pear php-dev)"; finish; }
done

VERSION=$(sed -n 's/^#define PHP_TABLE_VERSION "\(.*\)"/\1/p' php_table.h | head -n 1)
[ -n "$VERSION" ] || { fail "setup: no PHP_TABLE_VERSION in php_table.h"; finish; }
EXTDIR=$(php-config --extension-dir)
WORK="$ROOT/build/pecl"
TGZ="$WORK/table-$VERSION.tgz"
JOBS=$(nproc 2>/dev/null || echo 2)

# pecl's registry and PHP's extension directory are system-wide: one run at a time.
exec 9>/run/lock/table-pecl-install-check.lock 2>/dev/null || exec 9>/tmp/table-pecl-install-check.lock
flock -w 1800 9 || { fail "setup: another pecl-install-check.sh run holds the lock"; finish; }

# (Output taken whole before grep: with pipefail, `grep -q` leaving early can fail the writer with SIGPIPE.)
installed() { grep -qiE '^table[[:space:]]' <<<"$(pecl list -c pecl 2>/dev/null)"; }
# The files pecl says it installed (absolute paths), recorded after each install.
installed_files() { pecl list-files table 2>/dev/null | awk '$2 ~ /^\// {print $2}'; }
uninstall() { # label
	local t="$WORK/uninstall-$1.log" left=() f
	pecl uninstall table >"$t" 2>&1
	while IFS= read -r f; do [ -e "$f" ] && left+=("$f"); done <"$WORK/files-$1.txt"
	if installed || [ -e "$EXTDIR/table.so" ] || [ ${#left[@]} -gt 0 ]; then
		tail -n 5 "$t"; printf '     left behind: %s\n' "${left[@]+"${left[@]}"}"
		fail "$1: pecl uninstall table (still installed; see ${t#$ROOT/})"
	else
		ok "$1: pecl uninstall table removed all $(wc -l <"$WORK/files-$1.txt") installed files and the registry entry"
	fi
}
# An earlier run that was killed may have left its install behind: that one is ours to remove. A table.so
# that pecl does not know about is not.
if installed; then
	log "removing the pecl/table install an earlier run left behind"
	pecl uninstall table >/dev/null 2>&1
fi
if [ -e "$EXTDIR/table.so" ] || installed; then
	fail "setup: $EXTDIR/table.so exists and was not installed by pecl (or won't uninstall); not touching it"
	finish
fi
cleanup() { if installed; then pecl uninstall table >/dev/null 2>&1; fi; }
trap cleanup EXIT
trap 'cleanup; exit 130' INT TERM

rm -rf "$WORK" && mkdir -p "$WORK/src" || { fail "setup: mkdir $WORK"; finish; }
PEAR_TEMP=$(pecl config-get temp_dir 2>/dev/null)
PEAR_TEMP_EXISTED=0
[ -n "$PEAR_TEMP" ] && [ -d "$PEAR_TEMP" ] && PEAR_TEMP_EXISTED=1

# --- 1. pecl package -------------------------------------------------------------------------------------
# Copy package.xml and exactly the files it lists, so the package is what a clone with this package.xml
# produces and a file missing from <contents> shows up as a build failure here.
log "pecl package ($WORK/src)"
listed=$(php -r '
	$x = simplexml_load_file($argv[1]);
	$walk = function ($node, $prefix) use (&$walk) {
		foreach ($node->children() as $name => $child) {
			$n = trim((string)$child["name"], "/");
			$p = $prefix === "" ? $n : ($n === "" ? $prefix : "$prefix/$n");
			if ($name === "dir") $walk($child, $p); elseif ($name === "file") echo $p, "\n";
		}
	};
	$walk($x->contents, "");' "$ROOT/package.xml") || { fail "package: package.xml is not readable"; finish; }
cp package.xml "$WORK/src/"
missing_files=0
while IFS= read -r f; do
	[ -n "$f" ] || continue
	if [ -f "$f" ]; then mkdir -p "$WORK/src/$(dirname "$f")" && cp -p "$f" "$WORK/src/$f"; else echo "listed but missing: $f"; missing_files=1; fi
done <<<"$listed"
(cd "$WORK/src" && pecl package package.xml) >"$WORK/package.log" 2>&1
if [ $missing_files = 0 ] && [ -f "$WORK/src/table-$VERSION.tgz" ]; then
	mv "$WORK/src/table-$VERSION.tgz" "$TGZ"
	tail -n 3 "$WORK/package.log"
	ok "package: pecl package made ${TGZ#$ROOT/} ($(tar -tzf "$TGZ" | grep -vc '/$') entries)"
else
	tail -n 20 "$WORK/package.log"
	fail "package: pecl package did not make table-$VERSION.tgz (see ${WORK#$ROOT/}/package.log)"
	finish
fi

# --- the smoke script ------------------------------------------------------------------------------------
cat >"$WORK/smoke.php" <<'PHP'
<?php
use Shm\Table;
$fail = 0;
$check = function (string $what, bool $ok) use (&$fail) { if (!$ok) { $fail++; echo "smoke FAIL: $what\n"; } };

Table::set("a", new ArrayObject([1]));
var_dump(Table::get("a"));
$check("ArrayObject round trip", Table::get("a") == new ArrayObject([1]) && Table::get("a") instanceof ArrayObject);

$values = [
	"int" => PHP_INT_MAX, "float" => 0.1 + 0.2, "string" => "bin\0ary", "null" => null, "false" => false,
	"array" => ["x" => [1, 2.5, "three", null, true], 7 => "seven"],
	"object" => (object)["p" => [1, 2], "q" => new DateTimeImmutable("2026-01-02 03:04:05 UTC")],
];
foreach ($values as $k => $v) {
	$check("set $k", Table::set($k, $v, 60));
	$got = Table::get($k);
	$check("round trip $k", is_object($v) ? $got == $v : $got === $v);
}
$check("increment", Table::increment("n") === 1 && Table::increment("n", 41) === 42);
$check("add", Table::add("once", 1) === true && Table::add("once", 2) === false && Table::get("once") === 1);
$check("namespace", Table::set("a", "in ns", 0, "ns") && Table::get("a", "ns") === "in ns" && Table::count("ns") === 1);
$check("remember", Table::remember("r", fn() => ["computed"]) === ["computed"] && Table::remember("r", fn() => "again") === ["computed"]);
$check("miss is null", Table::get("missing") === null);
$s = Table::stats();
echo "serializer: ", $s["serializer"], "; entries: ", $s["entries"], "\n";
$want = getenv("TABLE_SERIALIZER") ?: "php";
$check("stats serializer is $want", $s["serializer"] === $want);
echo $fail ? "smoke: $fail failed\n" : "smoke: all passed\n";
exit($fail ? 1 : 0);
PHP

# run_php LABEL EXPECTED-SUBSTRING PHP-ARGS...: run php -n ARGS, pass when it exits 0 and prints EXPECTED.
run_php() {
	local label=$1 want=$2 out rc
	shift 2
	out=$(php -n "$@" 2>&1); rc=$?
	if [ $rc -eq 0 ] && [[ "$out" == *"$want"* ]]; then
		ok "$label"
	else
		printf '%s\n' "$out" | tail -n 25 | sed 's/^/     /'
		fail "$label (exit $rc; expected output containing: $want)"
	fi
}

# install LABEL PECL-ARGS...: pecl install the tarball and print the transcript's last lines.
install() {
	local label=$1 t="$WORK/install-$1.log" rc
	shift
	log "$label: printf '\\n\\n\\n' | pecl install ${*:+$* }${TGZ#$ROOT/}"
	printf '\n\n\n' | MAKE="make -j$JOBS" pecl install "$@" "$TGZ" >"$t" 2>&1
	rc=$?
	echo "----- ${t#$ROOT/}: the configure command, then the last lines"
	grep -m1 '^running: .*/configure' "$t"
	echo "..."
	tail -n 8 "$t"
	echo "-----"
	if [ $rc -eq 0 ] && grep -q '^install ok: channel://pecl.php.net/table-' "$t" && [ -f "$EXTDIR/table.so" ]; then
		installed_files >"$WORK/files-$label.txt"
		ok "$label: pecl install (exit 0, install ok, $EXTDIR/table.so; $(grep -c . "$WORK/files-$label.txt") files: $(pecl list-files table 2>/dev/null | awk '$2 ~ /^\// {print $1}' | sort | uniq -c | awk '{printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2}'))"
		return 0
	fi
	: >"$WORK/files-$label.txt"
	grep -E -A3 '\.(c|h):[0-9]+(:[0-9]+)?: (fatal )?error|configure: error|ERROR:' "$t" | head -n 30
	fail "$label: pecl install (exit $rc; see ${t#$ROOT/})"
	return 1
}

# --- 2. plain build --------------------------------------------------------------------------------------
if install plain; then
	if grep -q -- '--enable-table-igbinary=no' "$WORK/install-plain.log"; then
		ok "plain: the igbinary prompt took its default (configure --enable-table-igbinary=no)"
	else
		fail "plain: configure was not run with --enable-table-igbinary=no"
	fi
	run_php "plain: --ri table reports version $VERSION, igbinary support no" "Version => $VERSION" -d extension=table --ri table
	if ! grep -q '^igbinary support => no' <<<"$(php -n -d extension=table --ri table)"; then
		fail "plain: --ri table does not say 'igbinary support => no'"
	fi
	log "plain: smoke (php -n -d extension=table)"
	php -n -d extension=table "$WORK/smoke.php" 2>&1 | sed 's/^/  /'
	run_php "plain: smoke script" "smoke: all passed" -d extension=table "$WORK/smoke.php"
	run_php "plain: table.serializer=igbinary without igbinary support fails clearly" \
		"Shm\\Table is unavailable: table.serializer=igbinary needs table built with --enable-table-igbinary" \
		-d extension=table -d table.serializer=igbinary \
		-r 'try { Shm\Table::get("a"); echo "no exception\n"; } catch (Shm\TableException $e) { echo $e->getMessage(), "\n"; }'
	uninstall plain
fi

# --- 3. igbinary build -----------------------------------------------------------------------------------
if [ ! -f "$(php-config --include-dir)/ext/igbinary/igbinary.h" ] || [ ! -f "$EXTDIR/igbinary.so" ]; then
	fail "igbinary: igbinary or its headers are not installed (apt-get install php-igbinary)"
elif install igbinary -D 'enable-table-igbinary="yes"'; then
	if grep -q -- '--enable-table-igbinary=yes' "$WORK/install-igbinary.log" &&
		grep -q 'checking for igbinary headers\.\.\. .*/ext/igbinary' "$WORK/install-igbinary.log"; then
		ok "igbinary: configure ran with --enable-table-igbinary=yes and found igbinary's headers"
	else
		fail "igbinary: configure did not run with --enable-table-igbinary=yes or did not find the headers"
	fi
	IGB=(-d extension=igbinary -d extension=table -d table.serializer=igbinary)
	run_php "igbinary: --ri table reports version $VERSION, igbinary support yes" "igbinary support => yes" "${IGB[@]}" --ri table
	log "igbinary: smoke (php -n ${IGB[*]})"
	export TABLE_SERIALIZER=igbinary
	php -n "${IGB[@]}" "$WORK/smoke.php" 2>&1 | sed 's/^/  /'
	run_php "igbinary: smoke script" "smoke: all passed" "${IGB[@]}" "$WORK/smoke.php"
	unset TABLE_SERIALIZER
	run_php "igbinary: the module refuses to load without igbinary, naming it" \
		'Cannot load module "table" because required module "igbinary" is not loaded' \
		-d extension=table -d display_startup_errors=1 -r 'echo extension_loaded("table") ? "loaded\n" : "not loaded\n";'
	uninstall igbinary
fi

trap - EXIT INT TERM
cleanup
# pecl's temp dir (/tmp/pear/temp): remove it again if this run created it and pecl left it empty.
if [ "$PEAR_TEMP_EXISTED" = 0 ] && [ -n "$PEAR_TEMP" ] && [ -d "$PEAR_TEMP" ]; then
	rmdir "$PEAR_TEMP" 2>/dev/null && rmdir "$(dirname "$PEAR_TEMP")" 2>/dev/null
fi
finish
}
