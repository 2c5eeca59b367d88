/* str.c - a growable string in the shapes real C libraries use: a
 * constructor that returns a status and the unit through an
 * out-parameter, a mutator that returns the unit's new handle (it may
 * move: s = str_cat(s, t)), and a method with the unit not first. */
#include <stdlib.h>
#include <string.h>

typedef struct str {
    size_t len, cap;
    char data[];
} str;

str *str_new(void)
{
    str *s = malloc(sizeof *s + 8);
    if (s == NULL)
        return NULL;
    s->len = 0;
    s->cap = 8;
    s->data[0] = '\0';
    return s;
}

/* 0 and a new string in *out, or -1 when init is too long. */
int str_from(const char *init, str **out)
{
    size_t n = strlen(init);
    if (n > 64)
        return -1;
    str *s = malloc(sizeof *s + n + 1);
    if (s == NULL)
        return -1;
    s->len = n;
    s->cap = n + 1;
    memcpy(s->data, init, n + 1);
    *out = s;
    return 0;
}

void str_free(str *s)
{
    free(s);
}

/* Appends t; the string may move: use the result from now on. */
str *str_cat(str *s, const char *t)
{
    size_t n = strlen(t);
    if (s->len + n + 1 > s->cap) {
        size_t cap = (s->len + n + 1) * 2;
        str *grown = realloc(s, sizeof *s + cap);
        if (grown == NULL)
            return NULL;
        s = grown;
        s->cap = cap;
    }
    memcpy(s->data + s->len, t, n + 1);
    s->len += n;
    return s;
}

size_t str_len(const str *s)
{
    return s->len;
}

/* Compares a C string with s, strcmp-style. */
int str_compare_to(const char *t, const str *s)
{
    int c = strcmp(t, s->data);
    return c < 0 ? -1 : c > 0;
}
