/* slab.c - a pool of fixed-size blocks whose header lives in bytes the
 * caller gives (`uint8_t *mem`), as allocators for embedded code do.
 * `mem` is a byte pointer the constructor indexes as its struct: the
 * analyzer takes it as storage of the struct's size, not as a string,
 * which the constructor would overrun (tests/e2e/analyze.py; the
 * emitted tests of tests/e2e/reports.py pass under AddressSanitizer). */
#include <stddef.h>
#include <stdint.h>

typedef struct slab {
    uint8_t *blocks;
    size_t block_size, nblocks, used;
} slab;

int slab_new(uint8_t *mem, size_t block_size, size_t nblocks, slab **out)
{
    slab *s = (slab *)mem;
    s->blocks = NULL;
    s->block_size = block_size;
    s->nblocks = nblocks;
    s->used = 0;
    *out = s;
    return 0;
}

/* the offset of the next block, or -1 when all are taken */
long slab_take(slab *s)
{
    if (s->used == s->nblocks)
        return -1;
    return (long)(s->block_size * s->used++);
}

size_t slab_used(const slab *s)
{
    return s->used;
}

void slab_reset(slab *s)
{
    s->used = 0;
}
