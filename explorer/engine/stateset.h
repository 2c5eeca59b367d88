/* stateset.h - a set of 64-bit state hashes (never 0), for the walk's
 * visited concrete states: open addressing, no linear scans. */
#ifndef BCW_STATESET_H
#define BCW_STATESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errors.h"

typedef struct bcw_stateset {
    uint64_t *slots; /* 0: empty */
    size_t cap, len; /* cap a power of two, len < cap / 2 */
} bcw_stateset;

/* Adds h (not 0) to the set; *added says whether it was new.  Returns 0
 * or BCW_ENOMEM, the set unchanged. */
BCW_INTERNAL int bcw__stateset_add(bcw_stateset *s, uint64_t h, bool *added);

/* Is h in the set? */
BCW_INTERNAL bool bcw__stateset_has(const bcw_stateset *s, uint64_t h);

/* Frees the slots; the set is empty and usable again. */
BCW_INTERNAL void bcw__stateset_clear(bcw_stateset *s);

#endif
