/* text.c - strings written as JSON and C literals. */
#define _POSIX_C_SOURCE 200809L
#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

char *bcw__c_quote(const char *s, char quote)
{
    bcw_buf b;
    bcw__buf_init(&b, 4096);
    int err = bcw__buf_put(&b, &quote, 1);
    for (const unsigned char *p = (const unsigned char *)s; *p && !err; p++) {
        if (*p == (unsigned char)quote || *p == '\\')
            err = bcw__buf_printf(&b, "\\%c", *p);
        else if (*p == '\n')
            err = bcw__buf_put(&b, "\\n", 2);
        else if (*p < 0x20 || *p >= 0x7f)
            err = bcw__buf_printf(&b, "\\x%02x", *p);
        else
            err = bcw__buf_put(&b, p, 1);
    }
    if (err == 0)
        err = bcw__buf_put(&b, &quote, 1);
    if (err == 0)
        err = bcw__buf_put(&b, "", 1);
    if (err < 0) {
        bcw__buf_free(&b);
        return NULL;
    }
    return b.data;
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
