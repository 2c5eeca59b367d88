/* jsonl_report.h - the JSON-lines report: one JSON object a sequence
 * (docs/results.md), the summary its last line (json_report.h). */
#ifndef BCW_JSONL_REPORT_H
#define BCW_JSONL_REPORT_H

#include "report.h"

/* Prints executed sequence s as one line: its length and state, what
 * the oracle says of it, its calls with their arguments, results, out
 * values and outcomes, why it halted, what it leaked. */
BCW_INTERNAL void bcw__jsonl_report_seq(const bcw_reporter *r,
                                        const bcw_seq *s);

#endif
