/* results.h - the results file (*.results.msgpack) a walk saves with
 * -o: a msgpack stream of a header, one record per executed sequence and
 * a trailer with the summary (docs/results.md). */
#ifndef BCW_RESULTS_H
#define BCW_RESULTS_H

#include "model.h"
#include "report.h"
#include "walk.h"

typedef struct bcw_results bcw_results;

/* Starts writing `path` (into a temporary beside it) and writes the
 * header.  *out is the caller's, ended with bcw__results_close(). */
BCW_INTERNAL int bcw__results_open(bcw_results **out, const char *path,
                                   const bcw_unit *unit, const bcw_step *steps,
                                   unsigned nsteps, enum bcw_walk_kind walk,
                                   unsigned depth);

/* Appends one sequence; `state` is the state walk's state it belongs
 * to (an index into the states bcw__results_states writes), or -1;
 * `cause` why it halted and `leak` what its destructor left, in words
 * ("": none).  Errors are sticky: after the first, writes do nothing
 * and close reports it. */
BCW_INTERNAL int bcw__results_seq(bcw_results *r, const bcw_seq *seq, int state,
                                  const char *cause, const char *leak);

/* Appends the state walk's states and transitions (states.h). */
struct bcw_states;
BCW_INTERNAL int bcw__results_states(bcw_results *r,
                                     const struct bcw_states *st);

/* With `summary`, writes the trailer, syncs and renames the file into
 * place; with NULL (a failed walk) removes the temporary.  Frees `r`
 * either way and returns the first error. */
/* The bytes of the file so far, those packed and not yet written
 * included. */
BCW_INTERNAL uint64_t bcw__results_size(const bcw_results *r);
/* The replay section (replay.h), before the trailer: what bcwalk
 * report and merge walk again from.  0 or the writer's error. */
struct bcw_replay_rec;
BCW_INTERNAL int bcw__results_replay(bcw_results *r,
                                     const struct bcw_replay_rec *x);
BCW_INTERNAL int bcw__results_close(bcw_results *r, const bcw_summary *summary);

#endif
