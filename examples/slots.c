/* slots.c - a pool of n numbered slots, taken and given back: the
 * boundaries of the oracle tests' seeded faults, one per -DSLOTS_FAULT=N:
 *   1  a boundary moved by one: slots_open(0), an empty pool, is refused
 *      (the constructor returns NULL, so the call is rejected)
 *   2  a boundary moved by one on the state: slots_give accepts the slot
 *      number one past the pool, and counts it as free
 *   3  a boundary that moves with the fault: slots_open makes the pool one
 *      slot too big, so the first number past it (n, a value computed
 *      from the object) moves too; only the number the oracle recorded,
 *      passed again, shows that slots_taken now answers for it
 *   4  a constructor that never makes a pool: slots_open returns NULL
 *      always, no constructor at all to the faulty build's own analysis
 *      (the oracle's plan still calls it) */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#define SLOTS_MAX 64
#ifndef SLOTS_FAULT
#define SLOTS_FAULT 0
#endif

typedef struct slots {
    int n;         /* slots in the pool */
    int free;      /* slots not taken */
    uint64_t used; /* bit i: slot i is taken */
} slots;

slots *slots_open(int n)
{
#if SLOTS_FAULT == 4
    if (n >= 0)
        return NULL;
#endif
#if SLOTS_FAULT == 1
    if (n <= 0 || n > SLOTS_MAX)
#else
    if (n < 0 || n > SLOTS_MAX)
#endif
        return NULL;
    slots *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
#if SLOTS_FAULT == 3
    s->n = n + 1;
#else
    s->n = n;
#endif
    s->free = n;
    return s;
}

void slots_close(slots *s)
{
    free(s);
}

/* The lowest free slot's number, taken; -1 when every slot is taken. */
int slots_take(slots *s)
{
    for (int i = 0; i < s->n; i++)
        if (!(s->used >> i & 1)) {
            s->used |= (uint64_t)1 << i;
            s->free--;
            return i;
        }
    return -1;
}

/* Gives slot i back: false when it is no slot of the pool or not
 * taken. */
bool slots_give(slots *s, int i)
{
#if SLOTS_FAULT == 2
    if (i < 0 || i > s->n)
        return false;
    if (i == s->n) {
        s->free++;
        return true;
    }
#else
    if (i < 0 || i >= s->n)
        return false;
#endif
    if (!(s->used >> i & 1))
        return false;
    s->used &= ~((uint64_t)1 << i);
    s->free++;
    return true;
}

int slots_free(const slots *s)
{
    return s->free;
}

/* Is slot i taken: 1 or 0, -1 when it is no slot of the pool. */
int slots_taken(const slots *s, int i)
{
    if (i < 0 || i >= s->n)
        return -1;
    return (int)(s->used >> i & 1);
}

/* How many of slots from .. to - 1 of the pool are taken; -1 when to
 * is before from or past the pool.  Its bound on `to` is relative to
 * the object and to `from`, a generated value: a state does not decide
 * it, so the oracle does not pin it. */
int slots_count(const slots *s, int from, int to)
{
    if (to < from || to > s->n)
        return -1;
    int taken = 0;
    for (int i = from; i < to; i++)
        taken += (int)(s->used >> (i & 63) & 1);
    return taken;
}
