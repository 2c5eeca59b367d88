/* refobj.c - a reference-counted object, as json-c's: ref_get takes a
 * reference (counts up and returns the object), ref_put releases one
 * (counts down, through a helper, and frees at zero).  A sequence that
 * took a reference ends with one more ref_put for it, so the object is
 * freed and nothing leaks (tests/e2e/instances.py). */
#include <stdlib.h>

typedef struct ref {
    unsigned count;
    int *data;
} ref;

ref *ref_new(void)
{
    ref *r = calloc(1, sizeof *r);
    if (r != NULL && (r->data = calloc(4, sizeof *r->data)) == NULL) {
        free(r);
        return NULL;
    }
    if (r != NULL)
        r->count = 1;
    return r;
}

ref *ref_get(ref *r)
{
    if (r != NULL)
        ++r->count;
    return r;
}

/* 1 when this release freed the object */
static int drop(ref *r)
{
    if (--r->count > 0)
        return 0;
    free(r->data);
    free(r);
    return 1;
}

int ref_put(ref *r)
{
    return r != NULL ? drop(r) : 0;
}

unsigned ref_count(const ref *r)
{
    return r->count;
}
