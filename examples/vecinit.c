/* vecinit.c - a ring of ints in the caller's storage whose init returns
 * a status: -1, before it writes anything, for a capacity out of range,
 * 0 once it filled the ring.  A failing init made no object: the walk
 * rejects the sequence there, and never pushes into a ring of capacity 0
 * (whose `len % cap` would divide by zero).  vring_destroy releases what
 * vring_init acquired and allocates nothing: the ring's destructor, so no
 * call follows it (tests/e2e/instances.py). */
#include <stdlib.h>

typedef struct vring {
    int *items;
    int cap, len;
} vring;

int vring_init(vring *r, int cap)
{
    if (cap < 1 || cap > 16)
        return -1;
    if ((r->items = calloc((size_t)cap, sizeof *r->items)) == NULL)
        return -1;
    r->cap = cap;
    r->len = 0;
    return 0;
}

void vring_destroy(vring *r)
{
    free(r->items);
}

/* x in the oldest place once full: the count */
int vring_push(vring *r, int x)
{
    r->items[r->len % r->cap] = x;
    return ++r->len;
}

int vring_len(const vring *r)
{
    return r->len;
}
