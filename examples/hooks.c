/* hooks.c - a buffer whose user may set the function that frees its
 * memory, as libcsv's csv_set_free_func(p, f) does: the parameter is
 * named `f` and typed void (*)(void *), so only its setter's name says
 * it frees.  bcwalk gives it the built-in free callback, which frees what
 * the code under test allocated: lb_free then releases the buffer
 * through it and nothing leaks.  A visitor in its place (what the
 * parameter alone suggests) would leave the buffer behind, a leak of
 * bcwalk's making. */
#include <stdlib.h>

typedef struct lbuf {
    char *data;
    size_t len, cap;
    void (*release)(void *);
} lbuf;

void lb_init(lbuf *b)
{
    b->data = NULL;
    b->len = b->cap = 0;
    b->release = free;
}

void lb_set_free_func(lbuf *b, void (*f)(void *))
{
    b->release = f;
}

/* Appends c; -1 when out of memory. */
int lb_put(lbuf *b, char c)
{
    if (b->len == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 8;
        char *d = realloc(b->data, cap);
        if (d == NULL)
            return -1;
        b->data = d;
        b->cap = cap;
    }
    b->data[b->len++] = c;
    return 0;
}

size_t lb_len(const lbuf *b)
{
    return b->len;
}

void lb_free(lbuf *b)
{
    if (b->data != NULL)
        b->release(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}
