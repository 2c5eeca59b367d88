/* under.c - a write before a heap block: ub_put16's bounds check
 * `pos + 2 > cap` wraps around for a position within 2 of UINT64_MAX.
 * The buffer starts with one byte, where a 16-bit value fits only by that
 * wrap: the solver's position for "it fits" is UINT64_MAX - 1, and the
 * two bytes land right before the buffer.  bcwalk calls it a heap
 * underflow on ub_put16, the call that wrote, not a crash in the free
 * that meets the damage later. */
#include <stdint.h>
#include <stdlib.h>

typedef struct ubuf {
    unsigned char *mem;
    uint64_t cap;
} ubuf;

ubuf *ub_new(void)
{
    ubuf *b = malloc(sizeof *b);
    if (b == NULL)
        return NULL;
    b->cap = 1;
    b->mem = calloc(1, b->cap);
    if (b->mem == NULL) {
        free(b);
        return NULL;
    }
    return b;
}

/* stores v at pos, little-endian, if it fits (but for the wrap) */
void ub_put16(ubuf *b, uint64_t pos, uint16_t v)
{
    if (pos + 2 > b->cap)
        return;
    b->mem[pos] = (unsigned char)v;
    b->mem[pos + 1] = (unsigned char)(v >> 8);
}

uint16_t ub_get16(const ubuf *b, uint64_t pos)
{
    if (pos >= b->cap || b->cap - pos < 2)
        return 0;
    return (uint16_t)(b->mem[pos] | b->mem[pos + 1] << 8);
}

void ub_free(ubuf *b)
{
    free(b->mem);
    free(b);
}
