/*
 * php_table_users.c - an anonymous table seen by processes of different users.
 *
 * php-fpm's master maps the anonymous table before it forks, so every pool inherits it, whatever user
 * each pool runs as: on a shared host, one customer's pool could read another's entries. So the first
 * user to run a request on the table owns it (tbl_user_claim, for the segment's life) and sees it as
 * ever; a process of any other user sees namespaces of its own. Each namespace name it passes, and its
 * default namespace (null), is stored under a prefix naming its user:
 *
 *     "\x01" <decimal uid> "\x01" <name>        ("\x01" <uid> "\x01" alone is that user's default)
 *
 * and every listing (namespaces(), stats()['namespaces'], metrics(), fullscan(), clearAll()) shows a
 * process only its user's namespaces, without the prefix; the owner sees none of the prefixed ones. No
 * name a caller passes may begin with the byte 0x01 (php_table_check_ns), so no user can name another's.
 * Table-wide figures (entries, memory, hits) stay table-wide: they count, they show no entry.
 *
 * What this does not do: the memory is shared, so one user's writes can evict another's entries; and
 * the mapping itself is in every worker's address space, so PHP code that can read raw memory (FFI,
 * a debugger as that user) reads every user's entries. Hard isolation is a named segment per pool
 * (php_admin_value[table.segment]), a file only its user can open (docs/reliability.md). Named segments
 * are never partitioned: whoever may open the file (its owner, and with 0660 its group) is trusted.
 * The Redis tier keeps one L1 per table, invalidated by one helper for one user: a process of another
 * user finds the table unavailable when table.redis is set, with a message saying why.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include <inttypes.h>
#ifndef PHP_WIN32
# include <unistd.h>
#endif

#include "php.h"
#include "php_table_internal.h"

/* "\x01" + at most 10 digits + "\x01". */
#define PHP_TABLE_USER_TAG_MAX 12

static char php_table_user_tag[PHP_TABLE_USER_TAG_MAX + 1];
static bool php_table_user_started;

bool php_table_user_view_start(tbl_t *t)
{
	uint32_t me, owner;

	if (EXPECTED(php_table_user_started)) {
		return true;
	}
	php_table_user_started = true;
#ifdef PHP_WIN32
	(void)t;
	(void)me;
	(void)owner;
	return true;   /* one user per table there: anonymous mappings are not inherited across users */
#else
	me = (uint32_t)geteuid();
	owner = tbl_user_claim(t, me);
	if (owner == me) {
		return true;
	}
	php_table_user_tag_len = (size_t)snprintf(php_table_user_tag, sizeof(php_table_user_tag), "\x01%" PRIu32 "\x01", me);
	php_table_default_ns_update();
#ifdef HAVE_TABLE_HIREDIS
	if (php_table_tier_on) {
		snprintf(php_table_reason, sizeof(php_table_reason),
			"this process runs as user %" PRIu32 ", and the anonymous table belongs to user %" PRIu32 ", whose "
			"processes used it first: the Redis tier (table.redis) cannot be shared between users; give this "
			"pool a named segment of its own (php_admin_value[table.segment])", me, owner);
		return false;
	}
#endif
	return true;
#endif
}

/* `ns` (NULL: the default namespace) under this process's prefix, in buf. false (ValueError thrown) when
 * the prefixed name is too long. */
static bool php_table_user_name(const zend_string *ns, char *buf, size_t *len)
{
	size_t n = ns ? ZSTR_LEN(ns) : 0;

	if (php_table_user_tag_len + n > TBL_NS_NAME_MAX) {
		zend_value_error("Namespace must be at most %zu bytes long for a process of this user (its "
			"namespaces are stored under a prefix of %zu bytes)", (size_t)TBL_NS_NAME_MAX - php_table_user_tag_len,
			php_table_user_tag_len);
		return false;
	}
	memcpy(buf, php_table_user_tag, php_table_user_tag_len);
	if (n) {
		memcpy(buf + php_table_user_tag_len, ZSTR_VAL(ns), n);
	}
	*len = php_table_user_tag_len + n;
	return true;
}

int php_table_user_ns_read(tbl_t *t, const zend_string *ns, tbl_ns_t *out)
{
	char buf[TBL_NS_NAME_MAX];
	size_t len;
	tbl_status_t st;

	if (!php_table_user_name(ns, buf, &len)) {
		return -1;
	}
	st = tbl_ns_find(t, buf, len, out);
	if (st == TBL_OK) {
		return 1;
	}
	return php_table_throw(t, st, NULL, 0) ? -1 : 0;
}

bool php_table_user_ns_write(tbl_t *t, const zend_string *ns, tbl_ns_t *out)
{
	char buf[TBL_NS_NAME_MAX];
	size_t len;
	tbl_status_t st;

	if (!php_table_user_name(ns, buf, &len)) {
		return false;
	}
	st = tbl_ns_get(t, buf, len, out);
	if (st == TBL_OK) {
		return true;
	}
	php_table_throw(t, st, NULL, 0);
	return false;
}

int php_table_user_ns_shown(bool is_default, const char *name, size_t len, const char **shown, size_t *shown_len)
{
	if (!php_table_user_tag_len) {
		/* The owner: everything but other users' namespaces. */
		if (is_default) {
			return PHP_TABLE_NS_SHOWN_DEFAULT;
		}
		if (len > 0 && name[0] == '\x01') {
			return PHP_TABLE_NS_HIDDEN;
		}
		*shown = name;
		*shown_len = len;
		return PHP_TABLE_NS_SHOWN;
	}
	if (is_default || len < php_table_user_tag_len || memcmp(name, php_table_user_tag, php_table_user_tag_len) != 0) {
		return PHP_TABLE_NS_HIDDEN;
	}
	if (len == php_table_user_tag_len) {
		return PHP_TABLE_NS_SHOWN_DEFAULT;
	}
	*shown = name + php_table_user_tag_len;
	*shown_len = len - php_table_user_tag_len;
	return PHP_TABLE_NS_SHOWN;
}

void php_table_user_view_forget(void)
{
	php_table_user_started = false;
	php_table_user_tag_len = 0;
	php_table_default_ns_update();
}
