/* deep.c - a unit whose method deep_descend recurses 2,000 frames of
 * about 1 KiB: 2 MiB of stack, past the 1 MiB a worker's calls may use
 * (docs/worker-protocol.md) whatever `ulimit -s` bcwalk runs under, yet
 * within Linux's usual 8 MiB.  deep_shallow recurses 10 frames. */
#include <stdlib.h>

typedef struct deep {
    int levels;
} deep;

deep *deep_new(void)
{
    deep *d = malloc(sizeof *d);
    if (d != NULL)
        d->levels = 2000;
    return d;
}

void deep_free(deep *d)
{
    free(d);
}

/* n frames below this one; the frame's bytes are read after the call,
 * so no compiler turns the recursion into a loop */
static int descend(int n)
{
    volatile char frame[1024];
    frame[0] = 1;
    frame[sizeof frame - 1] = 1;
    if (n == 0)
        return 0;
    return descend(n - 1) + frame[0] * frame[sizeof frame - 1];
}

int deep_descend(const deep *d)
{
    return descend(d->levels);
}

int deep_shallow(const deep *d)
{
    return descend(10);
}
