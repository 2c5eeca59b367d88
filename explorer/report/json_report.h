/* json_report.h - the walk's summary in JSON: the whole document of
 * --format json, the last line of --format jsonl (docs/results.md). */
#ifndef BCW_JSON_REPORT_H
#define BCW_JSON_REPORT_H

#include "report.h"

/* Prints summary s as one JSON object, on one line with `one_line`;
 * `texts` are the steps' texts, by plan index, for the state walk's
 * states.  0 or coverage's error. */
BCW_INTERNAL int bcw__json_report_summary(const bcw_reporter *r,
                                          const bcw_summary *s, char **texts,
                                          bool one_line);

#endif
