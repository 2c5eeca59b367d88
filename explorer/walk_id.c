/* walk_id.c - a walk's identity (walk_id.h): its key over the model,
 * the bitcode and the options that change its results, and the results
 * file's replay section, which bcwalk report and merge walk again
 * from. */
#include "walk_id.h"

#include <stdlib.h>
#include <string.h>

#include "file.h"
#include "hash.h"

/* The walk a checkpoint or results file is of: the bytes of the model
 * (`bytes`, len), of the bitcode (and the reference's), and the options
 * that change which sequences run or what they give.  0 or an error. */
static int walk_key(uint64_t *key, const char *bytes, size_t len,
                    const bcw_explore_opts *o)
{
    int err = 0;
    uint64_t h = bcw__hash(bytes, len, 0);
    if ((err = bcw__hash_file(&h, o->bitcode)) < 0 ||
        (o->reference != NULL && (err = bcw__hash_file(&h, o->reference)) < 0))
        return err;
    char *text = bcw__sprintf(
        "%d %d %u %u %u %u %u %d %u %d %d %u %d %d %d %d|%s|%s|%s|%s|%s",
        o->unit, o->walk, o->depth, o->timeout_ms, o->memory_mb, o->cpu_s,
        o->max_combos, o->combine, o->probe_depth, o->prune, o->use_ffi,
        o->sanitize, o->boundaries, o->replan, o->accept,
        o->coverage_path != NULL, o->predicates ? o->predicates : "",
        o->permute ? o->permute : "", o->generator ? o->generator : "",
        o->setup ? o->setup : "", o->oracle_path ? o->oracle_path : "");
    if (text == NULL)
        return BCW_ENOMEM;
    *key = bcw__hash(text, strlen(text), h);
    free(text);
    return 0;
}

int bcw__walk_identify(walk_id *id, const bcw_model *model,
                       const bcw_explore_opts *o)
{
    if (o->recorded != NULL) {
        *id = (walk_id){o->recorded->model, o->recorded->model_len,
                        o->recorded->key, NULL};
        return 0;
    }
    int err = bcw__model_to_bytes(model, false, &id->own, &id->len);
    id->model = id->own;
    return err < 0 ? err : walk_key(&id->key, id->model, id->len, o);
}

int bcw__walk_write_replay(bcw_results *results, const walk_id *id,
                           const bcw_explore_opts *o, const bcw_buf *record,
                           const bcw_symbols *symbols, const bcw_cov_map *cov,
                           const uint8_t *hits, const bcw_summary *shared_from,
                           const bcw_summary *final)
{
    if (record->data == NULL && record->err != 0)
        return record->err;
    bcw_span rec = {(const unsigned char *)record->data, record->len};
    bcw_replay_rec x = {.argv = o->argv,
                        .argc = o->argc,
                        .key = id->key,
                        .model = id->model,
                        .model_len = id->len,
                        .shard_i = o->shard_i,
                        .shard_n = o->shard_n,
                        .symbols = symbols,
                        .records = &rec,
                        .nrecords = 1,
                        .shared_from = shared_from,
                        .final = final,
                        .cov = hits != NULL ? cov : NULL,
                        .hits = hits};
    return bcw__results_replay(results, &x);
}
