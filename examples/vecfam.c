/* vecfam.c - growable arrays made by a macro, one family member per
 * element type (vec_int, vec_double), as C libraries of generic
 * containers do: bcwalk finds each member as a unit of its own, named
 * by its typedef (tests/e2e/roles.py). */
#include "vecfam.h"

#include <stdlib.h>

#define VEC_DEFINE(T)                                                          \
    vec_##T *vec_##T##_new(void)                                               \
    {                                                                          \
        return calloc(1, sizeof(vec_##T));                                     \
    }                                                                          \
                                                                               \
    void vec_##T##_free(vec_##T *v)                                            \
    {                                                                          \
        free(v->items);                                                        \
        free(v);                                                               \
    }                                                                          \
                                                                               \
    /* 0, or -1 when there is no memory */                                     \
    int vec_##T##_push(vec_##T *v, T x)                                        \
    {                                                                          \
        if (v->len == v->cap) {                                                \
            size_t cap = v->cap ? 2 * v->cap : 4;                              \
            T *items = realloc(v->items, cap * sizeof *items);                 \
            if (items == NULL)                                                 \
                return -1;                                                     \
            v->items = items;                                                  \
            v->cap = cap;                                                      \
        }                                                                      \
        v->items[v->len++] = x;                                                \
        return 0;                                                              \
    }                                                                          \
                                                                               \
    /* the last item into *out: 0, or -1 when empty */                         \
    int vec_##T##_pop(vec_##T *v, T *out)                                      \
    {                                                                          \
        if (v->len == 0)                                                       \
            return -1;                                                         \
        *out = v->items[--v->len];                                             \
        return 0;                                                              \
    }                                                                          \
                                                                               \
    size_t vec_##T##_len(const vec_##T *v)                                     \
    {                                                                          \
        return v->len;                                                         \
    }

VEC_DEFINE(int)
VEC_DEFINE(double)
