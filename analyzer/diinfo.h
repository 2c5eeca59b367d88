/* diinfo.h - C view of the debug information the LLVM C API cannot reach
 * (parameter names, C type spellings, pointer and const facts). */
#ifndef BCW_DIINFO_H
#define BCW_DIINFO_H

#include <llvm-c/Core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What debug info says of one C type. */
typedef struct bcw_di_type {
    char spelling[128]; /* "const bstack *", "int", "unsigned long" */
    char name[64];      /* the parameter's name, "" if unknown */
    int known;          /* 0: no debug info for this slot */
    int is_pointer;
    int is_bool, is_char, is_unsigned, is_enum, is_float;
    int is_funcptr;
    int pointee_void, pointee_char, pointee_const, pointee_struct;
    int pointee_pointer, pointee_float, pointee_unsigned, pointee_bool;
    unsigned pointee_bits; /* size of the pointed-to type, 0 unknown */
    char detail[256];      /* enums: "RED=0, GREEN=1", whole entries,
                              then "..." if more did not fit; callbacks:
                              their signature "int (*)(const void *, int)" */
    unsigned char sig[9];  /* callbacks: ABI classes (abi.h) of the result
                              and the parameters, when all are scalars */
    unsigned nsig;         /* 0: unknown or not passable */
    char pointee_name[64]; /* struct name, or its typedef's name; for a
                              pointer to a pointer to a struct (T **),
                              that struct's */
    char handle[64];       /* a typedef of a char pointer (typedef char
                              *sds: "sds"), the type of a string handle;
                              "" for other types */
    char value_struct[64]; /* a struct passed or returned by value: its
                              name, or its typedef's; "" for others */
    unsigned value_bits;   /* and its size */
} bcw_di_type;

/* Describes the return type (out[0]) and parameters (out[1..]) of `fn`
 * from its DISubprogram.  Returns how many slots were filled (0 when the
 * function has no debug info); slots up to `max` are always cleared. */
int bcw__di_signature(LLVMValueRef fn, bcw_di_type *out, unsigned max);

/* Writes into buf (n bytes) a function type with every typedef
 * resolved, as a callback's is written, "int (*)(void *, void *)": with
 * slot 0 fn's own type, with slot i the type of fn's callback parameter
 * i.  Returns 1; 0, buf untouched, without debug info, when slot i is
 * not a function pointer or when the text does not fit. */
int bcw__di_canonical(LLVMValueRef fn, unsigned slot, char *buf, size_t n);

/* A member of the struct a pointer slot points to. */
typedef struct bcw_di_field {
    char name[64];
    unsigned offset_bits, size_bits;
    int is_pointer, is_signed;
    bcw_di_type type; /* what debug info says of its type: a callback's
                         signature and ABI */
} bcw_di_field;

/* The size in bits of the struct slot `slot` of `fn` points to (0 the
 * result, i the i-th parameter), directly or through a pointer to it (a
 * constructor's T **out), from its definition: in another compile unit
 * of the module where the slot's own only declares it.  0 without debug
 * info. */
unsigned bcw__di_struct_bits(LLVMValueRef fn, unsigned slot);

/* Names the module whose struct definitions bcw__di_struct_bits and
 * bcw__di_fields may index by name (built at their first question), or
 * NULL: none, the index dropped.  The analysis names its module while it
 * runs; a question about another module is answered without the index. */
void bcw__di_index(LLVMModuleRef mod);

/* Lists the top-level members of that struct (bcw__di_struct_bits).
 * Returns how many were written, at most `max`; 0 without debug info. */
int bcw__di_fields(LLVMValueRef fn, unsigned slot, bcw_di_field *out,
                   unsigned max);

/* Erases the debug intrinsics (from LLVM 19 the records) of each
 * variable whose size LLVM's passes would look for forever: its type's
 * base types go round a cycle of types without a size (a typedef that
 * is its own base type, which LLVM's verifier lets through).  sroa asks
 * every variable it moves to registers. */
void bcw__di_drop_unsized(LLVMModuleRef mod);

/* Whether the module's source is C++ by its debug information: 1 when a
 * compile unit's language is C++ (or Objective-C++), 0 when none is, -1
 * when the module has no compile unit (no debug information). */
int bcw__di_cxx(LLVMModuleRef mod);

#ifdef __cplusplus
}
#endif

#endif
