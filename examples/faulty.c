/* faulty.c - a unit whose methods crash, hang, assert and leak, so the
 * tests can see each outcome recorded while the walk goes on. */
#include <assert.h>
#include <stdlib.h>

typedef struct faulty {
    int *cells;
    int n;
} faulty;

faulty *faulty_new(void)
{
    faulty *f = calloc(1, sizeof *f);
    return f;
}

/* Refuses small capacities: with the master generator's first int (1)
 * it gives no object, so its sequences are rejected. */
faulty *faulty_with_capacity(int cap)
{
    if (cap < 100)
        return NULL;
    faulty *f = calloc(1, sizeof *f);
    if (f != NULL)
        f->cells = calloc((size_t)cap, sizeof *f->cells);
    return f;
}

void faulty_free(faulty *f)
{
    free(f->cells);
    free(f);
}

/* Writes through a NULL pointer: SIGSEGV. */
void faulty_crash(faulty *f)
{
    f->cells[f->n] = 1;
}

/* Never returns. */
int faulty_hang(const faulty *f)
{
    volatile int spin = 1;
    while (spin)
        continue;
    return f->n;
}

/* Fails an assertion unless something was added. */
int faulty_check(const faulty *f)
{
    assert(f->n > 0);
    return f->n;
}

/* Allocates and forgets: a leak, reported after the destructor. */
void faulty_add(faulty *f, int x)
{
    int *leak = malloc(sizeof *leak);
    *leak = x;
    f->n++;
}
