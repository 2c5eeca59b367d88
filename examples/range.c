/* range.c - a small array of ints, c-algorithms' ArrayList in miniature:
 * its mode, an enum the constructor only stores, decides later what
 * range_add does (a fixed range stays at four elements, a sorted one
 * keeps its order); range_remove checks its range as arraylist_remove_range
 * does, and a length that makes `index + length` wrap passes the check:
 * the seeded bug a walk finds only with that length.  Like a library with
 * a global initialisation, no range is made before range_lib_init() ran
 * (explore --setup range_lib_init). */
#include <stdlib.h>
#include <string.h>

enum range_mode { RANGE_GROW, RANGE_FIXED, RANGE_SORTED = 4 };

typedef struct range {
    int *data;
    unsigned len, cap;
    enum range_mode mode;
} range;

/* The library's state, made by range_lib_init: how many elements a new
 * range has room for. */
static unsigned *range_initial_cap;

void range_lib_init(void)
{
    range_initial_cap = malloc(sizeof *range_initial_cap);
    if (range_initial_cap != NULL)
        *range_initial_cap = 4;
}

/* The room a new range has; before range_lib_init() it reads through a
 * NULL pointer (as a setup function, a crash: tests/e2e/inputs.py). */
unsigned range_lib_default_cap(void)
{
    return *range_initial_cap;
}

/* Undoes range_lib_init(); aborts when it has not run. */
void range_lib_done(void)
{
    if (range_initial_cap == NULL)
        abort();
    free(range_initial_cap);
    range_initial_cap = NULL;
}

range *range_new(enum range_mode mode)
{
    if (range_initial_cap == NULL)
        return NULL; /* range_lib_init() has not run */
    range *r = malloc(sizeof *r);
    if (r == NULL)
        return NULL;
    r->len = 0;
    r->cap = *range_initial_cap;
    r->mode = mode;
    r->data = malloc(r->cap * sizeof *r->data);
    if (r->data == NULL) {
        free(r);
        return NULL;
    }
    return r;
}

void range_free(range *r)
{
    free(r->data);
    free(r);
}

/* Adds x at the end, or in order in a sorted range; -1 when a fixed
 * range is full or memory ran out. */
int range_add(range *r, int x)
{
    if (r->len == r->cap) {
        if (r->mode == RANGE_FIXED)
            return -1;
        int *d = realloc(r->data, 2 * r->cap * sizeof *d);
        if (d == NULL)
            return -1;
        r->data = d;
        r->cap *= 2;
    }
    unsigned i = r->len;
    while (r->mode == RANGE_SORTED && i > 0 && r->data[i - 1] > x) {
        r->data[i] = r->data[i - 1];
        i--;
    }
    r->data[i] = x;
    r->len++;
    return 0;
}

/* Removes `length` elements from `index` on; -1 for a range outside the
 * array, except one whose end wraps past UINT_MAX (the bug). */
int range_remove(range *r, unsigned index, unsigned length)
{
    if (index > r->len || index + length > r->len)
        return -1;
    memmove(r->data + index, r->data + index + length,
            (r->len - (index + length)) * sizeof *r->data);
    r->len -= length;
    return 0;
}

/* The first element, 0 when there is none. */
int range_first(const range *r)
{
    return r->len > 0 ? r->data[0] : 0;
}

unsigned range_len(const range *r)
{
    return r->len;
}
