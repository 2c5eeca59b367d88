/* counter.c - an init-style unit with an out-parameter, a global call
 * count and a static helper that is not part of the API. */
#include "counter.h"

static unsigned long calls; /* module state: restored between sequences */

static long clamp(long v, long limit)
{
    return v > limit ? limit : v;
}

void counter_init(counter *c)
{
    c->value = 0;
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
