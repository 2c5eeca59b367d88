/* finder.h - the state unit discovery shares between its files: the
 * module, every API function's signature, and the units and symbols
 * found so far, with their lookups by name. */
#ifndef BCW_FINDER_H
#define BCW_FINDER_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "api.h"
#include "bitcode.h"
#include "effects.h"
#include "hash.h"
#include "model.h"
#include "sig.h"

/* The constructor a unit was made from, and its slot that holds the
 * unit: where the unit's fields are read from debug info. */
typedef struct bcw_origin {
    LLVMValueRef fn;
    unsigned slot;
} bcw_origin;

typedef struct bcw_finder {
    bcw_model *model; /* what discovery fills */
    LLVMModuleRef mod;
    LLVMTargetDataRef td;
    const bcw_effects *fx;
    bcw_api *api;     /* which external functions the headers declare */
    const char **own; /* with files linked in: the library's own functions
                         (BCW_OWN_MD), names borrowed from the module */
    unsigned nown;
    bcw_index own_ix;
    size_t units_cap, skipped_cap, syms_cap; /* of the model's arrays */
    bcw_origin *origins;                     /* of model->units[i] */
    size_t origins_cap;
    bcw_index unit_ix, sym_ix; /* names of units and symbols */
    bcw_sig *sigs;             /* every API function's, read once */
    unsigned nsigs;
    bcw_index sig_ix; /* by function */
} bcw_finder;

/* Sets up *f for filling `model` from bc's module, reading every API
 * function's signature.  0 or BCW_ENOMEM; either way *f is to be
 * disposed with bcw__finder_dispose. */
BCW_INTERNAL int bcw__finder_init(bcw_finder *f, bcw_model *model,
                                  bcw_bitcode *bc, const bcw_effects *fx);
/* Frees what f owns (not the model). */
BCW_INTERNAL void bcw__finder_dispose(bcw_finder *f);

/* The signature of API function `fn` (NULL is accepted), or NULL.
 * Borrowed from f. */
BCW_INTERNAL const bcw_sig *bcw__finder_sig(const bcw_finder *f,
                                            LLVMValueRef fn);
/* The index of unit `name` (NULL is accepted), or -1. */
BCW_INTERNAL int bcw__finder_unit(const bcw_finder *f, const char *name);
/* The unit whose name is the longest "X_" prefix of function name `fn`,
 * or -1. */
BCW_INTERNAL int bcw__finder_unit_by_prefix(const bcw_finder *f,
                                            const char *fn);
/* Registers a unit just appended to the model as model->units[i], so
 * bcw__finder_unit finds it.  0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__finder_add_unit(bcw_finder *f, unsigned i);
/* Lists function `fn` in the model's skipped API as "fn: why".  0 or
 * BCW_ENOMEM. */
BCW_INTERNAL int bcw__finder_skip(bcw_finder *f, const char *fn,
                                  const char *why);
/* *out is the index of `name` in the model's symbol table, added if it
 * is not there.  0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__finder_sym(bcw_finder *f, const char *name,
                                 unsigned *out);

#endif
