/* spill.c - a fixed array of four ints whose bounds check is off by one
 * (a seeded fault): spill_put(s, 4, v), the boundary of its category
 * (--boundaries), writes just past the heap block, which crashes nothing
 * at once.  The runtime's guard bytes catch it on
 * that call, and the worker is restarted, so no later sequence inherits
 * the damaged heap. */
#include <stdlib.h>

#define SPILL_CAP 4

typedef struct spill {
    int *cells;
    int cap;
    int sum;
} spill;

spill *spill_new(void)
{
    spill *s = malloc(sizeof *s);
    if (s == NULL)
        return NULL;
    s->cells = calloc(SPILL_CAP, sizeof *s->cells);
    s->cap = SPILL_CAP;
    s->sum = 0;
    if (s->cells == NULL) {
        free(s);
        return NULL;
    }
    return s;
}

/* Sets cell i; -1 when i is out of range.  The fault: i == cap passes
 * the check. */
int spill_put(spill *s, int i, int v)
{
    if (i < 0 || i > s->cap)
        return -1;
    s->cells[i] = v;
    s->sum += v;
    return 0;
}

int spill_sum(const spill *s)
{
    return s->sum;
}

void spill_free(spill *s)
{
    free(s->cells);
    free(s);
}
