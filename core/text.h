/* text.h - strings written as JSON and C literals. */
#ifndef BCW_TEXT_H
#define BCW_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "errors.h"

/* The length of the valid UTF-8 sequence at `s` (RFC 3629: shortest
 * form, no surrogates, nothing past U+10FFFF) within the `n` bytes
 * there: 1 to 4, or 0 when the byte at `s` starts none (n == 0, a
 * continuation byte, C0, C1, F5 to FF, a bad or missing continuation,
 * an overlong form, a surrogate). */
BCW_INTERNAL size_t bcw__utf8_seq(const char *s, size_t n);

/* Are the `n` bytes at `s` valid UTF-8 from start to end? */
BCW_INTERNAL bool bcw__utf8_valid(const char *s, size_t n);

/* Makes the string `s` valid UTF-8 in place: each byte that starts no
 * valid sequence (a mutated name, a name cut in the middle of a
 * character) becomes '?'.  Names read from bitcode go through it before
 * they are printed in a model or a report. */
BCW_INTERNAL void bcw__utf8_clean(char *s);

/* Writes `s` as a JSON string literal, quotes included, always valid
 * UTF-8 (docs/results.md, "Strings"): valid UTF-8 passes through; `"`,
 * `\` and the control characters are escaped; each byte that is not
 * part of a valid UTF-8 sequence becomes the escape of the lone
 * surrogate U+DC00 + byte (0xE9 is \udce9), Python's surrogateescape,
 * so no byte is lost. */
BCW_INTERNAL void bcw__json_str(FILE *f, const char *s);

/* Writes `s` as XML or HTML character data or attribute text: `&`, `<`,
 * `>`, `"` and `'` as entities; a control character XML 1.0 cannot hold
 * (all below 0x20 but tab, newline and return) and each byte that is not
 * part of a valid UTF-8 sequence as U+FFFD. */
BCW_INTERNAL void bcw__xml_str(FILE *f, const char *s);

/* `s` as a C literal in `quote`s ('"' or '\''), the caller's, NULL when
 * out of memory.  ASCII whatever `s` holds: the quote and `\` escaped,
 * a newline `\n`, any other byte outside printable ASCII `\xNN`, and a
 * string literal split where a hex digit follows such an escape
 * ("d\xe9""cor"), as `\x` would take it in. */
BCW_INTERNAL char *bcw__c_quote(const char *s, char quote);

/* The same into out[n], cut to fit like snprintf (a NULL out with n 0
 * measures); returns the literal's whole length. */
BCW_INTERNAL size_t bcw__c_quote_to(char *out, size_t n, const char *s,
                                    char quote);

/* The same written to f. */
BCW_INTERNAL void bcw__c_quote_file(FILE *f, const char *s, char quote);

/* A signal's name ("SIGSEGV"), or for the worker protocol's own codes
 * (proto.h's BCW_SIG_*) what they stand for; "a signal" for others.
 * Static. */
BCW_INTERNAL const char *bcw__signal_name(int signo);

#endif
