/* fifo.c - a queue of pointers in a ring that grows when full, the shape
 * of c-algorithms' queue: the example `bcwalk learn` learns from its own
 * test program, examples/fifo_tests.c. */
#include <stdbool.h>
#include <stdlib.h>

typedef struct fifo {
    void **data;
    unsigned head, length, capacity;
} fifo;

fifo *fifo_new(void)
{
    fifo *q = malloc(sizeof *q);
    if (q == NULL)
        return NULL;
    q->capacity = 16;
    q->head = q->length = 0;
    q->data = malloc(q->capacity * sizeof *q->data);
    if (q->data == NULL) {
        free(q);
        return NULL;
    }
    return q;
}

void fifo_free(fifo *q)
{
    if (q == NULL)
        return;
    free(q->data);
    free(q);
}

/* Twice the room, the items moved to the front in order. */
static int grow(fifo *q)
{
    unsigned cap = q->capacity * 2;
    void **data = malloc(cap * sizeof *data);
    if (data == NULL)
        return 0;
    for (unsigned i = 0; i < q->length; i++)
        data[i] = q->data[(q->head + i) % q->capacity];
    free(q->data);
    q->data = data;
    q->head = 0;
    q->capacity = cap;
    return 1;
}

/* 1, or 0 when out of memory. */
int fifo_push(fifo *q, void *item)
{
    if (q->length == q->capacity && !grow(q))
        return 0;
    q->data[(q->head + q->length) % q->capacity] = item;
    q->length++;
    return 1;
}

/* The oldest item, or NULL when empty. */
void *fifo_pop(fifo *q)
{
    if (q->length == 0)
        return NULL;
    void *item = q->data[q->head];
    q->head = (q->head + 1) % q->capacity;
    q->length--;
    return item;
}

/* Drops the n oldest items; how many it dropped. */
unsigned fifo_drop(fifo *q, unsigned n)
{
    if (n > q->length)
        n = q->length;
    q->head = (q->head + n) % q->capacity;
    q->length -= n;
    return n;
}

void *fifo_peek(const fifo *q)
{
    return q->length == 0 ? NULL : q->data[q->head];
}

unsigned fifo_length(const fifo *q)
{
    return q->length;
}

bool fifo_is_empty(const fifo *q)
{
    return q->length == 0;
}
