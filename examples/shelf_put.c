/* shelf_put.c - a shelf made, filled and freed (shelf.h). */
#include <stdlib.h>

#include "shelf.h"

shelf *shelf_new(void)
{
    return calloc(1, sizeof(shelf));
}

bool shelf_put(shelf *s, int x)
{
    if (shelf_full(s))
        return false;
    s->items[shelf_count(s)] = x;
    s->n++;
    return true;
}

void shelf_free(shelf *s)
{
    free(s);
}
