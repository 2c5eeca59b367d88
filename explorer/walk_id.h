/* walk_id.h - what a checkpoint or a results file says a walk is: the
 * model's bytes and a key over them, the bitcode and the options that
 * change which sequences run or what they give; and the results file's
 * replay section made of it. */
#ifndef BCW_WALK_ID_H
#define BCW_WALK_ID_H

#include "bcwalk/explore.h"
#include "engine.h"
#include "report.h"

/* The model's bytes and the walk's key (walk_key), the recorded ones
 * in a replay: for the checkpoint and the replay section. */
typedef struct walk_id {
    const char *model;
    size_t len;
    uint64_t key;
    char *own; /* the bytes, when made here */
} walk_id;

/* The walk o asks for on `model` (in a replay, the recorded one's
 * bytes and key) into *id; id->own is the caller's (free()).  0 or an
 * error (a bitcode file that cannot be read). */
BCW_INTERNAL int bcw__walk_identify(walk_id *id, const bcw_model *model,
                                    const bcw_explore_opts *o);

/* The results file's replay section: the command o records (argv, its
 * shard), the model and key of `id`, the results `record` kept, the
 * symbols and the coverage (map and hits, or NULL), and a shard's
 * counts as it was shared out and at its end (bcw_replay_rec).  0 or an
 * error. */
BCW_INTERNAL int
bcw__walk_write_replay(bcw_results *results, const walk_id *id,
                       const bcw_explore_opts *o, const bcw_buf *record,
                       const bcw_symbols *symbols, const bcw_cov_map *cov,
                       const uint8_t *hits, const bcw_summary *shared_from,
                       const bcw_summary *final);

#endif
