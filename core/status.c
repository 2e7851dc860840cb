/*
 * status.c - human-readable names for tbl_status_t. The binding composes user-facing messages from
 * these; the core itself never prints.
 */
#include "status.h"

const char *tbl_status_str(tbl_status_t status)
{
	switch (status) {
	case TBL_OK:        return "ok";
	case TBL_ENOTFOUND: return "not found";
	case TBL_EEXIST:    return "already exists";
	case TBL_ENOMEM:    return "out of memory";
	case TBL_ETOOBIG:   return "entry too large for the table";
	case TBL_ETYPE:     return "value is not an integer";
	case TBL_EOVERFLOW: return "integer overflow";
	case TBL_EMISMATCH: return "value differs from the expected one";
	case TBL_ENSFULL:   return "too many namespaces";
	case TBL_ENOSLOT:   return "no free reader slot";
	case TBL_EINVAL:    return "invalid argument";
	case TBL_ESYS:      return "system call failed";
	case TBL_EBUSY:     return "busy";
	case TBL_ESTALE:    return "namespace was recycled; look it up again";
	case TBL_EFULL:     return "out of memory";
	case TBL_ENOCONTIG: return "no contiguous room for a value that cannot be split";
	}
	return "unknown status";
}
