/* lonely_peer.c - the other file of lonely.c's library: the functions
 * lonely.c calls, and a unit of its own (a peer), which a walk of
 * lonely.c linked with this file does not include. */
#include <stdlib.h>

typedef struct peer {
    int seen;
} peer;

int lonely_tick(int ticks)
{
    return ticks < 2 ? ticks + 1 : 0;
}

int lonely_read(const int *ticks)
{
    return *ticks;
}

peer *peer_new(void)
{
    return calloc(1, sizeof(peer));
}

void peer_see(peer *p)
{
    p->seen++;
}

void peer_free(peer *p)
{
    free(p);
}
