/* late.c - a bag whose destructor means to accept NULL but checks too
 * late: it frees l->items before it tests l (a seeded fault).  Its
 * parameter is checked for NULL, so a walk gives it NULL once after a
 * constructor's sequence, and the crash is that call's
 * (tests/e2e/roles.py). */
#include <stdlib.h>

typedef struct late {
    int *items;
    int n;
} late;

late *late_new(void)
{
    late *l = calloc(1, sizeof *l);
    if (l != NULL && (l->items = calloc(4, sizeof *l->items)) == NULL) {
        free(l);
        return NULL;
    }
    return l;
}

/* Frees l; NULL is meant to be accepted. */
void late_free(late *l)
{
    free(l->items);
    if (l == NULL)
        return;
    free(l);
}

void late_add(late *l, int x)
{
    if (l->n < 4)
        l->items[l->n++] = x;
}

int late_count(const late *l)
{
    return l->n;
}
