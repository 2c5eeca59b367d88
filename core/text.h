/* text.h - strings written as JSON and C literals. */
#ifndef BCW_TEXT_H
#define BCW_TEXT_H

#include <stdio.h>

#include "errors.h"

/* Writes `s` as a JSON string literal, quotes included. */
BCW_INTERNAL void bcw__json_str(FILE *f, const char *s);

/* `s` as a C literal in `quote`s ('"' or '\''), escaped; the caller's,
 * NULL when out of memory. */
BCW_INTERNAL char *bcw__c_quote(const char *s, char quote);

/* The same into out[n], cut to fit like snprintf (a NULL out with n 0
 * measures); returns the literal's whole length. */
BCW_INTERNAL size_t bcw__c_quote_to(char *out, size_t n, const char *s,
                                    char quote);

/* The same written to f. */
BCW_INTERNAL void bcw__c_quote_file(FILE *f, const char *s, char quote);

#endif
