/* cells.c - lists in their callers' cells.  A function taking a T **
 * cell that reads `*cell` before it writes it grows the list the cell
 * holds (list_prepend(&head, v): NULL is the empty list); one writing
 * the cell first fills an out-parameter (int cc_array_new(CC_Array
 * **out)).  Paths are followed through the function's blocks from its
 * entry, and into the module functions it hands the cell to. */
#define _POSIX_C_SOURCE 200809L
#include "cells.h"

#include <stdbool.h>
#include <stdlib.h>

#include "alloc.h"
#include "bitcode.h"
#include "hash.h"

/* how many calls deep a cell handed on is followed: list_sort(list, cmp)
 * is list_sort_internal(list, cmp) */
#define MAX_HELPERS 3
/* how many phis deep a pointer is followed back to the cell */
#define MAX_PHIS 4

/* What a path does with the cell first. */
enum cell_use { USE_NONE, USE_READ, USE_WRITE };

static int first_use(LLVMValueRef fn, LLVMValueRef cell, unsigned depth,
                     enum cell_use *out);

/* Is `v` the cell, through casts, or a phi that starts as the cell (a
 * walk `for (at = list; *at; at = &(*at)->next)`)? */
static bool is_cell(LLVMValueRef v, LLVMValueRef cell, unsigned hops)
{
    while (LLVMIsABitCastInst(v) || LLVMIsAAddrSpaceCastInst(v))
        v = LLVMGetOperand(v, 0);
    if (v == cell)
        return true;
    for (unsigned k = 0;
         hops < MAX_PHIS && LLVMIsAPHINode(v) && k < LLVMCountIncoming(v); k++)
        if (is_cell(LLVMGetIncomingValue(v, k), cell, hops + 1))
            return true;
    return false;
}

/* What instruction `in` does with the cell: reads or writes `*cell`, or
 * hands it to a module function that does so first. */
static int use_of(LLVMValueRef in, LLVMValueRef cell, unsigned depth,
                  enum cell_use *use)
{
    *use = USE_NONE;
    if (LLVMIsALoadInst(in) && is_cell(LLVMGetOperand(in, 0), cell, 0))
        *use = USE_READ;
    else if (LLVMIsAStoreInst(in) && is_cell(LLVMGetOperand(in, 1), cell, 0))
        *use = USE_WRITE;
    if (!LLVMIsACallInst(in) || depth >= MAX_HELPERS)
        return 0;
    LLVMValueRef callee = bcw__called_function(in);
    if (callee == NULL || LLVMIsDeclaration(callee))
        return 0;
    unsigned n = LLVMCountParams(callee);
    if (n > LLVMGetNumArgOperands(in))
        n = LLVMGetNumArgOperands(in);
    for (unsigned k = 0; k < n && *use == USE_NONE; k++)
        if (is_cell(LLVMGetOperand(in, k), cell, 0)) {
            int err =
                first_use(callee, LLVMGetParam(callee, k), depth + 1, use);
            if (err < 0)
                return err;
        }
    return 0;
}

static int same_block(uint32_t value, const void *payload)
{
    const LLVMBasicBlockRef *p = payload;
    return p[0] == p[1 + value];
}

/* *out: USE_READ if some path from fn's entry reads `*cell` before it
 * writes it, else USE_WRITE if some path writes it, else USE_NONE.  0 or
 * BCW_ENOMEM. */
static int first_use(LLVMValueRef fn, LLVMValueRef cell, unsigned depth,
                     enum cell_use *out)
{
    unsigned n = LLVMCountBasicBlocks(fn);
    /* blocks[0] is the one looked up, blocks[1 + i] block i */
    LLVMBasicBlockRef *blocks = bcw__calloc(n + 1, sizeof *blocks);
    unsigned *todo = bcw__calloc(n, sizeof *todo);
    bool *seen = bcw__calloc(n, sizeof *seen);
    bcw_index ix = {0};
    int err = blocks && todo && seen ? 0 : BCW_ENOMEM;
    *out = USE_NONE;
    if (err == 0)
        LLVMGetBasicBlocks(fn, blocks + 1);
    for (unsigned i = 0; i < n && err == 0; i++)
        err = bcw__index_put(&ix, bcw__hash_ptr(blocks[1 + i]), i);
    unsigned ntodo = 0;
    if (err == 0 && n > 0) {
        todo[ntodo++] = 0; /* the entry block */
        seen[0] = true;
    }
    while (err == 0 && ntodo > 0 && *out != USE_READ) {
        LLVMBasicBlockRef bb = blocks[1 + todo[--ntodo]];
        enum cell_use use = USE_NONE;
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb);
             in != NULL && use == USE_NONE && err == 0;
             in = LLVMGetNextInstruction(in))
            err = use_of(in, cell, depth, &use);
        if (use != USE_NONE) {
            if (use == USE_READ || *out == USE_NONE)
                *out = use;
            continue; /* the path is decided */
        }
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        for (unsigned k = 0; t != NULL && k < LLVMGetNumSuccessors(t); k++) {
            blocks[0] = LLVMGetSuccessor(t, k);
            uint32_t i = bcw__index_get(&ix, bcw__hash_ptr(blocks[0]),
                                        same_block, blocks);
            if (i != UINT32_MAX && !seen[i]) {
                seen[i] = true;
                todo[ntodo++] = i;
            }
        }
    }
    bcw__index_free(&ix);
    free(blocks);
    free(todo);
    free(seen);
    return err;
}

int bcw__cells_grows(LLVMValueRef fn, unsigned param)
{
    enum cell_use use;
    int err = first_use(fn, LLVMGetParam(fn, param), 0, &use);
    return err < 0 ? err : use == USE_READ;
}
