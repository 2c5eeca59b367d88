/* huge.c - a unit too large for the storage bcwalk gives an init
 * function (64 KiB): refused before any worker is built, with a message
 * naming the unit, its size and the function (tests/e2e/bad_input.py). */
#include <string.h>

typedef struct huge {
    unsigned char cells[1 << 20];
    int used;
} huge;

void huge_init(huge *h)
{
    memset(h, 0, sizeof *h);
}

void huge_put(huge *h, int v)
{
    h->cells[h->used++ % (1 << 20)] = (unsigned char)v;
}

int huge_used(const huge *h)
{
    return h->used;
}
