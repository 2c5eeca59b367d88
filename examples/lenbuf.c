/* lenbuf.c - a sum over a buffer and its length, whose path for input
 * of 4 GiB or more starts from the last byte.  bcwalk backs a buffer with
 * at most 64 KiB: for that category it passes a buffer shorter than the
 * length says, and the read past its end is bcwalk's making, not the
 * library's: the halt is suspect. */
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
