/* summary.h - what the text and the JSON summary both print: the gaps of
 * a walk --from-tests (and the oracle's efficiency, report.h's
 * bcw__report_efficiency). */
#ifndef BCW_SUMMARY_H
#define BCW_SUMMARY_H

#include "report.h"

/* Prints the gaps g of a walk --from-tests: in text, their lines of the
 * summary; in JSON, its "from_tests" member and a comma, `nl` after each
 * list. */
BCW_INTERNAL void bcw__summary_gaps(FILE *f, const bcw_gaps *g, bool json,
                                    const char *nl);

/* Prints what each distinct halt's standalone program did (--reproduce):
 * in text, a line of counts and one per halt; in JSON, its "standalone"
 * member and a comma, `nl` after. */
BCW_INTERNAL void bcw__summary_standalone(FILE *f, const bcw_reporter *r,
                                          const bcw_summary *s, bool json,
                                          const char *nl);

#endif
