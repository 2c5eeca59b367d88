/* tq_buf.h - the byte buffer the text queue is made of: the library's
 * own header, beside its source (tq_buf.c). */
#ifndef TQ_BUF_H
#define TQ_BUF_H

#include <stddef.h>

typedef struct tq_buf {
    char *bytes;
    size_t len, cap;
} tq_buf;

tq_buf *tq_buf_new(size_t cap);
/* Makes room for n more bytes: 0, or -1 without memory. */
int tq_buf_reserve(tq_buf *b, size_t n);
/* Appends c; the caller has made room for it (tq_buf_reserve). */
void tq_buf_put(tq_buf *b, char c);
size_t tq_buf_len(const tq_buf *b);
void tq_buf_free(tq_buf *b);

#endif
