/* twin.c - a unit whose calls give out pointers: twin_clone a new block
 * each time, which leaves the object as it was.  So [twin_new(),
 * twin_clone()] and [twin_new(), twin_clone(), twin_clone()] make the
 * same call in the same state, but the clone is the sequence's first
 * pointer (ptr#0) in one and its second (ptr#1) in the other: an oracle
 * entry keyed by that state must read the same either way
 * (tests/e2e/oracle.py). */
#include <stdlib.h>

typedef struct twin {
    int value;
} twin;

twin *twin_new(void)
{
    return calloc(1, sizeof(twin));
}

void twin_free(twin *t)
{
    free(t);
}

int twin_get(const twin *t)
{
    return t->value;
}

int *twin_clone(const twin *t)
{
    int *c = malloc(sizeof *c);
    if (c != NULL)
        *c = t->value;
    return c;
}

void twin_set(twin *t, int v)
{
    t->value = v;
}
