/* ladder.c - a unit for deep walks, giving out a new pointer per call:
 * ladder_climb returns the rung it steps on, going up rungs 0, 1, ... to
 * the top (LADDER_RUNGS - 1) and then down again.  A sequence of more
 * than 64 calls meets more than 64 distinct pointers, and past the top
 * the same ones again, each of which must keep its ptr#k: the worker
 * once numbered pointers in a table of 64 and read past its end. */
#include <stdlib.h>

#define LADDER_RUNGS 66

typedef struct ladder {
    int steps;
    int rungs[LADDER_RUNGS]; /* how often each rung was stepped on */
} ladder;

ladder *ladder_new(void)
{
    return calloc(1, sizeof(ladder));
}

void ladder_free(ladder *l)
{
    free(l);
}

/* The rung of the next step: up to the top, then back down. */
int *ladder_climb(ladder *l)
{
    int up = l->steps % (2 * LADDER_RUNGS - 2);
    int rung = up < LADDER_RUNGS ? up : 2 * LADDER_RUNGS - 2 - up;
    l->steps++;
    l->rungs[rung]++;
    return &l->rungs[rung];
}
