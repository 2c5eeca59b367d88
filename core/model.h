/* model.h - the unit model's structures and what every stage asks of
 * them: the analyzer builds a model, the solver annotates its parameters
 * (categories), the explorer walks it read-only. */
#ifndef BCW_MODEL_H
#define BCW_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "abi.h"
#include "bcwalk/model.h"
#include "errors.h"

/* A branch condition a parameter decides, and its C text both ways. */
typedef struct bcw_cond {
    char *text, *negated; /* "amount > 0", "amount <= 0" */
    uint32_t root;        /* the ICMP node; UINT32_MAX for strings */
    char *value;          /* strings: a value that meets it ("push") */
} bcw_cond;

/* A category of a parameter's values (category-partition testing). */
typedef struct bcw_part {
    char *label; /* "amount > 0 && amount <= 100" */
    unsigned nvalues;
    int64_t values[3]; /* representative, then the boundaries; callbacks:
                          the function's symbol index, or -BCW_CB_* for a
                          built-in closure */
    char *str;         /* strings: the value ("push"); callbacks: the
                          function's name ("int_cmp", "bcw_compare") */
    /* Bounds relative to the unit's fields (0 < amount <= balance +
     * limit): nodes rel .. rel + nrel - 1 of the parameter's nodes are
     * BCW_C_LOWER/UPPER/EQUAL/UNEQUAL nodes, evaluated on the live object at
     * call time; the first is the relative bound whose boundary value (node +
     * its delta) the walk passes.
     * `rel_text` shows the bound ("balance + limit + 1"); rel is -1 for
     * constant categories. */
    int32_t rel;
    uint32_t nrel;
    char *rel_text;
} bcw_part;

typedef struct bcw_field {
    char *name;
    uint32_t offset, bits; /* byte offset in the unit, width */
    /* A function pointer a built-in can fill (abi.h's bcw_callback, by
     * the field's name or typedef as a parameter's), else 0; the
     * callback's ABI: result, then parameters (nsig 1 + parameters). */
    uint8_t callback, nsig;
    uint8_t sig[BCW_MAX_PARAMS + 1];
} bcw_field;

typedef struct bcw_param {
    char *name;  /* from debug info, else "pN" */
    char *ctype; /* C spelling: "int", "const bstack *"; a callback's
                    typedef (ArrayListEqualFunc), else its signature */
    enum bcw_pkind kind;
    enum bcw_abi abi;
    enum bcw_abi pointee;  /* BCW_PK_OUT: the pointed-to scalar */
    uint32_t pointee_size; /* BCW_PK_OUT / BCW_PK_SCRATCH: bytes */
    char *detail;          /* ENUM: "RED=0, GREEN=1"; CALLBACK: its
                              signature; UNIT_REF: the unit; or NULL */
    int pair;              /* BUFFER <-> LENGTH: the other's index, -1 */
    uint8_t sig[BCW_MAX_PARAMS + 1]; /* CALLBACK: ABI classes of its result
                                        and parameters ... */
    uint8_t nsig;                    /* ... of which 1 + its parameters;
                                        0: unknown, no closure for it */
    bool nullable;                   /* the function compares it with NULL */
    bool into_unit;                  /* a result pointing into the unit */
    bool filled;                     /* SCRATCH: only filled by the call (an
                                        out-struct); else the call reads the
                                        zeroed storage bcwalk made up */
    bool by_value;                   /* a result: a one-word struct returned
                                        by value (json-c's iterator) that
                                        is a handle: the handle is a copy
                                        of it, given out by its address */
    bool elem_size;                  /* a constructor's integer: the size
                                        of the elements the unit copies
                                        (memcpy(slot, key, s->key_size)):
                                        built-in callbacks read that many
                                        bytes of an element, not its
                                        address */
    bcw_field *members;              /* SCRATCH: the function pointer
                                        members of its struct a built-in
                                        fills (a table of callbacks), the
                                        rest of it zeroed */
    unsigned nmembers;
    bool taken;         /* STRING or BUFFER: not const and kept (stored
                           by the call or one it makes): the library
                           takes it over (buffer_new_with_string(str)
                           reallocates and frees it), so it is given a
                           heap block of its own */
    bool alias_checked; /* UNIT, not the target: the call compares it
                           with the target, so the target passed again
                           is a case the code handles (a category) */
    bool members_all;   /* SCRATCH: every member of its
                           struct is one of those: no
                           made-up argument */
    uint64_t needs_set; /* HANDLE: the pointer fields of the
                           handle the call follows unchecked
                           (an iterator's current entry), bit i
                           the pointer at byte 8 * i: a handle
                           with one of them NULL is not passed */
    unsigned nconds, nnodes, nparts;
    bcw_cond *conds;  /* analyzer: the branches it decides */
    bcw_cnode *nodes; /* their expression trees */
    bcw_part *parts;  /* solver: its categories, or none */
    char *parts_note; /* solver: why it has none although it has
                         conditions (relative to fields, too many) */
} bcw_param;

/* What an init function returning a status returns when it made the
 * object: the other results are its failure, and no object is made. */
enum bcw_status {
    BCW_STATUS_NONE,   /* no status, or none bcwalk can tell */
    BCW_STATUS_ZERO,   /* 0 (int t_init(t *s, ...) returning -1 on failure) */
    BCW_STATUS_NONZERO /* not 0 (bool t_init(...) returning false) */
};

/* What a destructor frees, so that each object is torn down by one
 * made for it: a heap object by one freeing its block (msgpack_zone_free
 * after msgpack_zone_new), an init function's storage by one releasing
 * what it holds (msgpack_zone_destroy after msgpack_zone_init). */
enum bcw_teardown {
    BCW_TEARDOWN_ANY,     /* not a destructor, or what it frees is unseen */
    BCW_TEARDOWN_BLOCK,   /* frees the unit's own block */
    BCW_TEARDOWN_RELEASES /* frees what the unit holds, not its block */
};

typedef struct bcw_func {
    char *name;
    enum bcw_role role;
    bcw_param ret; /* kind BCW_PK_NONE for void */
    unsigned nparams;
    bcw_param params[BCW_MAX_PARAMS];
    unsigned sym;       /* index into the model's symbol table */
    int self;           /* the parameter that is the unit; -1 for
                           constructors (result or T **out) */
    enum bcw_status ok; /* an init function's status: which results say it
                           made the object (the others: no object) */
    bool retains;       /* takes a reference: returns its unit, counted
                           up in the field the destructor counts down
                           and frees at zero (json_object_get): the walk
                           releases once more for each call */
    bool rebinds;       /* returns the unit's new handle and frees or
                           reallocates the old: s = str_cat(s, t) */
    enum bcw_teardown teardown; /* a destructor's: what it frees */
    char *family;       /* the struct it takes its unit's family field to
                           point to (zlib's z_stream state: deflate's
                           internal_state, inflate's inflate_state), where
                           the unit's functions take it to point to
                           different ones (analyzer/families.c); NULL:
                           any object */
    bool defaults;      /* an init function testing fields of its storage
                           for 0 before it sets them (zlib's deflateInit_:
                           zalloc == Z_NULL means its own allocator): it
                           is given zeroed storage, as a caller's
                           `z_stream s = {0}`, not the fill */
    bool is_static;     /* internal linkage in the bitcode */
    char *why;          /* why it is a mutator, NULL for observers */
    char *unwalkable;   /* why walks leave it out, or NULL */
    unsigned nreads, nwrote;
    char **reads, **wrote; /* fields it reads and writes: "size", "*data"
                              (the block a pointer field points to) */
    unsigned ncontracts;
    struct bcw_contract *contracts;
    char *file;    /* where it is defined (debug information), or NULL */
    unsigned line; /* and its line, 0: unknown */
} bcw_func;

/* How the analyzer found a contract in a function's bitcode: the
 * construct it came from.  The model file stores these values; contract.h's
 * enum bcw_contract_kind is another numbering, the code under test's. */
enum bcw_contract_origin {
    BCW_CK_ASSERT,   /* assert(expr) */
    BCW_CK_ABORT,    /* abort() when expr: a guarded path */
    BCW_CK_REQUIRES, /* contract.h */
    BCW_CK_ENSURES,
    BCW_CK_INVARIANT
};
typedef struct bcw_contract {
    enum bcw_contract_origin kind;
    char *expr; /* the condition that must hold, as written
                   (assert, contract.h) or as decompiled from
                   the branch (abort: the condition to abort) */
} bcw_contract;

/* One side of a bitcode predicate, evaluated on a live object. */
typedef struct bcw_term {
    enum bcw_term_kind kind;
    uint32_t offset, bits; /* FIELD: a bits-wide load at offset ... */
    int32_t via;           /* ... of the unit (-1), or of the block the
                              pointer field at unit+via points to */
    int64_t value;         /* CONST */
} bcw_term;

typedef struct bcw_pred {
    char *name;      /* "is_empty", "size == capacity" */
    bool interface;  /* a Boolean observer, else a branch condition */
    int func;        /* interface: the observer's index in funcs */
    enum bcw_cmp op; /* bitcode: l op r */
    bcw_term l, r;
    /* interface: its observer returns the comparison l op r (negated:
     * its opposite), so it means what that bitcode predicate means */
    bool formal, negated;
    char **users; /* bitcode: the methods that branch on it */
    unsigned nusers;
} bcw_pred;

typedef struct bcw_unit {
    char *name;    /* "bstack" */
    char *ctype;   /* how C code names it: "bstack", "struct x" */
    uint64_t size; /* sizeof, for init-style constructors */
    unsigned nfuncs;
    bcw_func *funcs; /* constructors, methods, destructors */
    unsigned nfields;
    bcw_field *fields; /* from debug info; empty without */
    unsigned npreds;
    bcw_pred *preds;
    int invariant; /* index of T_invariant/T_check/T_ok, or -1 */
    bool cell;     /* the unit lives in a caller's cell, NULL
                      meaning empty: list_push(entry **head, v);
                      its constructor is the empty cell */
    unsigned nhandles;
    struct bcw_handle *handles;
} bcw_unit;

/* A derived handle: a pointer to another struct that the unit's methods
 * hand out (nodes, iterators) and other functions take back. */
typedef struct bcw_handle {
    char *type; /* the struct: "node" */
    char **from, **users, **invalidators;
    unsigned nfrom, nusers, ninvalidators;
} bcw_handle;

struct bcw_model {
    char *path;
    unsigned nunits;
    bcw_unit *units;
    unsigned nsyms;
    char **syms; /* every walked function, by symbol index */
    unsigned nskipped;
    char **skipped; /* "name: reason" for API we cannot call */
    unsigned nheaders;
    char **headers; /* "SUM PATH" of each header looked for to tell API
                       from internal functions (analyzer/api.h) */
};

/* "bcw_compare", ...: how reports name a built-in callback. */
BCW_INTERNAL const char *bcw__callback_name(enum bcw_callback cb);

/* How condition texts name field `name` of the unit in function f:
 * "balance", or "c->mode" when a parameter of f has the field's name
 * (mode vs c->mode).  The caller's; NULL when out of memory. */
BCW_INTERNAL char *bcw__field_ref(const bcw_func *f, const char *name);

/* The text of field node value `offset`: bcw__field_ref of its name, or
 * "@offset" without debug info. */
BCW_INTERNAL char *bcw__field_at(const bcw_unit *u, const bcw_func *f,
                                 int64_t offset);

/* The C operator of an arithmetic node ("+", "<<"), NULL for others. */
BCW_INTERNAL const char *bcw__cop_symbol(unsigned op);

/* The solver's annotations, the only changes it makes to a model.
 *
 * Appends category `part` to p's categories; the part's strings become
 * the parameter's (freed with it, or at once on failure).  0 or
 * BCW_ENOMEM. */
BCW_INTERNAL int bcw__param_add_part(bcw_param *p, bcw_part part);

/* Removes p's category i (freeing its strings); those after move down
 * one (--from-tests drops the tests' categories a walk has no room
 * for). */
BCW_INTERNAL void bcw__param_remove_part(bcw_param *p, unsigned i);

/* Appends expression node `node` to p's nodes (a category's bounds
 * refer to them by index); its index, or -1 when out of memory. */
BCW_INTERNAL int64_t bcw__param_add_node(bcw_param *p, bcw_cnode node);

/* Says why p has no categories although it has conditions; takes
 * `note`, whose NULL (an allocation that failed) gives BCW_ENOMEM. */
BCW_INTERNAL int bcw__param_set_note(bcw_param *p, char *note);

/* Frees a parameter's strings and arrays; NULL fields are fine. */
BCW_INTERNAL void bcw__param_free(bcw_param *p);

/* How many units deep an argument's constructor may need other units'
 * instances: cc_rbuf_new_conf(conf, &out) needs a conf that
 * cc_rbuf_conf_init(conf) fills. */
#define BCW_REF_DEPTH 2

/* The constructor that makes a BCW_PK_UNIT_REF argument `p`: the index
 * in the other unit's funcs (*unit, its index in m->units) of a
 * constructor returning T *, filling a T **out or an init function
 * filling storage, whose parameters a walk can make (generated values,
 * callbacks by their first category, other units' instances made so in
 * turn, BCW_REF_DEPTH deep), the one needing least first; -1 when there
 * is none, and the argument is zeroed storage of the unit's size. */
/* bcw__unit_ref_ctor for a constructor needing other units at most
 * `depth` levels down (-1: none). */
BCW_INTERNAL int bcw__unit_ref_ctor_within(const bcw_model *m,
                                           const bcw_param *p, unsigned *unit,
                                           int depth);
BCW_INTERNAL int bcw__unit_ref_ctor(const bcw_model *m, const bcw_param *p,
                                    unsigned *unit);

/* The constructor of unit u itself that makes a second instance for a
 * parameter of u's type other than the target (an item added to a
 * list of items): its index in u->funcs, chosen as bcw__unit_ref_ctor
 * chooses; -1 when there is none. */
BCW_INTERNAL int bcw__unit_own_ctor(const bcw_model *m, const bcw_unit *u);
/* fn's family number in unit u: 0 when it has none, else 1 + the index
 * of its `family` among the distinct ones of u's functions, in order (0
 * past BCW_MAX_FAMILIES). */
BCW_INTERNAL unsigned bcw__func_family(const bcw_unit *u, const bcw_func *fn);

/* Index in u->handles of the handle of struct `type`, or -1. */
BCW_INTERNAL int bcw__handle_index(const bcw_unit *u, const char *type);

/* Index in u->handles of the handle function `f` gives out as its
 * result, or -1. */
BCW_INTERNAL int bcw__handle_given(const bcw_unit *u, const bcw_func *f);
/* Index in u->handles of the handle `f` gives out through storage it
 * fills as parameter k (hash_table_iterate(t, &iter)), or -1. */
BCW_INTERNAL int bcw__handle_given_in(const bcw_unit *u, const bcw_func *f,
                                      unsigned k);

/* Contract kind names: "assert", "abort", "requires" ... */
BCW_INTERNAL const char *bcw__contract_name(enum bcw_contract_origin kind);

/* Role names as shown in reports: "constructor", "mutator"... */
BCW_INTERNAL const char *bcw__role_name(enum bcw_role role);
BCW_INTERNAL const char *bcw__kind_name(enum bcw_pkind kind);

/* The model file's bytes (docs/model.md), the caller's to free, and a
 * model read back from them (`name` says where they came from in the
 * error): how an oracle carries the model its walk was planned from.
 * With `conds`, each parameter's analyzer conditions and all its
 * expression nodes too, which no file keeps: how the analysis, made in
 * the child that read the bitcode, comes back before it is partitioned. */
BCW_INTERNAL int bcw__model_to_bytes(const bcw_model *m, bool conds,
                                     char **data, size_t *len);
BCW_INTERNAL int bcw__model_from_bytes(bcw_model **out, const char *data,
                                       size_t len, const char *name);

#endif
