/* lonely.c - one file of a library whose unit calls functions another
 * file defines (lonely_tick, lonely_read, in lonely_peer.c): walked
 * alone, its bitcode cannot be built into a worker, and bcwalk names what
 * is missing and how to give it (--link lonely_peer.bc).  Linked, the
 * walk's units are still this file's, and lonely_peek is an observer:
 * the code it calls only reads. */
#include <stdlib.h>

typedef struct lonely {
    int ticks;
} lonely;

int lonely_tick(int ticks);        /* in the library's other file */
int lonely_read(const int *ticks); /* so is this one */

lonely *lonely_new(void)
{
    return calloc(1, sizeof(lonely));
}

void lonely_bump(lonely *l)
{
    l->ticks = lonely_tick(l->ticks);
}

int lonely_peek(lonely *l)
{
    return lonely_read(&l->ticks);
}

void lonely_free(lonely *l)
{
    free(l);
}
