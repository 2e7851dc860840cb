#!/usr/bin/env bash
# scripts/check-package.sh - check the packaging metadata against the tree, or regenerate package.xml's
# <contents>.
#
#   bash scripts/check-package.sh                  check; exit status 1 when a check failed
#   bash scripts/check-package.sh MODULE.so        also check the version a built table.so reports
#   bash scripts/check-package.sh --update         rewrite <contents> in package.xml from the tree, then check
#
# Checks:
#   validate   `pecl package-validate package.xml` reports `0 error(s)` (it exits 0 even on errors)
#   contents   package.xml's <contents> (path and role) equals the shipped files of the tree, computed
#              from the files a clone has (`git ls-files`, plus new files that are not ignored, as
#              scripts/lib.sh's tree_files sees them) with the rules in shipped_files() below. A file that
#              no rule classifies fails the check: add it to a rule, shipped or not.
#   version    one version everywhere: package.xml <release> and its <changelog> entry, PHP_TABLE_VERSION
#              in php_table.h, the top `## x.y.z` entry of CHANGELOG.md, composer.json's "version" (only
#              if it has one; PIE takes the version from the git tag) and `php --ri table` of MODULE.so
#   options    the configure options agree: every <configureoption> of package.xml and every
#              configure-options name of composer.json is an option config.m4 defines, and both name
#              the same set; composer.json's extension-name and package.xml's <providesextension> are
#              "table"
#   ini        table.ini loads the extension and carries a `; priority=NN` line (Debian's phpenmod) that
#              puts it after 20-igbinary.ini and equals composer.json's php-ext.priority
#   w32        config.w32 mirrors config.m4: the same Zend binding and serializer sources, and the core
#              sources of config.m4 with each POSIX backend (*_posix.c, shm_mmap.c, lock_pthread.c)
#              swapped for its *_win32.c counterpart (redis/, POSIX-only, is not mirrored); every file it names exists; and every shipped .c
#              file is compiled by config.m4 or config.w32
#   composer   `composer validate --strict` passes for php/composer.json (table/cache); `composer validate`
#              passes for the root composer.json (PIE's table/table) but for one objection of a Composer
#              older than PIE (Debian 12's 2.5.5), whose schema has no `php-ext`: any other fails
#   zts        configure accepts a thread-safe (ZTS) PHP, with the Redis tier (--with-table-hiredis) too
#              (faked: a copy of the headers with ZTS defined, behind a php-config that points at it;
#              scripts/build-zts-php.sh builds a real one, for .ci/run's zts step)
#
# Installs php-pear, composer (and PHP) from Debian's archive when missing and run as root (NO_INSTALL=1: don't).
# Environment: PHP (default php) runs the PHP-side helpers and --ri; PECL (default pecl).
# Output: a line per check, and as the last line `package: N passed, N failed`.
set -uo pipefail
# The body is one compound command, read whole before it runs: editing this file mid-run is safe.
{
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
PHP=${PHP:-php}
PECL=${PECL:-pecl}
UPDATE=0
MODULE=""
for a in "$@"; do
	case "$a" in
		--update) UPDATE=1 ;;
		-h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
		-*) echo "unknown option: $a" >&2; exit 2 ;;
		*) MODULE=$a ;;
	esac
done

PASS=0 FAIL=0
ok()   { PASS=$((PASS + 1)); echo "ok   $1"; }
fail() { FAIL=$((FAIL + 1)); echo "FAIL $1"; }
finish() { echo "package: $PASS passed, $FAIL failed"; [ "$FAIL" -eq 0 ]; exit; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/table-check-package.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

# pecl (php-pear) and PHP from Debian's archive when missing, as the other scripts do (NO_INSTALL=1: don't).
if [ "${NO_INSTALL:-0}" != 1 ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
	missing=()
	command -v "$PHP" >/dev/null 2>&1 || missing+=(php-cli php-xml)
	command -v "$PECL" >/dev/null 2>&1 || missing+=(php-pear)
	command -v composer >/dev/null 2>&1 || missing+=(composer)
	if [ ${#missing[@]} -gt 0 ]; then
		echo "installing ${missing[*]}" >&2
		DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 &&
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
	fi
fi
command -v "$PHP" >/dev/null 2>&1 || { fail "setup: no $PHP in PATH (install php-cli)"; finish; }
"$PHP" -r 'exit(function_exists("simplexml_load_file") && function_exists("json_decode") ? 0 : 1);' ||
	{ fail "setup: $PHP lacks SimpleXML or JSON (install php-xml)"; finish; }

# --- the shipped files -----------------------------------------------------------------------------------
# The files of the tree as a clone has them, plus new files that are not ignored (paths relative to ROOT).
tree_files() {
	if git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$ROOT" ls-files -co --exclude-standard | while IFS= read -r f; do [ -f "$f" ] && printf '%s\n' "$f"; done
	else
		find . -type f ! -path './.git/*' | sed 's|^\./||'
	fi
}
# "role<TAB>path" for every shipped file, sorted by path; "?<TAB>path" for a file no rule classifies.
shipped_files() {
	tree_files | LC_ALL=C sort -u | while IFS= read -r f; do
		case "$f" in
			# not shipped: development-only parts of the tree
			benchmarks/*|scripts/*|stress/*|.ci/*|.github/*|build/*|core/test/*|core/fuzz/*|core/bench/*|core/build/*|redis/build/*) continue ;;
			# the PHP library table/cache: a Composer package of its own (php/composer.json), not part of the extension
			php/*) continue ;;
			.gitignore|.gitattributes|.editorconfig|core/Makefile|core/check-layers.sh|redis/.gitignore|package.xml|composer.json) continue ;;
			# the extension's sources
			config.m4|config.w32|table.c|table.stub.php|table_arginfo.h|php_table.h|binding/*.c|binding/*.h|binding/*.stub.php) r=src ;;
			# the Redis client's own unit tests, with the Makefile that runs them against a redis-server
			# (make -C redis test): redis/ is self-contained, so they can run from the package
			redis/Makefile|redis/test/*.c|redis/test/*.h) r=test ;;
			core/*/*|serializer/*/*|binding/*/*|redis/*/*) r="?" ;;
			core/*.c|core/*.h|serializer/*.c|serializer/*.h|redis/*.c|redis/*.h) r=src ;;
			# the PHPT suite
			tests/*.phpt|tests/*.inc) r=test ;;
			# the threaded harnesses (the embed SAPI, Apache's event MPM): shipped with the tests, run only on a
			# ZTS PHP (scripts/build-zts-php.sh), never by run-tests.php
			tests/embed/*|tests/apache/*) r=test ;;
			# documentation, and the ini file packagers install (see docs/install.md)
			README.md|CONTRIBUTING.md|LICENSE|CHANGELOG.md|core/DESIGN.md|table.ini) r=doc ;;
			# the status page (drop-in, like APCu's apc.php) and the README's pictures
			status/test/*) continue ;;
			status/*.php|status/*.md|docs/img/*.png|docs/img/*.svg) r=doc ;;
			docs/*/*) r="?" ;;
			docs/*.md) r=doc ;;
			*) r="?" ;;
		esac
		printf '%s\t%s\n' "$r" "$f"
	done
}

# "role<TAB>path" of package.xml's <contents>, sorted by path (nested <dir> elements are resolved).
package_files() {
	"$PHP" -d error_reporting=E_ALL -r '
		$x = @simplexml_load_file($argv[1]);
		if ($x === false) { fwrite(STDERR, "package.xml is not well-formed XML\n"); exit(1); }
		$out = [];
		$walk = function ($node, $prefix) use (&$walk, &$out) {
			foreach ($node->children() as $name => $child) {
				$n = trim((string)$child["name"], "/");
				$p = $prefix === "" ? $n : ($n === "" ? $prefix : "$prefix/$n");
				if ($name === "dir") $walk($child, $p);
				elseif ($name === "file") $out[] = ($child["role"] ?? "?") . "\t" . $p;
			}
		};
		$walk($x->contents, "");
		usort($out, fn($a, $b) => strcmp(explode("\t", $a)[1], explode("\t", $b)[1]));
		echo implode("\n", $out), $out ? "\n" : "";
	' "$ROOT/package.xml"
}

# --- update <contents> -----------------------------------------------------------------------------------
if [ "$UPDATE" = 1 ]; then
	shipped_files >"$TMP/shipped" || { fail "update: could not list the tree"; finish; }
	if grep -q '^?' "$TMP/shipped"; then
		echo "not updating package.xml: these files are classified by no rule in shipped_files() of $0:"
		grep '^?' "$TMP/shipped" | cut -f2 | sed 's/^/  /'
		fail "update"; finish
	fi
	"$PHP" -r '
		[$_, $xml, $list] = $argv;
		$s = file_get_contents($xml);
		// One <dir> element per folder, files by their base name: the layout pecl itself writes.
		$tree = [];
		foreach (file($list, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $l) {
			[$role, $path] = explode("\t", $l, 2);
			$node = &$tree;
			$parts = explode("/", $path);
			$file = array_pop($parts);
			foreach ($parts as $d) {
				$node = &$node["dirs"][$d];
			}
			$node["files"][$file] = $role;
			unset($node);
		}
		$emit = function (array $node, string $pad) use (&$emit): array {
			$out = [];
			$files = $node["files"] ?? [];
			ksort($files, SORT_STRING);
			foreach ($files as $name => $role) {
				$out[] = "$pad<file name=\"" . htmlspecialchars($name, ENT_XML1 | ENT_QUOTES) . "\" role=\"$role\"/>";
			}
			$dirs = $node["dirs"] ?? [];
			ksort($dirs, SORT_STRING);
			foreach ($dirs as $name => $child) {
				$out[] = "$pad<dir name=\"" . htmlspecialchars($name, ENT_XML1 | ENT_QUOTES) . "\">";
				array_push($out, ...$emit($child, "$pad "));
				$out[] = "$pad</dir>";
			}
			return $out;
		};
		$lines = array_merge([" <contents>", "  <dir name=\"/\">"], $emit($tree, "   "), ["  </dir>", " </contents>"]);
		$n = 0;
		$s = preg_replace("~^[ \t]*<contents>[ \t]*\n.*?^[ \t]*</contents>[ \t]*$~ms", implode("\n", $lines), $s, 1, $n);
		if ($n !== 1) { fwrite(STDERR, "no <contents> element in $xml\n"); exit(1); }
		file_put_contents($xml, $s);
	' "$ROOT/package.xml" "$TMP/shipped" && ok "update: <contents> of package.xml now lists $(wc -l <"$TMP/shipped") files" ||
		fail "update: could not rewrite package.xml"
fi

[ -f package.xml ] || { fail "package.xml: missing"; finish; }

# --- validate --------------------------------------------------------------------------------------------
if ! command -v "$PECL" >/dev/null 2>&1; then
	fail "validate: no $PECL in PATH (apt-get install php-pear)"
else
	out=$("$PECL" package-validate package.xml 2>&1)
	if grep -qE '(^|[^0-9])0 error\(s\)' <<<"$out"; then
		ok "validate: pecl package-validate: $(grep -E 'error\(s\)' <<<"$out" | tail -n 1 | sed 's/^Validation: //')"
		grep -vE '^(Validation: .*|)$' <<<"$out" | sed 's/^/     /'
	else
		fail "validate: pecl package-validate package.xml:"
		sed 's/^/     /' <<<"$out"
	fi
fi

# --- contents --------------------------------------------------------------------------------------------
if ! shipped_files >"$TMP/shipped"; then
	fail "contents: could not list the tree"
elif ! package_files >"$TMP/listed"; then
	fail "contents: could not read <contents> of package.xml"
elif grep -q '^?' "$TMP/shipped"; then
	fail "contents: files that no rule in shipped_files() of scripts/check-package.sh classifies (ship them or exclude them there):"
	grep '^?' "$TMP/shipped" | cut -f2 | sed 's/^/     /'
elif diff -u --label 'package.xml <contents>' --label 'shipped files of the tree' "$TMP/listed" "$TMP/shipped" >"$TMP/diff"; then
	ok "contents: package.xml lists the $(wc -l <"$TMP/shipped") shipped files ($(cut -f1 "$TMP/shipped" | sort | uniq -c | awk '{printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2}'))"
else
	fail "contents: package.xml's <contents> differs from the tree (run: bash scripts/check-package.sh --update):"
	tail -n +3 "$TMP/diff" | grep -E '^[-+]' | sed 's/^/     /'
fi

# --- version ---------------------------------------------------------------------------------------------
v_header=$(sed -n 's/^#define PHP_TABLE_VERSION "\(.*\)"/\1/p' php_table.h 2>/dev/null | head -n 1)
versions=$("$PHP" -r '
	$x = @simplexml_load_file("package.xml");
	if ($x === false) exit(1);
	echo "package.xml <release>\t", (string)$x->version->release, "\n";
	echo "package.xml <api>\t", (string)$x->version->api, "\n";
	$cl = [];
	foreach ($x->changelog->release ?? [] as $r) $cl[] = (string)$r->version->release;
	echo "package.xml <changelog>\t", in_array((string)$x->version->release, $cl, true) ? (string)$x->version->release : "(no entry for this release)", "\n";
	if (is_file("composer.json")) {
		$c = json_decode(file_get_contents("composer.json"), true);
		if (!is_array($c)) echo "composer.json\t(not valid JSON)\n";
		elseif (isset($c["version"])) echo "composer.json\t", $c["version"], "\n";
	}
')
[ -n "$v_header" ] || v_header="(no PHP_TABLE_VERSION)"
v_changelog=$(sed -nE 's/^## \[?v?([0-9][^] ]*)\]?.*/\1/p' CHANGELOG.md 2>/dev/null | head -n 1)
{
	printf 'php_table.h PHP_TABLE_VERSION\t%s\n' "$v_header"
	printf '%s\n' "$versions"
	printf 'CHANGELOG.md top entry\t%s\n' "${v_changelog:-(no \"## x.y.z\" entry)}"
} >"$TMP/versions"
if [ -n "$MODULE" ]; then
	if [ ! -f "$MODULE" ]; then
		printf '%s --ri table\t%s\n' "$MODULE" "(no such file)" >>"$TMP/versions"
	else
		# -n: no ini files, so nothing else is loaded twice; igbinary first in case the module requires it.
		ri_args=(-n)
		[ -f "$("$PHP" -n -r 'echo ini_get("extension_dir");')/igbinary.so" ] && ri_args+=(-d extension=igbinary)
		ri=$("$PHP" "${ri_args[@]}" -d "extension=$(cd "$(dirname "$MODULE")" && pwd)/$(basename "$MODULE")" --ri table 2>&1)
		v_ri=$(sed -n 's/^Version => //p' <<<"$ri" | head -n 1)
		printf '%s --ri table\t%s\n' "$MODULE" "${v_ri:-(no Version line: $(head -n 1 <<<"$ri"))}" >>"$TMP/versions"
	fi
fi
if [ "$(cut -f2 "$TMP/versions" | sort -u | wc -l)" -eq 1 ] && [[ "$v_header" =~ ^[0-9]+\.[0-9]+\.[0-9]+ ]]; then
	ok "version: $v_header in $(cut -f1 "$TMP/versions" | paste -sd, - | sed 's/,/, /g')"
else
	fail "version: not one and the same everywhere:"
	column -t -s $'\t' "$TMP/versions" 2>/dev/null | sed 's/^/     /' || sed 's/^/     /' "$TMP/versions"
fi

# --- options ---------------------------------------------------------------------------------------------
# Options config.m4 defines: PHP_ARG_ENABLE([x]) -> enable-x, PHP_ARG_WITH([x]) -> with-x.
sed -nE 's/^[[:space:]]*PHP_ARG_(ENABLE|WITH)\(\[?([a-z0-9_-]+)\]?.*/\1 \2/p' config.m4 |
	awk '{print tolower($1) "-" $2}' | sort -u >"$TMP/m4opts"
opts=$("$PHP" -r '
	$x = @simplexml_load_file("package.xml");
	$p = [];
	foreach ($x->extsrcrelease->configureoption ?? [] as $o) $p[] = (string)$o["name"];
	sort($p);
	echo "package\t", implode(" ", $p), "\n";
	echo "provides\t", (string)$x->providesextension, "\n";
	if (is_file("composer.json")) {
		$c = json_decode(file_get_contents("composer.json"), true) ?: [];
		$o = array_map(fn($e) => $e["name"] ?? "", $c["php-ext"]["configure-options"] ?? []);
		sort($o);
		echo "composer\t", implode(" ", $o), "\n";
		echo "composer-ext\t", $c["php-ext"]["extension-name"] ?? "(none)", "\n";
		echo "composer-type\t", $c["type"] ?? "(none)", "\n";
	}
')
o_pkg=$(sed -n 's/^package\t//p' <<<"$opts")
o_cmp=$(sed -n 's/^composer\t//p' <<<"$opts")
problems=()
for o in $o_pkg $o_cmp; do
	grep -qx -- "$o" "$TMP/m4opts" || problems+=("$o is not an option of config.m4 (it has: $(paste -sd' ' "$TMP/m4opts"))")
done
[ "$(sed -n 's/^provides\t//p' <<<"$opts")" = table ] || problems+=("package.xml <providesextension> is not table")
if [ -f composer.json ]; then
	[ "$o_pkg" = "$o_cmp" ] || problems+=("package.xml configures [$o_pkg] but composer.json [$o_cmp]")
	[ "$(sed -n 's/^composer-ext\t//p' <<<"$opts")" = table ] || problems+=("composer.json php-ext.extension-name is not table")
	[ "$(sed -n 's/^composer-type\t//p' <<<"$opts")" = php-ext ] || problems+=("composer.json type is not php-ext")
fi
if [ ${#problems[@]} -eq 0 ]; then
	ok "options: configure options [$o_pkg] agree in config.m4, package.xml${o_cmp:+ and composer.json}"
else
	fail "options:"; printf '     %s\n' "${problems[@]}"
fi

# --- ini -------------------------------------------------------------------------------------------------
# table.ini is what packagers install (docs/install.md). Debian's phpenmod takes the conf.d priority from
# a `; priority=NN` comment (20 when there is none); it must sort after 20-igbinary.ini, and PIE's
# php-ext.priority in composer.json must be the same number.
if [ ! -f table.ini ]; then
	fail "ini: table.ini missing"
else
	problems=()
	grep -qE '^extension[[:space:]]*=[[:space:]]*"?table(\.so)?"?[[:space:]]*$' table.ini || problems+=("table.ini has no extension=table line")
	ini_prio=$(sed -nE 's/^;[[:space:]]*priority[[:space:]]*=[[:space:]]*([0-9]+)[[:space:]]*$/\1/p' table.ini | head -n 1)
	if [ -z "$ini_prio" ]; then
		problems+=("table.ini has no '; priority=NN' line, so phpenmod links it as 20-table.ini; add '; priority=30' (after 20-igbinary.ini)")
	elif [ "$ini_prio" -le 20 ]; then
		problems+=("table.ini's priority $ini_prio does not load it after 20-igbinary.ini")
	fi
	if [ -f composer.json ]; then
		c_prio=$("$PHP" -r '$c = json_decode(file_get_contents("composer.json"), true); echo $c["php-ext"]["priority"] ?? 80;')
		[ -z "$ini_prio" ] || [ "$c_prio" = "$ini_prio" ] || problems+=("composer.json php-ext.priority is $c_prio, table.ini says $ini_prio")
	fi
	if [ ${#problems[@]} -eq 0 ]; then
		ok "ini: table.ini loads table with priority $ini_prio (after 20-igbinary), the same as composer.json's php-ext.priority"
	else
		fail "ini:"; printf '     %s\n' "${problems[@]}"
	fi
fi

# --- w32 -------------------------------------------------------------------------------------------------
# Source lists of config.m4 (continuation lines joined): the binding, core and serializer files by basename.
m4_sources() {
	sed -e ':a' -e '/\\$/N; s/\\\n//; ta' config.m4 | tr ' \t",()' '\n' | grep -E '\.c$' | sort -u
}
w32_sources() {
	sed -e 's|//.*||' config.w32 | grep -oE '"[^"]*"|'"'[^']*'" | tr -d "\"'" | tr ' \t' '\n' | grep -E '\.c$' | sort -u
}
if [ ! -f config.w32 ]; then
	fail "w32: config.w32 missing"
else
	# redis/ (--with-table-hiredis) is POSIX-only: config.w32 declines the option, so it has no mirror there.
	m4_sources | grep -v '^redis/' | sed -E 's|^core/||; s|^serializer/||; s|^binding/||' |
		sed -E 's/_posix\.c$/_win32.c/; s/^shm_mmap\.c$/shm_win32.c/; s/^lock_pthread\.c$/lock_win32.c/' | sort -u >"$TMP/want"
	w32_sources | sed -E 's|^core[/\\]||; s|^serializer[/\\]||; s|^binding[/\\]||' | sort -u >"$TMP/have"
	problems=()
	while IFS= read -r f; do problems+=("config.m4 builds ${f} (or its POSIX counterpart), config.w32 does not"); done < <(comm -23 "$TMP/want" "$TMP/have")
	while IFS= read -r f; do problems+=("config.w32 builds ${f}, config.m4 has no counterpart"); done < <(comm -13 "$TMP/want" "$TMP/have")
	while IFS= read -r f; do
		[ -f "$f" ] || [ -f "core/$f" ] || [ -f "serializer/$f" ] || [ -f "binding/$f" ] || problems+=("config.w32 names $f, which does not exist")
	done <"$TMP/have"
	grep -qE "ARG_ENABLE\([\"']table[\"']" config.w32 || problems+=("no ARG_ENABLE(\"table\") in config.w32")
	grep -qE "ARG_ENABLE\([\"']table-igbinary[\"']" config.w32 || problems+=("no ARG_ENABLE(\"table-igbinary\") in config.w32")
	grep -qE "ADD_EXTENSION_DEP\([\"']table[\"'], *[\"']igbinary[\"']" config.w32 || problems+=("no ADD_EXTENSION_DEP(\"table\", \"igbinary\") in config.w32")
	# Every shipped C file is compiled by one of the two.
	{ m4_sources; w32_sources; } | sed -E 's|^.*[/\\]||' | sort -u >"$TMP/built"
	while IFS= read -r f; do
		grep -qx -- "$(basename "$f")" "$TMP/built" || problems+=("$f is shipped but neither config.m4 nor config.w32 compiles it")
	done < <(grep -E $'^src\t.*\\.c$' "$TMP/shipped" | cut -f2)
	if [ ${#problems[@]} -eq 0 ]; then
		ok "w32: config.w32 builds the $(wc -l <"$TMP/have") sources of config.m4 with the Windows backends (not compiled here)"
	else
		fail "w32: config.w32 does not mirror config.m4:"; printf '     %s\n' "${problems[@]}"
	fi
fi

# --- zts -------------------------------------------------------------------------------------------------
# configure takes a thread-safe PHP, with the Redis tier too (binding/php_table_tier_launcher.c). A ZTS PHP
# takes minutes to build, so fake one: a copy of this PHP's headers whose main/php_config.h defines ZTS
# (what phpize's configure reads), behind a php-config that points at the copy. Skipped when phpize or the
# headers are missing; the tier's half when pkg-config finds no hiredis.
zts_check() {
	local cfg inc fake out
	cfg=$(command -v "${PHP_CONFIG:-php-config}" 2>/dev/null) || true
	inc=$([ -n "$cfg" ] && "$cfg" --include-dir 2>/dev/null) || true
	if [ -z "$cfg" ] || ! command -v phpize >/dev/null 2>&1 || [ ! -f "$inc/main/php_config.h" ]; then
		ok "zts: skipped (no phpize, php-config or PHP headers)"; return
	fi
	fake="$TMP/zts"
	mkdir -p "$fake/src" && cp -r "$inc" "$fake/include" || { fail "zts: could not copy $inc"; return; }
	printf '\n#undef ZTS\n#define ZTS 1\n' >>"$fake/include/main/php_config.h"
	sed "s|^include_dir=.*|include_dir=\"$fake/include\"|" "$cfg" >"$fake/php-config" && chmod +x "$fake/php-config"
	cp config.m4 ./*.c ./*.h "$fake/src/" && cp -r core serializer "$fake/src/"
	out=$(cd "$fake/src" && phpize >/dev/null 2>&1 && ./configure --with-php-config="$fake/php-config" --enable-table 2>&1)
	if [ $? -ne 0 ]; then
		fail "zts: configure refused a thread-safe PHP:"; tail -n 5 <<<"$out" | sed 's/^/     /'; return
	fi
	if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists hiredis; then
		ok "zts: configure takes a thread-safe PHP (the Redis tier's half skipped: no hiredis for pkg-config)"; return
	fi
	out=$(cd "$fake/src" && ./configure --with-php-config="$fake/php-config" --enable-table --with-table-hiredis 2>&1)
	if [ $? -eq 0 ] && grep -q '^#define HAVE_TABLE_HIREDIS 1' "$fake/src/config.h"; then
		ok "zts: configure takes a thread-safe PHP, with the Redis tier (--with-table-hiredis) too"
	else
		fail "zts: configure did not take --with-table-hiredis on a thread-safe PHP:"; tail -n 5 <<<"$out" | sed 's/^/     /'
	fi
}
zts_check

# --- composer --------------------------------------------------------------------------------------------
composer_check() {
	if ! command -v composer >/dev/null 2>&1; then
		ok "composer: skipped (no composer; apt-get install composer)"; return
	fi
	local out rc problems=() extra
	out=$(cd php && COMPOSER_ALLOW_SUPERUSER=1 composer validate --strict --no-interaction 2>&1) ||
		problems+=("php/composer.json: composer validate --strict: $(tr '\n' ' ' <<<"$out")")
	out=$(COMPOSER_ALLOW_SUPERUSER=1 composer validate --no-interaction 2>&1); rc=$?
	if [ "$rc" -ne 0 ]; then
		# Exit 2 with, as the only error, the publish check's "php-ext is not defined" (PIE's key, which
		# Composer's schema gained after 2.5) is accepted; so is nothing else.
		extra=$(grep -E '^- ' <<<"$out" | grep -v '^- The property php-ext is not defined')
		if [ "$rc" -ne 2 ] || [ -n "$extra" ] || ! grep -q '^# Publish errors' <<<"$out" || grep -q '^# Errors' <<<"$out"; then
			problems+=("composer.json: composer validate (exit $rc): $(tr '\n' ' ' <<<"$out")")
		fi
	fi
	if [ ${#problems[@]} -eq 0 ]; then
		ok "composer: php/composer.json valid (--strict), composer.json valid ($(composer --version 2>/dev/null | awk '{print "Composer " $3}'))"
	else
		fail "composer:"; printf '     %s\n' "${problems[@]}"
	fi
}
composer_check

finish
}
