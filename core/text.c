/* text.c - strings written as JSON and C literals. */
#define _POSIX_C_SOURCE 200809L
#include "text.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "proto.h"

static bool is_hex(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
           (c >= 'A' && c <= 'F');
}

/* Appends s to out[n] at *len, as far as it fits with a NUL after. */
static void put(char *out, size_t n, size_t *len, const char *s)
{
    for (; *s; s++, (*len)++)
        if (*len + 1 < n)
            out[*len] = *s;
}

/* Byte c inside a C literal in `quote`s, in one[8]; *hex says whether
 * the byte before was written as a \x escape, and is updated. */
static const char *escape(unsigned char c, char quote, bool *hex, char one[8])
{
    bool after_hex = *hex;
    *hex = false;
    if (c == (unsigned char)quote || c == '\\') {
        snprintf(one, 8, "\\%c", c);
    } else if (c == '\n') {
        snprintf(one, 8, "\\n");
    } else if (c < 0x20 || c >= 0x7f) {
        snprintf(one, 8, "\\x%02x", c);
        *hex = true;
    } else if (after_hex && is_hex(c) && quote == '"') {
        /* a \x escape takes every hex digit after it: "\xe9cor" would
         * be one char 0xe9c, so the literal is split */
        snprintf(one, 8, "\"\"%c", c);
    } else {
        snprintf(one, 8, "%c", c);
    }
    return one;
}

size_t bcw__c_quote_to(char *out, size_t n, const char *s, char quote)
{
    size_t len = 0;
    char q[2] = {quote, '\0'}, one[8];
    bool hex = false;
    put(out, n, &len, q);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        put(out, n, &len, escape(*p, quote, &hex, one));
    put(out, n, &len, q);
    if (n > 0)
        out[len < n ? len : n - 1] = '\0';
    return len;
}

void bcw__c_quote_file(FILE *f, const char *s, char quote)
{
    char one[8];
    bool hex = false;
    fputc(quote, f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        fputs(escape(*p, quote, &hex, one), f);
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

size_t bcw__utf8_seq(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    if (n == 0)
        return 0;
    if (p[0] < 0x80)
        return 1;
    /* the lead byte decides the length and the range of the second
     * byte, which rules out overlong forms (E0, F0), surrogates (ED)
     * and code points past U+10FFFF (F4) */
    size_t len;
    unsigned char lo = 0x80, hi = 0xbf;
    if (p[0] >= 0xc2 && p[0] <= 0xdf) {
        len = 2;
    } else if (p[0] >= 0xe0 && p[0] <= 0xef) {
        len = 3;
        lo = p[0] == 0xe0 ? 0xa0 : 0x80;
        hi = p[0] == 0xed ? 0x9f : 0xbf;
    } else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
        len = 4;
        lo = p[0] == 0xf0 ? 0x90 : 0x80;
        hi = p[0] == 0xf4 ? 0x8f : 0xbf;
    } else {
        return 0;
    }
    if (n < len || p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    return len;
}

void bcw__utf8_clean(char *s)
{
    size_t n = strlen(s);
    while (n > 0) {
        size_t k = bcw__utf8_seq(s, n);
        if (k == 0) {
            *s = '?';
            k = 1;
        }
        s += k;
        n -= k;
    }
}

bool bcw__utf8_valid(const char *s, size_t n)
{
    while (n > 0) {
        size_t k = bcw__utf8_seq(s, n);
        if (k == 0)
            return false;
        s += k;
        n -= k;
    }
    return true;
}

void bcw__json_str(FILE *f, const char *s)
{
    /* the jsonl report's inner loop: one lock for the string, then
     * bytes straight into stdio's buffer */
    static const char hex[] = "0123456789abcdef";
    size_t n = strlen(s);
    flockfile(f);
    putc_unlocked('"', f);
    while (n > 0) {
        unsigned char c = (unsigned char)*s;
        size_t k = c >= 0x80 ? bcw__utf8_seq(s, n) : 0;
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\')
            k = 1;
        if (k > 0) {
            for (size_t i = 0; i < k; i++)
                putc_unlocked(s[i], f);
            s += k;
            n -= k;
            continue;
        }
        unsigned code = c;
        putc_unlocked('\\', f);
        if (c == '"' || c == '\\') {
            putc_unlocked(c, f);
        } else if (c == '\n') {
            putc_unlocked('n', f);
        } else if (c == '\t') {
            putc_unlocked('t', f);
        } else {
            /* a control character is \u00XX; a byte that is not part
             * of a valid sequence is U+DC00 + the byte, which no valid
             * UTF-8 can hold, so a reader gets the byte back (Python:
             * .encode("utf-8", "surrogateescape")) */
            if (c >= 0x80)
                code = 0xdc00u + c;
            putc_unlocked('u', f);
            putc_unlocked(hex[code >> 12], f);
            putc_unlocked(hex[(code >> 8) & 0xf], f);
            putc_unlocked(hex[(code >> 4) & 0xf], f);
            putc_unlocked(hex[code & 0xf], f);
        }
        s++;
        n--;
    }
    putc_unlocked('"', f);
    funlockfile(f);
}

void bcw__xml_str(FILE *f, const char *s)
{
    size_t n = strlen(s);
    while (n > 0) {
        size_t k = bcw__utf8_seq(s, n);
        unsigned char c = (unsigned char)*s;
        if (k == 0 || (c < 0x20 && c != '\t' && c != '\n' && c != '\r')) {
            fputs("\xef\xbf\xbd", f);
            k = k ? k : 1;
        } else if (c == '&') {
            fputs("&amp;", f);
        } else if (c == '<') {
            fputs("&lt;", f);
        } else if (c == '>') {
            fputs("&gt;", f);
        } else if (c == '"') {
            fputs("&quot;", f);
        } else if (c == '\'') {
            fputs("&#39;", f);
        } else {
            fwrite(s, 1, k, f);
        }
        s += k;
        n -= k;
    }
}

const char *bcw__signal_name(int signo)
{
    switch (signo) {
    case SIGSEGV:
        return "SIGSEGV";
    case SIGBUS:
        return "SIGBUS";
    case SIGFPE:
        return "SIGFPE";
    case SIGILL:
        return "SIGILL";
    case SIGABRT:
        return "SIGABRT";
    case SIGKILL:
        return "SIGKILL";
    case SIGTRAP:
        return "SIGTRAP";
    case SIGSYS:
        return "SIGSYS";
    case SIGTERM:
        return "SIGTERM";
    case SIGINT:
        return "SIGINT";
    case SIGHUP:
        return "SIGHUP";
    case SIGALRM:
        return "SIGALRM";
    case SIGPIPE:
        return "SIGPIPE";
    case SIGXCPU:
        return "SIGXCPU";
    case 0:
        return "exit";
    case BCW_SIG_SANITIZER:
        return "AddressSanitizer";
    case BCW_SIG_UNDEFINED:
        return "undefined behaviour";
    case BCW_SIG_GARBAGE:
        return "a pointer no call made";
    default:
        return "a signal";
    }
}
