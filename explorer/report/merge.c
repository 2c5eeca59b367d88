/* merge.c - a walk's shards merged by copying (bcwalk merge): each
 * shard's file records where its parts lie ("parts", docs/results.md),
 * so the whole walk's results file is the shards' bytes in the whole
 * walk's order, with nothing walked again.
 *
 * The whole walk is breadth first; its sequences of a length after the
 * share-out come subtree by subtree, in the order of the sequences the
 * subtrees extend, and each subtree is one shard's.  So the merged file
 * is the lengths every shard runs (any shard's: they are checked to be
 * the same), then for each length every shard's part of it, merged by
 * subtree.  Records, counts and symbols follow the same order. */
#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "engine.h"

int bcw_recorded_merges(const bcw_recorded *rc)
{
    if (rc->nfiles < 2 || rc->nfiles != rc->shard_n)
        return 0;
    for (size_t i = 0; i < rc->nfiles; i++)
        if (!rc->files[i].laid)
            return 0;
    return 1;
}

/* Where part k of file f starts: in its sequences, its records, and its
 * list of symbols. */
static const bcw_shard_part *before(const bcw_recorded_file *f, size_t k,
                                    bcw_shard_part *pre)
{
    if (k > 0)
        return &f->parts[k - 1];
    *pre = (bcw_shard_part){
        .end = f->pre_end, .rec_end = f->pre_rec, .nsyms = f->pre_nsyms};
    return pre;
}

/* Does file g run the lengths every shard runs as file f does: the same
 * header, sequences, records, symbols and counts? */
static bool same_start(const bcw_recorded_file *f, const bcw_recorded_file *g)
{
    return f->pre_end == g->pre_end && f->pre_rec == g->pre_rec &&
           f->pre_nsyms == g->pre_nsyms &&
           memcmp(f->data, g->data, f->pre_end) == 0 &&
           memcmp(f->rec, g->rec, f->pre_rec) == 0 &&
           memcmp(f->pcs, g->pcs, f->pre_nsyms * sizeof *f->pcs) == 0 &&
           memcmp(f->pre_counts, g->pre_counts, sizeof f->pre_counts) == 0;
}

/* A part taken, in the whole walk's order. */
typedef struct taken {
    const bcw_recorded_file *f;
    size_t k;
} taken;

/* The parts of every file in the whole walk's order: by length, then by
 * subtree; two shards with a part of one subtree at one length are not
 * shards of one walk. */
static int order_parts(const bcw_recorded *rc, taken *out)
{
    size_t *at = bcw__calloc(rc->nfiles, sizeof *at), n = 0;
    if (at == NULL)
        return BCW_ENOMEM;
    int err = 0;
    for (;;) {
        const bcw_shard_part *best = NULL;
        size_t bi = 0;
        for (size_t i = 0; err == 0 && i < rc->nfiles; i++) {
            const bcw_recorded_file *f = &rc->files[i];
            if (at[i] == f->nparts)
                continue;
            const bcw_shard_part *t = &f->parts[at[i]];
            if (best != NULL && t->len == best->len &&
                t->subtree == best->subtree)
                err = bcw__error(BCW_EINPUT,
                                 "%s and %s both ran one subtree of length "
                                 "%u: not the shards of one walk",
                                 rc->files[bi].path, f->path, t->len);
            else if (best == NULL || t->len < best->len ||
                     (t->len == best->len && t->subtree < best->subtree)) {
                best = t;
                bi = i;
            }
        }
        if (err != 0 || best == NULL)
            break;
        out[n++] = (taken){&rc->files[bi], at[bi]++};
    }
    free(at);
    return err;
}

/* The merged counts: the lengths every shard runs once, and each
 * shard's own after them. */
static bcw_summary merged_counts(const bcw_recorded *rc)
{
    uint64_t v[BCW_COUNTS];
    memcpy(v, rc->files[0].pre_counts, sizeof v);
    for (size_t i = 0; i < rc->nfiles; i++)
        for (unsigned j = 0; j < BCW_COUNTS; j++)
            v[j] += rc->files[i].counts[j] - rc->files[i].pre_counts[j];
    return (bcw_summary){.normal = v[0],
                         .terminated = v[1],
                         .unmet = v[2],
                         .suspect = v[3],
                         .aliasing = v[4],
                         .discarded = v[5],
                         .pruned_observer = v[6],
                         .predicted_void = v[7],
                         .calls = v[8]};
}

/* The symbols the whole walk used, in the order it first did: a part's
 * new ones after those of the parts before it. */
static int use_symbols(bcw_recorded *rc, const taken *order, size_t n)
{
    const bcw_recorded_file *f0 = &rc->files[0];
    int err = 0;
    for (size_t s = 0; err == 0 && s < f0->pre_nsyms; s++)
        err = bcw__symbols_use(rc->symbols, f0->pcs[s]);
    for (size_t p = 0; err == 0 && p < n; p++) {
        bcw_shard_part pre;
        const bcw_recorded_file *f = order[p].f;
        const bcw_shard_part *from = before(f, order[p].k, &pre);
        for (uint64_t s = from->nsyms;
             err == 0 && s < f->parts[order[p].k].nsyms; s++)
            err = bcw__symbols_use(rc->symbols, f->pcs[s]);
    }
    return err;
}

/* The merged file: the start, then each part's sequences; the replay
 * section with each part's records; the trailer. */
static int write_merged(bcw_recorded *rc, const char *path, const taken *order,
                        size_t n, bcw_span *spans)
{
    const bcw_recorded_file *f0 = &rc->files[0];
    bcw_results *r;
    int err = bcw__results_start(&r, path);
    if (err < 0)
        return err;
    err = bcw__results_put(r, f0->data, f0->pre_end);
    spans[0] = (bcw_span){f0->rec, f0->pre_rec};
    for (size_t p = 0; err == 0 && p < n; p++) {
        bcw_shard_part pre;
        const bcw_recorded_file *f = order[p].f;
        const bcw_shard_part *from = before(f, order[p].k, &pre);
        const bcw_shard_part *t = &f->parts[order[p].k];
        err = bcw__results_put(r, f->data + from->end, t->end - from->end);
        spans[p + 1] =
            (bcw_span){f->rec + from->rec_end, t->rec_end - from->rec_end};
    }
    bcw_replay_rec x = {.argv = (const char *const *)rc->argv,
                        .argc = rc->argc,
                        .key = rc->key,
                        .model = rc->model,
                        .model_len = rc->model_len,
                        .symbols = rc->symbols,
                        .records = spans,
                        .nrecords = n + 1,
                        .cov = rc->hits != NULL ? &rc->cov : NULL,
                        .hits = rc->hits};
    if (err == 0)
        err = bcw__results_replay(r, &x);
    bcw_summary sum = merged_counts(rc);
    int cerr = bcw__results_close(r, err == 0 ? &sum : NULL);
    return err != 0 ? err : cerr;
}

int bcw_recorded_merge(bcw_recorded *rc, const char *path)
{
    bcw__error_clear();
    if (!bcw_recorded_merges(rc))
        return bcw__error(BCW_EINPUT, "these results files do not merge "
                                      "by copying: merge walks them again");
    const bcw_recorded_file *f0 = &rc->files[0];
    size_t n = 0;
    for (size_t i = 0; i < rc->nfiles; i++) {
        n += rc->files[i].nparts;
        if (!same_start(f0, &rc->files[i]))
            return bcw__error(BCW_EINPUT,
                              "%s: the lengths every shard runs differ from "
                              "%s's: the files are not of one walk, or the "
                              "library gave other results in the shards",
                              rc->files[i].path, f0->path);
    }
    taken *order = bcw__calloc(n + 1, sizeof *order);
    bcw_span *spans = bcw__calloc(n + 1, sizeof *spans);
    int err =
        order != NULL && spans != NULL ? order_parts(rc, order) : BCW_ENOMEM;
    if (err == 0)
        err = use_symbols(rc, order, n);
    if (err == 0)
        err = write_merged(rc, path, order, n, spans);
    free(order);
    free(spans);
    return err;
}
