/* replay.h - a walk again from the results it recorded, running nothing:
 * `bcwalk report` prints a results file's report again, `bcwalk merge`
 * makes one walk's results of its shards'.  A results file ends with
 * what that takes (docs/results.md, "replay"): the command, the model,
 * the walk's key, the symbols its reports used, and every sequence's
 * result by the hash of the sequence. */
#ifndef BCW_REPLAY_H
#define BCW_REPLAY_H

/* The results file's `version`, which its writer (results.c) puts in
 * the header and its reader here requires: docs/results.md states it
 * and tests/check_versions.py holds the two together. */
#define RESULTS_VERSION 12

#include <stdbool.h>
#include <stdint.h>

#include "bcwalk/explore.h"
#include "build.h"
#include "hash.h"
#include "pool.h"

/* The symbolizer's answers, kept: a run asks the worker's executable
 * once per address, and writes those it used to its results file, so a
 * replay, with no executable, words causes the same. */
typedef struct bcw_symbols bcw_symbols;

BCW_INTERNAL bcw_symbols *bcw__symbols_new(void);
/* The executable later addresses are of (NULL: none, only the answers
 * kept); another executable than before forgets the answers. */
BCW_INTERNAL int bcw__symbols_exe(bcw_symbols *s, const char *exe);
/* bcw__symbolize's answer for pc, from what is kept or the executable. */
BCW_INTERNAL int bcw__symbols_get(bcw_symbols *s, uint64_t pc, char *func,
                                  size_t nfunc, char *file, size_t nfile,
                                  unsigned *line);
/* BCW_ENOMEM when an answer could not be kept (the reports may lack a
 * place), else 0. */
BCW_INTERNAL int bcw__symbols_err(const bcw_symbols *s);
/* The answers used since it was made, in the order first used: *pc and
 * the strings of the k-th; false past the last. */
BCW_INTERNAL bool bcw__symbols_used(const bcw_symbols *s, size_t k,
                                    uint64_t *pc, const char **func,
                                    const char **file, unsigned *line);
/* How many answers were used (bcw__symbols_used). */
BCW_INTERNAL size_t bcw__symbols_nused(const bcw_symbols *s);
BCW_INTERNAL void bcw__symbols_free(bcw_symbols *s);

/* Bytes of a piece. */
typedef struct bcw_span {
    const unsigned char *at;
    size_t len;
} bcw_span;

/* What a results file recorded for its replay, as written. */
typedef struct bcw_replay_rec {
    const char *const *argv; /* the command, less what does not change
                                the results (bcw__replay_argv) */
    unsigned argc;
    uint64_t key;      /* the walk's: model, bitcode, options */
    const char *model; /* its bytes */
    size_t model_len;
    unsigned shard_i, shard_n; /* --shard I/N, 0/0: none */
    const bcw_symbols *symbols;
    /* bcw__record_put's, run order: the pieces in turn */
    const bcw_span *records;
    size_t nrecords;
    /* a shard's counts as its walk was shared out (bcw_walk_cfg's
     * shared_from) and at its end; NULL: not a shard's walk */
    const bcw_summary *shared_from, *final;
    const bcw_cov_map *cov; /* coverage (explore --coverage), or NULL */
    const uint8_t *hits;
} bcw_replay_rec;

/* The counts a results file's trailer has, and its "parts" for the
 * walk as it was shared out: their names and where bcw_summary has
 * them, in the files' order. */
#define BCW_COUNTS 9
typedef struct bcw_count {
    const char *name;
    size_t off; /* a uint64_t of bcw_summary */
} bcw_count;
BCW_INTERNAL extern const bcw_count bcw__counts[BCW_COUNTS];

/* A shard's own part of one length in one subtree, as its file's
 * "parts" records it (docs/results.md); or its common start, the
 * lengths every shard runs (len and subtree 0). */
typedef struct bcw_shard_part {
    unsigned len;
    uint64_t subtree;
    uint64_t end;     /* where its sequences end in the file */
    uint64_t rec_end; /* where its records end in the records */
    uint64_t nsyms;   /* the symbols the shard had used by then */
} bcw_shard_part;

/* One results file read back. */
typedef struct bcw_recorded_file {
    char *path;
    const char *data; /* its bytes, mapped */
    size_t len;
    size_t head_end;  /* where the header ends: the sequences start */
    size_t replay_at; /* where the replay section starts */
    uint64_t counts[BCW_COUNTS]; /* the trailer's */
    const unsigned char *rec;    /* its records, in data */
    size_t rec_len;
    uint64_t *pcs; /* its symbols' addresses, in the order it used them */
    size_t npcs;
    /* a shard's layout ("parts"), when it has one: parts[0] its common
     * start, after which its counts were pre_counts; its own parts
     * after it, each beginning where the one before ends */
    bool laid;
    uint64_t pre_counts[BCW_COUNTS];
    bcw_shard_part *parts;
    size_t nparts;
} bcw_recorded_file;

/* Results files read back (struct bcw_recorded, explore.h). */
struct bcw_recorded {
    char **argv;
    unsigned argc;
    uint64_t key;
    char *model;
    size_t model_len;
    unsigned shard_i, shard_n; /* of one file; 0/0 when merged */
    bcw_symbols *symbols;
    bcw_recorded_file *files; /* in the order given */
    size_t nfiles, capfiles;
    /* by sequence hash, first file first, made when first asked */
    struct replay_entry *entries;
    size_t nentries, capentries;
    bool indexed;
    bcw_index ix;
    /* coverage, when the walk measured it: the first file's map, and
     * every file's hits merged (hits NULL: none) */
    bcw_cov_map cov;
    uint8_t *hits;
};

/* The walk's executor in a replay: each sequence's result is the one
 * recorded for it; one not recorded is an error (the files are not all
 * of this walk, or the library gave other results from run to run). */
BCW_INTERNAL int bcw__replay_exec(bcw_recorded *rc, bcw_job *jobs,
                                  size_t njobs);

/* Marks the answer for pc used, after those used before (the symbols a
 * merged file lists, in the order the whole walk used them). */
BCW_INTERNAL int bcw__symbols_use(bcw_symbols *s, uint64_t pc);

#endif
