/* report.h - the report stage's interface: walk reports (the JWalk-style
 * text report in C syntax, JSON and JSON lines; docs/results.md has the
 * fields), the results file, and the exports other tools read. */
#ifndef BCW_REPORT_H
#define BCW_REPORT_H

#include "alloc.h"
#include "bcwalk/explore.h"
#include "bcwalk/oracle.h"
#include "cov_report.h"
#include "engine.h"
#include "learn.h"
#include "model.h"
#include "plan.h"
#include "values.h"

/* What the oracle says of one sequence. */
enum bcw_judgement {
    BCW_JUDGED_NOT,     /* not judged: rejected (meaningless) or predicted */
    BCW_JUDGED_PASS,    /* as the oracle has it, judged right (or accepted) */
    BCW_JUDGED_FAIL,    /* as the oracle has it, judged wrong */
    BCW_JUDGED_BROKEN,  /* a failed contract or assert: a failure whatever
                           the oracle says */
    BCW_JUDGED_NEW,     /* not in the oracle */
    BCW_JUDGED_CHANGED, /* not as the oracle has it (`was`) */
    BCW_JUDGED_PENDING, /* as the oracle has it, not judged yet */
    BCW_JUDGED_DIFFERS, /* not as the reference build has it (`was`): a
                           failure */
    BCW_JUDGED_RULE     /* not in the oracle, passed by the weak rule (a
                           void call that returned normally) */
};

typedef struct bcw_verdict_of {
    bool extend; /* pruned by the build's state, but the oracle's state
                    after it is new to the walk: extend it */
    enum bcw_judgement judgement;
    const bcw_observation *was; /* CHANGED: the oracle's observation */
    bool lost;           /* BROKEN: the sequence is a design state's cover, and
                            no longer reaches it */
    const char *lost_to; /* then: the state it reached instead, or NULL */
} bcw_verdict_of;

typedef struct bcw_reporter {
    const bcw_model *model; /* for the units other units' arguments */
    const bcw_unit *unit;
    const char *unit_name; /* the unit as the headers name it: as the
                              user did (bcw_explore_opts.unit_name) */
    const bcw_step *steps; /* by plan index */
    unsigned nsteps;
    const uint16_t *dtors; /* the destructors sequences end with, in turn */
    const uint8_t *dtor_forms; /* the objects each ends (BCW_FORM_*) */
    unsigned ndtors;
    const struct bcw_usergen *gen; /* custom generator, or NULL */
    struct bcw_symbols *symbols;   /* where the worker's addresses are, that
                                      causes name (replay.h), or NULL */
    enum bcw_walk_kind walk;
    unsigned depth;
    unsigned timeout_ms;
    enum bcw_report_format format;
    FILE *f;
    unsigned last_len; /* length group being printed */
    bool started;
    const char *state;  /* the state walk: the state being walked */
    int state_index;    /* its index in the states */
    bool started_state; /* its first sequence is printed */
    const struct bcw_states *states; /* the state walk's, for the summary */
    bcw_strlist warnings; /* about the alphabet: capped combinations */
    /* bcwalk test: what the oracle says of the sequence being printed
     * (judge.h), NULL when the walk is not judged */
    const bcw_verdict_of *verdict;
    bool reference; /* judged against a reference build (--reference) */
    /* coverage (coverage.h): the flags' map and hits, or NULL */
    const struct bcw_cov_map *cov;
    const uint8_t *hits;
    /* --from-tests: what the tests and the walk each reach that the
     * other does not (learn_use.h), or NULL */
    const struct bcw_gaps *gaps;
    /* --reproduce: each distinct halt and what its standalone program
     * did, and the program's path; NULL, 0 when not asked */
    const struct bcw_standalone_halt *standalone;
    unsigned nstandalone;
    const char *standalone_program;
} bcw_reporter;

/* A distinct halt and what its standalone program did (standalone.h). */
typedef struct bcw_standalone_halt {
    const char *fn, *outcome, *cause, *sequence;
    const char *verdict; /* "reproduced", "not reproduced", "not written",
                            "not built" */
    const char *what;    /* what the program did, or why there is none */
} bcw_standalone_halt;

/* Sequence s's halt (its cause, as the reports word it) into cause, or
 * its leak into leak (what the destructor left); "" where there is none.
 * For the results file (results.h). */
BCW_INTERNAL void bcw__report_words(const bcw_reporter *r, const bcw_seq *s,
                                    char *cause, size_t ncause, char *leak,
                                    size_t nleak);

/* Sequence s as the text report prints it, its group's heading and
 * judgement aside: its calls in C syntax, then "==> " and what the last
 * call gave, or its halt and cause, and its leak. */
BCW_INTERNAL void bcw__report_c(const bcw_reporter *r, const bcw_seq *s,
                                FILE *f);

/* Where in the library's source s halted: the cause's instruction (a
 * fatal signal's, where abort or exit was called), a failed assert's
 * place, else (*inside false, when not NULL) where the function whose
 * call halted is defined; for a leak where the first block left was
 * allocated.  file (nfile bytes) and line; false when nothing tells. */
BCW_INTERNAL bool bcw__report_site(const bcw_reporter *r, const bcw_seq *s,
                                   char *file, size_t nfile, unsigned *line,
                                   bool *inside);

/* The plan index of the destructor that ended (or was to end) s, as
 * the worker chose it (one made for the object its constructor made);
 * r has one at least. */
BCW_INTERNAL unsigned bcw__report_dtor_step(const bcw_reporter *r,
                                            const bcw_seq *s);

/* The destructor that ended (or was to end) s, as the worker chose it. */
BCW_INTERNAL const char *bcw__report_destructor(const bcw_reporter *r,
                                                const bcw_seq *s);

/* The name of the function whose call in s halted. */
BCW_INTERNAL const char *bcw__report_halted_fn(const bcw_reporter *r,
                                               const bcw_seq *s);

/* Prints one executed sequence (a bcw_walk_cfg emit callback). */
BCW_INTERNAL int bcw__report_seq(void *reporter, const bcw_seq *seq);

/* Starts the sequences of the state walk's state `name` (index `index`);
 * (NULL, -1) ends the state walk (a bcw_state_begin_cb). */
BCW_INTERNAL void bcw__report_begin_state(void *reporter, const char *name,
                                          int index);

/* JWalk's oracle efficiency of a judged walk (its tables 1-4, one
 * cycle): the observations put to a person, the executed sequences
 * predicted (the rest), and the share of the walk's decisions made
 * without a person, predictions and discarded sequences alike. */
typedef struct bcw_efficiency {
    uint64_t manual, predicted;
    double manual_pct, predicted_pct, automated_pct;
} bcw_efficiency;

BCW_INTERNAL bcw_efficiency bcw__report_efficiency(const bcw_summary *s);

/* The sequences that ran: the normal, the terminated and those whose
 * last call was not made. */
BCW_INTERNAL uint64_t bcw__report_executed(const bcw_summary *s);

/* The walk's coverage (the flags' `map` and their `hits`) in the
 * summary's counts of *out, and kept in r for the report to print; a
 * map without source lines (no debug information) is a warning.  0 or
 * BCW_ENOMEM. */
BCW_INTERNAL int bcw__report_coverage(bcw_reporter *r, const bcw_cov_map *map,
                                      const uint8_t *hits, bcw_summary *out);

/* Prints the summary: the text report's tail, the JSON document, or the
 * last JSON line. */
BCW_INTERNAL int bcw__report_summary(bcw_reporter *r, const bcw_summary *s);

/* The strings of call `k` of `seq`: arguments replayed from the master
 * generator or the step's categories into args[] (their category labels
 * into labels[], NULL for generated ones), the result into `result`
 * (empty for void).  `gen` carries the draws from call to call; `json`
 * names the unit "#0" instead of C's "target".  Returns the function. */
BCW_INTERNAL const bcw_func *bcw__report_call(const bcw_reporter *r,
                                              const bcw_seq *seq, unsigned k,
                                              bcw_gen *gen, char (*args)[64],
                                              const char **labels, char *result,
                                              size_t n, bool json);

/* The oracle's view of sequence s (docs/oracle.md) into *e: its calls as
 * the text report writes them (arguments with their category labels,
 * the unit as `target`), and what its last call did — the call that
 * halted, else the last method — as the jsonl report words it; e->state
 * is the concrete state that call started from.  Unless `whole`, only
 * the last call is put in words (the others NULL): all a lookup by state
 * needs.  The strings are the caller's (bcw__report_observed_free).  0
 * or BCW_ENOMEM. */
BCW_INTERNAL int bcw__report_observe(const bcw_reporter *r, const bcw_seq *s,
                                     bool whole, bcw_oracle_entry *e);
BCW_INTERNAL void bcw__report_observed_free(bcw_oracle_entry *e);

/* The results file (*.results.msgpack) a walk saves with
 * -o: a msgpack stream of a header, one record per executed sequence and
 * a trailer with the summary (docs/results.md). */

typedef struct bcw_results bcw_results;

/* Starts writing `path` (into a temporary beside it) and writes the
 * header.  *out is the caller's, ended with bcw__results_close(). */
BCW_INTERNAL int bcw__results_open(bcw_results **out, const char *path,
                                   const bcw_unit *unit, const bcw_step *steps,
                                   unsigned nsteps, enum bcw_walk_kind walk,
                                   unsigned depth);

/* Starts writing `path` as bcw__results_open does, without a header:
 * bcw__results_put writes the bytes of one (bcwalk merge's). */
BCW_INTERNAL int bcw__results_start(bcw_results **out, const char *path);
/* Appends bytes as they are: a merge's, copied from the shards' files. */
BCW_INTERNAL int bcw__results_put(bcw_results *r, const void *data, size_t n);

/* Appends one sequence; `state` is the state walk's state it belongs
 * to (an index into the states bcw__results_states writes), or -1;
 * `cause` why it halted and `leak` what its destructor left, in words
 * ("": none).  Errors are sticky: after the first, writes do nothing
 * and close reports it. */
BCW_INTERNAL int bcw__results_seq(bcw_results *r, const bcw_seq *seq, int state,
                                  const char *cause, const char *leak);

/* Appends the state walk's states and transitions (states.h). */
BCW_INTERNAL int bcw__results_states(bcw_results *r,
                                     const struct bcw_states *st);

/* The bytes of the file so far, those packed and not yet written
 * included. */
BCW_INTERNAL uint64_t bcw__results_size(const bcw_results *r);

/* A shard's file (explore --shard) records its layout, so that bcwalk
 * merge copies its bytes rather than walking again (docs/results.md,
 * "parts"): bcw__results_part is then told of every sequence, before
 * it is reported (`nsyms`: the symbols the walk used before it). */
BCW_INTERNAL int bcw__results_parts(bcw_results *r);
BCW_INTERNAL int bcw__results_part(bcw_results *r, const bcw_seq *s,
                                   uint64_t nsyms);
/* The replay section (replay.h), before the trailer: what bcwalk
 * report and merge walk again from.  0 or the writer's error. */
struct bcw_replay_rec;
BCW_INTERNAL int bcw__results_replay(bcw_results *r,
                                     const struct bcw_replay_rec *x);
/* With `summary`, writes the trailer, syncs and renames the file into
 * place; with NULL (a failed walk) removes the temporary.  Frees `r`
 * either way and returns the first error. */
BCW_INTERNAL int bcw__results_close(bcw_results *r, const bcw_summary *summary);

/* A walk's report in the formats other tools read (bcwalk
 * report --html, --junit, --sarif, --svg; docs/reports.md): made from
 * the sequences as the walk emits them and its summary at the end. */

typedef struct bcw_exports bcw_exports;

/* What the exports take of the walk's settings: the files asked for
 * (NULL: not asked), and the command line the walk was run with, which
 * the emitted tests name. */
typedef struct bcw_export_opts {
    const char *html_path, *junit_path, *sarif_path, *svg_path;
    const char *emit_c_path;
    bool emit_c_all; /* every sequence's test, not a chosen set */
    bool halts;      /* the distinct halts, for the text report */
    const char *reproduce_dir;
    const char *const *argv;
    unsigned argc;
} bcw_export_opts;

/* The exports o asks for, into *out (o copied); *out NULL when it asks
 * for none.  0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__exports_new(bcw_exports **out, const bcw_export_opts *o);

/* Takes an executed sequence in (a walk's emit, as the reporter r sees
 * it: r->state is the state walk's state). */
BCW_INTERNAL int bcw__exports_seq(bcw_exports *x, const bcw_reporter *r,
                                  const bcw_seq *s);

/* Writes every file asked for, each atomically: `st` the state walk's
 * states (NULL for another walk), `sum` the walk's summary, r's cov
 * and hits its coverage.  0, or the first error that stops them all
 * (out of memory, a failed write); an export refused (BCW_EINPUT: the
 * SVG of a walk with no design states, a file that cannot be opened;
 * the page and the SVG both when Graphviz cannot draw the graph) fails
 * alone: the others are written and the last refusal is returned. */
BCW_INTERNAL int bcw__exports_write(bcw_exports *x, const bcw_reporter *r,
                                    const bcw_summary *sum,
                                    const bcw_states *st);

/* With o->reproduce_dir: each distinct halt's standalone program
 * written, built with `bitcode` (calling function `setup` first, or
 * none) and run (standalone.h); the counts into sum->standalone and
 * each halt's verdict kept in r for the summary to print.  0 or an
 * error. */
BCW_INTERNAL int bcw__exports_reproduce(bcw_exports *x, bcw_reporter *r,
                                        const char *bitcode, const char *setup,
                                        bcw_summary *sum);

/* The distinct halts x met, each with its shortest sequence, as the
 * text report lists them after its summary; nothing when none. */
BCW_INTERNAL void bcw__exports_halts_text(const bcw_exports *x, FILE *f);

BCW_INTERNAL void bcw__exports_free(bcw_exports *x);

/* The SVG Graphviz's dot draws of the DOT text `dot` into *svg (the
 * caller's, NUL-terminated), from its <svg> element on.  A missing dot
 * is BCW_EINPUT naming Debian's package. */
BCW_INTERNAL int bcw__svg_of_dot(const char *dot, size_t len, char **svg);

#endif
