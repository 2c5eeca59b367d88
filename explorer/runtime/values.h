/* values.h - the master generator and how values are shown.
 *
 * Values are quasi-unique within a sequence, as JWalk's: integers 1, 2,
 * 3 ... in call order; chars 'a', 'b' ...; bools true, false, ...;
 * floating values 1.5, 2.5 ...; strings from a fixed list; `void *`
 * element cells Obj#1, Obj#2 ... (Obj#0 is the "same element again"
 * category of kinds.c).  The worker draws values with
 * bcw_gen_next; the parent replays the same draws to print them.
 *
 * Raw results of pointer type are canonical, never addresses:
 * BCW_PTR_NULL, the unit itself, element cell k, or the k-th other
 * pointer the sequence returned. */
#ifndef BCW_VALUES_H
#define BCW_VALUES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "abi.h"

typedef struct bcw_gen {
    uint32_t ints, chars, bools, floats, strings, objs;
} bcw_gen;

#define BCW_STRINGS 6
extern const char *const bcw_gen_strings[BCW_STRINGS];

#define BCW_PTR_NULL 0ull
#define BCW_PTR_TARGET (1ull << 56)
#define BCW_PTR_CELL (2ull << 56)
#define BCW_PTR_OTHER (3ull << 56)

/* The next value for a parameter of `kind`/`abi`: raw bits (integers
 * zero-extended, floats as their bit pattern) or, for strings and
 * elements, the index into the string list or the cell number. */
static inline uint64_t bcw_gen_next(bcw_gen *g, enum bcw_pkind kind,
                                    enum bcw_abi abi)
{
    switch (kind) {
    case BCW_PK_INT:
    case BCW_PK_ENUM:
        return ++g->ints;
    case BCW_PK_LENGTH:
        return BCW_BUFFER_BYTES;
    case BCW_PK_BOOL:
        return (g->bools++ & 1) == 0;
    case BCW_PK_CHAR:
        return (uint64_t)('a' + g->chars++ % 26);
    case BCW_PK_FLOAT: {
        double d = ++g->floats + 0.5;
        uint64_t raw = 0;
        if (abi == BCW_ABI_FLOAT) {
            float f = (float)d;
            memcpy(&raw, &f, sizeof f);
        } else {
            memcpy(&raw, &d, sizeof d);
        }
        return raw;
    }
    case BCW_PK_STRING:
        return g->strings++ % BCW_STRINGS;
    case BCW_PK_ELEMENT:
        return ++g->objs; /* Obj#0 is the element category's */
    default:
        return 0;
    }
}

/* Formats an argument (`is_result` 0) or a result/out value (1) into
 * `buf`.  Returns `buf`. */
char *bcw_value_format(char *buf, size_t n, enum bcw_pkind kind,
                       enum bcw_abi abi, uint64_t raw, int is_result);

/* Sign- or zero-extends raw result bits of an integer ABI class. */
int64_t bcw_value_int(enum bcw_abi abi, uint64_t raw);

#endif
