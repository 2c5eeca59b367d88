/* tally_iter.c - an iterator in the caller's storage whose init points
 * it into itself, as rax's raxStart does (it->key =
 * it->key_static_string; its stack's items in the stack itself):
 * storing an address inside the iterator into it is still only filling
 * it, so tq_start gives out a tq_iter handle and tq_next is walked
 * (tests/e2e/handles.py). */
#include <stdlib.h>

typedef struct tq_stack {
    void **items;
    void *inline_items[4];
    size_t n;
} tq_stack;

typedef struct tq {
    int count;
} tq;

typedef struct tq_iter {
    tq *q;
    char *key;
    char inline_key[16];
    tq_stack stack;
} tq_iter;

tq *tq_new(void)
{
    return calloc(1, sizeof(tq));
}

void tq_free(tq *q)
{
    free(q);
}

int tq_add(tq *q)
{
    return ++q->count;
}

static void stack_init(tq_stack *s)
{
    s->items = s->inline_items;
    s->n = 0;
}

void tq_start(tq_iter *it, tq *q)
{
    it->q = q;
    it->key = it->inline_key;
    stack_init(&it->stack);
}

/* how many the iterated tq counts */
int tq_next(tq_iter *it)
{
    return it->q->count;
}
