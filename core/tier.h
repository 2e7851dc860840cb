/*
 * tier.h - what write.c needs of the Redis tier's bookkeeping (tier.c): a key's stamp by its hash, for
 * tbl_fill's check under the stripe lock. The rest of tier.c is declared in table_core.h.
 */
#ifndef TBL_TIER_H
#define TBL_TIER_H

#include <stdint.h>
#include "table_types.h"

uint64_t tbl_tier_stamp_of_hash(tbl_t *t, uint64_t hash);

#endif
