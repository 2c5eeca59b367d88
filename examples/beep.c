/* beep.c - a counter whose `beep_log` writes its value to standard error
 * and returns nothing: a void function that changes nothing of the unit
 * is an observer whose effect, if any, no walk can see, and the walk
 * says so (tests/e2e/roles.py). */
#include <stdio.h>
#include <stdlib.h>

typedef struct beep {
    int n;
} beep;

beep *beep_new(void)
{
    return calloc(1, sizeof(beep));
}

void beep_free(beep *b)
{
    free(b);
}

void beep_inc(beep *b)
{
    b->n++;
}

int beep_count(const beep *b)
{
    return b->n;
}

void beep_log(const beep *b)
{
    fprintf(stderr, "beep: %d\n", b->n);
}
