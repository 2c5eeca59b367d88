/* flagbuf.c - a buffer that reports misuse in an error flag, as sc_buf
 * style libraries do: flagbuf_put past the capacity and flagbuf_seek past the end
 * raise FB_RANGE, flagbuf_take from an empty buffer raises FB_EMPTY, and
 * flagbuf_valid says whether any was raised since flagbuf_clear.  flagbuf_valid is named
 * as an invariant is, but it is false exactly when the library refused a
 * call and said so: bcwalk makes it a state predicate (valid or not), and
 * no call that raises the flag is a failure. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#define FB_RANGE 1u
#define FB_EMPTY 2u

typedef struct flagbuf {
    unsigned char *mem;
    uint32_t cap, len, pos;
    uint32_t err;
} flagbuf;

flagbuf *flagbuf_new(void)
{
    flagbuf *b = calloc(1, sizeof *b);
    if (b == NULL)
        return NULL;
    b->cap = 2;
    b->mem = calloc(1, b->cap);
    if (b->mem == NULL) {
        free(b);
        return NULL;
    }
    return b;
}

bool flagbuf_put(flagbuf *b, unsigned char c)
{
    if (b->len == b->cap) {
        b->err |= FB_RANGE;
        return false;
    }
    b->mem[b->len++] = c;
    return true;
}

int flagbuf_take(flagbuf *b)
{
    if (b->pos == b->len) {
        b->err |= FB_EMPTY;
        return -1;
    }
    return b->mem[b->pos++];
}

void flagbuf_seek(flagbuf *b, uint32_t pos)
{
    if (pos > b->len) {
        b->err |= FB_RANGE;
        return;
    }
    b->pos = pos;
}

void flagbuf_clear(flagbuf *b)
{
    b->len = 0;
    b->pos = 0;
    b->err = 0;
}

bool flagbuf_valid(const flagbuf *b)
{
    return b->err == 0;
}

void flagbuf_free(flagbuf *b)
{
    free(b->mem);
    free(b);
}
