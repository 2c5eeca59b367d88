/* lenbuf.c - a sum over a buffer and its length, whose path for input
 * of 4 GiB or more starts from the last byte.  bcwalk makes buffers of
 * at most 64 KiB: the category len >= 4 GiB is no call it can make with
 * the buffer it has, so it is left out with a note, never passed a
 * buffer shorter than its length says (tests/e2e/outcomes.py). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct lsum {
    uint64_t total;
} lsum;

lsum *lsum_new(void)
{
    return calloc(1, sizeof(lsum));
}

void lsum_add(lsum *s, const unsigned char *buf, size_t len)
{
    if (len >= ((size_t)1 << 32))
        s->total += buf[len - 1];
    for (size_t i = 0; i < len && i < 8; i++)
        s->total += buf[i];
}

uint64_t lsum_total(const lsum *s)
{
    return s->total;
}

void lsum_free(lsum *s)
{
    free(s);
}
