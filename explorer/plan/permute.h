/* permute.h - buffer contents from a small seed (BETUnit's permutation
 * and stratified permutation generators). */
#ifndef BCW_PERMUTE_H
#define BCW_PERMUTE_H

#include <stddef.h>
#include <stdint.h>

#include "errors.h"

/* Every distinct permutation of the bytes of `seed`, in lexicographic
 * order; when `seed` has '|'s ("ab|cd"), each group is permuted on its
 * own and the groups keep their order (stratified: x1! * x2! * ...
 * contents, not (x1 + x2 + ...)!).  At most `cap` contents go to *out
 * (the caller's: free each, then the array); *total is how many there
 * are in all, saturating at UINT32_MAX.  0, BCW_EINPUT for an empty
 * group or a seed longer than 64 bytes, or BCW_ENOMEM. */
BCW_INTERNAL int bcw__permutations(char ***out, unsigned *n, uint64_t *total,
                                   const char *seed, unsigned cap);

#endif
