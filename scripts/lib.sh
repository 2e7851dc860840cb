# scripts/lib.sh - helpers shared by the scripts in this folder. Source it; don't run it.
#
#   as_root CMD...        run CMD as root (sudo only when we are not root already)
#   apt_ensure PKG...     install the Debian packages that are missing; a no-op (and no network) when all
#                         are present. One `apt-get update` per process at most.
#   apt_deb_src           add deb-src entries (none by default on Debian) so that `apt-get source` works
#   log MSG...            a progress line on stderr, prefixed with the script name
#   die MSG...            log and exit 1
#   php_tools [PHP_CONFIG]  set PHP_CONFIG, PHPIZE, PHP_BIN, PHP_EXTDIR for the release PHP (default) or for
#                         the PHP that owns the given php-config (e.g. the debug build).
#   php_minor [PHP_CONFIG]  "8.4": the major.minor of that PHP (default: the php-config on PATH); empty when
#                         there is none
#   php_without_installed_table [PHP]  when a table.so is also installed system-wide (pecl install, then
#                         table.ini in PHP's scan dir), export PHP_INI_SCAN_DIR naming a copy of that scan dir
#                         without it, so that `php -d extension=BUILD/table.so` loads the build under test
#                         instead of warning "already loaded" and testing the installed one
#   php_deb_source X.Y CACHE  unpack Debian's phpX.Y source package under CACHE/src (once), print its dir
#   php_link_aclocal PREFIX  libtool's and pkg-config's m4 files for the phpize of a PHP built under PREFIX
#   php_deb_pkgs SUFFIX...  the Debian packages of the PHP on PATH: `php_deb_pkgs dev cli` is "php8.4-dev
#                         php8.4-cli" on Debian 13; "php-dev php-cli" (the release's default PHP) when no PHP
#                         is installed yet. No script names a PHP version of its own.
#
# Nothing here reads stdin: CI runs with no terminal.

TABLE_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export DEBIAN_FRONTEND=noninteractive

log() { printf '[%s] %s\n' "$(basename "$0")" "$*" >&2; }
die() { log "error: $*"; exit 1; }

as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo -n "$@" || die "needs root for: $* (run as root or give sudo without a password)"
	else
		die "needs root for: $* (no sudo available)"
	fi
}

_TABLE_APT_UPDATED=${_TABLE_APT_UPDATED:-0}
apt_update_once() {
	if [ "$_TABLE_APT_UPDATED" = 0 ]; then
		log "apt-get update"
		# The lists lock is not covered by DPkg::Lock::Timeout: wait for another update (10 minutes at most).
		local i
		for i in $(seq 1 120); do
			as_root apt-get -o DPkg::Lock::Timeout=600 update -qq >&2 2>"${TMPDIR:-/tmp}/table-apt-update.$$" && break
			if ! grep -q 'Could not get lock' "${TMPDIR:-/tmp}/table-apt-update.$$" || [ "$i" = 120 ]; then
				cat "${TMPDIR:-/tmp}/table-apt-update.$$" >&2; rm -f "${TMPDIR:-/tmp}/table-apt-update.$$"
				die "apt-get update failed"
			fi
			sleep 5
		done
		rm -f "${TMPDIR:-/tmp}/table-apt-update.$$"
		_TABLE_APT_UPDATED=1
	fi
}

# apt_deb_src: make `apt-get source` work. Debian lists its archive without deb-src (deb822 form since 12):
# add a deb-src twin of every stanza but the security one, whose source packages the mirror does not
# serve (none when some deb-src entry exists already); then apt's lists are updated once, as for
# apt_ensure. Status 1 when there is no apt source to derive an entry from.
apt_deb_src() {
	local list
	grep -qsE '^[[:space:]]*(Types:.*deb-src|deb-src[[:space:]])' \
		/etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources && { apt_update_once; return 0; }
	if [ -f /etc/apt/sources.list.d/debian.sources ]; then
		list=/etc/apt/sources.list.d/table-deb-src.sources
		log "adding deb-src entries in $list"
		awk 'function flush() { if (buf != "" && !security) printf "%s\n", buf; buf = ""; security = 0 }
		     /^[ \t]*$/ { flush(); next }
		     /^Types:/ { $0 = "Types: deb-src" }
		     /^URIs:.*debian-security/ { security = 1 }
		     { buf = buf $0 "\n" }
		     END { flush() }' /etc/apt/sources.list.d/debian.sources | as_root tee "$list" >/dev/null
	elif [ -f /etc/apt/sources.list ]; then
		list=/etc/apt/sources.list.d/table-deb-src.list
		log "adding deb-src entries in $list"
		grep -E '^deb[[:space:]]' /etc/apt/sources.list | grep -v 'debian-security' \
			| sed 's/^deb[[:space:]]/deb-src /' | as_root tee "$list" >/dev/null
	else
		return 1
	fi
	_TABLE_APT_UPDATED=0
	apt_update_once
}

# php_deb_source X.Y CACHE: unpack Debian's phpX.Y source package into CACHE/src (once; reused after) and
# print its directory. apt-get source picks the source matching the binary candidate; when that version
# only exists in the security archive (no sources there), the newest version the deb-src entries serve.
# Status 3 when the archive lists the source package but does not serve its files (seen for Debian 13's
# php8.4: its .dsc and tarballs answer 404), 1 on another failure. Progress on stderr.
php_deb_source() {
	local version=$1 cache=$2 src="php$1" srcdir ver
	apt_deb_src || { log "error: no apt sources found to derive deb-src entries from"; return 1; }
	mkdir -p "$cache/src"
	srcdir=$(cd "$cache/src" && find . -maxdepth 1 -type d -name "$src-$version.*" | sort -V | tail -n 1)
	if [ -z "$srcdir" ] || [ ! -f "$cache/src/$srcdir/configure.ac" ]; then
		log "apt-get source $src (into $cache/src)"
		if ! (cd "$cache/src" && apt-get source -qq "$src" >&2 2>"$cache/apt-source.err"); then
			ver=$(apt-cache showsrc "$src" 2>/dev/null | awk '/^Version:/ { print $2 }' | sort -V | tail -n 1)
			[ -n "$ver" ] || { cat "$cache/apt-source.err" >&2; log "error: no $src source package available"; return 1; }
			log "binary candidate has no source; fetching $src=$ver"
			if ! (cd "$cache/src" && apt-get source -qq "$src=$ver" >&2 2>"$cache/apt-source.err"); then
				cat "$cache/apt-source.err" >&2
				if grep -q '404' "$cache/apt-source.err"; then
					log "the archive lists $src $ver but does not serve its files (404)"
					return 3
				fi
				log "error: apt-get source $src=$ver failed"
				return 1
			fi
		fi
		srcdir=$(cd "$cache/src" && find . -maxdepth 1 -type d -name "$src-$version.*" | sort -V | tail -n 1)
		[ -n "$srcdir" ] || { log "error: apt-get source produced no $src-* directory"; return 1; }
	fi
	(cd "$cache/src/$srcdir" && pwd)
}

# apcu_deb_source DIR: Debian's php-apcu source package, at the version apt would give now, unpacked under
# DIR (once; reused after): `apt-get source`, or, when the archive lists the package but serves only its
# upstream tarball (Debian 13's mirror here: the .dsc and the Debian tarball answer 404), that tarball once
# apt's own checksum of it matches. APCu's tests/ are upstream's, so either tree has them. Status 1 (saying
# why on stderr) when neither can be had. scripts/apcu-suite.sh and scripts/build-zts-apcu.sh use it.
apcu_deb_source() {
	local src=$1 want orig
	want=$(apt-cache showsrc php-apcu 2>/dev/null | awk '/^Version:/ { print $2 }' | sort -V | tail -n 1)
	[ -n "$want" ] && [ -d "$src/php-apcu-${want%%-*}" ] && return 0
	apt_ensure dpkg-dev xz-utils   # dpkg-source unpacks the source package
	apt_deb_src || { log "error: no apt sources to derive a deb-src entry from"; return 1; }
	want=$(apt-cache showsrc php-apcu 2>/dev/null | awk '/^Version:/ { print $2 }' | sort -V | tail -n 1)
	[ -n "$want" ] || { log "error: apt knows no source package php-apcu"; return 1; }
	mkdir -p "$src" || return 1
	log "apt-get source php-apcu=$want (into $src)"
	(cd "$src" && apt-get source -qq "php-apcu=$want" >&2) && return 0
	orig=$(apt-cache showsrc php-apcu 2>/dev/null | awk -v want="$want" '/^Version:/ { mine = $2 == want }
		/^Checksums-Sha256:/ { on = mine; next } /^[^ ]/ { on = 0 }
		on && $3 ~ /\.orig\.tar\./ { print $1, $3; exit }')
	[ -n "$orig" ] && [ -f "$src/${orig#* }" ] || { log "error: apt-get source php-apcu=$want failed"; return 1; }
	(cd "$src" && echo "${orig% *}  ${orig#* }" | sha256sum -c --quiet >&2) \
		|| { log "error: apt-get source php-apcu=$want failed, and ${orig#* } does not match apt's checksum"; return 1; }
	log "the archive did not serve all of php-apcu $want: unpacking its upstream tarball ${orig#* }"
	mkdir -p "$src/php-apcu-${want%%-*}" && tar -xf "$src/${orig#* }" -C "$src/php-apcu-${want%%-*}" \
		|| { log "error: cannot unpack ${orig#* }"; return 1; }
}

# php_link_aclocal PREFIX: Debian's patched phpize takes libtool's and pkg-config's m4 files from
# $prefix/share/aclocal (for Debian's own PHP that is /usr/share/aclocal); give a PHP built from Debian's
# source under PREFIX the same files.
php_link_aclocal() {
	local f
	mkdir -p "$1/share/aclocal"
	for f in pkg.m4 libtool.m4 ltoptions.m4 ltsugar.m4 ltversion.m4 'lt~obsolete.m4'; do
		[ -f "/usr/share/aclocal/$f" ] || die "/usr/share/aclocal/$f missing (install libtool and pkg-config)"
		ln -sf "/usr/share/aclocal/$f" "$1/share/aclocal/$f"
	done
}

apt_ensure() {
	local missing=() p
	for p in "$@"; do
		[[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" == *"install ok installed"* ]] || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "installing: ${missing[*]}"
	apt_update_once
	as_root apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >&2 \
		|| die "apt-get install ${missing[*]} failed"
}

php_minor() {
	local cfg=${1:-${PHP_CONFIG:-php-config}}
	command -v "$cfg" >/dev/null 2>&1 || return 0
	"$cfg" --version 2>/dev/null | cut -d. -f1,2
}

php_deb_pkgs() {
	local v s
	v=$(php_minor php-config)
	for s in "$@"; do echo "php${v}-$s"; done
}

php_without_installed_table() {
	local php=${1:-${PHP_BIN:-php}} scan dir f found=""
	local loads_table='^[[:space:]]*extension[[:space:]]*=[[:space:]]*"?([^"]*/)?table(\.so)?"?[[:space:]]*(;.*)?$'
	scan=$("$php" --ini 2>/dev/null | sed -n 's/^Scan for additional \.ini files in:[[:space:]]*//p')
	[ -n "$scan" ] && [ "$scan" != "(none)" ] || return 0
	case ":$scan:" in *:"$TABLE_ROOT"/*) return 0 ;; esac   # already one of ours
	for f in ${scan//:/ }; do
		for f in "$f"/*.ini; do grep -qE "$loads_table" "$f" 2>/dev/null && found="$found $f"; done
	done
	[ -n "$found" ] || return 0
	dir="${TABLE_BUILD_DIR:-$TABLE_ROOT/build}/ini-without-table-$("$php" -r 'echo PHP_VERSION;')"
	rm -rf "$dir" && mkdir -p "$dir" || return 1
	for f in ${scan//:/ }; do
		for f in "$f"/*.ini; do
			[ -f "$f" ] && ! grep -qE "$loads_table" "$f" && cp "$f" "$dir/"
		done
	done
	export PHP_INI_SCAN_DIR="$dir"
	log "table is also installed system-wide ($found ): PHP_INI_SCAN_DIR=$dir leaves it out, so the build under test is the one loaded"
}

php_tools() {
	PHP_CONFIG=${1:-${PHP_CONFIG:-php-config}}
	command -v "$PHP_CONFIG" >/dev/null 2>&1 || die "php-config not found: $PHP_CONFIG"
	PHP_CONFIG=$(command -v "$PHP_CONFIG")
	[[ "$PHP_CONFIG" == /* ]] || PHP_CONFIG="$PWD/$PHP_CONFIG"
	local bindir
	bindir=$(dirname "$PHP_CONFIG")
	# php-config names its binary; Debian's says /usr/bin/phpX.Y, a source build says $prefix/bin/php.
	PHP_BIN=$("$PHP_CONFIG" --php-binary 2>/dev/null || true)
	[ -x "$PHP_BIN" ] || PHP_BIN="$bindir/php"
	PHPIZE="$bindir/phpize"
	# Debian's php-config is php-configX.Y behind an alternative; phpize follows the same suffix.
	if [ ! -x "$PHPIZE" ]; then
		local suffix=${PHP_CONFIG##*/php-config}
		PHPIZE="$bindir/phpize$suffix"
	fi
	[ -x "$PHPIZE" ] || die "phpize not found next to $PHP_CONFIG"
	PHP_EXTDIR=$("$PHP_CONFIG" --extension-dir)
	export PHP_CONFIG PHPIZE PHP_BIN PHP_EXTDIR
}

# run-tests.php ships in PHP's build dir, which phpize names in its `phpdir=` line (Debian puts it under
# lib/php/<api>/build, upstream under lib/php/build).
php_run_tests_script() {
	local prefix phpdir f
	prefix=$("$PHP_CONFIG" --prefix)
	phpdir=$(sed -n 's/^phpdir="\(.*\)"$/\1/p' "$PHPIZE" | sed "s|\$prefix|$prefix|; s|\${prefix}|$prefix|")
	for f in "$phpdir/run-tests.php" "$prefix/lib/php/build/run-tests.php" "$PHP_EXTDIR/build/run-tests.php"; do
		[ -f "$f" ] && { echo "$f"; return 0; }
	done
	return 1
}

# Files of the working tree as a fresh clone would have them, plus new files that are not ignored.
# Paths are relative to $TABLE_ROOT.
tree_files() {
	if git -C "$TABLE_ROOT" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$TABLE_ROOT" ls-files -co --exclude-standard -- "$@" |
			while read -r f; do [ -f "$TABLE_ROOT/$f" ] && echo "$f"; done
	else
		(cd "$TABLE_ROOT" && find "$@" -type f | sed 's|^\./||')
	fi
}
# Copy the files named on stdin (relative to $TABLE_ROOT) into DIR, keeping their paths.
copy_into() {
	local f
	while read -r f; do mkdir -p "$1/$(dirname "$f")" && cp -p "$TABLE_ROOT/$f" "$1/$f"; done
}

# table_build DIR IGBINARY(0|1) CFLAGS
# Builds table.so from a fresh copy of the sources in DIR (phpize, configure, make), so a build never
# touches the working tree nor collides with anyone else's in-tree build. Copies what a clone would
# have: every C source, header, m4, frag and stub outside tests, benchmarks and core's own
# test/fuzz/bench folders. Needs php_tools first. Sets EXT_SO; the log is DIR.build.log. On failure
# prints the compiler diagnostics and the log's tail and returns 1. lz4 and zstd compression are built in
# when pkg-config finds liblz4 and libzstd (scripts/test.sh installs them), unless TABLE_COMPRESSION=0.
# The Redis tier (--with-table-hiredis) is built in when pkg-config finds hiredis (scripts/test.sh installs
# libhiredis-dev), unless TABLE_HIREDIS=0; TABLE_HIREDIS=1 asks for it whatever pkg-config says.
# TABLE_CONFIGURE_FLAGS: more ./configure options, split on spaces. TABLE_LOAD_CHECK=0 leaves out the check
# that the module loads in PHP_BIN (for a table.so only a sanitizer's runtime can load: scripts/test.sh's
# embed-tsan layer).
table_build() {
	local dir=$1 igbinary=$2 cflags=$3 blog="$1.build.log" flags=(--enable-table) rc out
	[ "$igbinary" = 1 ] && flags+=(--enable-table-igbinary)
	if [ "${TABLE_COMPRESSION:-1}" != 0 ] && command -v pkg-config >/dev/null 2>&1; then
		pkg-config --exists liblz4 && flags+=(--with-table-lz4)
		pkg-config --exists libzstd && flags+=(--with-table-zstd)
	fi
	case "${TABLE_HIREDIS:-auto}" in
		1) flags+=(--with-table-hiredis) ;;
		auto) command -v pkg-config >/dev/null 2>&1 && pkg-config --exists hiredis && flags+=(--with-table-hiredis) ;;
	esac
	# shellcheck disable=SC2206 # split on spaces on purpose
	[ -n "${TABLE_CONFIGURE_FLAGS:-}" ] && flags+=(${TABLE_CONFIGURE_FLAGS})
	EXT_SO="$dir/modules/table.so"
	log "building table.so in ${dir#"$TABLE_ROOT"/}: phpize && ./configure ${flags[*]} && make CFLAGS=\"$cflags\""
	rm -rf "$dir" && mkdir -p "$dir" || return 1
	tree_files . | grep -E '\.(c|h|m4|frag|w32)$|\.stub\.php$' |
		grep -vE '^(tests|benchmarks|docs|scripts|\.ci|core/(test|fuzz|bench)|redis/(test|build))/' | copy_into "$dir"
	: >"$blog"
	(
		cd "$dir" &&
		"$PHPIZE" >>"$blog" 2>&1 &&
		./configure --with-php-config="$PHP_CONFIG" "${flags[@]}" >>"$blog" 2>&1 &&
		make -j"${JOBS:-2}" CFLAGS="$cflags" >>"$blog" 2>&1
	)
	rc=$?
	php_without_installed_table "$PHP_BIN"
	if [ $rc -ne 0 ] || [ ! -f "$EXT_SO" ]; then
		# Compiler and linker diagnostics when there are any, else the tail of the step that failed.
		local diag
		diag=$(grep -E -A4 '\.(c|h):[0-9]+(:[0-9]+)?: (fatal )?(error|warning):|^cc1: |undefined reference|^collect2|/ld: ' "$blog" | head -n 80)
		if [ -n "$diag" ]; then echo "$diag"; else echo "----- last lines of $blog -----"; tail -n 30 "$blog"; fi
		echo "build failed: full log in ${blog#"$TABLE_ROOT"/}"
		return 1
	fi
	# The module must load cleanly: no startup warning, and the class is there.
	[ "${TABLE_LOAD_CHECK:-1}" = 0 ] && { log "built $EXT_SO (not loaded: TABLE_LOAD_CHECK=0)"; return 0; }
	out=$("$PHP_BIN" -d extension="$EXT_SO" -d display_startup_errors=1 \
		-r 'echo class_exists("Shm\\Table") ? "ok" : "no class Shm\\Table";' 2>&1)
	if [ "$out" != ok ]; then echo "table.so does not load cleanly: $out"; return 1; fi
	log "built $EXT_SO"
}
