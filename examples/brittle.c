/* brittle.c - a unit whose destructor always crashes: it writes the
 * count to a log the constructor never opened.  Every sequence of a
 * walk ends in SIGSEGV, so a walk of it measures what a crash costs
 * (benchmarks/bench_restarts.py): each one is followed by a fresh
 * worker. */
#include <stdlib.h>

typedef struct brittle {
    int n;
    int *log; /* never set */
} brittle;

brittle *brittle_new(void)
{
    return calloc(1, sizeof(brittle));
}

void brittle_add(brittle *b, int x)
{
    b->n += x;
}

void brittle_clear(brittle *b)
{
    b->n = 0;
}

int brittle_count(const brittle *b)
{
    return b->n;
}

void brittle_free(brittle *b)
{
    *b->log = b->n;
    free(b);
}
