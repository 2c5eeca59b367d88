/* cause.h - why a sequence halted, and what it leaked, in words as the
 * reports write them; the results file's words and where in the source
 * are report.h's (bcw__report_words, bcw__report_site). */
#ifndef BCW_CAUSE_H
#define BCW_CAUSE_H

#include "report.h"

/* How the text report describes the call of s that halted, after "==> ":
 * its outcome and cause ("*crash* SIGSEGV ..."), a NULL constructor
 * "NULL  *rejected*"; into buf (n bytes). */
BCW_INTERNAL void bcw__cause_halt(const bcw_reporter *r, const bcw_seq *s,
                                  char *buf, size_t n);

/* The outcome of s's last call as the jsonl report names it: "suspect" for a
 * halt after an argument bcwalk made up, "aliasing" for one after the target
 * was passed as its own argument, else the outcome's name ("crash"). */
BCW_INTERNAL const char *bcw__cause_outcome(const bcw_seq *s);

/* Why s's halt is listed apart ("after an argument bcwalk made up"), or
 * NULL for the library's own halts. */
BCW_INTERNAL const char *bcw__cause_apart(const bcw_seq *s);

/* The cause of s's halt as the jsonl report words it; a halt listed
 * apart with its outcome and why (bcw__cause_apart), unless `plain` (the
 * oracle's word: whether a halt is listed apart depends on the path to
 * the state, not on the call; nor is the frame a stack overflows in
 * part of it).  Into buf (n bytes). */
BCW_INTERNAL void bcw__cause_observed(const bcw_reporter *r, const bcw_seq *s,
                                      bool plain, char *buf, size_t n);

/* An observer's call that changed the object's state, as the reports
 * and the oracle word it. */
#define BCW_OBSERVER_CHANGED                                                   \
    "walked as an observer, it changed the object's state"

/* "2 blocks, 24 bytes, the first allocated in t_add (t.c:9), left by
 * t_free": what s's destructor left that nothing reaches (s->leak, not
 * NULL), into buf (n bytes). */
BCW_INTERNAL void bcw__cause_leak(const bcw_reporter *r, const bcw_seq *s,
                                  char *buf, size_t n);

#endif
