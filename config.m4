dnl config.m4 for the table extension (Shm\Table).

PHP_ARG_ENABLE([table],
  [whether to enable the table extension],
  [AS_HELP_STRING([--enable-table], [Enable Shm\Table, a shared-memory key/value table])],
  [no])

PHP_ARG_ENABLE([table-igbinary],
  [whether table should support the igbinary serializer],
  [AS_HELP_STRING([--enable-table-igbinary], [table: build the igbinary serializer (requires ext/igbinary)])],
  [no], [no])

PHP_ARG_WITH([table-lz4],
  [whether table should compress values with lz4],
  [AS_HELP_STRING([--with-table-lz4], [table: table.compression=lz4 (requires liblz4, found with pkg-config)])],
  [no], [no])

PHP_ARG_WITH([table-zstd],
  [whether table should compress values with zstd],
  [AS_HELP_STRING([--with-table-zstd], [table: table.compression=zstd (requires libzstd, found with pkg-config)])],
  [no], [no])

PHP_ARG_WITH([table-hiredis],
  [whether table should support tiered namespaces through Redis],
  [AS_HELP_STRING([--with-table-hiredis[=DIR]], [table: tiered namespaces through Redis (requires hiredis; found with pkg-config, or DIR/include + DIR/lib)])],
  [no], [no])

if test "$PHP_TABLE" != "no"; then
  dnl Thread-safe PHP (ZTS) is supported: each thread reads through a handle of its own (core/table_core.h,
  dnl tbl_thread_open). The Redis tier is not yet: one connection and one helper per process.
  if test "$PHP_THREAD_SAFETY" = "yes" && test "$PHP_TABLE_HIREDIS" != "no"; then
    AC_MSG_ERROR([--with-table-hiredis is not supported on thread-safe PHP (ZTS) yet: the Redis tier keeps one connection per process. Build without it for ZTS, or use a non-thread-safe (NTS) PHP])
  fi

  AC_DEFINE(HAVE_TABLE, 1, [Whether the table extension is enabled])

  TABLE_CORE_SOURCES="core/status.c core/clock_posix.c core/proc_posix.c core/shm_mmap.c core/shm_file.c core/lock_pthread.c core/alloc.c \
    core/epoch.c core/sync.c core/ns.c core/write.c core/entry.c core/evict.c core/room.c core/expire.c \
    core/window.c core/gdsf.c core/claim.c core/gc.c core/tier.c \
    core/table_core.c core/read.c core/stats.c core/check.c \
    core/random_posix.c core/hash.c core/split.c core/frame.c core/serial_scan.c"
  TABLE_SERIALIZER_SOURCES="serializer/serializer.c serializer/native.c serializer/shape.c serializer/image.c serializer/php.c serializer/compress.c"

  dnl Compression libraries, each only when asked for: pkg-config finds its flags.
  if test "$PHP_TABLE_LZ4" != "no"; then
    PKG_CHECK_MODULES([TABLE_LZ4], [liblz4], [], [AC_MSG_ERROR([--with-table-lz4: liblz4 not found by pkg-config; install liblz4-dev or drop the option])])
    PHP_EVAL_INCLINE([$TABLE_LZ4_CFLAGS])
    PHP_EVAL_LIBLINE([$TABLE_LZ4_LIBS], TABLE_SHARED_LIBADD)
    AC_DEFINE(HAVE_TABLE_LZ4, 1, [Whether table is built with lz4])
  fi
  if test "$PHP_TABLE_ZSTD" != "no"; then
    PKG_CHECK_MODULES([TABLE_ZSTD], [libzstd], [], [AC_MSG_ERROR([--with-table-zstd: libzstd not found by pkg-config; install libzstd-dev or drop the option])])
    PHP_EVAL_INCLINE([$TABLE_ZSTD_CFLAGS])
    PHP_EVAL_LIBLINE([$TABLE_ZSTD_LIBS], TABLE_SHARED_LIBADD)
    AC_DEFINE(HAVE_TABLE_ZSTD, 1, [Whether table is built with zstd])
  fi

  dnl Redis (tiered namespaces, issue #22): the Zend-free client in redis/ on top of hiredis, 0.14 or 1.x.
  TABLE_REDIS_SOURCES=""
  TABLE_EXTRA_CFLAGS=""
  if test "$PHP_TABLE_HIREDIS" != "no"; then
    if test "$PHP_TABLE_HIREDIS" = "yes"; then
      PKG_CHECK_MODULES([TABLE_HIREDIS], [hiredis], [], [AC_MSG_ERROR([--with-table-hiredis: hiredis not found by pkg-config; install libhiredis-dev, give its prefix (--with-table-hiredis=DIR), or drop the option])])
      PHP_EVAL_INCLINE([$TABLE_HIREDIS_CFLAGS])
      PHP_EVAL_LIBLINE([$TABLE_HIREDIS_LIBS], TABLE_SHARED_LIBADD)
      dnl TLS (tls://, redis/redis_tls.c): hiredis built with SSL (hiredis_ssl, hiredis >= 1.0: Debian 13) and
      dnl OpenSSL's headers (libssl-dev). Without them a tls:// URL is refused with a message saying why.
      dnl TABLE_HIREDIS_TLS=0 in the environment leaves TLS out even when both are found.
      AC_MSG_CHECKING([for hiredis_ssl and openssl (TLS for the Redis tier)])
      if test "$TABLE_HIREDIS_TLS" != "0" && test -n "$PKG_CONFIG" && $PKG_CONFIG --exists hiredis_ssl openssl; then
        AC_MSG_RESULT([yes])
        TABLE_HIREDIS_SSL_CFLAGS=`$PKG_CONFIG --cflags hiredis_ssl openssl`
        TABLE_HIREDIS_SSL_LIBS=`$PKG_CONFIG --libs hiredis_ssl openssl`
        PHP_EVAL_INCLINE([$TABLE_HIREDIS_SSL_CFLAGS])
        PHP_EVAL_LIBLINE([$TABLE_HIREDIS_SSL_LIBS], TABLE_SHARED_LIBADD)
        TABLE_EXTRA_CFLAGS="$TABLE_EXTRA_CFLAGS -DTBL_HAVE_REDIS_TLS=1"
        AC_DEFINE(HAVE_TABLE_REDIS_TLS, 1, [Whether the Redis tier can speak TLS (hiredis_ssl)])
      else
        AC_MSG_RESULT([no: tls:// URLs will be refused])
      fi
    else
      AC_MSG_CHECKING([for hiredis in $PHP_TABLE_HIREDIS])
      if test -f "$PHP_TABLE_HIREDIS/include/hiredis/hiredis.h"; then
        AC_MSG_RESULT([found])
      else
        AC_MSG_RESULT([not found])
        AC_MSG_ERROR([--with-table-hiredis=$PHP_TABLE_HIREDIS: no include/hiredis/hiredis.h there])
      fi
      PHP_ADD_INCLUDE([$PHP_TABLE_HIREDIS/include])
      PHP_ADD_LIBRARY_WITH_PATH([hiredis], [$PHP_TABLE_HIREDIS/$PHP_LIBDIR], TABLE_SHARED_LIBADD)
    fi
    AC_DEFINE(HAVE_TABLE_HIREDIS, 1, [Whether table is built with hiredis (tiered namespaces through Redis)])
    TABLE_REDIS_SOURCES="redis/redis_url.c redis/redis_conn.c redis/redis_tls.c redis/redis_sentinel.c redis/redis_cluster.c redis/redis_client.c redis/redis_client_cluster.c redis/redis_tracker.c redis/tier_config.c redis/tier_helper.c"
  fi

  if test "$PHP_TABLE_IGBINARY" != "no"; then
    dnl serializer/igbinary.c includes "ext/igbinary/igbinary.h", so look for a directory holding ext/igbinary/
    dnl that is already on the include path: `php-config --include-dir` (phpize, pecl, PIE), or the root of
    dnl the PHP source tree when table is built inside php-src next to ext/igbinary.
    AC_MSG_CHECKING([for igbinary headers])
    TABLE_IGBINARY_INC=""
    for dir in "$phpincludedir" "$abs_srcdir"; do
      if test -f "$dir/ext/igbinary/igbinary.h"; then
        TABLE_IGBINARY_INC="$dir/ext/igbinary"
        break
      fi
    done
    if test -z "$TABLE_IGBINARY_INC"; then
      AC_MSG_ERROR([ext/igbinary/igbinary.h not found under $phpincludedir; install php-igbinary (its headers) or drop --enable-table-igbinary])
    fi
    AC_MSG_RESULT([$TABLE_IGBINARY_INC])
    AC_DEFINE(HAVE_TABLE_IGBINARY, 1, [Whether table is built with igbinary])
    TABLE_SERIALIZER_SOURCES="$TABLE_SERIALIZER_SOURCES serializer/igbinary.c"
  fi

  TABLE_BINDING_SOURCES="binding/php_table_methods.c binding/php_table_remember.c binding/php_table_scan.c binding/php_table_ns.c \
    binding/php_table_glob.c binding/php_table_testhooks.c binding/php_table_metrics.c \
    binding/php_table_state.c binding/php_table_users.c binding/php_table_errors.c binding/php_table_values.c binding/php_table_tier.c \
    binding/php_table_apcu_module.c binding/php_table_apcu_functions.c binding/php_table_apcu_info.c \
    binding/php_table_apcu_iterator.c"

  dnl Only get_module() is exported (ZEND_GET_MODULE marks it): calls between the extension's own files,
  dnl the read path's above all, are then direct and may be inlined, instead of going through the PLT.
  PHP_NEW_EXTENSION(table, table.c $TABLE_BINDING_SOURCES $TABLE_CORE_SOURCES $TABLE_SERIALIZER_SOURCES $TABLE_REDIS_SOURCES, $ext_shared,, [-std=gnu11 -Wall -Wextra -fvisibility=hidden -DZEND_ENABLE_STATIC_TSRMLS_CACHE=1 $TABLE_EXTRA_CFLAGS])
  PHP_ADD_BUILD_DIR($ext_builddir/binding, 1)
  PHP_ADD_BUILD_DIR($ext_builddir/core, 1)
  PHP_ADD_BUILD_DIR($ext_builddir/serializer, 1)
  if test "$PHP_TABLE_HIREDIS" != "no"; then
    PHP_ADD_BUILD_DIR($ext_builddir/redis, 1)
  fi
  PHP_ADD_INCLUDE($ext_srcdir)
  PHP_ADD_INCLUDE($ext_srcdir/binding)
  if test "$PHP_TABLE_IGBINARY" != "no"; then
    PHP_ADD_EXTENSION_DEP(table, igbinary, false)
  fi
  PHP_ADD_LIBRARY(pthread, 1, TABLE_SHARED_LIBADD)
  PHP_SUBST(TABLE_SHARED_LIBADD)
fi
