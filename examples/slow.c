/* slow.c - a unit whose one method takes 0.7 s: under a shorter
 * --timeout the walk calls it a hang, and its standalone program
 * (`explore --reproduce`) sees every call return: a halt bcwalk's limit
 * made, listed as bcwalk's own (tests/e2e/standalone.py). */
#include <stdlib.h>
#include <time.h>

typedef struct slow {
    int rounds;
} slow;

slow *slow_new(void)
{
    return calloc(1, sizeof(slow));
}

void slow_free(slow *s)
{
    free(s);
}

int slow_round(slow *s)
{
    struct timespec t = {0, 700 * 1000 * 1000};
    nanosleep(&t, NULL);
    return ++s->rounds;
}

int slow_rounds(const slow *s)
{
    return s->rounds;
}
