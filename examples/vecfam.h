/* vecfam.h - a family of units made by a macro: one struct and one set
 * of functions per element type, the struct an anonymous one named by
 * its typedef (vecfam.c). */
#ifndef VECFAM_H
#define VECFAM_H

#include <stddef.h>

#define VEC_DECLARE(T)                                                         \
    typedef struct {                                                           \
        T *items;                                                              \
        size_t len, cap;                                                       \
    } vec_##T;                                                                 \
    vec_##T *vec_##T##_new(void);                                              \
    void vec_##T##_free(vec_##T *v);                                           \
    int vec_##T##_push(vec_##T *v, T x);                                       \
    int vec_##T##_pop(vec_##T *v, T *out);                                     \
    size_t vec_##T##_len(const vec_##T *v);

VEC_DECLARE(int)
VEC_DECLARE(double)

#endif
