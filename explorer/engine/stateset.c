/* stateset.c - the walk's set of state hashes (stateset.h). */
#include "stateset.h"

#include <stdlib.h>

#include "alloc.h"

/* The hashes are well mixed already (rt_state.c): the low bits index. */
static size_t slot_of(uint64_t h, size_t cap)
{
    return (size_t)(h ^ (h >> 32)) & (cap - 1);
}

static void put(uint64_t *slots, size_t cap, uint64_t h)
{
    size_t i = slot_of(h, cap);
    while (slots[i] != 0)
        i = (i + 1) & (cap - 1);
    slots[i] = h;
}

bool bcw__stateset_has(const bcw_stateset *s, uint64_t h)
{
    if (s->cap == 0 || h == 0)
        return false;
    for (size_t i = slot_of(h, s->cap);; i = (i + 1) & (s->cap - 1)) {
        if (s->slots[i] == h)
            return true;
        if (s->slots[i] == 0)
            return false;
    }
}

int bcw__stateset_add(bcw_stateset *s, uint64_t h, bool *added)
{
    BCW_ASSERT(h != 0);
    *added = false;
    if (bcw__stateset_has(s, h))
        return 0;
    if (2 * (s->len + 1) > s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 1024;
        uint64_t *slots = bcw__calloc(cap, sizeof *slots);
        if (slots == NULL)
            return BCW_ENOMEM;
        for (size_t i = 0; i < s->cap; i++)
            if (s->slots[i] != 0)
                put(slots, cap, s->slots[i]);
        free(s->slots);
        s->slots = slots;
        s->cap = cap;
    }
    put(s->slots, s->cap, h);
    s->len++;
    *added = true;
    return 0;
}

void bcw__stateset_clear(bcw_stateset *s)
{
    free(s->slots);
    s->slots = NULL;
    s->cap = s->len = 0;
}
