/* journal.h - the checkpoint of a walk (--checkpoint FILE): every result
 * the workers gave, in the order the walk asked for them.  The walk is
 * deterministic given its results, so a run that resumes replays the
 * journal instead of running those sequences, then goes on running the
 * rest: its reports and files are the uninterrupted run's.  Written in
 * checksummed blocks appended and synced every few seconds, so a kill at
 * any moment loses at most the last interval; a torn block is cut off
 * when the file is next opened.  docs/checkpoint.md has the format. */
#ifndef BCW_JOURNAL_H
#define BCW_JOURNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "alloc.h"
#include "pool.h"

typedef struct bcw_journal bcw_journal;

/* What a journal is opened with. */
typedef struct bcw_journal_cfg {
    const char *path;    /* the checkpoint file, or NULL: none kept */
    bool resume;         /* replay `path`'s results first */
    uint64_t key;        /* the walk it is of: model, bitcode and options;
                            a file of another walk is refused */
    double time_limit_s; /* stop running sequences after this long (0: no
                            limit): bcw__journal_exec returns
                            BCW_STOPPED */
    double every_s;      /* sync the file at least this often */
} bcw_journal_cfg;

/* Returned by bcw__journal_exec when the time limit is reached: the walk
 * stops where it is, its results so far kept in the journal. */
#define BCW_STOPPED (-100)

/* Opens the journal: with cfg->resume the file must exist and be of
 * walk cfg->key (else BCW_EINPUT, naming the file and the problem);
 * without it a file already there is refused (its results would be
 * lost), unless it is empty.  0 or an error; *out is freed with
 * bcw__journal_close. */
BCW_INTERNAL int bcw__journal_open(bcw_journal **out,
                                   const bcw_journal_cfg *cfg);

/* The walk's executor: each job's results from the journal while it has
 * them (a sequence other than the one recorded is an error: the file is
 * of another walk), the rest run on `pool` and appended; each job is
 * handed to `done` (if not NULL) once its results are in, in order.  0,
 * BCW_STOPPED
 * past the time limit (nothing of these jobs is run), or an error. */
BCW_INTERNAL int bcw__journal_exec(bcw_journal *j, bcw_pool *pool,
                                   bcw_job *jobs, size_t njobs,
                                   bcw_job_done done, void *ctx);

/* The walk's coverage hits (n flags, coverage.h): kept in the file with
 * the records, and merged back into `hits` as a resume replays them.
 * Called before the walk runs. */
BCW_INTERNAL void bcw__journal_cover(bcw_journal *j, uint8_t *hits, uint32_t n);

/* How many results were replayed, and how many run and recorded. */
BCW_INTERNAL void bcw__journal_counts(const bcw_journal *j, uint64_t *replayed,
                                      uint64_t *recorded);

/* Syncs what is pending and closes the file; NULL is accepted.  0 or the
 * first write error. */
BCW_INTERNAL int bcw__journal_close(bcw_journal *j);

/* Results one by one, as a results file's replay section holds them
 * (docs/results.md): the hash of sequence i of job (its words as the
 * protocol sends them), then its result and cause. */
BCW_INTERNAL uint64_t bcw__record_seq(const bcw_job *job, uint32_t i);
/* Appends sequence i's record to b; 0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__record_put(bcw_buf *b, const bcw_job *job, uint32_t i);
/* Reads the record at *p (before end) into sequence i of job, moving *p
 * past it; *seq is the hash of the sequence it was recorded for.  1, 0
 * when the record is damaged, or BCW_ENOMEM. */
BCW_INTERNAL int bcw__record_take(const unsigned char **p,
                                  const unsigned char *end, bcw_job *job,
                                  uint32_t i, uint64_t *seq);

#endif
