/*
 * shape.c - process-local caches that let the native decoder (native.c) skip rebuilding array keys.
 *
 * Keys. Array keys repeat across values (every record has "name", "id", ...), so the key-by-key decoder
 * takes short keys from a direct-mapped cache of strings. A cached string is persistent and flagged
 * interned (never IS_STR_PERMANENT): the engine neither refcounts nor frees it, so a hit costs no
 * allocation and no free when the array dies. A slot is never replaced, so the cache is bounded
 * (KEY_SLOTS * ~56 bytes) and never frees a string a live array might still use.
 *
 * Shapes. Most arrays that share keys share all of them, in the same order: rows of a result set,
 * records, decoded JSON objects. For such a key list the decoder keeps a template (shape.h): the hash
 * slots and buckets of an array decoded once, whose keys are all interned. Decoding another array of
 * that shape copies them (one memcpy: keys, their hashes and the collision chains are all there) and
 * fills the values, with no hashing, no key lookups and no bucket linking. Templates are found by the
 * encoder's shape hash in a direct-mapped table of PHP_TABLE_SHAPE_SLOTS and confirmed by comparing
 * the whole key block. Their memory is bounded: at most PHP_TABLE_SHAPE_SLOTS templates of at most
 * PHP_TABLE_SHAPE_MAX_COUNT buckets and PHP_TABLE_SHAPE_MAX_KEYS_LEN key bytes (~3.6 KB each, ~0.9 MB
 * in all at worst; under 1 KB for a typical row). Arrays copied from a template point only at interned
 * key strings, never at the template, so a template can be replaced at any time: a slot whose shape
 * keeps missing (another shape hashed there and is the one in use) is taken over after SHAPE_TAKEOVER
 * misses, which bounds the cost of two shapes fighting over one slot to one template build per
 * SHAPE_TAKEOVER decodes.
 *
 * Only key structure is cached, never a value: every get decodes its values afresh.
 *
 * Both caches are freed at MSHUTDOWN, after every request's arrays are gone. Forked children inherit
 * them copy-on-write. Values stored elsewhere (APCu, our own table) copy key bytes, never these
 * pointers. They are unlocked: under ZTS each thread has caches of its own (a TSRM resource, freed when
 * the thread ends, when its requests' arrays are gone too), since a request's arrays never reach
 * another thread.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include <stdlib.h>
#include "php.h"
#include "serializer/shape.h"

#define KEY_SLOTS   4096u
#define KEY_MAX_LEN 32u
#define SHAPE_TAKEOVER 32u

typedef struct shape_caches {
	php_table_shape *shapes[PHP_TABLE_SHAPE_SLOTS];   /* first: shape.h's php_table_shapes under ZTS */
	uint8_t misses[PHP_TABLE_SHAPE_SLOTS];
	zend_string *keys[KEY_SLOTS];
} shape_caches;

#ifdef ZTS
ts_rsrc_id php_table_shapes_id;
# define shape_misses (TSRMG_BULK_STATIC(php_table_shapes_id, shape_caches *)->misses)
# define key_cache (TSRMG_BULK_STATIC(php_table_shapes_id, shape_caches *)->keys)
#else
php_table_shape *php_table_shapes[PHP_TABLE_SHAPE_SLOTS];
static uint8_t shape_misses[PHP_TABLE_SHAPE_SLOTS];
static zend_string *key_cache[KEY_SLOTS];
#endif

/* Equality of two 2 .. KEY_MAX_LEN byte runs with a few overlapping word loads: cheaper than a memcmp
 * call for the short keys the cache holds. */
static zend_always_inline bool short_equal(const char *a, const char *b, uint32_t len)
{
	if (len >= 8) {
		uint64_t x, y;
		for (uint32_t i = 0; i + 8 < len; i += 8) {
			memcpy(&x, a + i, 8);
			memcpy(&y, b + i, 8);
			if (x != y) {
				return 0;
			}
		}
		memcpy(&x, a + len - 8, 8);
		memcpy(&y, b + len - 8, 8);
		return x == y;
	}
	if (len >= 4) {
		uint32_t x1, y1, x2, y2;
		memcpy(&x1, a, 4);
		memcpy(&y1, b, 4);
		memcpy(&x2, a + len - 4, 4);
		memcpy(&y2, b + len - 4, 4);
		return x1 == y1 && x2 == y2;
	} else {
		uint16_t x1, y1, x2, y2;
		memcpy(&x1, a, 2);
		memcpy(&y1, b, 2);
		memcpy(&x2, a + len - 2, 2);
		memcpy(&y2, b + len - 2, 2);
		return x1 == y1 && x2 == y2;
	}
}

zend_string *php_table_shape_key(const char *p, uint32_t len)
{
	zend_ulong h;
	zend_string *s;

	if (len <= 1) {
		return len == 0 ? ZSTR_EMPTY_ALLOC() : ZSTR_CHAR((unsigned char)p[0]);
	}
	h = zend_inline_hash_func(p, len);
	if (len <= KEY_MAX_LEN) {
		zend_string **slot = &key_cache[h & (KEY_SLOTS - 1)];
		s = *slot;
		if (EXPECTED(s != NULL) && ZSTR_H(s) == h && ZSTR_LEN(s) == len && short_equal(ZSTR_VAL(s), p, len)) {
			return s;
		}
		if (s == NULL) {
			s = zend_string_init(p, len, 1);
			ZSTR_H(s) = h;
			GC_TYPE_INFO(s) = GC_STRING | ((IS_STR_INTERNED | IS_STR_PERSISTENT) << GC_FLAGS_SHIFT);
			*slot = s;
			return s;
		}
	}
	/* Slot taken by another key, or too long to cache: an ordinary string, with its hash set. */
	s = zend_string_init(p, len, 0);
	ZSTR_H(s) = h;
	return s;
}

void php_table_shape_learn(uint32_t hash, const unsigned char *keys, uint32_t keys_len, const HashTable *ht,
                           zend_long next_free)
{
	uint32_t i = hash & (PHP_TABLE_SHAPE_SLOTS - 1);
	php_table_shape *t = php_table_shapes[i];
	size_t hash_bytes, image_size;

	if (!(HT_FLAGS(ht) & HASH_FLAG_STATIC_KEYS) || HT_IS_PACKED(ht) || ht->nNumUsed != ht->nNumOfElements
	    || ht->nNumUsed > PHP_TABLE_SHAPE_MAX_COUNT || keys_len > PHP_TABLE_SHAPE_MAX_KEYS_LEN) {
		return;
	}
	if (t) {
		if (++shape_misses[i] < SHAPE_TAKEOVER) {
			return;
		}
	}
	hash_bytes = HT_HASH_SIZE(ht->nTableMask);
	image_size = hash_bytes + (size_t)ht->nNumUsed * sizeof(Bucket);
	/* The image first, so that it is as aligned as malloc's memory; the key bytes after it. */
	php_table_shape *n = malloc(sizeof(*n) + image_size + keys_len);
	if (!n) {
		return;
	}
	n->hash = hash;
	n->count = ht->nNumUsed;
	n->keys_len = keys_len;
	n->table_size = ht->nTableSize;
	n->table_mask = ht->nTableMask;
	n->image_size = (uint32_t)image_size;
	n->alloc_size = (uint32_t)HT_SIZE_EX(ht->nTableSize, ht->nTableMask);
	n->next_free = next_free;
	memcpy(n->image, HT_GET_DATA_ADDR(ht), image_size);
	/* The values are the decoded array's, which will be freed: copies must never see them. */
	for (uint32_t b = 0; b < n->count; b++) {
		Z_TYPE_INFO(((Bucket *)(n->image + hash_bytes))[b].val) = IS_UNDEF;
	}
	memcpy(n->image + image_size, keys, keys_len);
	n->keys = (const unsigned char *)n->image + image_size;
	free(t);
	php_table_shapes[i] = n;
	shape_misses[i] = 0;
}

static void shape_caches_free(php_table_shape **shapes, uint8_t *misses, zend_string **keys)
{
	for (uint32_t i = 0; i < PHP_TABLE_SHAPE_SLOTS; i++) {
		free(shapes[i]);
		shapes[i] = NULL;
		misses[i] = 0;
	}
	for (uint32_t i = 0; i < KEY_SLOTS; i++) {
		if (keys[i]) {
			pefree(keys[i], 1);
			keys[i] = NULL;
		}
	}
}

#ifdef ZTS
static void shape_caches_ctor(void *p)
{
	memset(p, 0, sizeof(shape_caches));
}

/* A thread's end (or MSHUTDOWN's ts_free_id, for every thread): its requests' arrays are gone. */
static void shape_caches_dtor(void *p)
{
	shape_caches *c = p;

	shape_caches_free(c->shapes, c->misses, c->keys);
}

void php_table_shape_startup(void)
{
	ts_allocate_id(&php_table_shapes_id, sizeof(shape_caches), shape_caches_ctor, shape_caches_dtor);
}

void php_table_shape_shutdown(void)
{
	/* Every thread's, and the id itself: nothing of this module may run at tsrm_shutdown once unloaded. */
	if (php_table_shapes_id) {
		ts_free_id(php_table_shapes_id);
		php_table_shapes_id = 0;
	}
}
#else
void php_table_shape_startup(void)
{
}

void php_table_shape_shutdown(void)
{
	shape_caches_free(php_table_shapes, shape_misses, key_cache);
}
#endif
