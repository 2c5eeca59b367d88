/* combine.h - which combinations of a call's parameter categories become
 * walk steps: all of them (mixed radix, in order) or all pairs. */
#ifndef BCW_COMBINE_H
#define BCW_COMBINE_H

#include <stdint.h>

#include "abi.h"
#include "bcwalk/explore.h"
#include "errors.h"

typedef struct bcw_combo {
    uint8_t cat[BCW_MAX_PARAMS]; /* category of each parameter */
} bcw_combo;

/* The combinations of n parameters with counts[k] categories each (0 or
 * 1: not varied) under `mode`, at most `cap` of them.  *out (the
 * caller's, free()) gets min(*total, cap) rows; *total is how many the
 * mode makes in all.  0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__combine(bcw_combo **out, unsigned *nout, uint64_t *total,
                              const unsigned *counts, unsigned n,
                              enum bcw_combine mode, unsigned cap);

#endif
