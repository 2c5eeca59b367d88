/* addr.c - addresses relative to the unit pointer: `s` itself, a
 * constant-offset GEP from it (typed struct GEPs and the byte GEPs LLVM
 * 18+ canonicalises to), or one level through a pointer field (`s->data`
 * loaded, then indexed).  A field is named by its byte offset; debug
 * info gives the name. */
#define _POSIX_C_SOURCE 200809L
#include "addr.h"

#include <stdio.h>

#include "alloc.h"

/* Byte offset of a GEP with constant indices: 0.  A variable index into
 * an array member (s->items[i]) gives the member's offset: 1.  Anything
 * else: -1. */
static int gep_offset(LLVMTargetDataRef td, LLVMValueRef gep, int64_t *out)
{
    LLVMTypeRef t = LLVMGetGEPSourceElementType(gep);
    unsigned n = (unsigned)LLVMGetNumOperands(gep);
    int64_t off = 0;
    for (unsigned k = 1; k < n; k++) {
        LLVMValueRef idx = LLVMGetOperand(gep, k);
        if (!LLVMIsAConstantInt(idx)) {
            if (k >= 2 && LLVMGetTypeKind(t) == LLVMArrayTypeKind) {
                *out = off;
                return 1;
            }
            return -1;
        }
        int64_t i = LLVMConstIntGetSExtValue(idx);
        if (k == 1) {
            off += i * (int64_t)LLVMABISizeOfType(td, t);
        } else if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
            off += (int64_t)LLVMOffsetOfElement(td, t, (unsigned)i);
            t = LLVMStructGetTypeAtIndex(t, (unsigned)i);
        } else if (LLVMGetTypeKind(t) == LLVMArrayTypeKind) {
            t = LLVMGetElementType(t);
            off += i * (int64_t)LLVMABISizeOfType(td, t);
        } else {
            return -1;
        }
    }
    *out = off;
    return 0;
}

bcw_addr bcw__addr_of(LLVMTargetDataRef td, LLVMValueRef v, LLVMValueRef unit,
                      int hops)
{
    bcw_addr none = {0};
    if (v == unit)
        return (bcw_addr){1, -1, 0, 0};
    if (hops > 8 || !LLVMIsAInstruction(v))
        return none;
    switch (LLVMGetInstructionOpcode(v)) {
    case LLVMBitCast:
    case LLVMAddrSpaceCast:
        return bcw__addr_of(td, LLVMGetOperand(v, 0), unit, hops + 1);
    case LLVMGetElementPtr: {
        bcw_addr a = bcw__addr_of(td, LLVMGetOperand(v, 0), unit, hops + 1);
        int64_t off;
        if (!a.ok || a.off == BCW_ADDR_UNKNOWN_OFF)
            return a;
        int r = gep_offset(td, v, &off);
        if (r < 0 || off < 0)
            /* s->data[i]: somewhere in the block; else unknown */
            return a.via >= 0 ? (bcw_addr){1, a.via, BCW_ADDR_UNKNOWN_OFF}
                              : none;
        a.off += (uint32_t)off;
        /* an element of an array member: the member as a whole; such an
         * address is not one field's value, so terms reject it */
        a.element = r == 1;
        return a;
    }
    case LLVMLoad: {
        if (LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMPointerTypeKind)
            return none;
        bcw_addr a = bcw__addr_of(td, LLVMGetOperand(v, 0), unit, hops + 1);
        if (!a.ok || a.via >= 0 || a.off == BCW_ADDR_UNKNOWN_OFF || a.element)
            return none;
        return (bcw_addr){1, (int32_t)a.off, 0, 0};
    }
    default:
        return none;
    }
}

static const bcw_field *field_at(const bcw_unit *u, uint32_t off)
{
    for (unsigned i = 0; i < u->nfields; i++)
        if (u->fields[i].offset == off)
            return &u->fields[i];
    return NULL;
}

char *bcw__addr_text(const bcw_unit *u, bcw_addr a)
{
    uint32_t at = a.via >= 0 ? (uint32_t)a.via : a.off;
    const bcw_field *f = field_at(u, at);
    char name[80];
    if (f != NULL)
        snprintf(name, sizeof name, "%s", f->name);
    else
        snprintf(name, sizeof name, "@%u", at);
    if (a.via < 0)
        return bcw__strdup(name);
    if (a.off == 0 || a.off == BCW_ADDR_UNKNOWN_OFF)
        return bcw__sprintf("*%s", name);
    return bcw__sprintf("%s->@%u", name, a.off);
}

bool bcw__addr_field_offset(LLVMTargetDataRef td, LLVMValueRef ptr,
                            LLVMValueRef unit, uint32_t *off)
{
    bcw_addr a = bcw__addr_of(td, ptr, unit, 0);
    if (!a.ok || a.via >= 0 || a.element || a.off == BCW_ADDR_UNKNOWN_OFF)
        return false;
    *off = a.off;
    return true;
}
