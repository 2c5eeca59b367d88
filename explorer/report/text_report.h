/* text_report.h - the text report (JWalk style, C syntax): each sequence
 * under its group's heading (bcw__report_c, report.h, prints one), and
 * the summary that ends it. */
#ifndef BCW_TEXT_REPORT_H
#define BCW_TEXT_REPORT_H

#include "report.h"

/* Prints executed sequence s, under a new heading when it starts a
 * length or a state, with the oracle's judgement when it did not pass;
 * a judged walk prints only what needs a person's eye. */
BCW_INTERNAL void bcw__text_report_seq(bcw_reporter *r, const bcw_seq *s);

/* Prints the summary: the counts, the oracle's, coverage, the warnings,
 * the state walk's states (`texts`: the steps' texts, by plan index) and
 * the gaps of a walk --from-tests.  0 or coverage's error. */
BCW_INTERNAL int bcw__text_report_summary(const bcw_reporter *r,
                                          const bcw_summary *s, char **texts);

#endif
