/* iset_core.c - iset's constructor, destructor and mutators. */
#include <stdlib.h>

#include "iset_impl.h"

/* Same name as iset_query.c's helper: llvm-link must keep both apart. */
static int slot_of(int x)
{
    return (unsigned)x % ISET_SLOTS;
}

iset *iset_new(void)
{
    return calloc(1, sizeof(iset));
}

void iset_free(iset *s)
{
    free(s);
}

bool iset_add(iset *s, int x)
{
    for (int i = 0, k = slot_of(x); i < ISET_SLOTS; i++) {
        int j = (k + i) % ISET_SLOTS;
        if (s->used[j] && s->keys[j] == x)
            return false;
        if (!s->used[j]) {
            s->used[j] = 1;
            s->keys[j] = x;
            s->size++;
            return true;
        }
    }
    return false;
}

bool iset_remove(iset *s, int x)
{
    for (int j = 0; j < ISET_SLOTS; j++) {
        if (s->used[j] && s->keys[j] == x) {
            s->used[j] = 0;
            s->size--;
            return true;
        }
    }
    return false;
}
