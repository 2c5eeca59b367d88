/* spill.h - arrays that grow in memory up to a budget the walk's arrays
 * share, and beyond it in a file of their own (unlinked, mapped): the
 * system pages them out as it needs, so a walk's memory is bounded by
 * its budget and its size by the disk. */
#ifndef BCW_SPILL_H
#define BCW_SPILL_H

#include <stdbool.h>
#include <stddef.h>

#include "errors.h"

/* What the arrays share: the budget and what they hold in memory. */
typedef struct bcw_spill {
    size_t budget;  /* bytes in memory for all arrays; 0: no limit */
    size_t held;    /* bytes they hold in memory now */
    bool spilled;   /* some array is in a file */
    size_t on_disk; /* bytes of the files */
} bcw_spill;

/* One array: its elements at p, room for cap of them; fd >= 0 once it
 * is in a file.  Zero it to start. */
typedef struct bcw_sarr {
    void *p;
    size_t cap;
    int fd;
    bool in_file;
} bcw_sarr;

/* Returned when the disk has no room for a spilled array to grow. */
#define BCW_SPILL_FULL (-101)

/* Room for `need` elements of `size` bytes: in memory while the budget
 * allows, else in the array's file ($TMPDIR, or /tmp; its blocks
 * reserved, so a full disk is BCW_SPILL_FULL now, not a fault later).
 * 0, BCW_SPILL_FULL, or BCW_ENOMEM. */
BCW_INTERNAL int bcw__sarr_grow(bcw_spill *sp, bcw_sarr *a, size_t need,
                                size_t size);
BCW_INTERNAL void bcw__sarr_free(bcw_spill *sp, bcw_sarr *a, size_t size);

#endif
