/* sbuf.c - two units in one module (a string buffer and a pool of
 * them) with every parameter kind the analyzer tells apart: an enum, a
 * buffer with its length, a callback, a nullable pointer, pointers into
 * the unit, an out-parameter and a pointer to the other unit. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum sbuf_case { SBUF_KEEP, SBUF_UPPER, SBUF_LOWER = 4 };

typedef struct sbuf {
    char *data;
    size_t len, cap;
    enum sbuf_case mode;
} sbuf;

sbuf *sbuf_new(void)
{
    sbuf *b = calloc(1, sizeof *b);
    if (b == NULL)
        return NULL;
    b->cap = 32;
    b->data = calloc(b->cap, 1);
    if (b->data == NULL) {
        free(b);
        return NULL;
    }
    return b;
}

void sbuf_free(sbuf *b)
{
    free(b->data);
    free(b);
}

void sbuf_set_case(sbuf *b, enum sbuf_case mode)
{
    switch (mode) {
    case SBUF_KEEP:
    case SBUF_UPPER:
    case SBUF_LOWER:
        b->mode = mode;
        break;
    default:
        break;
    }
}

/* Appends len bytes of data; -1 when they do not fit. */
int sbuf_append(sbuf *b, const char *data, size_t len)
{
    if (b->len + len + 1 > b->cap)
        return -1;
    for (size_t i = 0; i < len; i++) {
        char c = data[i];
        if (b->mode == SBUF_UPPER && c >= 'a' && c <= 'z')
            c = (char)(c - 'a' + 'A');
        b->data[b->len++] = c;
    }
    return 0;
}

void sbuf_each(const sbuf *b, void (*visit)(char c, void *payload),
               void *payload)
{
    for (size_t i = 0; i < b->len; i++)
        visit(b->data[i], payload);
}

/* Copies the contents to dst if given; returns the length. */
size_t sbuf_copy_to(const sbuf *b, char *dst)
{
    if (dst != NULL)
        memcpy(dst, b->data, b->len);
    return b->len;
}

/* printf-style append: a va_list cannot be made by a walk */
int sbuf_vprintf(sbuf *b, const char *fmt, va_list ap)
{
    int n = vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
    if (n < 0 || (size_t)n >= b->cap - b->len)
        return -1;
    b->len += (size_t)n;
    return n;
}

const char *sbuf_data(const sbuf *b)
{
    return b->data;
}

int sbuf_last(const sbuf *b, char *out)
{
    if (b->len == 0)
        return -1;
    *out = b->data[b->len - 1];
    return 0;
}

typedef struct sbuf_pool {
    sbuf *items[4];
    int count;
} sbuf_pool;

sbuf_pool *sbuf_pool_new(void)
{
    return calloc(1, sizeof(sbuf_pool));
}

void sbuf_pool_free(sbuf_pool *p)
{
    free(p);
}

int sbuf_pool_size(const sbuf_pool *p)
{
    return p->count;
}

/* Keeps b (not owned) when there is room. */
int sbuf_pool_put(sbuf_pool *p, sbuf *b)
{
    if (p->count == 4)
        return -1;
    p->items[p->count++] = b;
    return 0;
}

/* Bytes the pooled buffers can hold: reads each sbuf it was given. */
size_t sbuf_pool_capacity(const sbuf_pool *p)
{
    size_t n = 0;
    for (int i = 0; i < p->count; i++)
        n += p->items[i]->cap;
    return n;
}
