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

#endif
