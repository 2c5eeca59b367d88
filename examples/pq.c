/* pq.c - a priority queue of `void *` elements ordered by the caller's
 * compare function, with a defect: it grows its array only once it is
 * past full, so the second push writes one slot past the block.  Its
 * halt needs elements and a callback; `explore --reproduce` writes them
 * in C (tests/e2e/standalone.py). */
#include <stdlib.h>

typedef int (*pq_cmp)(const void *a, const void *b);

typedef struct pq {
    void **items;
    size_t n, cap;
    pq_cmp cmp;
} pq;

pq *pq_new(pq_cmp cmp)
{
    pq *q = calloc(1, sizeof *q);
    if (q == NULL)
        return NULL;
    q->items = malloc(sizeof *q->items);
    if (q->items == NULL) {
        free(q);
        return NULL;
    }
    q->cap = 1;
    q->cmp = cmp;
    return q;
}

void pq_free(pq *q)
{
    free(q->items);
    free(q);
}

/* The defect: `>` where `>=` was meant. */
int pq_push(pq *q, void *item)
{
    if (q->n > q->cap) {
        void **grown = realloc(q->items, 2 * q->cap * sizeof *grown);
        if (grown == NULL)
            return -1;
        q->items = grown;
        q->cap *= 2;
    }
    size_t i = q->n++;
    while (i > 0 && q->cmp(item, q->items[i - 1]) < 0) {
        q->items[i] = q->items[i - 1];
        i--;
    }
    q->items[i] = item;
    return 0;
}

/* The greatest element, or NULL when empty. */
void *pq_pop(pq *q)
{
    return q->n == 0 ? NULL : q->items[--q->n];
}

size_t pq_size(const pq *q)
{
    return q->n;
}
