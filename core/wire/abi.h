/* abi.h - how a C value is passed (ABI class) and what a parameter is
 * for (kind).  Enums only: the worker runtime includes this too. */
#ifndef BCW_ABI_H
#define BCW_ABI_H

#include <stdint.h>

/* ABI class of a scalar argument or result; matches one ffi_type. */
enum bcw_abi {
    BCW_ABI_VOID,
    BCW_ABI_BOOL,
    BCW_ABI_S8,
    BCW_ABI_U8,
    BCW_ABI_S16,
    BCW_ABI_U16,
    BCW_ABI_S32,
    BCW_ABI_U32,
    BCW_ABI_S64,
    BCW_ABI_U64,
    BCW_ABI_FLOAT,
    BCW_ABI_DOUBLE,
    BCW_ABI_PTR,
    BCW_ABI_STRUCT /* a result only: a struct returned in registers, its
                      scalar elements' classes in the param's sig */
};
/* Elements of a BCW_ABI_STRUCT result: two registers' worth. */
#define BCW_MAX_STRUCT_WORDS 4

/* The integer ABI class of `bits` and signedness; BCW_ABI_BOOL for 1
 * bit, BCW_ABI_VOID for other widths. */
static inline enum bcw_abi bcw_abi_int(unsigned bits, int is_unsigned)
{
    switch (bits) {
    case 1:
        return BCW_ABI_BOOL;
    case 8:
        return is_unsigned ? BCW_ABI_U8 : BCW_ABI_S8;
    case 16:
        return is_unsigned ? BCW_ABI_U16 : BCW_ABI_S16;
    case 32:
        return is_unsigned ? BCW_ABI_U32 : BCW_ABI_S32;
    case 64:
        return is_unsigned ? BCW_ABI_U64 : BCW_ABI_S64;
    default:
        return BCW_ABI_VOID;
    }
}

/* Width in bits of an integer ABI class (64 for the others). */
static inline unsigned bcw_abi_bits(enum bcw_abi abi)
{
    switch (abi) {
    case BCW_ABI_BOOL:
    case BCW_ABI_S8:
    case BCW_ABI_U8:
        return 8;
    case BCW_ABI_S16:
    case BCW_ABI_U16:
        return 16;
    case BCW_ABI_S32:
    case BCW_ABI_U32:
        return 32;
    default:
        return 64;
    }
}

static inline int bcw_abi_signed(enum bcw_abi abi)
{
    return abi == BCW_ABI_S8 || abi == BCW_ABI_S16 || abi == BCW_ABI_S32 ||
           abi == BCW_ABI_S64;
}

/* What a parameter means, which decides how values are generated for it
 * and how results are shown. */
enum bcw_pkind {
    BCW_PK_UNIT, /* the unit under test (target) */
    BCW_PK_INT,  /* integer of any width, enums too */
    BCW_PK_BOOL,
    BCW_PK_CHAR,
    BCW_PK_FLOAT,      /* float or double */
    BCW_PK_STRING,     /* const char *: a C string */
    BCW_PK_ELEMENT,    /* void *: an element cell, Obj#k */
    BCW_PK_OUT,        /* pointer to a scalar the call may write */
    BCW_PK_SCRATCH,    /* pointer to other memory: zeroed scratch */
    BCW_PK_NONE,       /* void result */
    BCW_PK_ENUM,       /* an enum: walked as an int for now */
    BCW_PK_CALLBACK,   /* a function pointer: not generated yet */
    BCW_PK_BUFFER,     /* pointer to bytes whose length the next parameter
                          gives: BCW_BUFFER_BYTES of scratch */
    BCW_PK_LENGTH,     /* that length */
    BCW_PK_UNIT_REF,   /* pointer to another unit: an instance made by its
                          constructor (bcw__unit_ref_ctor), else zeroed
                          storage of its size */
    BCW_PK_UNIT_OUT,   /* T **out of a constructor int t_open(..., T **out):
                          a cell the unit comes back in */
    BCW_PK_UNIT_DEREF, /* of a unit living in a caller's cell (E **head):
                        an E * argument, the cell's current value */
    BCW_PK_HANDLE,     /* a derived handle (detail: its struct): one given
                          out earlier in the sequence */
    BCW_PK_STRUCT,     /* a struct result returned by value in registers:
                          its elements (ABI BCW_ABI_STRUCT, sig) */
    BCW_PK_UNIT_CELL,  /* the handle of a unit that does not live in a
                          cell, passed by its address (T **obj): &target,
                          which the call may replace (put the old, store
                          another) */
    BCW_PK_FILE        /* a C library stream (FILE *): an open memory
                          stream holding BCW_FILE_TEXT, as a caller's
                          fopen gives one to read or write */
};
#define BCW_PK_LAST BCW_PK_FILE
/* What a FILE * argument holds when it is given: lines of words and
 * numbers, readable then writable (BCW_FILE_BYTES at most). */
#define BCW_FILE_TEXT "bcwalk 1 2 3\nabc 0.5 -1\n"
#define BCW_FILE_BYTES 4096
/* An element category's value that is NULL, not a cell (Obj#k is k). */
#define BCW_ELEMENT_NULL UINT64_MAX
#define BCW_BUFFER_BYTES 16
/* A callback category's value that is NULL, for a function that checks
 * its callback for NULL (its default then: count-min-sketch's
 * cms_init_alt(..., NULL) hashes with its own); symbols are >= 0 and
 * below it, built-ins negative. */
#define BCW_CB_NULL_VALUE INT64_MAX
/* The longest buffer argument a walk makes: a length paired with a
 * buffer says no more (the solver's categories stop there, the worker
 * rejects a live bound past it). */
#define BCW_MAX_BUFFER_BYTES (64u << 10)

/* One side of a bitcode predicate (model.h's bcw_term), evaluated on a
 * live object. */
enum bcw_term_kind { BCW_TERM_FIELD, BCW_TERM_CONST, BCW_TERM_NULL };

/* Comparisons, one per Boolean variable: != is == negated, >= is <
 * negated, > is <= negated. */
enum bcw_cmp { BCW_CMP_EQ, BCW_CMP_SLT, BCW_CMP_SLE, BCW_CMP_ULT, BCW_CMP_ULE };

/* Roles of a unit's functions. */
enum bcw_role {
    BCW_ROLE_CONSTRUCTOR,      /* returns T * */
    BCW_ROLE_INIT_CONSTRUCTOR, /* initialises caller storage: T_init(T *) */
    BCW_ROLE_DESTRUCTOR,
    BCW_ROLE_OBSERVER,
    BCW_ROLE_MUTATOR,
    BCW_ROLE_EMPTY /* no call: a caller's cell set to NULL */
};

#define BCW_MAX_PARAMS 8

/* Built-in callbacks, libffi closures in the worker for a callback the
 * module has no function for.  Their elements are the callback's first
 * (and second) pointer arguments; others (a length, a seed, user data
 * after them) are ignored.  Element cells (Obj#k) stand for k, other
 * pointers for themselves, and that is what they compare, hash and
 * match on: equal exactly when compare says 0, equal ones hash alike,
 * compare a total order. */
enum bcw_callback {
    BCW_CB_COMPARE = 1, /* int (a, b): -1, 0, 1 by cell number */
    BCW_CB_EQUAL,       /* int/bool (a, b): a and b are the same cell */
    BCW_CB_HASH,        /* integer (a): a mix of the cell number */
    BCW_CB_VISIT,       /* void (...): counts its calls */
    BCW_CB_ZERO,        /* any other: returns 0, counts its calls */
    BCW_CB_PREDICATE,   /* int/bool (a): the cell number is odd */
    BCW_CB_FREE         /* void (a): frees a if the code under test
                           allocated it, else nothing (cells are not the
                           heap's), counts its calls */
};
#define BCW_CB_LAST BCW_CB_FREE

/* A condition's expression tree, nodes in one array, children by index:
 * what the solver turns into Z3 terms. */
enum bcw_cop {
    BCW_C_PARAM, /* value: the parameter's index */
    BCW_C_CONST, /* value */
    BCW_C_FIELD, /* value: byte offset in the unit; a field of the object */
    BCW_C_ARG,   /* value: the index of an earlier parameter of the call,
                    whose value the call has chosen already */
    BCW_C_ADD,
    BCW_C_SUB,
    BCW_C_MUL,
    BCW_C_SDIV,
    BCW_C_UDIV,
    BCW_C_SREM,
    BCW_C_UREM,
    BCW_C_AND,
    BCW_C_OR,
    BCW_C_XOR,
    BCW_C_SHL,
    BCW_C_LSHR,
    BCW_C_ASHR,
    BCW_C_ZEXT,
    BCW_C_SEXT,
    BCW_C_TRUNC, /* a to `bits` */
    BCW_C_ICMP,  /* pred: LLVMIntPredicate; a pred b */
    /* A category's bounds on a parameter x, relative to the object: node
     * a (its value) plus `value` bounds x from below, above, or fixes it. */
    BCW_C_LOWER,
    BCW_C_UPPER,
    BCW_C_EQUAL,
    /* A category whose conditions mix x with the object's fields in other
     * shapes (len + b->len >= b->cap): ICMP node a must hold (HOLDS) or
     * fail (FAILS); the worker searches x on the live object. */
    BCW_C_HOLDS,
    BCW_C_FAILS,
    /* a category's x != a + value: the worker steps off that value */
    BCW_C_UNEQUAL
};
#define BCW_C_LAST BCW_C_UNEQUAL
typedef struct bcw_cnode {
    uint8_t op;   /* enum bcw_cop */
    uint8_t bits; /* width of the result (1 for ICMP) */
    uint8_t pred;
    int64_t value;
    uint32_t a, b;
} bcw_cnode;

/* Most nodes a relative value (a category bound over the unit's fields)
 * may have, and the plan's pool of them (proto.h). */
#define BCW_MAX_TERM_NODES 16
#define BCW_MAX_PLAN_NODES 1024

#endif
