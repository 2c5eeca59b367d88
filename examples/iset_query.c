/* iset_query.c - iset's observers. */
#include "iset_impl.h"

static int slot_of(int x)
{
    return (unsigned)x % ISET_SLOTS;
}

bool iset_contains(const iset *s, int x)
{
    (void)slot_of;
    for (int j = 0; j < ISET_SLOTS; j++)
        if (s->used[j] && s->keys[j] == x)
            return true;
    return false;
}

int iset_size(const iset *s)
{
    return s->size;
}
