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
#define RESULTS_VERSION 11

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
BCW_INTERNAL void bcw__symbols_free(bcw_symbols *s);

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
    const unsigned char *records; /* bcw__record_put's, run order */
    size_t records_len;
    const bcw_cov_map *cov; /* coverage (explore --coverage), or NULL */
    const uint8_t *hits;
} bcw_replay_rec;

/* Results files read back (struct bcw_recorded, explore.h). */
struct bcw_recorded {
    char **argv;
    unsigned argc;
    uint64_t key;
    char *model;
    size_t model_len;
    unsigned shard_i, shard_n; /* of one file; 0/0 when merged */
    bcw_symbols *symbols;
    unsigned char **bytes; /* each file's records */
    size_t nfiles, capbytes;
    struct replay_entry *entries; /* by sequence hash, first file first */
    size_t nentries, capentries;
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

#endif
