/* rt_closure.h - built-in callbacks (rt_closure.c): a libffi closure of
 * the callback's signature that compares, matches, hashes or tests
 * element cells by their number, or visits or frees nothing, and counts
 * its calls (abi.h's bcw_callback; BCW_FIXED_CLOSURE parameters). */
#ifndef BCW_RT_CLOSURE_H
#define BCW_RT_CLOSURE_H

#include <ffi.h>
#include <stdint.h>

#include "rt_worker.h"

typedef struct bcw_rt_closure {
    ffi_closure *fc;
    void *code; /* what the code under test calls */
    ffi_cif cif;
    ffi_type *args[BCW_MAX_PARAMS];
    uint8_t kind; /* enum bcw_callback */
    uint8_t sig[BCW_MAX_PARAMS + 1];
    uint32_t calls;            /* during the call in flight */
    const char *cells;         /* the worker's element cells */
    const uint64_t *elem_size; /* the worker's */
} bcw_rt_closure;

/* What a built-in free callback (BCW_CB_FREE) does with its first
 * pointer argument: set at set-up to free it when it is a block the code
 * under test allocated (its own buffer handed to its free hook), NULL
 * until then; an element cell or other memory is left alone. */
extern void (*bcw_rt_closure_free)(void *p);

/* Makes the closure a plan's parameter or fill `p` describes (kind
 * `value`, ABI `sig`) into *out: 0, or -1 for a bad description or out
 * of memory.  Called at set-up; the closure lives as long as the
 * worker. */
int bcw_rt_closure_make(bcw_rt_worker *w, const bcw_wire_param *p,
                        bcw_rt_closure **out);

#endif
