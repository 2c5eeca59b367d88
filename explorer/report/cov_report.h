/* cov_report.h - a walk's coverage as the reports say it: summarized by
 * length, printed in the text and JSON reports and in HTML, and written
 * as an lcov tracefile. */
#ifndef BCW_COV_REPORT_H
#define BCW_COV_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "build.h"

/* Counts of the unit's functions (bcw_cov_fn.unit): its lines with code,
 * its branch arms, itself; reached by sequences up to some length. */
enum bcw_cov_kind { BCW_COV_LINES, BCW_COV_BRANCHES, BCW_COV_FUNCTIONS };
#define BCW_COV_KINDS 3

typedef struct bcw_cov_count {
    uint64_t n[BCW_COV_KINDS]; /* by enum bcw_cov_kind */
} bcw_cov_count;

typedef struct bcw_cov_summary {
    bcw_cov_count total, hit;
    unsigned nlens;        /* by_len[0 .. nlens-1] */
    bcw_cov_count *by_len; /* reached by sequences of length <= k */
} bcw_cov_summary;

/* The summary of `hits` over `map`, by length up to the longest hit
 * and at least `depth`; 0 or BCW_ENOMEM.  Free with bcw__cov_summary_free. */
BCW_INTERNAL int bcw__cov_summarize(const bcw_cov_map *map, const uint8_t *hits,
                                    unsigned depth, bcw_cov_summary *s);
BCW_INTERNAL void bcw__cov_summary_free(bcw_cov_summary *s);

/* The summary of `hits` as the report's text (its "Covered ..." lines)
 * or as the JSON summary's "coverage" member (`nl` between its parts),
 * with the lengths 0 .. at least `depth`. */
BCW_INTERNAL int bcw__cov_print(FILE *f, const bcw_cov_map *map,
                                const uint8_t *hits, unsigned depth, bool json,
                                const char *nl);

/* The summary of `hits` as an HTML section's body: a table per source
 * file, the growth by length (0 .. at least `depth`), the functions
 * never reached and the arms never taken. */
BCW_INTERNAL void bcw__cov_html(FILE *f, const bcw_cov_map *map,
                                const uint8_t *hits, unsigned depth);

/* The lcov tracefile of the unit's functions (geninfo's format: TN, SF,
 * FN, FNDA, FNF, FNH, BRDA, BRF, BRH, DA, LF, LH), test name `test`,
 * written atomically to `path`.  0 or an error. */
BCW_INTERNAL int bcw__cov_lcov(const bcw_cov_map *map, const uint8_t *hits,
                               const char *test, const char *path);

#endif
