/* sdsish.c - a string handle: `typedef char *hstr` points at the
 * characters, and a header with the length and the free space is stored
 * just before them (s - sizeof(struct hstr_hdr)), so an hstr is a C
 * string too.  Appending may move the string: s = hstr_cat(s, t). */
#include <stdlib.h>
#include <string.h>

typedef char *hstr;

struct hstr_hdr {
    int len;
    int free;
    char buf[];
};

static struct hstr_hdr *hdr(const hstr s)
{
    return (struct hstr_hdr *)(s - sizeof(struct hstr_hdr));
}

/* A new string holding init, or NULL when memory runs out.  Freed with
 * hstr_free. */
hstr hstr_new(const char *init)
{
    size_t n = strlen(init);
    struct hstr_hdr *h = malloc(sizeof *h + n + 1);
    if (h == NULL)
        return NULL;
    h->len = (int)n;
    h->free = 0;
    memcpy(h->buf, init, n + 1);
    return h->buf;
}

size_t hstr_len(const hstr s)
{
    return (size_t)hdr(s)->len;
}

size_t hstr_avail(const hstr s)
{
    return (size_t)hdr(s)->free;
}

/* Appends t, growing the string to twice what it needs when it is out
 * of room: use the result from now on (NULL when memory runs out, s
 * left as it was). */
hstr hstr_cat(hstr s, const char *t)
{
    struct hstr_hdr *h = hdr(s);
    size_t n = strlen(t);
    if ((size_t)h->free < n) {
        size_t room = ((size_t)h->len + n) * 2;
        struct hstr_hdr *grown = realloc(h, sizeof *h + room + 1);
        if (grown == NULL)
            return NULL;
        h = grown;
        h->free = (int)(room - (size_t)h->len);
    }
    memcpy(h->buf + h->len, t, n + 1);
    h->len += (int)n;
    h->free -= (int)n;
    return h->buf;
}

/* Empties the string, keeping its room. */
void hstr_clear(hstr s)
{
    struct hstr_hdr *h = hdr(s);
    h->free += h->len;
    h->len = 0;
    h->buf[0] = '\0';
}

void hstr_free(hstr s)
{
    if (s != NULL)
        free(hdr(s));
}
