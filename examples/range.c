/* range.c - a small array of ints, c-algorithms' ArrayList in miniature:
 * its mode, an enum the constructor only stores, decides later what
 * range_add does (a fixed range stays at four elements, a sorted one
 * keeps its order). */
#include <stdlib.h>

enum range_mode { RANGE_GROW, RANGE_FIXED, RANGE_SORTED = 4 };

typedef struct range {
    int *data;
    unsigned len, cap;
    enum range_mode mode;
} range;

range *range_new(enum range_mode mode)
{
    range *r = malloc(sizeof *r);
    if (r == NULL)
        return NULL;
    r->len = 0;
    r->cap = 4;
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

/* The first element, 0 when there is none. */
int range_first(const range *r)
{
    return r->len > 0 ? r->data[0] : 0;
}

unsigned range_len(const range *r)
{
    return r->len;
}
