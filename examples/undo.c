/* undo.c - an undo history of ints: the last UNDO_CAP pushes, newest on
 * top, the oldest dropped (and counted) when a push finds it full.  A
 * ring buffer: a stack whose bottom moves.
 *
 * The oracle tests' seeded faults, one per -DUNDO_FAULT=N, each a
 * mistake people make in such code:
 *   1  a lost counter update: a drop is not counted
 *   2  FIFO for LIFO: pop takes the oldest entry, not the newest
 *   3  off-by-one capacity: it drops when it holds UNDO_CAP - 1
 *   4  a wrong predicate boundary: full one entry early
 *   5  an observer with a side effect: reading the drop count clears it
 *   6  a wrap-around index error: the bottom wraps one slot early, seen
 *      only after two drops (a walk of depth 6)
 *   7  a broken representation: a push on a full history counts the
 *      entry it dropped as held; undo_ok, the invariant function, says
 *      so after the call, with no oracle
 *   8  a deleted store: undo_clear forgets to empty the history, which
 *      makes it an observer to an analysis of the faulty build, so the
 *      faulty build's own algebra walk never extends it; the oracle's
 *      plan, the correct build's, still does
 *   9  a constructor that makes nothing: every sequence is rejected, and
 *      everything the oracle has is missing
 *  10  a teardown that halts on some states: undo_free aborts on a history
 *      that has dropped entries (a debugging check left in) */
#include <stdbool.h>
#include <stdlib.h>

#define UNDO_CAP 3
#ifndef UNDO_FAULT
#define UNDO_FAULT 0
#endif
/* -DUNDO_ARG=long: another interface (a reference build --reference
 * refuses) */
#ifndef UNDO_ARG
#define UNDO_ARG int
#endif

typedef struct undo {
    int data[UNDO_CAP];
    int bottom;   /* the oldest entry's slot */
    int size;     /* entries held */
    long dropped; /* entries dropped by pushes on a full history */
} undo;

undo *undo_new(void)
{
#if UNDO_FAULT == 9
    return NULL;
#else
    return calloc(1, sizeof(undo));
#endif
}

void undo_free(undo *u)
{
#if UNDO_FAULT == 10
    if (u->dropped > 0)
        abort();
#endif
    free(u);
}

/* The invariant: what every call must leave true. */
bool undo_ok(const undo *u)
{
    return u->size >= 0 && u->size <= UNDO_CAP && u->bottom >= 0 &&
           u->bottom < UNDO_CAP && u->dropped >= 0;
}

static int slot(const undo *u, int i)
{
    return (u->bottom + i) % UNDO_CAP;
}

void undo_push(undo *u, UNDO_ARG x)
{
#if UNDO_FAULT == 3
    bool full = u->size >= UNDO_CAP - 1;
#else
    bool full = u->size == UNDO_CAP;
#endif
    if (!full) {
        u->data[slot(u, u->size++)] = x;
        return;
    }
    u->data[u->bottom] = x; /* over the oldest, now the newest */
#if UNDO_FAULT == 6
    u->bottom = u->bottom + 1 == UNDO_CAP - 1 ? 0 : u->bottom + 1;
#else
    u->bottom = (u->bottom + 1) % UNDO_CAP;
#endif
#if UNDO_FAULT != 1
    u->dropped++;
#endif
#if UNDO_FAULT == 7
    u->size++;
#endif
}

/* Forgets every entry (the drop count stays). */
void undo_clear(undo *u)
{
#if UNDO_FAULT == 8
    (void)u;
#else
    u->size = 0;
    u->bottom = 0;
#endif
}

/* Removes and returns the newest entry; aborts when there is none. */
int undo_pop(undo *u)
{
    if (u->size == 0)
        abort();
#if UNDO_FAULT == 2
    int x = u->data[u->bottom];
    u->bottom = slot(u, 1);
    u->size--;
    return x;
#else
    return u->data[slot(u, --u->size)];
#endif
}

int undo_top(const undo *u)
{
    if (u->size == 0)
        abort();
    return u->data[slot(u, u->size - 1)];
}

int undo_size(const undo *u)
{
    return u->size;
}

#if UNDO_FAULT == 5
long undo_dropped(undo *u)
{
    long n = u->dropped;
    u->dropped = 0;
    return n;
}
#else
long undo_dropped(const undo *u)
{
    return u->dropped;
}
#endif

bool undo_is_empty(const undo *u)
{
    return u->size == 0;
}

bool undo_is_full(const undo *u)
{
#if UNDO_FAULT == 4
    return u->size >= UNDO_CAP - 1;
#else
    return u->size == UNDO_CAP;
#endif
}
