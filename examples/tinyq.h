/* tinyq.h - a header-only queue in the shape of jsmn.h or stb: the header
 * is the implementation, its API (tinyq_init, tinyq_push, tinyq_pop)
 * external, its helper tinyq_put_at static.  tinyq_put_at trusts its
 * caller with an index below TINYQ_ROOM; called on its own with any
 * index it writes past the queue.  A header's static functions are API
 * only when the header defines no external function (static inline
 * accessors, as counter.h's): here they are the implementation's
 * helpers, and bcwalk walks the API alone. */
#ifndef TINYQ_H
#define TINYQ_H

#define TINYQ_ROOM 4

typedef struct tinyq {
    int items[TINYQ_ROOM];
    unsigned head, n;
} tinyq;

void tinyq_init(tinyq *q);
int tinyq_push(tinyq *q, int v);
int tinyq_pop(tinyq *q, int *out);

static void tinyq_put_at(tinyq *q, unsigned i, int v)
{
    q->items[i] = v;
}

void tinyq_init(tinyq *q)
{
    q->head = 0;
    q->n = 0;
}

/* 1, or 0 when full */
int tinyq_push(tinyq *q, int v)
{
    if (q->n == TINYQ_ROOM)
        return 0;
    tinyq_put_at(q, (q->head + q->n) % TINYQ_ROOM, v);
    q->n++;
    return 1;
}

/* 1 with the oldest item in *out, or 0 when empty */
int tinyq_pop(tinyq *q, int *out)
{
    if (q->n == 0)
        return 0;
    *out = q->items[q->head];
    q->head = (q->head + 1) % TINYQ_ROOM;
    q->n--;
    return 1;
}

#endif
