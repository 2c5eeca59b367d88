/* timerid.c - timers known by the ids the set gives out, in the shape of
 * tezc/sc's sc_timer_add and sc_timer_cancel(t, uint64_t *id): cancel
 * reads the id through its pointer, does nothing for TS_INVALID, else
 * frees that timer's slot and clears the id.  The id is the caller's
 * value, not storage to fill: bcwalk passes storage holding TS_INVALID,
 * and zeroed storage, an id no caller holds (ts_cancel then indexes a
 * slot the set never made), whose halts it marks suspect
 * (tests/e2e/inputs.py). */
#include <stdint.h>
#include <stdlib.h>

#define TS_INVALID UINT64_MAX

typedef struct tset {
    uint64_t *due; /* per slot: its deadline, TS_INVALID when free */
    uint64_t nslots;
    uint64_t now;
} tset;

void ts_init(tset *t)
{
    t->due = NULL;
    t->nslots = 0;
    t->now = 0;
}

void ts_term(tset *t)
{
    free(t->due);
    t->due = NULL;
    t->nslots = 0;
}

/* A timer due after `after` ticks: its id, or TS_INVALID without
 * memory. */
uint64_t ts_add(tset *t, uint64_t after)
{
    uint64_t *due = realloc(t->due, (t->nslots + 1) * sizeof *due);
    if (due == NULL)
        return TS_INVALID;
    t->due = due;
    t->due[t->nslots] = t->now + after;
    return t->nslots++;
}

void ts_cancel(tset *t, uint64_t *id)
{
    if (*id == TS_INVALID)
        return;
    t->due[*id] = TS_INVALID;
    *id = TS_INVALID;
}

/* The timers due by now, after `ticks` more. */
uint64_t ts_tick(tset *t, uint64_t ticks)
{
    uint64_t n = 0;
    t->now += ticks;
    for (uint64_t i = 0; i < t->nslots; i++)
        n += t->due[i] != TS_INVALID && t->due[i] <= t->now;
    return n;
}
