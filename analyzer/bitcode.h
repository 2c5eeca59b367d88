/* bitcode.h - loading, preparing and writing LLVM modules through the C
 * API, with LLVM's failures turned into bcwalk errors. */
#ifndef BCW_BITCODE_H
#define BCW_BITCODE_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#include "errors.h"

/* A loaded module and the context that owns it. */
typedef struct bcw_bitcode {
    LLVMContextRef ctx;
    LLVMModuleRef mod;
} bcw_bitcode;

/* Loads `path` into a fresh context.  A file that is not bitcode, is
 * truncated or comes from a newer LLVM gives BCW_EINPUT with one line
 * naming the file and the problem; LLVM never exits the process. */
BCW_INTERNAL int bcw__bitcode_load(bcw_bitcode *out, const char *path);

/* bcw__bitcode_load into context `ctx` (which stays its owner's: out->ctx
 * is NULL then), or into a new one when it is NULL. */
BCW_INTERNAL int bcw__bitcode_load_in(bcw_bitcode *out, const char *path,
                                      LLVMContextRef ctx);

/* What a child makes of a module it read and verified: bytes into
 * *data and *len (its own to free, or not: the child ends), or an
 * error. */
typedef int (*bcw_bitcode_use)(bcw_bitcode *bc, const char *path, char **data,
                               size_t *len);

/* Reads `path` in a child process, as bcw__bitcode_load does (a file
 * that is not bitcode, truncated, invalid: the same errors), and hands
 * the module to `use` there: its bytes into *out (the caller frees
 * them) and *nout, or its error and message.  bcwalk's own process
 * never parses the file, and a crash in `use` ends the child only
 * (BCW_EINPUT, "LLVM's reader crashed"). */
BCW_INTERNAL int bcw__bitcode_in_child(const char *path, bcw_bitcode_use use,
                                       char **out, size_t *nout);

/* The named metadata listing, by name (one MDString per node), the
 * functions the library's own file defines when bcw__bitcode_link linked
 * others into it; those are its API, the rest only its callees. */
#define BCW_OWN_MD "bcwalk.own"

/* Links bitcode files with[0..n-1] into `path`'s module and writes the
 * result to `out` atomically, with `path`'s functions listed in
 * BCW_OWN_MD.  0, BCW_EINPUT naming a file that is not bitcode or cannot
 * be linked (a function defined twice), or BCW_ERROR. */
BCW_INTERNAL int bcw__bitcode_link(const char *out, const char *path,
                                   const char *const *with, size_t n);

/* Links module src (which the call takes, whatever happens) into dst,
 * both of one context.  0, or BCW_EINPUT "SRC_PATH: cannot be linked
 * with DST_PATH (LLVM's message)". */
BCW_INTERNAL int bcw__bitcode_link_into(LLVMModuleRef dst, LLVMModuleRef src,
                                        const char *src_path,
                                        const char *dst_path);

/* Writes mod's bitcode to `out` atomically (a temporary file beside it,
 * renamed), without the debug records LLVM would size forever
 * (bcw__di_drop_unsized), which would hang clang compiling it.  0,
 * BCW_ERROR naming what failed, or BCW_ENOMEM. */
BCW_INTERNAL int bcw__bitcode_write(LLVMModuleRef mod, const char *out);

/* Disposes the module and its context; a zeroed struct is accepted. */
BCW_INTERNAL void bcw__bitcode_dispose(bcw_bitcode *bc);

/* Makes the module analysable: drops optnone/noinline (clang -O0 puts them
 * everywhere and they block every pass) and runs sroa so that -O0's
 * parameter spills to allocas become plain SSA values, first dropping
 * the debug intrinsics sroa would never finish with
 * (bcw__di_drop_unsized). */
BCW_INTERNAL int bcw__bitcode_simplify(bcw_bitcode *bc);

/* The function a call instruction calls, looking through bitcasts, or
 * NULL for an indirect call. */
BCW_INTERNAL LLVMValueRef bcw__called_function(LLVMValueRef call);

/* v without its pointer casts (bitcasts, a few deep). */
BCW_INTERNAL LLVMValueRef bcw__uncast(LLVMValueRef v);
/* Do GEPs a and b address the same field, whatever their bases: the
 * same source type and the same constant indices?  False for a value
 * that is no GEP. */
BCW_INTERNAL bool bcw__same_field(LLVMValueRef a, LLVMValueRef b);

/* The parameter of the module function `call` calls (any instruction
 * is accepted; a declaration's have no body) that receives v, or a
 * cast of it, at argument *k or later, *k then its index; NULL when
 * none does.  for (unsigned k = 0; (q = bcw__passed_to(in, v, &k)); k++) */
BCW_INTERNAL LLVMValueRef bcw__passed_to(LLVMValueRef call, LLVMValueRef v,
                                         unsigned *k);

/* Is `v` an address inside the block `base` points to: base itself,
 * through GEPs, casts, selects, phis, loads of pointer fields, and
 * module functions returning their argument? */
BCW_INTERNAL bool bcw__derived_from(LLVMValueRef v, LLVMValueRef base);

/* Is fn an external function with a body (one a header could declare)? */
BCW_INTERNAL bool bcw__external_definition(LLVMValueRef fn);

/* What a returned value may be, besides NULL: `leaf` of each value it
 * stands for through casts, phis and selects (ctx its own). */
typedef bool bcw_leaf_fn(LLVMValueRef v, void *ctx);

/* Is every value fn returns NULL or `leaf`'s, and does it return one? */
BCW_INTERNAL bool bcw__returns_only(LLVMValueRef fn, bcw_leaf_fn *leaf,
                                    void *ctx);

/* A function's instructions in order, across its blocks:
 * for (in = bcw__first_instruction(fn); in; in = bcw__next_instruction(in)) */
BCW_INTERNAL LLVMValueRef bcw__first_instruction(LLVMValueRef fn);
BCW_INTERNAL LLVMValueRef bcw__next_instruction(LLVMValueRef in);

/* Name of a value, borrowed from LLVM. */
BCW_INTERNAL const char *bcw__value_name(LLVMValueRef v);

/* The source file a function is defined in according to debug info, or
 * NULL without debug info.  Borrowed. */
BCW_INTERNAL const char *bcw__function_file(LLVMValueRef fn, unsigned *len);

/* The source file of v's debug location (an instruction's, a
 * function's), its folder joined to a relative name, into *path (the
 * caller's; NULL when v has none).  0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__debug_path(LLVMValueRef v, char **path);

#endif
