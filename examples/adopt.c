/* adopt.c - a string buffer that adopts the string it is made from, as
 * clibs/buffer's buffer_new_with_string(str) does: it keeps str (through
 * a helper), grows it with realloc and frees it.  The string is the
 * buffer's from then on, so a caller hands over one from malloc: bcwalk
 * gives such a parameter (not const, kept) a heap block of its own, not
 * the arena a made-up string lives in, whose realloc would abort. */
#include <stdlib.h>
#include <string.h>

typedef struct adopt {
    char *s;
    size_t len;
} adopt;

static adopt *adopt_keep(char *s, size_t len)
{
    adopt *a = malloc(sizeof *a);
    if (a == NULL)
        return NULL;
    a->s = s;
    a->len = len;
    return a;
}

/* A buffer holding str, which it adopts (frees it with itself). */
adopt *adopt_new(char *str)
{
    return adopt_keep(str, strlen(str));
}

/* Appends c; -1 when out of memory. */
int adopt_push(adopt *a, char c)
{
    char *s = realloc(a->s, a->len + 2);
    if (s == NULL)
        return -1;
    s[a->len++] = c;
    s[a->len] = '\0';
    a->s = s;
    return 0;
}

size_t adopt_len(const adopt *a)
{
    return a->len;
}

void adopt_free(adopt *a)
{
    free(a->s);
    free(a);
}
