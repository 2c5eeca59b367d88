/* tq.c - a text queue (api/tq.h) made of the byte buffer of tq_buf.c. */
#include "api/tq.h"

#include <stdlib.h>

#include "tq_buf.h"

struct tq {
    tq_buf *buf;
    size_t pushed;
};

tq *tq_new(void)
{
    tq *q = malloc(sizeof *q);
    if (q == NULL)
        return NULL;
    q->buf = tq_buf_new(0);
    q->pushed = 0;
    if (q->buf == NULL) {
        free(q);
        return NULL;
    }
    return q;
}

int tq_push(tq *q, const char *s)
{
    size_t n = 0;
    while (s[n] != '\0')
        n++;
    if (tq_buf_reserve(q->buf, n) < 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        tq_buf_put(q->buf, s[i]);
    q->pushed++;
    return 0;
}

size_t tq_len(const tq *q)
{
    return tq_buf_len(q->buf);
}

void tq_free(tq *q)
{
    tq_buf_free(q->buf);
    free(q);
}
