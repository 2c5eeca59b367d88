/* finreg.h - a registry of finalizers in msgpack-c's zone shape: the
 * public header's static inline finreg_push writes into the free slot
 * and, only once the array is full, calls the exported
 * finreg_push_expand, which grows it and appends after the old end.
 * finreg_push_expand trusts that check: called on its own with free
 * slots left, it skips them, and finreg_free later runs whatever they
 * hold.  A function only a header's static inline API function calls
 * is that function's slow path: bcwalk walks finreg_push, never
 * finreg_push_expand alone (tests/e2e/analyze.py). */
#ifndef FINREG_H
#define FINREG_H

#include <stdbool.h>
#include <stddef.h>

typedef struct finreg_fin {
    void (*func)(void *data);
    void *data;
} finreg_fin;

typedef struct finreg {
    finreg_fin *array, *tail, *end;
} finreg;

finreg *finreg_new(void);
void finreg_free(finreg *r);
size_t finreg_count(const finreg *r);
bool finreg_push_expand(finreg *r, void (*func)(void *), void *data);
char *finreg_keep(finreg *r, const char *s);

static inline bool finreg_push(finreg *r, void (*func)(void *), void *data)
{
    if (r->tail == r->end)
        return finreg_push_expand(r, func, data);
    r->tail->func = func;
    r->tail->data = data;
    r->tail++;
    return true;
}

#endif
