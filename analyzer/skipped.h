/* skipped.h - the error for a module with no unit at all. */
#ifndef BCW_SKIPPED_H
#define BCW_SKIPPED_H

#include "finder.h"

/* The error for a module where discovery found no unit: BCW_EINPUT,
 * with a message listing the structs and functions seen so the user
 * can tell what bcwalk looked for, and saying that bcwalk walks C
 * interfaces when the module is C++ (by its debug information's
 * language, or a mangled name without it).  Never 0. */
BCW_INTERNAL int bcw__skipped_no_unit(const bcw_finder *f);

#endif
