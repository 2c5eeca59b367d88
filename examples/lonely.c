/* lonely.c - one file of a library whose unit calls a function another
 * file defines (lonely_tick): walked alone, its bitcode cannot be built
 * into a worker, and bcwalk names what is missing and how to link it. */
#include <stdlib.h>

typedef struct lonely {
    int ticks;
} lonely;

int lonely_tick(int ticks); /* in the library's other file */

lonely *lonely_new(void)
{
    return calloc(1, sizeof(lonely));
}

void lonely_bump(lonely *l)
{
    l->ticks = lonely_tick(l->ticks);
}

void lonely_free(lonely *l)
{
    free(l);
}
