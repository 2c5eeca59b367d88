/* alloc.c - the one allocation wrapper (tests fail the Nth call), growable
 * arrays and buffers with a limit. */
#define _POSIX_C_SOURCE 200809L
#include "alloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long alloc_fail_countdown;

unsigned long bcw__alloc_fail_at(unsigned long nth)
{
    unsigned long left = alloc_fail_countdown;
    alloc_fail_countdown = nth;
    return left;
}

static int alloc_should_fail(void)
{
    if (alloc_fail_countdown == 0)
        return 0;
    return --alloc_fail_countdown == 0;
}

static void *oom(size_t n)
{
    bcw__error(BCW_ENOMEM, "out of memory allocating %zu bytes", n);
    return NULL;
}

void *bcw__malloc(size_t n)
{
    void *p = alloc_should_fail() ? NULL : malloc(n ? n : 1);
    return p ? p : oom(n);
}

void *bcw__calloc(size_t n, size_t size)
{
    void *p = alloc_should_fail() ? NULL : calloc(n ? n : 1, size ? size : 1);
    return p ? p : oom(n * size);
}

void *bcw__realloc(void *old, size_t n)
{
    void *p = alloc_should_fail() ? NULL : realloc(old, n ? n : 1);
    return p ? p : oom(n);
}

char *bcw__strndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *p = bcw__malloc(len + 1);
    if (p == NULL)
        return NULL;
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

char *bcw__strdup(const char *s)
{
    return bcw__strndup(s, strlen(s));
}

char *bcw__sprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    char *p = bcw__malloc((size_t)n + 1);
    if (p == NULL)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

int bcw__grow(void *pp, size_t *cap, size_t need, size_t size)
{
    void **p = pp;
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 8;
    while (n < need)
        n *= 2;
    void *q = bcw__realloc(*p, n * size);
    if (q == NULL)
        return BCW_ENOMEM;
    *p = q;
    *cap = n;
    return 0;
}

void bcw__buf_init(bcw_buf *b, size_t limit)
{
    b->data = NULL;
    b->len = b->cap = 0;
    b->limit = limit;
    b->err = 0;
}

/* Records the buffer's first failure, and frees what it held. */
static int buf_fail(bcw_buf *b, int err)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->err = err;
    return err;
}

int bcw__buf_put(bcw_buf *b, const void *data, size_t n)
{
    if (b->err != 0)
        return b->err;
    if (b->len + n + 1 > b->limit)
        return buf_fail(b, bcw__error(BCW_ENOMEM,
                                      "buffer limit of %zu bytes reached",
                                      b->limit));
    if (bcw__grow(&b->data, &b->cap, b->len + n + 1, 1) < 0)
        return buf_fail(b, BCW_ENOMEM);
    memcpy(b->data + b->len, data, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 0;
}

int bcw__buf_printf(bcw_buf *b, const char *fmt, ...)
{
    if (b->err != 0)
        return b->err;
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return buf_fail(b, bcw__error(BCW_ERROR, "vsnprintf failed"));
    if ((size_t)n < sizeof small)
        return bcw__buf_put(b, small, (size_t)n);
    char *big = bcw__malloc((size_t)n + 1);
    if (big == NULL)
        return buf_fail(b, BCW_ENOMEM);
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    int err = bcw__buf_put(b, big, (size_t)n);
    free(big);
    return err;
}

void bcw__buf_free(bcw_buf *b)
{
    free(b->data);
    bcw__buf_init(b, b->limit);
}

int bcw__strlist_add(bcw_strlist *l, char *s)
{
    if (s == NULL || bcw__grow(&l->v, &l->cap, l->n + 1, sizeof *l->v) < 0) {
        free(s);
        return BCW_ENOMEM;
    }
    l->v[l->n++] = s;
    return 0;
}

void bcw__strlist_truncate(bcw_strlist *l, unsigned n)
{
    while (l->n > n)
        free(l->v[--l->n]);
}

void bcw__strlist_free(bcw_strlist *l)
{
    bcw__strlist_truncate(l, 0);
    free(l->v);
    *l = (bcw_strlist){0};
}

void bcw__strv_free(char **v, unsigned n)
{
    for (unsigned i = 0; v != NULL && i < n; i++)
        free(v[i]);
    free(v);
}
