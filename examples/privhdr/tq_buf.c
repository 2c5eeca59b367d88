/* tq_buf.c - the byte buffer (tq_buf.h).  tq_buf_put trusts its caller
 * to have made room: called alone it writes past the block, which no
 * user of the library can do. */
#include "tq_buf.h"

#include <stdlib.h>

tq_buf *tq_buf_new(size_t cap)
{
    tq_buf *b = malloc(sizeof *b);
    if (b == NULL)
        return NULL;
    b->bytes = malloc(cap ? cap : 1);
    b->len = 0;
    b->cap = cap ? cap : 1;
    if (b->bytes == NULL) {
        free(b);
        return NULL;
    }
    return b;
}

int tq_buf_reserve(tq_buf *b, size_t n)
{
    if (b->len + n <= b->cap)
        return 0;
    size_t cap = b->cap * 2 > b->len + n ? b->cap * 2 : b->len + n;
    char *p = realloc(b->bytes, cap);
    if (p == NULL)
        return -1;
    b->bytes = p;
    b->cap = cap;
    return 0;
}

void tq_buf_put(tq_buf *b, char c)
{
    b->bytes[b->len++] = c;
}

size_t tq_buf_len(const tq_buf *b)
{
    return b->len;
}

void tq_buf_free(tq_buf *b)
{
    free(b->bytes);
    free(b);
}
