/* pointee.h - what a pointer parameter or result points to.  Bitcode
 * from LLVM 15 on (and clang 14 with -mllvm -opaque-pointers) has only
 * `ptr`, so this comes from debug info when there is some, and otherwise
 * from how the function uses the pointer. */
#ifndef BCW_POINTEE_H
#define BCW_POINTEE_H

#include <llvm-c/Core.h>

#include "diinfo.h"
#include "errors.h"

enum bcw_pointee_kind {
    BCW_PT_UNKNOWN,
    BCW_PT_STRUCT, /* name holds the struct's name */
    BCW_PT_SCALAR, /* type holds the integer or floating type */
    BCW_PT_CHAR,   /* char: a string or a byte buffer */
    BCW_PT_VOID,
    BCW_PT_POINTER, /* name: the struct of a T ** when debug info says */
    BCW_PT_FUNCTION,
    BCW_PT_HANDLE /* characters behind a typedef that is the unit's handle
                     (typedef char *sds): name holds the typedef */
};

typedef struct bcw_pointee {
    enum bcw_pointee_kind kind;
    char name[64];
    LLVMTypeRef type; /* struct or scalar type; NULL if unknown */
    unsigned bits;    /* size of the pointee, 0 if unknown */
    int is_unsigned;
    int from_debug_info;
    uint64_t alloc_bytes; /* a result from malloc(N)/calloc(1, N): N */
} bcw_pointee;

/* Fills *out for slot `index` of `fn`: 0 the result, i the i-th
 * parameter.  `di` is that slot's debug info (known == 0 without). */
BCW_INTERNAL void bcw__pointee(LLVMValueRef fn, unsigned index,
                               const bcw_di_type *di, bcw_pointee *out);

/* "struct.bstack" -> "bstack": the C name of an LLVM struct type, or
 * NULL for literal structs and unions. */
BCW_INTERNAL const char *bcw__struct_name(LLVMTypeRef t);

#endif
