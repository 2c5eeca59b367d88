/* typedef_queue.c - a queue users name by its typedef (Queue for struct
 * _Queue): bad_input.py compiles it without -g, where bcwalk sees no
 * typedef, and asks for the unit Queue. */
#include <stdlib.h>

typedef struct _Queue {
    int items[8];
    int head, len;
} Queue;

Queue *queue_new(void)
{
    return calloc(1, sizeof(Queue));
}

void queue_free(Queue *q)
{
    free(q);
}

void queue_push(Queue *q, int x)
{
    if (q->len < 8)
        q->items[(q->head + q->len++) % 8] = x;
}

int queue_pop(Queue *q)
{
    if (q->len == 0)
        abort();
    int x = q->items[q->head];
    q->head = (q->head + 1) % 8;
    q->len--;
    return x;
}

int queue_len(const Queue *q)
{
    return q->len;
}
