/* shelf_take.c - the last item taken off a shelf (0 from an empty one),
 * and whether it has room (shelf.h). */
#include "shelf.h"

int shelf_take(shelf *s)
{
    if (shelf_count(s) == 0)
        return 0;
    return s->items[--s->n];
}

bool shelf_room(const shelf *s)
{
    return !shelf_full(s);
}
