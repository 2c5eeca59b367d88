/* optab.c - a set whose constructor takes a table of callbacks (hash,
 * equal, free: an ops struct, as hash tables and allocators of C
 * libraries do) and calls them without checking for NULL.  No function
 * makes an optab_ops: bcwalk passes zeroed storage with each member a
 * built-in callback of the member's kind and signature, so the set is
 * walked (keys stored are found) rather than every call halting on a
 * NULL member after a made-up argument (tests/e2e/callbacks.py).
 * optab_first on an empty set fails its assert: a precondition, which
 * the standalone program reproduces with the table written in C
 * (standalone.py). */
#include "optab.h"

#include <assert.h>
#include <stdlib.h>

#define SLOTS 16

struct optab {
    optab_ops ops;
    void *keys[SLOTS];
    size_t count;
};

optab *optab_new(const optab_ops *ops)
{
    optab *t = calloc(1, sizeof *t);
    if (t != NULL)
        t->ops = *ops;
    return t;
}

void optab_free(optab *t)
{
    for (size_t i = 0; i < t->count; i++)
        t->ops.free_key(t->keys[i]);
    free(t);
}

int optab_has(const optab *t, const void *key)
{
    unsigned long h = t->ops.hash(key) % SLOTS;
    for (size_t i = 0; i < t->count; i++)
        if (t->ops.hash(t->keys[i]) % SLOTS == h &&
            t->ops.equal(t->keys[i], key))
            return 1;
    return 0;
}

/* 1: added, 0: there already or full */
int optab_put(optab *t, void *key)
{
    if (optab_has(t, key) || t->count == SLOTS)
        return 0;
    t->keys[t->count++] = key;
    return 1;
}

/* the first key; the set must not be empty */
void *optab_first(const optab *t)
{
    assert(t->count > 0);
    return t->keys[0];
}

size_t optab_count(const optab *t)
{
    return t->count;
}
