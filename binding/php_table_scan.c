/*
 * php_table_scan.c - keys() and fullscan(): walks over the index in bounded chunks.
 *
 * Every chunk is one tbl_scan() call, which opens and closes its own read section, so a long scan never
 * keeps retired memory from being reclaimed. The scan callback runs inside that section: it only
 * allocates and matches globs (php_table_glob.c), and never calls into the table.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_closures.h"
#include "php_table_internal.h"
#include "php_table_glob.h"

typedef struct php_table_scan_ctx {
	const char *pattern;   /* NULL: everything */
	size_t plen;
	zval *out;
	bool with_ns;          /* fullscan: emit the namespace handle before each key */
} php_table_scan_ctx;

/* Runs inside the core's read section: it only allocates, and never calls into the table. */
static int php_table_scan_cb(void *arg, tbl_ns_t ns, const char *key, size_t klen, const tbl_view_t *v)
{
	php_table_scan_ctx *ctx = arg;
	(void)v;

	if (ctx->pattern && !php_table_glob_match(ctx->pattern, ctx->plen, key, klen)) {
		return 0;
	}
	if (ctx->with_ns) {
		add_next_index_long(ctx->out, ns);
	}
	add_next_index_stringl(ctx->out, key, klen);
	return 0;
}

/* A glob argument: a string or null (matches everything). */
static bool php_table_check_pattern(zval *pattern, uint32_t argnum, php_table_scan_ctx *ctx)
{
	ctx->pattern = NULL;
	ctx->plen = 0;
	if (Z_TYPE_P(pattern) == IS_NULL) {
		return true;
	}
	if (Z_TYPE_P(pattern) != IS_STRING) {
		zend_argument_type_error(argnum, "must be of type ?string, %s given", zend_zval_type_name(pattern));
		return false;
	}
	/* "*" matches every key: skip the matcher. */
	if (!(Z_STRLEN_P(pattern) == 1 && Z_STRVAL_P(pattern)[0] == '*')) {
		ctx->pattern = Z_STRVAL_P(pattern);
		ctx->plen = Z_STRLEN_P(pattern);
	}
	return true;
}

/*
 * fullscan() returns a real \Generator. Internal functions cannot yield, so the generator is a tiny
 * PHP closure, compiled once per request and bound to Shm\Table's scope so that it may call the private
 * fullscanChunk(). Each chunk runs one bounded tbl_scan (its own read section) and returns the next
 * cursor: no table state is held between yields, and entries written during the scan may or may not be
 * seen (like Redis SCAN).
 */
static const char php_table_fullscan_src[] =
	"return static function (?string $match, int $count) {\n"
	"    $cursor = 0;\n"
	"    do {\n"
	"        [$cursor, $batch] = \\Shm\\Table::fullscanChunk($cursor, $match, $count);\n"
	"        for ($i = 0, $n = \\count($batch); $i < $n; $i += 2) {\n"
	"            yield $batch[$i] => $batch[$i + 1];\n"
	"        }\n"
	"    } while ($cursor !== 0);\n"
	"};";

static bool php_table_fullscan_fn(void)
{
	zend_string *src;
	zend_op_array *op;

	if (Z_TYPE(TABLE_G(fullscan_fn)) == IS_OBJECT) {
		return true;
	}
	src = zend_string_init(php_table_fullscan_src, sizeof(php_table_fullscan_src) - 1, 0);
	op = zend_compile_string(src, "Shm\\Table::fullscan()", ZEND_COMPILE_POSITION_AFTER_OPEN_TAG);
	zend_string_release(src);
	if (!op) {
		return false;
	}
	/* What ZEND_DECLARE_LAMBDA_FUNCTION would do when running the compiled file, without running it:
	 * the closure keeps its own reference to the function, so the file's op_array can go. */
	ZEND_ASSERT(op->num_dynamic_func_defs == 1);
	zend_create_closure(&TABLE_G(fullscan_fn), (zend_function *)op->dynamic_func_defs[0],
		php_table_ce, php_table_ce, NULL);
	destroy_op_array(op);
	efree_size(op, sizeof(zend_op_array));
	return true;
}

void php_table_scan_rshutdown(void)
{
	zval_ptr_dtor(&TABLE_G(fullscan_fn));
	ZVAL_UNDEF(&TABLE_G(fullscan_fn));
}

PHP_METHOD(Shm_Table, keys)
{
	zval *pattern;
	zend_string *ns = NULL;
	tbl_t *t;
	tbl_ns_t nsid;
	php_table_scan_ctx ctx;
	uint64_t cursor = 0;
	int r;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_ZVAL(pattern)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR_OR_NULL(ns)
	ZEND_PARSE_PARAMETERS_END();

	if (!php_table_check_pattern(pattern, 1, &ctx) || !php_table_check_ns(ns, 2) || !(t = php_table_handle())
			|| (r = php_table_ns_read(t, ns, &nsid)) < 0) {
		RETURN_THROWS();
	}
	array_init(return_value);
	if (r == 0) {
		return;
	}
	ctx.out = return_value;
	ctx.with_ns = false;
	/* Bounded chunks: each is its own read section, so a long scan never pins reclamation. */
	do {
		tbl_scan(t, nsid, &cursor, PHP_TABLE_SCAN_CHUNK, php_table_scan_cb, &ctx);
	} while (cursor != 0);
}

PHP_METHOD(Shm_Table, fullscan)
{
	zval *match = NULL, args[2], retval;
	zend_long count = 0;
	zend_fcall_info fci;
	php_table_scan_ctx ctx;

	ZEND_PARSE_PARAMETERS_START(0, 2)
		Z_PARAM_OPTIONAL
		Z_PARAM_ZVAL(match)
		Z_PARAM_LONG(count)
	ZEND_PARSE_PARAMETERS_END();

	if (match && !php_table_check_pattern(match, 1, &ctx)) {
		RETURN_THROWS();
	}
	if (count < 0) {
		zend_argument_value_error(2, "must be greater than or equal to 0");
		RETURN_THROWS();
	}
	if (!php_table_handle()) {
		RETURN_THROWS();
	}
	if (!php_table_fullscan_fn()) {
		RETURN_THROWS();
	}
	if (match) {
		ZVAL_COPY_VALUE(&args[0], match);
	} else {
		ZVAL_NULL(&args[0]);
	}
	ZVAL_LONG(&args[1], count);
	fci.size = sizeof(fci);
	ZVAL_COPY_VALUE(&fci.function_name, &TABLE_G(fullscan_fn));
	fci.object = NULL;
	fci.retval = &retval;
	fci.params = args;
	fci.param_count = 2;
	fci.named_params = NULL;
	if (zend_call_function(&fci, NULL) != SUCCESS || EG(exception)) {
		zval_ptr_dtor(&retval);
		RETURN_THROWS();
	}
	RETURN_COPY_VALUE(&retval);
}

PHP_METHOD(Shm_Table, fullscanChunk)
{
	zend_long cursor_arg, count;
	zend_string *match = NULL;
	tbl_t *t;
	php_table_scan_ctx ctx;
	uint64_t cursor;
	zval batch, *zv;
	zend_long last_ns = -1;
	zval last_name, shown_batch;
	bool keep = false;

	ZEND_PARSE_PARAMETERS_START(3, 3)
		Z_PARAM_LONG(cursor_arg)
		Z_PARAM_STR_OR_NULL(match)
		Z_PARAM_LONG(count)
	ZEND_PARSE_PARAMETERS_END();

	if (!(t = php_table_handle())) {
		RETURN_THROWS();
	}
	ctx.pattern = match && !zend_string_equals_literal(match, "*") ? ZSTR_VAL(match) : NULL;
	ctx.plen = match ? ZSTR_LEN(match) : 0;
	ctx.with_ns = true;
	array_init(&batch);
	ctx.out = &batch;
	cursor = (uint64_t)cursor_arg;
	tbl_scan(t, TBL_SCAN_ALL_NS, &cursor, count > 0 ? (uint64_t)count : PHP_TABLE_SCAN_CHUNK, php_table_scan_cb, &ctx);

	/* The callback recorded namespace handles; names are looked up here, outside the read section.
	 * Consecutive entries of one namespace share one name string. Entries of namespaces this process's
	 * user does not see (php_table_users.c) are left out. */
	array_init(&shown_batch);
	ZVAL_UNDEF(&last_name);
	ZEND_HASH_FOREACH_VAL(Z_ARRVAL(batch), zv) {   /* may be empty, hence not initialized as packed */
		if (Z_TYPE_P(zv) != IS_LONG) {
			if (keep) {
				Z_TRY_ADDREF_P(zv);
				add_next_index_zval(&shown_batch, zv);
			}
			continue;
		}
		if (Z_LVAL_P(zv) != last_ns) {
			size_t len;
			const char *name = tbl_ns_name(t, (tbl_ns_t)Z_LVAL_P(zv), &len);
			int shown = php_table_user_ns_shown(Z_LVAL_P(zv) == TBL_NS_DEFAULT, name, len, &name, &len);

			zval_ptr_dtor(&last_name);
			last_ns = Z_LVAL_P(zv);
			keep = shown != PHP_TABLE_NS_HIDDEN;
			if (shown == PHP_TABLE_NS_SHOWN) {
				ZVAL_STRINGL(&last_name, name, len);
			} else {
				ZVAL_NULL(&last_name);   /* the default namespace */
			}
		}
		if (keep) {
			Z_TRY_ADDREF(last_name);
			add_next_index_zval(&shown_batch, &last_name);
		}
	} ZEND_HASH_FOREACH_END();
	zval_ptr_dtor(&last_name);
	zval_ptr_dtor(&batch);

	array_init_size(return_value, 2);
	add_next_index_long(return_value, (zend_long)cursor);
	add_next_index_zval(return_value, &shown_batch);
}
