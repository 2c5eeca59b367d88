/* defhash.c - a table of counters whose constructor takes an optional
 * hash function and an optional allocator: NULL picks its own
 * (count-min-sketch's cms_init_alt, many a hash table's). A caller
 * passes NULL for the default; bcwalk passes it too where the code
 * checks the callback for NULL, beside a built-in hash; an allocator
 * returns a pointer no built-in can make (bcw_zero's NULL, which the
 * table would write through), so it gets NULL alone
 * (tests/e2e/callbacks.py). */
#include <stdlib.h>

typedef unsigned (*dh_hashfn)(const char *key);
typedef void *(*dh_allocfn)(size_t n);

typedef struct dh {
    unsigned size;
    dh_hashfn hash;
    unsigned *bins;
} dh;

static unsigned default_hash(const char *key)
{
    unsigned h = 5381;
    while (*key != '\0')
        h = h * 33 + (unsigned char)*key++;
    return h;
}

dh *dh_new(unsigned size, dh_hashfn hash, dh_allocfn alloc)
{
    if (size == 0)
        return NULL;
    dh *t = calloc(1, sizeof *t);
    if (alloc == NULL)
        alloc = malloc;
    if (t == NULL || (t->bins = alloc(size * sizeof *t->bins)) == NULL) {
        free(t);
        return NULL;
    }
    for (unsigned i = 0; i < size; i++)
        t->bins[i] = 0;
    t->size = size;
    t->hash = hash != NULL ? hash : default_hash;
    return t;
}

void dh_add(dh *t, const char *key)
{
    t->bins[t->hash(key) % t->size]++;
}

unsigned dh_count(const dh *t, const char *key)
{
    return t->bins[t->hash(key) % t->size];
}

void dh_free(dh *t)
{
    free(t->bins);
    free(t);
}
