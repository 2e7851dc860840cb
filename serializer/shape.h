/*
 * shape.h - the native decoder's process-local caches of array keys (shape.c has the design).
 *
 * A shape is the key list of a hash array: the same keys in the same order, as the rows of a result set
 * have. The encoder writes each hash array's keys as one block with a 32-bit shape hash in front
 * (native.c); the decoder looks the block up here, and on a hit builds the array by copying a template's
 * hash slots and buckets (keys and hashes included) and filling in the values. Nothing here caches a
 * value: a template holds keys only.
 *
 * Everything is per process and unlocked; under ZTS, per thread (a TSRM resource of its own, freed when
 * the thread ends).
 */
#ifndef PHP_TABLE_SHAPE_H
#define PHP_TABLE_SHAPE_H

#include "php.h"

/* A template: the hash slots and the first `count` buckets of a hash array whose string keys are all
 * interned (so copies of it never refcount or free a key), and the key block it was decoded from. */
typedef struct php_table_shape {
	uint32_t hash;          /* the encoder's shape hash */
	uint32_t count;         /* elements, all of them buckets in use (no holes) */
	uint32_t keys_len;      /* bytes of the key block */
	uint32_t table_size;    /* nTableSize */
	uint32_t table_mask;    /* nTableMask */
	uint32_t image_size;    /* hash slots plus `count` buckets */
	uint32_t alloc_size;    /* HT_SIZE_EX(table_size, table_mask): what an array of this shape allocates */
	zend_long next_free;    /* nNextFreeElement the key list gives (when the encoding does not say) */
	const unsigned char *keys;  /* the key block, as encoded (in this allocation) */
	char image[];           /* hash slots, then buckets: HT_GET_DATA_ADDR's layout, position-independent */
} php_table_shape;

#define PHP_TABLE_SHAPE_SLOTS 256u
/* Larger key lists are decoded key by key: a template would be big, and such arrays are rarely rows. */
#define PHP_TABLE_SHAPE_MAX_COUNT 64u
#define PHP_TABLE_SHAPE_MAX_KEYS_LEN 1024u

#ifdef ZTS
/* This thread's caches (shape.c); the templates are their first member. */
extern ts_rsrc_id php_table_shapes_id;
# define php_table_shapes (TSRMG_BULK_STATIC(php_table_shapes_id, php_table_shape **))
#else
extern php_table_shape *php_table_shapes[PHP_TABLE_SHAPE_SLOTS];
#endif

/* The template for this key block, or NULL. The key bytes are compared in full: a hash that matches by
 * accident (or a corrupt one) never yields another shape's keys. `keys` must hold `keys_len` bytes. */
static zend_always_inline const php_table_shape *php_table_shape_find(uint32_t hash, uint32_t count,
                                                                      const unsigned char *keys, uint32_t keys_len)
{
	const php_table_shape *t = php_table_shapes[hash & (PHP_TABLE_SHAPE_SLOTS - 1)];
	if (EXPECTED(t != NULL) && t->hash == hash && t->count == count && t->keys_len == keys_len
	    && memcmp(t->keys, keys, keys_len) == 0) {
		return t;
	}
	return NULL;
}

/* A new array (refcount 1) with the template's keys, hash slots and nNextFreeElement, and values not yet
 * set: the caller writes each bucket's value with ZVAL_* (which leave the bucket's chain link alone)
 * before anything else sees the array, or cuts nNumUsed/nNumOfElements to the ones it wrote. */
static zend_always_inline HashTable *php_table_shape_new_array(const php_table_shape *t)
{
	HashTable *ht = (HashTable *)emalloc(sizeof(HashTable));
	void *data = emalloc(t->alloc_size);

	memcpy(data, t->image, t->image_size);
	GC_SET_REFCOUNT(ht, 1);
	GC_TYPE_INFO(ht) = GC_ARRAY;
	HT_FLAGS(ht) = HASH_FLAG_STATIC_KEYS;   /* every key interned; also clears the iterator count */
	ht->nTableMask = t->table_mask;
	HT_SET_DATA_ADDR(ht, data);
	ht->nNumUsed = t->count;
	ht->nNumOfElements = t->count;
	ht->nTableSize = t->table_size;
	ht->nInternalPointer = 0;
	ht->nNextFreeElement = t->next_free;
	ht->pDestructor = ZVAL_PTR_DTOR;
	return ht;
}

/* After a hash array was decoded key by key: keep it as the template of its key block when it may be
 * one (every string key interned, small enough) and its slot is free, or has missed often enough that
 * the shape it holds is no longer the one in use. Allocation failure just means no template. */
void php_table_shape_learn(uint32_t hash, const unsigned char *keys, uint32_t keys_len, const HashTable *ht,
                           zend_long next_free);

/* A key string for the key-by-key path, from `len` bytes at `p` (the caller checked they are there):
 * short keys come from a process-local cache of interned strings, others are new strings (the caller
 * owns them); all have their hash set. */
zend_string *php_table_shape_key(const char *p, uint32_t len);

/* MINIT: under ZTS, allocate each thread's caches (a TSRM resource); nothing otherwise. */
void php_table_shape_startup(void);
/* Free both caches (MSHUTDOWN, after the last request's arrays are gone; under ZTS every thread's). */
void php_table_shape_shutdown(void);

#endif
