/*
 * php_table_apcu_iterator.c - APCu 5.1's APCUIterator on the table's "apcu" namespace, and apcu_delete()
 * of an iterator.
 *
 * What APCu does, reproduced here: the constructor takes a search (a PCRE regex string, an array of keys,
 * or null/"" for everything), a format (APC_ITER_* bits: which fields each item's array holds, always in
 * APCu's order), a chunk size (0: 100) and a list (APC_LIST_ACTIVE; APC_LIST_DELETED lists APCu's entries
 * that were deleted while still referenced, which the table never has: always empty). The iterator fetches
 * a chunk of matching entries at a time and hands them out from that chunk, so an entry deleted after its
 * chunk was fetched is still seen (APCu's iterator_009). The totals (getTotalCount/Size/Hits) are counted
 * once, by a scan of their own, over every live matching entry. apcu_delete($iterator) deletes what the
 * iterator has not handed out yet, as APCu's does (a fresh iterator: everything it matches).
 *
 * How it walks the table. A chunk is a series of bounded tbl_scan() calls over the apcu namespace, each
 * its own read section (as keys() does, php_table_scan.c), from the iterator's bucket cursor, until the
 * chunk holds `chunk_size` entries or the scan wraps. The scan callback only matches the key (pcre2_match
 * with match data allocated up front, or a hash lookup) and records key and metadata; values are read
 * after the read section closed, with php_table_fetch, since decoding may run user code (__wakeup,
 * __unserialize). An entry gone by then is left out of the chunk. Like Redis SCAN and unlike APCu's
 * locked slot walk, entries written during an iteration may or may not be seen; none is seen twice
 * unless the table's index is resized meanwhile.
 *
 * What the table does not keep is filled as apcu_cache_info() fills it (php_table_apcu_info.c):
 * num_hits and ref_count 0, access_time the last write, deletion_time 0.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "ext/pcre/php_pcre.h"
#include "zend_exceptions.h"
#include "zend_interfaces.h"

#include "php_table.h"
#include "php_table_apcu.h"

#define PHP_TABLE_APCU_DEFAULT_CHUNK 100   /* APCu's APC_DEFAULT_CHUNK_SIZE */

/* What a chunk holds of one entry until it is handed out. */
typedef struct php_table_apcu_item {
	zend_string *key;
	zval value;                 /* the item's array, in the iterator's format (UNDEF until built) */
	uint32_t created, updated, expire, size;
} php_table_apcu_item;

typedef struct php_table_apcu_iter {
	bool initialized;           /* the constructor succeeded (APCu's "uninitialized" Error otherwise) */
	bool started, done;         /* the scan has begun / wrapped */
	zend_long format, list;
	size_t chunk_size;
	uint64_t cursor;            /* the next bucket to scan */
	php_table_apcu_item *items; /* the current chunk */
	size_t count, cap, pos;     /* items in it, allocated, handed out */
	/* The search: a regex (pce, its match data) or a set of keys, or neither. */
	pcre_cache_entry *pce;
	zend_string *regex;
	pcre2_match_data *match;
	HashTable *keys;
	/* The totals, counted once. */
	bool totals;
	zend_long total_count, total_size;
	zend_object std;
} php_table_apcu_iter;

PHP_TABLE_HIDDEN zend_class_entry *php_table_apcu_iterator_ce;
static zend_object_handlers php_table_apcu_iter_handlers;

static zend_always_inline php_table_apcu_iter *php_table_apcu_iter_from(zend_object *obj)
{
	return (php_table_apcu_iter *)((char *)obj - XtOffsetOf(php_table_apcu_iter, std));
}

/* ---- the chunk -------------------------------------------------------------------------------------- */

static void php_table_apcu_chunk_clear(php_table_apcu_iter *it)
{
	for (size_t i = 0; i < it->count; i++) {
		zend_string_release(it->items[i].key);
		zval_ptr_dtor(&it->items[i].value);
	}
	it->count = 0;
	it->pos = 0;
}

/* Runs inside the core's read section: matches and allocates only, never calls into the table. */
static bool php_table_apcu_iter_match(const php_table_apcu_iter *it, const char *key, size_t klen)
{
	if (it->keys) {
		return zend_hash_str_exists(it->keys, key, klen);
	}
	if (it->pce) {
		return pcre2_match(php_pcre_pce_re(it->pce), (PCRE2_SPTR)key, klen, 0, 0, it->match, php_pcre_mctx()) >= 0;
	}
	return true;
}

static int php_table_apcu_chunk_cb(void *arg, tbl_ns_t ns, const char *key, size_t klen, const tbl_view_t *v)
{
	php_table_apcu_iter *it = arg;
	php_table_apcu_item *item;
	(void)ns;

	if (!php_table_apcu_iter_match(it, key, klen)) {
		return 0;
	}
	if (it->count == it->cap) {
		it->cap = it->cap ? it->cap * 2 : 16;
		it->items = safe_erealloc(it->items, it->cap, sizeof(*it->items), 0);
	}
	item = &it->items[it->count++];
	item->key = zend_string_init(key, klen, 0);
	ZVAL_UNDEF(&item->value);
	item->created = v->created;
	item->updated = v->updated;
	item->expire = v->expire;
	item->size = v->size;
	return 0;
}

/* An item's array in the iterator's format, APCu's keys in APCu's order. */
static void php_table_apcu_item_build(const php_table_apcu_iter *it, php_table_apcu_item *item, zval *value)
{
	zend_long f = it->format;
	tbl_view_t v = { .created = item->created, .updated = item->updated, .expire = item->expire };
	zval *out = &item->value;

	array_init(out);
	if (f & (1 << 0)) {
		add_assoc_string(out, "type", "user");
	}
	if (f & (1 << 1)) {
		add_assoc_str(out, "key", zend_string_copy(item->key));
	}
	if (f & (1 << 2)) {
		add_assoc_zval(out, "value", value);
	}
	if (f & (1 << 3)) {
		add_assoc_long(out, "num_hits", 0);
	}
	if (f & (1 << 4)) {
		add_assoc_long(out, "mtime", (zend_long)item->updated);
	}
	if (f & (1 << 5)) {
		add_assoc_long(out, "creation_time", (zend_long)item->created);
	}
	if (f & (1 << 6)) {
		add_assoc_long(out, "deletion_time", 0);
	}
	if (f & (1 << 7)) {
		add_assoc_long(out, "access_time", (zend_long)item->updated);
	}
	if (f & (1 << 8)) {
		add_assoc_long(out, "ref_count", 0);
	}
	if (f & (1 << 9)) {
		add_assoc_long(out, "mem_size", (zend_long)item->size);
	}
	if (f & (1 << 10)) {
		add_assoc_long(out, "ttl", php_table_apcu_entry_ttl(&v));
	}
}

/* The next chunk (the current one is dropped): its size; 0 at the end, or when it threw. */
static size_t php_table_apcu_chunk_fetch(php_table_apcu_iter *it)
{
	tbl_t *t;
	tbl_ns_t ns;
	size_t kept = 0;

	php_table_apcu_chunk_clear(it);
	if (it->list != PHP_TABLE_APC_LIST_ACTIVE || it->done) {
		return 0;   /* the table keeps no deleted entries: APCu's deleted list is always empty here */
	}
	if (!(t = php_table_apcu_table(false)) || php_table_apcu_ns_read(t, &ns) <= 0) {
		it->done = true;
		return 0;
	}
	if (!it->started) {
		it->started = true;
		it->cursor = 0;
	}
	do {
		/* Bounded read sections: about one bucket per entry, at most PHP_TABLE_SCAN_CHUNK buckets each. */
		uint64_t buckets = it->chunk_size - it->count;

		buckets = buckets < 16 ? 16 : buckets > PHP_TABLE_SCAN_CHUNK ? PHP_TABLE_SCAN_CHUNK : buckets;
		tbl_scan(t, ns, &it->cursor, buckets, php_table_apcu_chunk_cb, it);
		if (it->cursor == 0) {
			it->done = true;
		}
	} while (!it->done && it->count < it->chunk_size);

	/* Outside the read section: read the values (user code may run), build the items' arrays. */
	for (size_t i = 0; i < it->count; i++) {
		php_table_apcu_item item = it->items[i];
		zval value;

		ZVAL_UNDEF(&value);
		if (it->format & (1 << 2)) {
			tbl_view_t meta;
			int r = php_table_fetch(t, ns, item.key, &value, &meta, 0);

			if (r <= 0) {
				zend_string_release(item.key);   /* gone since the scan (or thrown): left out */
				if (r < 0) {
					for (size_t j = i + 1; j < it->count; j++) {
						zend_string_release(it->items[j].key);
					}
					it->count = kept;
					break;
				}
				continue;
			}
			item.created = meta.created;
			item.updated = meta.updated;
			item.expire = meta.expire;
			item.size = meta.size;
		}
		php_table_apcu_item_build(it, &item, &value);
		it->items[kept++] = item;
	}
	it->count = kept;
	it->pos = 0;
	if (EG(exception)) {
		return 0;
	}
	/* Every entry of this chunk went away meanwhile: go on to the next one. */
	return kept == 0 && !it->done ? php_table_apcu_chunk_fetch(it) : kept;
}

/* ---- totals ------------------------------------------------------------------------------------------ */

typedef struct php_table_apcu_totals_ctx {
	php_table_apcu_iter *it;
	zend_long count, size;
} php_table_apcu_totals_ctx;

static int php_table_apcu_totals_cb(void *arg, tbl_ns_t ns, const char *key, size_t klen, const tbl_view_t *v)
{
	php_table_apcu_totals_ctx *ctx = arg;
	(void)ns;

	if (php_table_apcu_iter_match(ctx->it, key, klen)) {
		ctx->count++;
		ctx->size += (zend_long)v->size;
	}
	return 0;
}

static void php_table_apcu_totals(php_table_apcu_iter *it)
{
	php_table_apcu_totals_ctx ctx = { it, 0, 0 };
	tbl_t *t;
	tbl_ns_t ns;
	uint64_t cursor = 0;

	if (it->totals) {
		return;
	}
	if ((t = php_table_apcu_table(false)) != NULL && php_table_apcu_ns_read(t, &ns) > 0) {
		do {
			tbl_scan(t, ns, &cursor, PHP_TABLE_SCAN_CHUNK, php_table_apcu_totals_cb, &ctx);
		} while (cursor != 0);
	}
	it->total_count = ctx.count;
	it->total_size = ctx.size;
	it->totals = true;
}

/* ---- the object -------------------------------------------------------------------------------------- */

static zend_object *php_table_apcu_iter_create(zend_class_entry *ce)
{
	php_table_apcu_iter *it = zend_object_alloc(sizeof(*it), ce);

	zend_object_std_init(&it->std, ce);
	object_properties_init(&it->std, ce);
	it->std.handlers = &php_table_apcu_iter_handlers;
	return &it->std;
}

/* Everything the constructor set up, so that it can run again (APCu allows calling it twice). */
static void php_table_apcu_iter_reset(php_table_apcu_iter *it)
{
	php_table_apcu_chunk_clear(it);
	if (it->items) {
		efree(it->items);
		it->items = NULL;
		it->cap = 0;
	}
	if (it->match) {
		pcre2_match_data_free(it->match);
		it->match = NULL;
	}
	if (it->regex) {
		zend_string_release(it->regex);
		it->regex = NULL;
	}
	it->pce = NULL;
	if (it->keys) {
		zend_hash_destroy(it->keys);
		FREE_HASHTABLE(it->keys);
		it->keys = NULL;
	}
	it->initialized = false;
}

static void php_table_apcu_iter_free(zend_object *obj)
{
	php_table_apcu_iter_reset(php_table_apcu_iter_from(obj));
	zend_object_std_dtor(obj);
}

static php_table_apcu_iter *php_table_apcu_iter_ready(zval *this_ptr)
{
	php_table_apcu_iter *it = php_table_apcu_iter_from(Z_OBJ_P(this_ptr));

	if (UNEXPECTED(!it->initialized)) {
		zend_throw_error(NULL, "Trying to use uninitialized APCUIterator");
		return NULL;
	}
	return it;
}

PHP_METHOD(APCUIterator, __construct)
{
	php_table_apcu_iter *it = php_table_apcu_iter_from(Z_OBJ_P(ZEND_THIS));
	zval *search = NULL;
	zend_long format = 0xffffffffL, chunk_size = 0, list = PHP_TABLE_APC_LIST_ACTIVE;
	(void)return_value;

	ZEND_PARSE_PARAMETERS_START(0, 4)
		Z_PARAM_OPTIONAL
		Z_PARAM_ZVAL_OR_NULL(search)
		Z_PARAM_LONG(format)
		Z_PARAM_LONG(chunk_size)
		Z_PARAM_LONG(list)
	ZEND_PARSE_PARAMETERS_END();

	php_table_apcu_iter_reset(it);
	/* APCu's answers, in APCu's order: errors (E_ERROR) and a warning leave it uninitialized. */
	if (chunk_size < 0) {
		php_error_docref(NULL, E_ERROR, "APCUIterator chunk size must be 0 or greater");
		return;
	}
	if (!php_table_apcu_table(true)) {
		zend_throw_error(NULL, "APC must be enabled to use APCUIterator");
		return;
	}
	if (format > 0xffffffffL) {
		php_error_docref(NULL, E_ERROR, "APCUIterator format is invalid");
		return;
	}
	if (list != PHP_TABLE_APC_LIST_ACTIVE && list != PHP_TABLE_APC_LIST_DELETED) {
		php_error_docref(NULL, E_WARNING, "APCUIterator invalid list type");
		return;
	}
	it->format = format;
	it->list = list;
	it->chunk_size = chunk_size ? (size_t)chunk_size : PHP_TABLE_APCU_DEFAULT_CHUNK;
	it->started = it->done = it->totals = false;
	it->cursor = 0;
	if (search && Z_TYPE_P(search) == IS_STRING && Z_STRLEN_P(search)) {
		if ((it->pce = pcre_get_compiled_regex_cache(Z_STR_P(search))) == NULL) {
			/* pcre has warned; as APCu, go on without a search. */
			php_error_docref(NULL, E_ERROR, "Could not compile regular expression: %s", Z_STRVAL_P(search));
		} else {
			it->regex = zend_string_copy(Z_STR_P(search));   /* keeps the cached pattern's key alive */
			it->match = pcre2_match_data_create_from_pattern(php_pcre_pce_re(it->pce), php_pcre_gctx());
			if (!it->match) {
				zend_throw_error(NULL, "APCUIterator: out of memory for the regular expression's match data");
				return;
			}
		}
	} else if (search && Z_TYPE_P(search) == IS_ARRAY) {
		zval *k;

		/* APCu matches a key against the array's string values (others match nothing). */
		ALLOC_HASHTABLE(it->keys);
		zend_hash_init(it->keys, zend_hash_num_elements(Z_ARRVAL_P(search)), NULL, NULL, 0);
		ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(search), k) {
			ZVAL_DEREF(k);
			if (Z_TYPE_P(k) == IS_STRING) {
				zend_hash_add_empty_element(it->keys, Z_STR_P(k));
			}
		} ZEND_HASH_FOREACH_END();
	}
	it->initialized = true;
}

PHP_METHOD(APCUIterator, rewind)
{
	php_table_apcu_iter *it;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(it = php_table_apcu_iter_ready(ZEND_THIS))) {
		RETURN_THROWS();
	}
	it->started = it->done = false;
	php_table_apcu_chunk_fetch(it);
}

PHP_METHOD(APCUIterator, valid)
{
	php_table_apcu_iter *it;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(it = php_table_apcu_iter_ready(ZEND_THIS))) {
		RETURN_THROWS();
	}
	if (it->pos == it->count) {
		php_table_apcu_chunk_fetch(it);
	}
	RETURN_BOOL(it->count > 0);
}

/* The item handed out now, fetching the next chunk when this one is used up; NULL (thrown) past the end. */
static php_table_apcu_item *php_table_apcu_iter_item(php_table_apcu_iter *it, const char *method)
{
	if (it->pos == it->count && php_table_apcu_chunk_fetch(it) == 0) {
		if (!EG(exception)) {
			zend_throw_error(NULL, "Cannot call %s() on invalid iterator", method);
		}
		return NULL;
	}
	return &it->items[it->pos];
}

PHP_METHOD(APCUIterator, current)
{
	php_table_apcu_iter *it;
	php_table_apcu_item *item;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(it = php_table_apcu_iter_ready(ZEND_THIS)) || !(item = php_table_apcu_iter_item(it, "current"))) {
		RETURN_THROWS();
	}
	RETURN_COPY(&item->value);
}

PHP_METHOD(APCUIterator, key)
{
	php_table_apcu_iter *it;
	php_table_apcu_item *item;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(it = php_table_apcu_iter_ready(ZEND_THIS)) || !(item = php_table_apcu_iter_item(it, "key"))) {
		RETURN_THROWS();
	}
	RETURN_STR_COPY(item->key);
}

PHP_METHOD(APCUIterator, next)
{
	php_table_apcu_iter *it;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(it = php_table_apcu_iter_ready(ZEND_THIS))) {
		RETURN_THROWS();
	}
	if (it->pos < it->count) {
		it->pos++;
	}
}

PHP_METHOD(APCUIterator, getTotalHits)
{
	php_table_apcu_iter *it;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(it = php_table_apcu_iter_ready(ZEND_THIS))) {
		RETURN_THROWS();
	}
	php_table_apcu_totals(it);
	RETURN_LONG(0);   /* no per-entry hit counters: readers never write to an entry */
}

PHP_METHOD(APCUIterator, getTotalSize)
{
	php_table_apcu_iter *it;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(it = php_table_apcu_iter_ready(ZEND_THIS))) {
		RETURN_THROWS();
	}
	php_table_apcu_totals(it);
	RETURN_LONG(it->total_size);
}

PHP_METHOD(APCUIterator, getTotalCount)
{
	php_table_apcu_iter *it;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(it = php_table_apcu_iter_ready(ZEND_THIS))) {
		RETURN_THROWS();
	}
	php_table_apcu_totals(it);
	RETURN_LONG(it->total_count);
}

/* ---- apcu_delete(APCUIterator) ------------------------------------------------------------------------ */

bool php_table_apcu_iterator_delete(zval *obj)
{
	php_table_apcu_iter *it;
	tbl_t *t;
	tbl_ns_t ns;

	if (!instanceof_function(Z_OBJCE_P(obj), php_table_apcu_iterator_ce)) {
		php_error_docref(NULL, E_ERROR, "apc_delete object argument must be instance of APCUIterator.");
		return false;
	}
	if (!(it = php_table_apcu_iter_ready(obj))) {
		return false;
	}
	/* From where the iterator stands, as APCu: the rest of this chunk, then every chunk after it. The
	 * values are not needed: fetch keys only. */
	{
		zend_long format = it->format;

		it->format = 1 << 1;
		while (it->pos < it->count || php_table_apcu_chunk_fetch(it) > 0) {
			if ((t = php_table_apcu_table(true)) == NULL || php_table_apcu_ns_read(t, &ns) <= 0) {
				break;
			}
			for (; it->pos < it->count; it->pos++) {
				zend_string *key = it->items[it->pos].key;
				tbl_status_t st = tbl_delete(t, ns, ZSTR_VAL(key), ZSTR_LEN(key));

				if (st != TBL_OK && st != TBL_ENOTFOUND && php_table_throw(t, st, key, 0)) {
					it->format = format;
					return false;
				}
			}
		}
		it->format = format;
	}
	return !EG(exception);
}

void php_table_apcu_iterator_register(zend_class_entry *ce)
{
	php_table_apcu_iterator_ce = ce;
	ce->create_object = php_table_apcu_iter_create;
	memcpy(&php_table_apcu_iter_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	php_table_apcu_iter_handlers.offset = XtOffsetOf(php_table_apcu_iter, std);
	php_table_apcu_iter_handlers.free_obj = php_table_apcu_iter_free;
	php_table_apcu_iter_handlers.clone_obj = NULL;
}
