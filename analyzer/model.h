/* model.h - the unit model's structures, shared by the analyzer that
 * builds it and the explorer that walks it. */
#ifndef BCW_MODEL_H
#define BCW_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "bcwalk/model.h"
#include "common.h"
#include "abi.h"

typedef struct bcw_param {
    char *name;             /* from debug info, else "pN" */
    char *ctype;            /* C spelling: "int", "const bstack *" */
    enum bcw_pkind kind;
    enum bcw_abi abi;
    enum bcw_abi pointee;   /* BCW_PK_OUT: the pointed-to scalar */
    uint32_t pointee_size;  /* BCW_PK_OUT / BCW_PK_SCRATCH: bytes */
} bcw_param;

typedef struct bcw_func {
    char *name;
    enum bcw_role role;
    bcw_param ret;          /* kind BCW_PK_NONE for void */
    unsigned nparams;
    bcw_param params[BCW_MAX_PARAMS];
    unsigned sym;           /* index into the model's symbol table */
    bool is_static;         /* internal linkage in the bitcode */
    char *writes;           /* why it is a mutator, NULL for observers */
} bcw_func;

typedef struct bcw_unit {
    char *name;             /* "bstack" */
    char *ctype;            /* how C code names it: "bstack", "struct x" */
    uint64_t size;          /* sizeof, for init-style constructors */
    unsigned nfuncs;
    bcw_func *funcs;        /* constructors, methods, destructors */
} bcw_unit;

struct bcw_model {
    char *path;
    unsigned nunits;
    bcw_unit *units;
    unsigned nsyms;
    char **syms;            /* every walked function, by symbol index */
    unsigned nskipped;
    char **skipped;         /* "name: reason" for API we cannot call */
};

/* Static mod analysis (effects.c): for every defined function, whether
 * it may write memory reachable from each pointer parameter, or module
 * globals.  `why` gets a short reason for the first write found. */
typedef struct bcw_effects bcw_effects;
struct bcw_bitcode;
BCW_INTERNAL int bcw__effects_new(bcw_effects **out, struct bcw_bitcode *bc);
BCW_INTERNAL bool bcw__effects_writes(const bcw_effects *fx, const char *fn,
                                      unsigned param, const char **why);
BCW_INTERNAL bool bcw__effects_frees(const bcw_effects *fx, const char *fn,
                                     unsigned param);
BCW_INTERNAL void bcw__effects_free(bcw_effects *fx);

/* Unit discovery (units.c) fills model->units from the loaded module. */
BCW_INTERNAL int bcw__units_find(bcw_model *model, struct bcw_bitcode *bc,
                                 const bcw_effects *fx);

/* Index of the unit's destructor or first constructor, -1 if none. */
BCW_INTERNAL int bcw__unit_destructor(const bcw_unit *u);

/* Role names as shown in reports: "constructor", "mutator"... */
BCW_INTERNAL const char *bcw__role_name(enum bcw_role role);
BCW_INTERNAL const char *bcw__kind_name(enum bcw_pkind kind);

#endif
