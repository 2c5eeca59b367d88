/* tally.c - a bag of up to four ints whose `tally_last` looks like an
 * observer but has a hidden side effect: it calls the bag's trace hook,
 * which counts reads in a module global through a pointer it keeps in
 * another.  The mod analysis follows the indirect call to count_read but
 * not a store through a pointer loaded from a global, so it classifies
 * tally_last an observer; the walk's state hashing sees the global change
 * and flags it. */
#include <stdlib.h>

typedef struct tally {
    int *vals;
    int n;
    void (*on_read)(void); /* trace hook */
} tally;

static unsigned long reads; /* profiling: how often the bag was read */
static unsigned long *read_counter = &reads;

static void count_read(void)
{
    (*read_counter)++;
}

tally *tally_new(void)
{
    tally *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->vals = calloc(4, sizeof *t->vals);
    if (t->vals == NULL) {
        free(t);
        return NULL;
    }
    t->on_read = count_read;
    return t;
}

void tally_free(tally *t)
{
    free(t->vals);
    free(t);
}

void tally_add(tally *t, int x)
{
    if (t->n < 4)
        t->vals[t->n++] = x;
}

/* The last value added, or -1 for an empty bag. */
int tally_last(const tally *t)
{
    t->on_read();
    return t->n > 0 ? t->vals[t->n - 1] : -1;
}

int tally_count(const tally *t)
{
    return t->n;
}
