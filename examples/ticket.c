/* ticket.c - a ticket dispenser whose numbers are salted with randomness
 * and stamped with the time: what it returns differs from run to run of
 * a program, unless bcwalk's worker makes the randomness and the clocks
 * the sequence's own (explorer/runtime/rt_det.c).  Then the same walk
 * reports the same results, byte for byte, and an oracle holds them
 * (tests/e2e/oracle.py). */
#include <stdlib.h>
#include <sys/random.h>
#include <time.h>

typedef struct ticket {
    unsigned salt;   /* from getrandom() */
    unsigned next;   /* the next ticket's number */
    long stamped;    /* when the last ticket was taken, in seconds */
    int spread;      /* a rand() draw, for the queue's place */
} ticket;

ticket *ticket_new(void)
{
    ticket *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    if (getrandom(&t->salt, sizeof t->salt, 0) != sizeof t->salt)
        t->salt = 1;
    srand((unsigned)time(NULL));
    return t;
}

void ticket_free(ticket *t)
{
    free(t);
}

/* A new ticket: its number, salted. */
unsigned ticket_take(ticket *t)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    t->stamped = (long)ts.tv_sec;
    t->spread = rand() % 100;
    return t->next++ ^ t->salt;
}

long ticket_stamped(const ticket *t)
{
    return t->stamped;
}

int ticket_spread(const ticket *t)
{
    return t->spread;
}
