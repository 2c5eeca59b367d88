/* params.h - the kind of each slot of a unit's function: how bcwalk
 * passes a parameter or reads a result. */
#ifndef BCW_PARAMS_H
#define BCW_PARAMS_H

#include <stdbool.h>

#include "finder.h"
#include "model.h"
#include "sig.h"

/* Classifies slot i of `s` (0 the result) of a function of unit `unit`
 * into *out (zeroed first) from its LLVM type, its attributes and debug
 * info; `is_unit` says the slot is the unit itself.  *why is set to a
 * reason if bcwalk cannot pass or read the slot, else NULL.  0 or
 * BCW_ENOMEM; either way what *out holds is freed with bcw__param_free. */
/* The ABI class of a scalar LLVM type (an integer of `is_unsigned`), or
 * BCW_ABI_VOID for another type. */
BCW_INTERNAL enum bcw_abi bcw__scalar_abi(LLVMTypeRef t, bool is_unsigned);

BCW_INTERNAL int bcw__params_classify(const bcw_finder *f, const bcw_sig *s,
                                      unsigned i, const char *unit,
                                      bool is_unit, bcw_param *out,
                                      const char **why);

/* Pairs each byte pointer of f (function fn) followed by its length
 * into one buffer argument (BCW_PK_BUFFER, BCW_PK_LENGTH); a length
 * only ever tested against constants bounds nothing and is no pair. */
BCW_INTERNAL void bcw__params_pair_buffers(bcw_func *f, LLVMValueRef fn);

/* Does `fn` return a pointer into the memory `base` (one of its
 * parameters) points to: an element, a node, an iterator?  `base`
 * itself does not count. */
BCW_INTERNAL bool bcw__params_points_into(LLVMValueRef fn, LLVMValueRef base);
/* Is pointer parameter `p` itself stored into memory (through casts):
 * handed over to what it is stored in (list_rpush(list, node) linking
 * node), not an entry the call only unlinks or reads? */
BCW_INTERNAL bool bcw__params_stored(LLVMValueRef p);
/* Is pointer parameter `p` stored where it outlives the call (not in
 * the function's frame: cJSON_PrintPreallocated's printbuffer), by its
 * function or, `depth` calls down, a module function it is given to
 * (buffer_new_with_string(str) handing str to
 * buffer_new_with_string_length, which keeps it)? */
BCW_INTERNAL bool bcw__params_kept(LLVMValueRef p, int depth);
/* Is pointer parameter `p` only stored through, at its own address or
 * its fields', never read or passed on (`char *out`, `T **out`, an
 * iterator an init function fills)? */
BCW_INTERNAL bool bcw__params_only_written(LLVMValueRef p);
/* The same, counting as stores the calls that fill what p points to:
 * memset or memcpy to it, module functions only storing into it (an
 * iterator's init filling an inner iterator through its own init). */
BCW_INTERNAL bool bcw__params_filled(LLVMValueRef p);
/* Is pointer `p` compared with NULL, directly, through phis and selects
 * (a loop from it: for (e = list; e != NULL; ...)) or in the module
 * functions it is passed to, a few levels down? */
BCW_INTERNAL bool bcw__params_null_checked(LLVMValueRef p);
/* Does fn compare a field of its parameter k with 0 or NULL (zlib's
 * deflateInit_: strm->zalloc == Z_NULL), itself or a few calls down? */
BCW_INTERNAL bool bcw__params_fields_tested(LLVMValueRef fn, unsigned k);
/* Is pointer `a` compared with pointer `b` (if (a == b) ...), directly
 * or in the module functions both are passed to, a few levels down? */
BCW_INTERNAL bool bcw__params_compared(LLVMValueRef a, LLVMValueRef b);

#endif
