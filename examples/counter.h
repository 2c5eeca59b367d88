/* counter.h - a counter with an init-style constructor and a static
 * inline accessor defined in the header. */
#ifndef COUNTER_H
#define COUNTER_H

#include <stdbool.h>

typedef struct counter {
    long value;
    long limit;
} counter;

void counter_init(counter *c);
bool counter_step(counter *c, int by);
int counter_read(const counter *c, long *out);
long counter_peek(const counter *c);
void counter_reset(counter *c);

/* static inline API: in the bitcode, not in a normal shared object */
static inline long counter_value(const counter *c)
{
    return c->value;
}

#endif
