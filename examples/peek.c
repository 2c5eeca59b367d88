/* peek.c - a registry of entries numbered from 0 whose lookup checks
 * `id > count` where `id >= count` is meant (a seeded fault): with as
 * many slots as entries, reg_get(r, count) reads the pointer one slot
 * past the end of its array and hands it out.  Natively that pointer is
 * whatever follows the block, and the crash comes later, in whichever
 * call is given it (entry_weight).  bcwalk's guard bytes are what
 * follows every block, so the pointer reg_get returns is 0xfbfb...: the
 * halt is reg_get's, a heap over-read.  reg_cursor returns a field
 * reg_new never sets until the first reg_add: memory nothing wrote. */
#include <stdlib.h>

typedef struct entry {
    int weight;
} entry;

typedef struct reg {
    entry **slots;
    unsigned count;
    entry *cursor;
} reg;

reg *reg_new(void)
{
    reg *r = malloc(sizeof *r);
    if (r == NULL)
        return NULL;
    r->slots = NULL;
    r->count = 0;
    return r;
}

/* A new entry of weight w, numbered count; NULL when out of memory.
 * The array grows by exactly one slot. */
entry *reg_add(reg *r, int w)
{
    entry **slots = realloc(r->slots, (r->count + 1) * sizeof *slots);
    if (slots == NULL)
        return NULL;
    r->slots = slots;
    entry *e = malloc(sizeof *e);
    if (e == NULL)
        return NULL;
    e->weight = w;
    r->slots[r->count++] = e;
    r->cursor = e;
    return e;
}

/* Entry id, or NULL past the last.  The fault: id == count passes. */
entry *reg_get(const reg *r, unsigned id)
{
    if (id > r->count || r->slots == NULL)
        return NULL;
    return r->slots[id];
}

/* The entry added last (not set before the first reg_add). */
entry *reg_cursor(const reg *r)
{
    return r->cursor;
}

unsigned reg_count(const reg *r)
{
    return r->count;
}

int entry_weight(const entry *e)
{
    return e->weight;
}

void reg_free(reg *r)
{
    for (unsigned i = 0; i < r->count; i++)
        free(r->slots[i]);
    free(r->slots);
    free(r);
}
