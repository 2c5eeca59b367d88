/* skipped.h - what unit discovery leaves out: API functions bcwalk
 * cannot call, each with its reason, and the error for a module with no
 * unit at all. */
#ifndef BCW_SKIPPED_H
#define BCW_SKIPPED_H

#include "finder.h"

/* Lists function `fn` in the model's skipped API as "fn: why".  0 or
 * BCW_ENOMEM. */
BCW_INTERNAL int bcw__skipped_add(bcw_finder *f, const char *fn,
                                  const char *why);

/* The error for a module where discovery found no unit: BCW_EINPUT,
 * with a message listing the structs and functions seen so the user
 * can tell what bcwalk looked for.  Never 0. */
BCW_INTERNAL int bcw__skipped_no_unit(const bcw_finder *f);

#endif
