/* memfault.c - faults of the code under test that libc functions make:
 * mf_load copies from the source its mf_source left NULL, so libc's
 * memcpy faults, and mf_store writes through it.  A halt's cause names
 * the unit's function and line that called into libc, not libc. */
#include <stdlib.h>
#include <string.h>

typedef struct mf {
    char buf[64];
    const char *src;
    size_t n;
} mf;

mf *mf_new(void)
{
    mf *m = calloc(1, sizeof *m);
    if (m != NULL)
        m->n = sizeof m->buf;
    return m;
}

/* 0, or 1 with no source set: the copy faults in memcpy */
int mf_load(mf *m, int from_source)
{
    if (!from_source)
        return 0;
    memcpy(m->buf, m->src, m->n);
    return 1;
}

size_t mf_size(const mf *m)
{
    return m->n;
}

void mf_free(mf *m)
{
    free(m);
}
