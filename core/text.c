/* text.c - strings written as JSON and C literals. */
#define _POSIX_C_SOURCE 200809L
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

/* Appends s to out[n] at *len, as far as it fits with a NUL after. */
static void put(char *out, size_t n, size_t *len, const char *s)
{
    for (; *s; s++, (*len)++)
        if (*len + 1 < n)
            out[*len] = *s;
}

/* Byte c inside a C literal in `quote`s, in one[8]. */
static const char *escape(unsigned char c, char quote, char one[8])
{
    if (c == (unsigned char)quote || c == '\\')
        snprintf(one, 8, "\\%c", c);
    else if (c == '\n')
        snprintf(one, 8, "\\n");
    else if (c < 0x20 || c >= 0x7f)
        snprintf(one, 8, "\\x%02x", c);
    else
        snprintf(one, 8, "%c", c);
    return one;
}

size_t bcw__c_quote_to(char *out, size_t n, const char *s, char quote)
{
    size_t len = 0;
    char q[2] = {quote, '\0'}, one[8];
    put(out, n, &len, q);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        put(out, n, &len, escape(*p, quote, one));
    put(out, n, &len, q);
    if (n > 0)
        out[len < n ? len : n - 1] = '\0';
    return len;
}

void bcw__c_quote_file(FILE *f, const char *s, char quote)
{
    char one[8];
    fputc(quote, f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        fputs(escape(*p, quote, one), f);
    fputc(quote, f);
}

char *bcw__c_quote(const char *s, char quote)
{
    size_t n = bcw__c_quote_to(NULL, 0, s, quote) + 1;
    char *q = bcw__malloc(n);
    if (q != NULL)
        bcw__c_quote_to(q, n, s, quote);
    return q;
}

void bcw__json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"':
            fputs("\\\"", f);
            break;
        case '\\':
            fputs("\\\\", f);
            break;
        case '\n':
            fputs("\\n", f);
            break;
        case '\t':
            fputs("\\t", f);
            break;
        default:
            if (*p < 0x20)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}
