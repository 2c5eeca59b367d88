/* allocfns.c - a buffer whose constructor takes allocator hooks, in the
 * shape of yajl_alloc(callbacks, afs, ctx) and yajl_gen_alloc(afs): a
 * struct of function pointers and a context, or NULL for the library's
 * own.  Hooks with a member missing are refused (NULL).  bcwalk gives
 * the hooks as zeroed storage, which no caller makes (refused), and as
 * NULL, which the code checks for: the default allocator, and a buffer
 * to walk (tests/e2e/inputs.py). */
#include <stdlib.h>
#include <string.h>

typedef struct hk_alloc {
    void *(*malloc)(void *ctx, size_t n);
    void *(*realloc)(void *ctx, void *p, size_t n);
    void (*free)(void *ctx, void *p);
    void *ctx;
} hk_alloc;

typedef struct hkbuf {
    hk_alloc alloc;
    char *data;
    size_t len, cap;
} hkbuf;

static void *hk_std_malloc(void *ctx, size_t n)
{
    (void)ctx;
    return malloc(n);
}

static void *hk_std_realloc(void *ctx, void *p, size_t n)
{
    (void)ctx;
    return realloc(p, n);
}

static void hk_std_free(void *ctx, void *p)
{
    (void)ctx;
    free(p);
}

/* A buffer allocating through `hooks`, or malloc's family for NULL;
 * NULL for hooks with a member missing. */
hkbuf *hk_new(const hk_alloc *hooks)
{
    hk_alloc std = {hk_std_malloc, hk_std_realloc, hk_std_free, NULL};
    if (hooks != NULL) {
        if (hooks->malloc == NULL || hooks->realloc == NULL ||
            hooks->free == NULL)
            return NULL;
    } else {
        hooks = &std;
    }
    hkbuf *b = hooks->malloc(hooks->ctx, sizeof *b);
    if (b == NULL)
        return NULL;
    b->alloc = *hooks;
    b->data = NULL;
    b->len = b->cap = 0;
    return b;
}

/* Appends s: 0, or -1 without memory. */
int hk_put(hkbuf *b, const char *s)
{
    size_t n = strlen(s);
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 16;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *d = b->alloc.realloc(b->alloc.ctx, b->data, cap);
        if (d == NULL)
            return -1;
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n + 1);
    b->len += n;
    return 0;
}

size_t hk_len(const hkbuf *b)
{
    return b->len;
}

void hk_free(hkbuf *b)
{
    b->alloc.free(b->alloc.ctx, b->data);
    b->alloc.free(b->alloc.ctx, b);
}
