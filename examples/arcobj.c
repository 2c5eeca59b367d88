/* arcobj.c - a reference-counted object whose count changes atomically,
 * as thread-safe libraries keep theirs: arc_get takes a reference with
 * __atomic_fetch_add and returns the object, arc_put releases one with
 * __atomic_sub_fetch and frees at zero.  Each is an atomicrmw in the
 * bitcode, not a load, an add and a store: a reference all the same, so
 * a sequence that took one ends with one more arc_put, and nothing leaks
 * (tests/e2e/instances.py). */
#include <stdlib.h>

typedef struct arc {
    int refs;
    char *name;
} arc;

arc *arc_new(void)
{
    arc *a = malloc(sizeof *a);
    if (a == NULL)
        return NULL;
    a->name = malloc(8);
    if (a->name == NULL) {
        free(a);
        return NULL;
    }
    a->refs = 1;
    return a;
}

arc *arc_get(arc *a)
{
    __atomic_fetch_add(&a->refs, 1, __ATOMIC_RELAXED);
    return a;
}

/* 1 when this release freed the object */
int arc_put(arc *a)
{
    if (__atomic_sub_fetch(&a->refs, 1, __ATOMIC_ACQ_REL) > 0)
        return 0;
    free(a->name);
    free(a);
    return 1;
}

int arc_refs(const arc *a)
{
    return __atomic_load_n(&a->refs, __ATOMIC_RELAXED);
}
