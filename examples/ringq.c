/* ringq.c - a ring-buffer queue of ints with no Boolean predicate in its
 * interface: its states (empty, full) exist only as the branch
 * conditions count == 0 and count == cap inside its methods. */
#include <stdlib.h>

typedef struct ringq {
    int *items;
    unsigned head, tail;
    unsigned count, cap;
} ringq;

ringq *ringq_new(void)
{
    ringq *q = calloc(1, sizeof *q);
    if (q == NULL)
        return NULL;
    q->cap = 4;
    q->items = calloc(q->cap, sizeof *q->items);
    if (q->items == NULL) {
        free(q);
        return NULL;
    }
    return q;
}

void ringq_free(ringq *q)
{
    free(q->items);
    free(q);
}

/* Returns 0, or -1 when the queue is full. */
int ringq_put(ringq *q, int x)
{
    if (q->count == q->cap)
        return -1;
    q->items[q->tail] = x;
    q->tail = (q->tail + 1) % q->cap;
    q->count++;
    return 0;
}

/* Returns 0 and stores the oldest item in *out, or -1 when empty. */
int ringq_get(ringq *q, int *out)
{
    if (q->count == 0)
        return -1;
    *out = q->items[q->head];
    q->head = (q->head + 1) % q->cap;
    q->count--;
    return 0;
}

unsigned ringq_length(const ringq *q)
{
    return q->count;
}
