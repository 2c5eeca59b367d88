/* finreg.c - the registry of finreg.h: finalizers run in reverse order
 * by finreg_free; finreg_keep registers free() for a copy of a string. */
#include "finreg.h"

#include <stdlib.h>
#include <string.h>

finreg *finreg_new(void)
{
    return calloc(1, sizeof(finreg));
}

void finreg_free(finreg *r)
{
    if (r == NULL)
        return;
    while (r->tail != r->array) {
        r->tail--;
        r->tail->func(r->tail->data);
    }
    free(r->array);
    free(r);
}

size_t finreg_count(const finreg *r)
{
    return (size_t)(r->tail - r->array);
}

/* grows a full array (4 slots first, then twice as many) and appends */
bool finreg_push_expand(finreg *r, void (*func)(void *), void *data)
{
    size_t used = (size_t)(r->end - r->array);
    size_t next = used == 0 ? 4 : used * 2;
    finreg_fin *a = realloc(r->array, next * sizeof *a);
    if (a == NULL)
        return false;
    r->array = a;
    r->end = a + next;
    r->tail = a + used;
    r->tail->func = func;
    r->tail->data = data;
    r->tail++;
    return true;
}

/* a copy of s, freed with the registry; NULL without memory */
char *finreg_keep(finreg *r, const char *s)
{
    char *copy = strdup(s);
    if (copy != NULL && !finreg_push(r, free, copy)) {
        free(copy);
        copy = NULL;
    }
    return copy;
}
