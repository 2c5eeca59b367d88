/* addr.h - addresses relative to a unit pointer, and the names of the
 * fields they reach ("size", "*data", "@8"). */
#ifndef BCW_ADDR_H
#define BCW_ADDR_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stdbool.h>
#include <stdint.h>

#include "model.h"

#define BCW_ADDR_UNKNOWN_OFF UINT32_MAX /* somewhere in the block */

/* An address relative to the unit: via -1 is the unit itself; via >= 0
 * is the block the pointer field at unit+via points to. */
typedef struct bcw_addr {
    int ok;
    int32_t via;
    uint32_t off; /* BCW_ADDR_UNKNOWN_OFF: somewhere in that block */
    int element;  /* some element of the array member at off */
} bcw_addr;

/* Where pointer `v` points relative to `unit`: `unit` itself, a
 * constant-offset GEP from it, or one level through a pointer field.
 * ok 0 if it is none of these.  `hops` counts the steps taken (0 at the
 * start). */
BCW_INTERNAL bcw_addr bcw__addr_of(LLVMTargetDataRef td, LLVMValueRef v,
                                   LLVMValueRef unit, int hops);

/* The C name of the field `a` reaches in u: "size", "*data",
 * "data->@4", or "@8" where debug info is missing.  The caller's
 * (free()); NULL if out of memory. */
BCW_INTERNAL char *bcw__addr_text(const bcw_unit *u, bcw_addr a);

/* Is `ptr` the address of a field of the unit `unit` points to (a
 * constant offset from it)?  Then *off is that offset. */
BCW_INTERNAL bool bcw__addr_field_offset(LLVMTargetDataRef td, LLVMValueRef ptr,
                                         LLVMValueRef unit, uint32_t *off);

#endif
