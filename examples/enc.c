/* enc.c - a unit whose strings are not all ASCII, nor all UTF-8: string
 * literals in Latin-1, invalid and valid UTF-8 and with control
 * characters (each a category of enc_set's name), a method returning
 * such a string, one writing it into a buffer and one a char
 * out-parameter, and identifiers in UTF-8.  The reports must stay
 * valid UTF-8 and keep every byte (tests/e2e/encoding.py). */
#include <stdlib.h>
#include <string.h>

typedef struct enc {
    int kind;   /* which literal enc_set matched last, 0 none */
    int größe;  /* a field named in UTF-8 */
} enc;

/* The literals, by kind - 1: what enc_set compares with and what
 * enc_name returns. */
static const char *const names[] = {
    "caf\xe9",              /* Latin-1 e acute */
    "d\xe9" "cor",          /* Latin-1 before a hex digit */
    "na\xc3\xafve",         /* valid UTF-8: i diaeresis */
    "\x80lone",             /* a lone continuation byte */
    "\xc0\xafover",         /* an overlong '/' */
    "\xed\xa0\x80sur",      /* the surrogate U+D800 encoded */
    "\xf5\x80\x80\x80high", /* a lead byte above F4 */
    "tab\there\x01\x1f\x7f", /* control characters */
    "cut\xe2\x82",          /* a sequence cut at the end */
};

#define NKINDS (sizeof names / sizeof names[0])

enc *enc_new(void)
{
    return calloc(1, sizeof(enc));
}

void enc_free(enc *e)
{
    free(e);
}

/* The kind of `name` (1 ... NKINDS), remembered, or 0 for none.  Each
 * comparison is with a literal of its own, so each is a category. */
int enc_set(enc *e, const char *name)
{
    int kind = 0;
    if (strcmp(name, "caf\xe9") == 0)
        kind = 1;
    else if (strcmp(name, "d\xe9" "cor") == 0)
        kind = 2;
    else if (strcmp(name, "na\xc3\xafve") == 0)
        kind = 3;
    else if (strcmp(name, "\x80lone") == 0)
        kind = 4;
    else if (strcmp(name, "\xc0\xafover") == 0)
        kind = 5;
    else if (strcmp(name, "\xed\xa0\x80sur") == 0)
        kind = 6;
    else if (strcmp(name, "\xf5\x80\x80\x80high") == 0)
        kind = 7;
    else if (strcmp(name, "tab\there\x01\x1f\x7f") == 0)
        kind = 8;
    else if (strcmp(name, "cut\xe2\x82") == 0)
        kind = 9;
    e->kind = kind;
    e->größe += kind > 0;
    return kind;
}

/* The literal last matched, or "" for none. */
const char *enc_name(const enc *e)
{
    return e->kind > 0 ? names[e->kind - 1] : "";
}

/* Copies the literal last matched into buf (at most len - 1 bytes and a
 * NUL); its length. */
size_t enc_copy(const enc *e, char *buf, size_t len)
{
    const char *s = enc_name(e);
    size_t n = strlen(s);
    if (len == 0)
        return n;
    size_t k = n < len ? n : len - 1;
    memcpy(buf, s, k);
    buf[k] = '\0';
    return n;
}

/* The first byte of the literal last matched in *out; 0 done, -1 none. */
int enc_first(const enc *e, char *out)
{
    if (e->kind == 0)
        return -1;
    *out = names[e->kind - 1][0];
    return 0;
}

/* How often a literal matched: a method named in UTF-8. */
int enc_größe(const enc *e)
{
    return e->größe;
}
