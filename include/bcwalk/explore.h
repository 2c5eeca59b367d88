/* explore.h - bounded exhaustive walks of a unit's call sequences. */
#ifndef BCWALK_EXPLORE_H
#define BCWALK_EXPLORE_H

#include <stdint.h>
#include <stdio.h>

#include "bcwalk/model.h"

/* The walks of JWalk: protocol TP_k = C x (1 u M u ... u M^k), algebra
 * TA_k = C x (1 u N u ... u N^(k-1)) x M, and state TS_k: the protocol
 * walk from each design state's cover; and the learned walk: the
 * protocol walk's sequences that are paths of a model learned from the
 * library's own tests (bcwalk learn; from_tests). */
enum bcw_walk_kind {
    BCW_WALK_PROTOCOL,
    BCW_WALK_ALGEBRA,
    BCW_WALK_STATE,
    BCW_WALK_LEARNED
};

/* How results are printed on the output stream. */
enum bcw_report_format {
    BCW_REPORT_TEXT, /* JWalk-style report in C syntax */
    BCW_REPORT_JSON, /* one summary document */
    BCW_REPORT_JSONL /* one object per sequence, then the summary */
};

/* How the categories of one call's parameters are combined into the
 * walk's steps: every combination, or a set covering every pair of
 * categories of any two parameters (all-pairs). */
enum bcw_combine { BCW_COMBINE_ALL, BCW_COMBINE_PAIRS };

/* Pruning by concrete state: a sequence reaching a state an earlier
 * sequence of the walk reached (with the same next generated values) is
 * run and reported but not extended.  AUTO prunes from depth 6 on, and
 * not with a custom generator (whose position the state cannot see). */
enum bcw_prune { BCW_PRUNE_AUTO, BCW_PRUNE_STATE, BCW_PRUNE_NONE };

/* Checks compiled into the workers (bits of bcw_explore_opts.sanitize). */
enum bcw_sanitize {
    BCW_SANITIZE_ADDRESS = 1u,  /* AddressSanitizer: over-reads, use after
                                   free, out-of-bounds stack and globals */
    BCW_SANITIZE_UNDEFINED = 2u /* signed overflow, shifts, division,
                                   misalignment, NULL to memcpy and kin */
};

/* Progress of a running walk, handed to the progress callback. */
typedef struct bcw_progress {
    unsigned length;     /* sequence length being explored */
    unsigned depth;      /* the walk's depth */
    uint64_t done;       /* sequences executed so far */
    uint64_t calls;      /* calls made so far */
    uint64_t level_done; /* of this length's sequences, executed */
    uint64_t level_size; /* this length's sequences (the known total) */
    uint64_t states;     /* distinct concrete states reached so far */
    double elapsed_s;
} bcw_progress;

typedef void (*bcw_progress_cb)(const bcw_progress *progress, void *payload);

/* A person's judgement of a sequence (bcw_explore_opts.ask). */
enum bcw_answer {
    BCW_ANSWER_LATER, /* it stays pending */
    BCW_ANSWER_PASS,  /* right: the oracle's, passing */
    BCW_ANSWER_FAIL,  /* wrong: the oracle's, a known failure */
    BCW_ANSWER_STOP   /* pending, and ask no more */
};

/* The most times the tests' categories grow a walk by default
 * (bcw_explore_opts' tests_growth). */
#define BCW_TESTS_GROWTH 2

/* What to walk and how.  Start from BCW_EXPLORE_OPTS_INIT. */
typedef struct bcw_explore_opts {
    const char *bitcode;   /* the .bc the model came from */
    int unit;              /* index of the unit in the model */
    const char *unit_name; /* how the report's header and the HTML page's
                              title name the unit: as the user named it
                              (its typedef, ArrayList for _ArrayList);
                              NULL: the unit's own name */
    enum bcw_walk_kind walk;
    unsigned depth;          /* k, the longest method sequence */
    unsigned jobs;           /* worker processes, 0: one per core */
    unsigned timeout_ms;     /* per-call hang limit */
    unsigned walk_memory_mb; /* the walk's own budget, in MiB: past it
                                its tree is kept in a file, paged by
                                the system (summary spilled_at); 0: half
                                the machine's memory */
    unsigned memory_mb;      /* the most a sequence may hold allocated: more
                                is a runaway allocation, its outcome */
    unsigned cpu_s;          /* CPU seconds each worker process, and each
                                process it starts, may use (RLIMIT_CPU); 0:
                                the larger of 60 and twice a sequence's time
                                limit, (depth + 2) * timeout_ms */
    enum bcw_report_format format;
    FILE *report;             /* where the report goes, or NULL */
    const char *results_path; /* msgpack results file, or NULL */
    const char *cache_dir;    /* native build cache, NULL: default */
    int use_ffi;              /* 1: calls through libffi instead of
                                 the generated typed stubs */
    enum bcw_combine combine; /* categories of a call's parameters */
    unsigned max_combos;      /* most steps per function: above it the
                                 first are walked and the report warns */
    bcw_progress_cb progress; /* optional */
    void *payload;
    const char *generator; /* a custom generator's .c, .bc or .so
                              (bcwalk/generator.h), or NULL */
    const char *setup;     /* a function of the library taking no
                              parameters (its initialisation), called
                              once in each worker before any sequence,
                              or NULL */
    const char *permute;   /* buffer contents: every permutation of this
                              seed's bytes ("aabc"), each '|'-separated
                              group on its own ("ab|cd"); NULL: the
                              default 'a', 'b', ... fill */
    /* State walk: */
    unsigned probe_depth;   /* longest constructor + mutators sequence
                               probed for design states (0: 12) */
    const char *predicates; /* comma-separated predicate names that make
                               the design states, NULL: the interface's,
                               plus the bitcode's it lacks */
    const char *graph_path; /* the state graph as DOT, or NULL */
    /* A model learned from the library's own tests (bcwalk learn -o,
     * docs/learn.md), or NULL: the values its tests pass become
     * categories ("from tests: 5"); in the state walk the states their
     * calls reach become covers where probing found none, and the report
     * says what the tests and the walk each reach that the other does not
     * (its gaps); the learned walk needs it. */
    const char *from_tests;
    /* With from_tests: the walk with the tests' categories has at most
     * this many times the sequences of the walk without them (an
     * unpruned walk's, at the depth); beyond it the least used are not
     * walked, and the report names them.  0: BCW_TESTS_GROWTH.  The
     * learned walk takes them all. */
    unsigned tests_growth;
    /* Coverage (docs/coverage.md): the worker is built with a flag per
     * basic block and branch arm of the library's code, the summary says
     * how much of the unit's code the walk reached, and from which
     * length, and an lcov tracefile of it goes to coverage_path.  NULL:
     * none. */
    const char *coverage_path;
    /* Exports (docs/reports.md), each written atomically at the end, or
     * NULL: one self-contained HTML page (summary, state graph, halts in
     * C, coverage), JUnit XML (a test case per length, or per state),
     * SARIF 2.1.0 (a result per distinct halt, at its source line), and
     * the state graph as SVG (Graphviz's dot draws it), and a C file
     * of cmocka tests replaying the sequences. */
    const char *html_path, *junit_path, *sarif_path, *svg_path;
    const char *emit_c_path;
    int emit_c_all; /* 1: every sequence's test, not a chosen set */
    /* Each distinct halt as a standalone C program in this folder
     * (halts.c), built with the bitcode by clang with no bcwalk runtime
     * (AddressSanitizer on) and run: the summary says which halts it
     * reproduced (the library's) and which it did not (bcwalk's own).
     * NULL: none. */
    const char *reproduce_dir;
    enum bcw_prune prune; /* pruning by concrete state */
    unsigned sanitize;    /* BCW_SANITIZE_* bits, 0: none */
    int boundaries;       /* 1: every category's minimum and maximum
                             too, not only its representative */
    /* Testing (bcwalk test): each sequence's last call is judged against
     * the oracle file (docs/oracle.md), made if it is not there; NULL:
     * none.  With `accept`, every pending observation is recorded as
     * passing. */
    const char *oracle_path;
    int accept;
    /* The walk is planned from the model the oracle keeps (of the build
     * it was made from) when this build defines every function it walks;
     * with `replan`, from `model`, which becomes the oracle's. */
    int replan;
    /* bcwalk test --interactive: asked of each sequence waiting for a
     * person (new, changed, not judged yet) once the report printed it;
     * BCW_ANSWER_STOP asks no more.  NULL: nothing is asked. */
    enum bcw_answer (*ask)(void *payload);
    void *ask_payload;
    /* Differential testing (bcwalk test --reference): the bitcode of a
     * reference implementation of the unit, whose model `model` is.  The
     * walk runs on the reference's native build first, then on
     * `bitcode`'s, with the same plan; each sequence of the second is
     * judged against what the first observed, and another observation
     * is a failure.  NULL: none.  Not with oracle_path. */
    const char *reference;
    /* Checkpoint and resume (docs/checkpoint.md): every result the workers
     * give is kept in `checkpoint`, synced at least every
     * checkpoint_every_s seconds (0: 10); with `resume` the walk first
     * replays that file's results (a file of another walk is refused),
     * then runs the rest.  NULL: none. */
    const char *checkpoint;
    int resume;
    unsigned checkpoint_every_s;
    /* Stop running sequences after this many seconds (0: no limit): the
     * summary says `partial`, and with a checkpoint --resume goes on. */
    unsigned time_limit_s;
    /* The most the results file may hold, in MiB (0: no limit): the walk
     * stops when its sequences pass it, partial as at the time limit. */
    unsigned max_results_mb;
    /* The most the text report (format BCW_REPORT_TEXT to `report`) may
     * print, in MiB (0: no limit): the walk stops when its sequences
     * pass it, partial as at the time limit, and the summary follows. */
    unsigned max_report_mb;
    /* Shards (docs/shards.md): a fixed part of the walk, shard_i of
     * shard_n (0 <= shard_i < shard_n; shard_n 0: the whole walk).
     * Every shard runs the lengths up to the first with enough sequences
     * to share out; of that length's sequences, the k-th is shard k mod
     * shard_n's to extend.  bcwalk merge makes the shards' results files
     * the whole walk's. */
    unsigned shard_i, shard_n;
    /* Or NULL: a folder every shard of the walk reaches, made if
     * missing, through which shards pruning by state prune together
     * (docs/shards.md): all of them must run at once. */
    const char *shard_sync;
    /* The command, as it is to be recorded in the results file (only
     * what changes its content: not -o, --jobs, --format ...), so that
     * bcwalk report and merge can walk again from it; NULL: none, and
     * the file cannot be replayed. */
    const char *const *argv;
    unsigned argc;
    /* Walk again from results files read back (bcw_recorded_open): no
     * native build, no worker; every sequence's result is the one they
     * recorded.  NULL: run the walk. */
    struct bcw_recorded *recorded;
} bcw_explore_opts;

/* The defaults: a protocol walk of depth 3 in one worker, 1000 ms per
 * call, 1 GiB per sequence, a text report, typed call stubs, all combinations
 * of a call's categories (at most 64 per function), pruning chosen by depth;
 * every pointer NULL.  `bcw_explore_opts o = BCW_EXPLORE_OPTS_INIT;` */
#define BCW_EXPLORE_OPTS_INIT                                                  \
    {                                                                          \
        .walk = BCW_WALK_PROTOCOL, .depth = 3, .jobs = 0, .timeout_ms = 1000,  \
        .memory_mb = 1024, .format = BCW_REPORT_TEXT, .use_ffi = 0,            \
        .combine = BCW_COMBINE_ALL, .max_combos = 64, .probe_depth = 0,        \
        .prune = BCW_PRUNE_AUTO, .boundaries = 0, .max_report_mb = 1024        \
    }

/* JWalk's summary counts and the run's totals.  normal + terminated +
 * discarded is the size of the walk's whole sequence set. */
typedef struct bcw_summary {
    uint64_t normal;     /* ran, every call returned */
    uint64_t terminated; /* ran, the last call halted */
    uint64_t suspect;    /* of the terminated: halted after a call
                            given an argument bcwalk made of zeroed
                            storage (no constructor of its unit a walk
                            can call): not the library's failure */
    uint64_t aliasing;   /* of the terminated, not suspect: halted
                            after a call given the target again as
                            another argument of its own type (an array
                            added to itself): listed apart, not the
                            library's failure */
    uint64_t unmet;      /* not made, apart from the normal and the
                            terminated: rejected before a call whose
                            argument's category (bounded by the
                            object's fields) has no value on the
                            object as it was, rather than made under
                            a false label; executed counts them */
    struct bcw_standalone_counts {
        unsigned on;         /* reproduce_dir was given */
        uint64_t halts;      /* distinct halts, leaks included */
        uint64_t reproduced; /* their program halted as the walk saw */
        uint64_t differed;   /* it did not: bcwalk's own */
        uint64_t unwritten;  /* no program: a leak, a halt only bcwalk's
                                worker sees, an argument C cannot spell */
        uint64_t unbuilt;    /* clang could not build the program */
    } standalone;
    uint64_t leaking;         /* of the normal: the destructor left
                                 blocks the sequence allocated that
                                 nothing reaches (a leak) */
    uint64_t discarded;       /* not run, whatever the reason */
    uint64_t pruned_observer; /* of the discarded: observer in the prefix */
    uint64_t pruned_state;    /* of the discarded: below a sequence that
                                 reached an already visited state */
    uint64_t pruned_model;    /* of the discarded (learned walk): not a path
                                 of the learned model */
    uint64_t predicted_void;  /* of the normal: void result, predicted */
    uint64_t concrete_states; /* distinct concrete states the normal
                                 sequences left the object in */
    int prune_state;          /* 1: the walk pruned by concrete state */
    unsigned stopped_at;      /* the length the walk stopped before, its
                                 memory budget reached (walk_memory_mb);
                                 0: it ran whole.  normal and terminated
                                 are of the lengths it ran. */
    unsigned spilled_at;      /* the length from which the walk's tree was
                                 kept in a file, past its memory budget
                                 (walk_memory_mb); 0: in memory */
    int spill_full;           /* 1: stopped_at is where the disk had no
                                 room for the spilled tree */
    int results_full;         /* 1: partial, stopped by max_results_mb */
    int report_full;          /* 1: partial, stopped by max_report_mb */
    /* report_full before the limit: the text report's size projected to
     * the walk's depth from its lengths so far (bytes), after length
     * projected_after; 0: stopped at the limit itself */
    double report_projected;
    unsigned projected_after;
    int partial;              /* 1: stopped by the time limit before the
                                 walk's end (time_limit_s); the counts are
                                 of the lengths it finished */
    uint64_t replayed;        /* results read back from the checkpoint
                                 (resume), not run again */
    uint64_t calls;           /* calls into the unit, teardown included */
    uint64_t worker_restarts; /* workers replaced after a fatal outcome */
    double elapsed_s;
    /* With coverage_path: the unit's code (its functions and what they
     * call) the walk reached, of all of it: lines with code, branch arms,
     * functions. */
    struct bcw_coverage {
        int on;
        uint64_t lines, lines_hit;
        uint64_t branches, branches_hit;
        uint64_t functions, functions_hit;
    } coverage;
    /* With an oracle: the judged sequences (not rejected, not predicted)
     * by what the oracle says of their last call. */
    struct bcw_judged {
        int on;             /* 1: the walk was judged */
        int reference;      /* 1: against a reference build's walk
                               (reference): nothing is pending, what it
                               has otherwise fails */
        uint64_t passed;    /* as the oracle has it, judged right */
        uint64_t failed;    /* a failed contract or assert, or as the
                               oracle has it, judged wrong */
        uint64_t fresh;     /* not in the oracle: pending */
        uint64_t changed;   /* not as the oracle has it: pending */
        uint64_t unjudged;  /* as the oracle has it, still pending */
        uint64_t differs;   /* of the failed: not as the reference build
                               has it */
        uint64_t accepted;  /* pending ones recorded as passing (accept,
                               or a person's answer) */
        uint64_t rejected;  /* pending ones a person answered wrong: known
                               failures now */
        uint64_t unreached; /* oracle entries this walk did not reach */
        uint64_t missing;   /* of those, made by a walk of this kind no
                               deeper than this one: they should have
                               been reached, and fail the test */
        uint64_t beyond;    /* of those, made by another kind of walk or
                               a deeper one: not this walk's */
        uint64_t dropped;   /* of the missing, taken as gone (accept):
                               removed from the oracle, not failing */
        /* the first missing entries: sequence and why not reached */
        unsigned nlisted;
        struct bcw_missing {
            char sequence[512];
            char why[256];
        } listed[10];
        uint64_t manual; /* entries put to a person (new, changed, not
                            judged yet, or accepted): JWalk's manual
                            confirmations; every other executed
                            sequence was predicted */
        uint64_t weak;   /* new entries passed by the weak rule: a void
                            call that returned normally */
    } judged;
} bcw_summary;

/* Runs the walk described by `opts` over `model`, writing the report to
 * opts->report and the results file to opts->results_path (atomically:
 * the file appears complete or not at all).  On success fills *out and
 * returns 0.  A crash, abort or hang of the code under test is a result,
 * not a failure; failures are bad input (BCW_EINPUT), a native build or
 * worker start that fails (BCW_ERROR), or running out of memory.  Bad
 * predicates or a bad permutation seed give a message that begins with
 * "design-state predicates: " or "buffer permutation seed: ", an
 * unreadable custom generator one that begins "custom generator FILE: ",
 * a setup function that is not the module's, takes parameters, aborts
 * or crashes (BCW_EINPUT) one that begins "setup function ", so that a
 * caller can tell which of its settings to blame.  A file that does not
 * apply to the walk (the state graph, graph_path or svg_path, of
 * another walk than the state walk) is refused before anything runs.
 * An export refused at the end (BCW_EINPUT: the SVG of a state walk
 * that found no design states, a file that cannot be opened) fails
 * alone: the report, the results file and the other exports are
 * written, *out is filled, and the last refusal is returned. */
int bcw_explore_run(bcw_summary *out, const bcw_model *model,
                    const bcw_explore_opts *opts);

/* Results files (-o) read back, to walk again from what they recorded:
 * one file's report printed again (bcwalk report), or the shards of one
 * walk merged into its results (bcwalk merge). */
typedef struct bcw_recorded bcw_recorded;

/* Reads `n` results files: one, or shards of one walk, each of its
 * shards once, all of the same command, model and key.  0 or BCW_EINPUT
 * naming the file and the problem; *out is freed with
 * bcw_recorded_free. */
int bcw_recorded_open(bcw_recorded **out, const char *const *paths, size_t n);
/* The model they were walked from, decoded: the caller's. */
int bcw_recorded_model(const bcw_recorded *rc, bcw_model **out);
/* The command they recorded (bcw_explore_opts.argv), and for one file
 * its shard (0/0: none). */
const char *const *bcw_recorded_argv(const bcw_recorded *rc, unsigned *argc);
void bcw_recorded_shard(const bcw_recorded *rc, unsigned *i, unsigned *n);
/* 1 when the walk they recorded measured coverage (coverage_path), so
 * that a replay can write it; 0 when it did not. */
int bcw_recorded_covered(const bcw_recorded *rc);
/* 1 when they are every shard of a walk whose files record where their
 * parts lie (docs/results.md, "parts"), so that bcw_recorded_merge
 * writes the whole walk's results file by copying their bytes; 0 when
 * the walk must be walked again (bcw_explore_run with `recorded`): a
 * state walk's shards, or shards pruning by state apart. */
int bcw_recorded_merges(const bcw_recorded *rc);
/* The whole walk's results file at `path`, atomically: what one run of
 * the walk writes, byte for byte.  0, or BCW_EINPUT (shards whose
 * lengths run alike differ, a subtree in two shards), an I/O error. */
int bcw_recorded_merge(bcw_recorded *rc, const char *path);
void bcw_recorded_free(bcw_recorded *rc);

#endif
