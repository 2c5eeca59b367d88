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

/* Does file g run the lengths every shard runs as file f does: the same
 * header, sequences, records, symbols and counts? */
static bool same_start(const bcw_recorded_file *f, const bcw_recorded_file *g)
{
    const bcw_shard_part *a = &f->parts[0], *b = &g->parts[0];
    return a->end == b->end && a->rec_end == b->rec_end &&
           a->nsyms == b->nsyms && memcmp(f->data, g->data, a->end) == 0 &&
           memcmp(f->rec, g->rec, a->rec_end) == 0 &&
           (a->nsyms == 0 ||
            memcmp(f->pcs, g->pcs, a->nsyms * sizeof *f->pcs) == 0) &&
           memcmp(f->pre_counts, g->pre_counts, sizeof f->pre_counts) == 0;
}

/* A part taken, in the whole walk's order: f->parts[k], k >= 1, which
 * begins where f->parts[k - 1] ends. */
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
    for (size_t i = 0; i < rc->nfiles; i++)
        at[i] = 1; /* past the common start */
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
    bcw_summary sum = {0};
    for (unsigned j = 0; j < BCW_COUNTS; j++) {
        uint64_t v = rc->files[0].pre_counts[j];
        for (size_t i = 0; i < rc->nfiles; i++)
            v += rc->files[i].counts[j] - rc->files[i].pre_counts[j];
        memcpy((char *)&sum + bcw__counts[j].off, &v, sizeof v);
    }
    return sum;
}

/* The symbols the whole walk used, in the order it first did: a part's
 * new ones after those of the parts before it. */
static int use_symbols(bcw_recorded *rc, const taken *order, size_t n)
{
    const bcw_recorded_file *f0 = &rc->files[0];
    int err = 0;
    for (size_t s = 0; err == 0 && s < f0->parts[0].nsyms; s++)
        err = bcw__symbols_use(rc->symbols, f0->pcs[s]);
    for (size_t p = 0; err == 0 && p < n; p++) {
        const bcw_recorded_file *f = order[p].f;
        const bcw_shard_part *t = &f->parts[order[p].k];
        for (uint64_t s = t[-1].nsyms; err == 0 && s < t->nsyms; s++)
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
    err = bcw__results_put(r, f0->data, f0->parts[0].end);
    spans[0] = (bcw_span){f0->rec, f0->parts[0].rec_end};
    for (size_t p = 0; err == 0 && p < n; p++) {
        const bcw_recorded_file *f = order[p].f;
        const bcw_shard_part *t = &f->parts[order[p].k];
        err = bcw__results_put(r, f->data + t[-1].end, t->end - t[-1].end);
        spans[p + 1] =
            (bcw_span){f->rec + t[-1].rec_end, t->rec_end - t[-1].rec_end};
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
        n += rc->files[i].nparts - 1;
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
