/* hstr.c - a string whose handle points past a hidden header, as sds
 * and sc_str do: hs_cat may move the block and returns the handle to go
 * on with, and hs_drop frees the block from the header, s - 1, not from
 * the handle.  The analysis sees neither: the block hs_cat frees is
 * reached through a pointer it computes, not a field, and the one
 * hs_drop frees is not the one it was given.  The runtime sees both:
 * after hs_cat the handle's block is freed and the result is a live one
 * (the object from then on), after hs_drop it is freed and nothing
 * replaces it (the object ended: no call follows, no teardown). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef char *hstr;

typedef struct hdr {
    size_t len, cap;
} hdr;

static hdr *head(const char *s)
{
    return (hdr *)(uintptr_t)s - 1;
}

hstr hs_new(const char *init)
{
    size_t n = strlen(init);
    hdr *h = malloc(sizeof *h + n + 1);
    if (h == NULL)
        return NULL;
    h->len = h->cap = n;
    memcpy(h + 1, init, n + 1);
    return (char *)(h + 1);
}

/* s with t appended: the handle to go on with (the block may have
 * moved), NULL when out of memory (s is then unchanged). */
hstr hs_cat(hstr s, const char *t)
{
    hdr *h = head(s);
    size_t n = strlen(t);
    if (h->len + n > h->cap) {
        hdr *g = realloc(h, sizeof *g + 2 * (h->len + n) + 1);
        if (g == NULL)
            return NULL;
        g->cap = 2 * (g->len + n);
        h = g;
    }
    memcpy((char *)(h + 1) + h->len, t, n + 1);
    h->len += n;
    return (char *)(h + 1);
}

size_t hs_len(const hstr s)
{
    return head(s)->len;
}

/* Frees the string. */
void hs_drop(hstr s)
{
    if (s != NULL)
        free(head(s));
}
