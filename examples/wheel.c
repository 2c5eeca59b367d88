/* wheel.c - a unit in caller storage whose teardown keeps a field:
 * wheel_term frees the slots and resets the wheel to its start time
 * (`*w = (wheel){.start = w->start}`), as tezc/sc's sc_timer_term does.
 * A store of what a field held already is no new value: wheel_term is
 * the destructor that ends each sequence, and the slots are freed by it. */
#include <stdint.h>
#include <stdlib.h>

typedef struct wheel {
    uint64_t start;
    unsigned n;
    uint64_t *slots;
} wheel;

void wheel_init(wheel *w, uint64_t start)
{
    *w = (wheel){.start = start};
}

/* 0, or -1 out of memory */
int wheel_add(wheel *w, uint64_t at)
{
    uint64_t *s = realloc(w->slots, (w->n + 1) * sizeof *s);
    if (s == NULL)
        return -1;
    s[w->n++] = at;
    w->slots = s;
    return 0;
}

unsigned wheel_count(const wheel *w)
{
    return w->n;
}

void wheel_term(wheel *w)
{
    free(w->slots);
    *w = (wheel){.start = w->start};
}
