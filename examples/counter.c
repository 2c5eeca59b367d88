/* counter.c - an init-style unit with an out-parameter, a global call
 * count and a static helper that is not part of the API.
 * -DCOUNTER_FAULT=1 seeds a fault the mutation benchmark found bcwalk
 * blind to while it zeroed an init function's storage: counter_init
 * forgets to set the value. */
#include "counter.h"

#ifndef COUNTER_FAULT
#define COUNTER_FAULT 0
#endif

static unsigned long calls; /* module state: restored between sequences */

static long clamp(long v, long limit)
{
    return v > limit ? limit : v;
}

void counter_init(counter *c)
{
#if COUNTER_FAULT != 1
    c->value = 0;
#endif
    c->limit = 100;
}

bool counter_step(counter *c, int by)
{
    calls++;
    c->value = clamp(c->value + by, c->limit);
    return c->value == c->limit;
}

int counter_read(const counter *c, long *out)
{
    *out = c->value + (long)calls * 1000;
    return 0;
}

void counter_reset(counter *c)
{
    c->value = 0;
}

long counter_peek(const counter *c)
{
    return counter_value(c);
}
