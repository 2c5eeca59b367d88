/* export.h - a walk's report in the formats other tools read (bcwalk
 * report --html, --junit, --sarif, --svg; docs/reports.md): made from
 * the sequences as the walk emits them and its summary at the end. */
#ifndef BCW_EXPORT_H
#define BCW_EXPORT_H

#include "bcwalk/explore.h"
#include "report.h"
#include "states.h"

typedef struct bcw_exports bcw_exports;

/* The exports o asks for (html_path, junit_path, sarif_path, svg_path),
 * into *out; *out NULL when it asks for none.  0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__exports_new(bcw_exports **out, const bcw_explore_opts *o);

/* Takes an executed sequence in (a walk's emit, as the reporter r sees
 * it: r->state is the state walk's state). */
BCW_INTERNAL int bcw__exports_seq(bcw_exports *x, const bcw_reporter *r,
                                  const bcw_seq *s);

/* Writes every file asked for, each atomically: `st` the state walk's
 * states (NULL for another walk), `sum` the walk's summary, r's cov
 * and hits its coverage.  0 or the first error. */
BCW_INTERNAL int bcw__exports_write(bcw_exports *x, const bcw_reporter *r,
                                    const bcw_summary *sum,
                                    const bcw_states *st);

BCW_INTERNAL void bcw__exports_free(bcw_exports *x);

/* The SVG Graphviz's dot draws of the DOT text `dot` into *svg (the
 * caller's, NUL-terminated), from its <svg> element on.  A missing dot
 * is BCW_EINPUT naming Debian's package. */
BCW_INTERNAL int bcw__svg_of_dot(const char *dot, size_t len, char **svg);

#endif
