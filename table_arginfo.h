/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 93e0894328802f4db5c71a4bf514742981985087 */

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Shm_Table_get, 0, 1, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, namespace, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_class_Shm_Table_getWithMeta, 0, 1, MAY_BE_ARRAY|MAY_BE_FALSE)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, namespace, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Shm_Table_set, 0, 2, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, value, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, expire, IS_LONG, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, namespace, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Shm_Table_exists, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, namespace, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

#define arginfo_class_Shm_Table_delete arginfo_class_Shm_Table_exists

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_class_Shm_Table_ttl, 0, 1, MAY_BE_LONG|MAY_BE_FALSE)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, namespace, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_class_Shm_Table_count, 0, 0, MAY_BE_LONG|MAY_BE_FALSE)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, namespace, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Shm_Table_clear, 0, 0, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, namespace, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_class_Shm_Table_keys, 0, 1, MAY_BE_ARRAY|MAY_BE_FALSE)
	ZEND_ARG_TYPE_INFO(0, pattern, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, namespace, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

#define arginfo_class_Shm_Table_memory arginfo_class_Shm_Table_count

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_class_Shm_Table_namespaces, 0, 0, MAY_BE_ARRAY|MAY_BE_FALSE)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_class_Shm_Table_clearAll, 0, 0, MAY_BE_LONG|MAY_BE_FALSE)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_TYPE_MASK_EX(arginfo_class_Shm_Table_fullscan, 0, 0, Generator, MAY_BE_FALSE)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, match, IS_MIXED, 0, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, count, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

#define arginfo_class_Shm_Table_stats arginfo_class_Shm_Table_namespaces

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Shm_Table_metrics, 0, 0, IS_STRING, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_Shm_Table_add arginfo_class_Shm_Table_set

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_class_Shm_Table_increment, 0, 1, MAY_BE_LONG|MAY_BE_FALSE)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, by, IS_LONG, 0, "1")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, expire, IS_LONG, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, namespace, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

#define arginfo_class_Shm_Table_decrement arginfo_class_Shm_Table_increment

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Shm_Table_cas, 0, 3, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, expected, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO(0, new, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, namespace, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Shm_Table_deleteIf, 0, 2, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, expected, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, namespace, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Shm_Table_remember, 0, 2, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, compute, IS_CALLABLE, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, expire, IS_LONG, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, namespace, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Shm_Table_touch, 0, 2, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, expire, IS_LONG, 1)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, namespace, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Shm_Table_getMany, 0, 1, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, keys, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, namespace, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Shm_Table_setMany, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, values, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, expire, IS_LONG, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, namespace, IS_STRING, 1, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(1, failed, IS_ARRAY, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Shm_Table_deleteMany, 0, 1, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, keys, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, namespace, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_Shm_Table_fullscanChunk, 0, 3, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, cursor, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, match, IS_STRING, 1)
	ZEND_ARG_TYPE_INFO(0, count, IS_LONG, 0)
ZEND_END_ARG_INFO()


ZEND_METHOD(Shm_Table, get);
ZEND_METHOD(Shm_Table, getWithMeta);
ZEND_METHOD(Shm_Table, set);
ZEND_METHOD(Shm_Table, exists);
ZEND_METHOD(Shm_Table, delete);
ZEND_METHOD(Shm_Table, ttl);
ZEND_METHOD(Shm_Table, count);
ZEND_METHOD(Shm_Table, clear);
ZEND_METHOD(Shm_Table, keys);
ZEND_METHOD(Shm_Table, memory);
ZEND_METHOD(Shm_Table, namespaces);
ZEND_METHOD(Shm_Table, clearAll);
ZEND_METHOD(Shm_Table, fullscan);
ZEND_METHOD(Shm_Table, stats);
ZEND_METHOD(Shm_Table, metrics);
ZEND_METHOD(Shm_Table, add);
ZEND_METHOD(Shm_Table, increment);
ZEND_METHOD(Shm_Table, decrement);
ZEND_METHOD(Shm_Table, cas);
ZEND_METHOD(Shm_Table, deleteIf);
ZEND_METHOD(Shm_Table, remember);
ZEND_METHOD(Shm_Table, touch);
ZEND_METHOD(Shm_Table, getMany);
ZEND_METHOD(Shm_Table, setMany);
ZEND_METHOD(Shm_Table, deleteMany);
ZEND_METHOD(Shm_Table, fullscanChunk);


static const zend_function_entry class_Shm_Table_methods[] = {
	ZEND_ME(Shm_Table, get, arginfo_class_Shm_Table_get, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Shm_Table, getWithMeta, arginfo_class_Shm_Table_getWithMeta, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Shm_Table, set, arginfo_class_Shm_Table_set, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Shm_Table, exists, arginfo_class_Shm_Table_exists, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Shm_Table, delete, arginfo_class_Shm_Table_delete, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Shm_Table, ttl, arginfo_class_Shm_Table_ttl, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Shm_Table, count, arginfo_class_Shm_Table_count, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Shm_Table, clear, arginfo_class_Shm_Table_clear, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Shm_Table, keys, arginfo_class_Shm_Table_keys, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Shm_Table, memory, arginfo_class_Shm_Table_memory, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Shm_Table, namespaces, arginfo_class_Shm_Table_namespaces, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Shm_Table, clearAll, arginfo_class_Shm_Table_clearAll, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Shm_Table, fullscan, arginfo_class_Shm_Table_fullscan, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Shm_Table, stats, arginfo_class_Shm_Table_stats, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Shm_Table, metrics, arginfo_class_Shm_Table_metrics, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Shm_Table, add, arginfo_class_Shm_Table_add, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Shm_Table, increment, arginfo_class_Shm_Table_increment, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Shm_Table, decrement, arginfo_class_Shm_Table_decrement, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Shm_Table, cas, arginfo_class_Shm_Table_cas, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Shm_Table, deleteIf, arginfo_class_Shm_Table_deleteIf, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Shm_Table, remember, arginfo_class_Shm_Table_remember, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Shm_Table, touch, arginfo_class_Shm_Table_touch, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Shm_Table, getMany, arginfo_class_Shm_Table_getMany, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Shm_Table, setMany, arginfo_class_Shm_Table_setMany, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Shm_Table, deleteMany, arginfo_class_Shm_Table_deleteMany, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(Shm_Table, fullscanChunk, arginfo_class_Shm_Table_fullscanChunk, ZEND_ACC_PRIVATE|ZEND_ACC_STATIC)
	ZEND_FE_END
};


static const zend_function_entry class_Shm_TableException_methods[] = {
	ZEND_FE_END
};

static zend_class_entry *register_class_Shm_Table(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Shm", "Table", class_Shm_Table_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL;

	return class_entry;
}

static zend_class_entry *register_class_Shm_TableException(zend_class_entry *class_entry_RuntimeException)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "Shm", "TableException", class_Shm_TableException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_RuntimeException);

	return class_entry;
}
