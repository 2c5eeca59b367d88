/* api.h - which external functions a library declares in its header.
 * C keeps no trace of a header in bitcode, so a function defined in
 * stem.c is looked up in the stem.h found beside its source (debug info
 * gives the path): when that header names others of the file's functions
 * but not this one, it is an internal helper (rb_tree_node_uncle), not
 * API.  The headers consulted are kept in the model, so a cached model
 * is analysed again when one of them changes. */
#ifndef BCW_API_H
#define BCW_API_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#include "model.h"

typedef struct bcw_api bcw_api;

/* Finds the header of each source file defining an external function of
 * `mod`, and reads which of them it names.  0 or BCW_ENOMEM; *out is
 * freed with bcw__api_free (NULL is accepted). */
BCW_INTERNAL int bcw__api_open(bcw_api **out, LLVMModuleRef mod);
BCW_INTERNAL void bcw__api_free(bcw_api *a);

/* Why fn is internal, not API: its header leaves it out, or only a
 * header of the library's own declares it (the caller's, *left true);
 * NULL with *left false when fn is API (declared in a public header,
 * static, defined in a header, or its source has no header that
 * applies); NULL with *left true when out of memory. */
BCW_INTERNAL char *bcw__api_left_out(const bcw_api *a, LLVMValueRef fn,
                                     bool *left);

/* Moves the list of headers consulted into m->headers ("SUM PATH", SUM
 * 16 hex digits of the file's bcw__hash, 0 for one that does not
 * exist). */
BCW_INTERNAL void bcw__api_record(bcw_api *a, bcw_model *m);

/* Are the headers m was analysed with unchanged?  1, 0, or BCW_ENOMEM. */
BCW_INTERNAL int bcw__api_current(const bcw_model *m);

#endif
