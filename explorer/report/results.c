/* results.c - writes the results file with msgpack-c, flushing a reused
 * buffer about every 64 KiB (one ever-growing buffer is 4x slower).  The
 * first failure, packing or writing, sticks: nothing more is written and
 * the file is never renamed into place. */
#define _GNU_SOURCE /* sync_file_range */
#include "report.h"

#include "engine.h"

#include <errno.h>
#include <fcntl.h>
#include <msgpack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "file.h"
#include "hash.h"
#include "pack.h"
#include "plan.h"

#define FLUSH_AT (64 * 1024)
/* the writes sent to the disk after each of these many bytes */
#define KICK_BYTES ((uint64_t)16 << 20)
/* far above what one flush interval packs: a sequence, or the states */
#define PACK_LIMIT ((size_t)1 << 30)

/* A shard's own part of one length in one subtree (bcw_seq.part), or
 * its common start (the lengths every shard runs): its sequences come
 * together in the file, and their records in the replay section's. */
typedef struct results_part {
    unsigned len;
    uint64_t subtree;
    uint64_t seqs;  /* how many */
    uint64_t end;   /* the file's offset where they end */
    uint64_t nsyms; /* the symbols the walk had used by then */
} results_part;

struct bcw_results {
    char *path, *tmp;
    FILE *f;
    bool *text;         /* by step: its calls' out blocks carry text (walk.h) */
    uint64_t written;   /* bytes written so far */
    uint64_t kicked;    /* of them, sent to the disk when there were */
    uint64_t replay_at; /* where the replay section begins, 0: none */
    bcw_hasher sum;     /* of every byte written: the trailer's checksum */
    bcw_pack p;         /* its error is the writer's, sticky */
    /* a shard's layout (bcw__results_parts): parts[0] the sequences
     * every shard runs alike, then its own parts */
    bool parts_on;
    results_part *parts;
    size_t nparts, capparts;
};

/* Writes n bytes to the file, counted into its checksum. */
static void put(bcw_results *r, const void *data, size_t n)
{
    if (r->p.err == 0 && n > 0 && fwrite(data, 1, n, r->f) != n)
        r->p.err =
            bcw__error(BCW_ERROR, "write %s: %s", r->path, strerror(errno));
    bcw__hasher_add(&r->sum, data, n);
    r->written += n;
    /* what is written so far starts going to the disk now, so that the
     * sync at the end waits for the last of it only */
    if (r->written - r->kicked >= KICK_BYTES) {
        sync_file_range(fileno(r->f), 0, 0, SYNC_FILE_RANGE_WRITE);
        r->kicked = r->written;
    }
}

static void pack_kv_str(msgpack_packer *pk, const char *k, const char *v)
{
    bcw__pack_str(pk, k);
    bcw__pack_str(pk, v);
}

static void pack_kv_u64(msgpack_packer *pk, const char *k, uint64_t v)
{
    bcw__pack_str(pk, k);
    msgpack_pack_uint64(pk, v);
}

static void flush(bcw_results *r)
{
    put(r, r->p.buf.data, r->p.buf.len);
    bcw__pack_clear(&r->p);
}

int bcw__results_start(bcw_results **out, const char *path)
{
    *out = NULL;
    bcw_results *r = bcw__calloc(1, sizeof *r);
    if (r == NULL)
        return BCW_ENOMEM;
    bcw__pack_init(&r->p, "a results chunk", PACK_LIMIT);
    int err = bcw__hasher_init(&r->sum) == 0
                  ? bcw__output_target(path, &r->path)
                  : BCW_ENOMEM;
    /* close-on-exec: never a worker's */
    int fd = err == 0 ? bcw__tmp_open(r->path, &r->tmp) : err;
    if (fd >= 0 && (r->f = fdopen(fd, "wb")) == NULL) {
        close(fd);
        fd = BCW_ENOMEM;
    }
    if (fd < 0) {
        if (r->tmp != NULL)
            unlink(r->tmp);
        bcw__results_close(r, NULL);
        return fd;
    }
    bcw__tmp_hold(r->tmp);
    *out = r;
    return 0;
}

int bcw__results_put(bcw_results *r, const void *data, size_t n)
{
    flush(r);
    put(r, data, n);
    return r->p.err;
}

int bcw__results_open(bcw_results **out, const char *path, const bcw_unit *u,
                      const bcw_step *steps, unsigned nsteps,
                      enum bcw_walk_kind walk, unsigned depth)
{
    int err = bcw__results_start(out, path);
    bcw_results *r = *out;
    if (err < 0)
        return err;
    *out = NULL;
    r->text = bcw__calloc(nsteps ? nsteps : 1, sizeof *r->text);
    if (r->text == NULL) {
        bcw__results_close(r, NULL);
        return BCW_ENOMEM;
    }
    for (unsigned i = 0; i < nsteps; i++)
        r->text[i] = bcw__func_has_text(&u->funcs[steps[i].func]);
    msgpack_packer *pk = &r->p.pk;
    msgpack_pack_map(pk, 6);
    pack_kv_str(pk, "format", "bcwalk-results");
    pack_kv_u64(pk, "version", RESULTS_VERSION);
    pack_kv_str(pk, "unit", u->name);
    pack_kv_str(pk, "walk", bcw__walk_name(walk));
    pack_kv_u64(pk, "depth", depth);
    bcw__pack_str(pk, "functions"); /* the steps, by plan index */
    msgpack_pack_array(pk, nsteps);
    for (unsigned i = 0; i < nsteps; i++) {
        const bcw_func *f = &u->funcs[steps[i].func];
        msgpack_pack_map(pk, 3);
        pack_kv_str(pk, "name", f->name);
        pack_kv_str(pk, "role", bcw__role_name(f->role));
        bcw__pack_str(pk, "labels");
        msgpack_pack_array(pk, f->nparams);
        for (unsigned k = 0; k < f->nparams; k++) {
            if (steps[i].label[k] != NULL)
                bcw__pack_str(pk, steps[i].label[k]);
            else
                msgpack_pack_nil(pk);
        }
    }
    if (r->p.err != 0) {
        err = r->p.err;
        bcw__results_close(r, NULL);
        return err;
    }
    *out = r;
    return 0;
}

int bcw__results_seq(bcw_results *r, const bcw_seq *s, int state,
                     const char *cause, const char *leak)
{
    if (r->p.err != 0)
        return r->p.err;
    msgpack_packer *pk = &r->p.pk;
    /* [steps, results, outcome, signo, halted_at, outs, state, prefix,
     *  cause, leak, text] */
    msgpack_pack_array(pk, 11);
    msgpack_pack_array(pk, s->len + 1);
    for (unsigned k = 0; k <= s->len; k++)
        msgpack_pack_uint16(pk, s->steps[k]);
    msgpack_pack_array(pk, s->len + 1);
    for (unsigned k = 0; k <= s->len; k++)
        msgpack_pack_uint64(pk, s->rets[k]);
    msgpack_pack_uint8(pk, s->outcome);
    msgpack_pack_uint8(pk, s->signo);
    msgpack_pack_uint16(pk, s->halted_at);
    msgpack_pack_array(pk, s->len + 1);
    for (unsigned k = 0; k <= s->len; k++) {
        if (s->outs[k] == NULL) {
            msgpack_pack_nil(pk);
            continue;
        }
        msgpack_pack_array(pk, BCW_MAX_PARAMS);
        for (unsigned p = 0; p < BCW_MAX_PARAMS; p++)
            msgpack_pack_uint64(pk, s->outs[k][p]);
    }
    if (state >= 0)
        msgpack_pack_uint32(pk, (uint32_t)state);
    else
        msgpack_pack_nil(pk);
    msgpack_pack_uint32(pk, s->nprefix);
    bcw__pack_str(pk, cause[0] ? cause : NULL);
    bcw__pack_str(pk, leak[0] ? leak : NULL);
    /* the last call's text: a string it returned, a buffer it filled */
    bcw_seq_text t = {0};
    if (s->outs[s->len] != NULL && r->text[s->steps[s->len]])
        t = bcw_seq_text_of(s->outs[s->len]);
    if (t.there && s->outcome == BCW_RUN_NORMAL) {
        msgpack_pack_bin(pk, t.n);
        msgpack_pack_bin_body(pk, t.at, t.n);
    } else {
        msgpack_pack_nil(pk);
    }
    if (r->p.buf.len >= FLUSH_AT)
        flush(r);
    return r->p.err;
}

uint64_t bcw__results_size(const bcw_results *r)
{
    return r->written + r->p.buf.len;
}

int bcw__results_parts(bcw_results *r)
{
    if (bcw__grow(&r->parts, &r->capparts, 1, sizeof *r->parts) < 0)
        return BCW_ENOMEM;
    r->parts[0] = (results_part){.subtree = BCW_SEQ_EVERY_SHARD};
    r->nparts = 1;
    r->parts_on = true;
    return 0;
}

/* The sequences before now end the part they are in, the walk having
 * used `nsyms` symbols. */
static void end_part(bcw_results *r, uint64_t nsyms)
{
    r->parts[r->nparts - 1].end = bcw__results_size(r);
    r->parts[r->nparts - 1].nsyms = nsyms;
}

int bcw__results_part(bcw_results *r, const bcw_seq *s, uint64_t nsyms)
{
    if (r == NULL || !r->parts_on)
        return 0;
    if (s->part == BCW_SEQ_EVERY_SHARD) {
        /* after a part: not laid out as a shard (merge walks it again) */
        r->parts_on = r->nparts == 1;
        r->parts[0].seqs++;
        return 0;
    }
    unsigned len = s->len - s->nprefix;
    const results_part *cur = &r->parts[r->nparts - 1];
    if (cur->subtree != s->part || cur->len != len) {
        end_part(r, nsyms);
        if (bcw__grow(&r->parts, &r->capparts, r->nparts + 1,
                      sizeof *r->parts) < 0)
            return BCW_ENOMEM;
        r->parts[r->nparts++] = (results_part){.len = len, .subtree = s->part};
    }
    r->parts[r->nparts - 1].seqs++;
    return 0;
}

/* Skips n records of [*p, end): false when there are fewer. */
static bool skip_records(const unsigned char **p, const unsigned char *end,
                         uint64_t n)
{
    bcw_wire_result res;
    bcw_wire_cause cause;
    bcw_job one = {.nseq = 1, .results = &res, .causes = &cause};
    uint64_t seq;
    for (; n > 0; n--)
        if (*p >= end || bcw__record_take(p, end, &one, 0, &seq) <= 0)
            return false;
    return true;
}

/* Count i (bcw__counts) of s. */
static uint64_t count(const bcw_summary *s, unsigned i)
{
    uint64_t v;
    memcpy(&v, (const char *)s + bcw__counts[i].off, sizeof v);
    return v;
}

static void pack_counts(msgpack_packer *pk, const bcw_summary *s)
{
    msgpack_pack_array(pk, BCW_COUNTS);
    for (unsigned i = 0; i < BCW_COUNTS; i++)
        msgpack_pack_uint64(pk, count(s, i));
}

/* The replay section's "parts" (docs/results.md): nil but for a shard
 * laid out as one, whole, whose every sequence has its record. */
static void pack_parts(bcw_results *r, const bcw_replay_rec *x)
{
    msgpack_packer *pk = &r->p.pk;
    const unsigned char *rec = x->nrecords == 1 ? x->records[0].at : NULL;
    const unsigned char *p = rec;
    const unsigned char *end = rec != NULL ? rec + x->records[0].len : NULL;
    uint64_t *rec_end = NULL;
    /* a shard that stopped before a length (no room on disk for its
     * tree) is not its whole part: merge walks again, and says so */
    bool laid = r->parts_on && rec != NULL && x->final != NULL &&
                x->final->stopped_at == 0 &&
                (rec_end = bcw__calloc(r->nparts, sizeof *rec_end)) != NULL;
    for (size_t i = 0; laid && i < r->nparts; i++) {
        laid = skip_records(&p, end, r->parts[i].seqs);
        rec_end[i] = (uint64_t)(p - rec);
    }
    bcw__pack_str(pk, "parts");
    if (!laid || p != end) {
        msgpack_pack_nil(pk);
        free(rec_end);
        return;
    }
    /* never shared out: every sequence is every shard's */
    const bcw_summary *pre = r->nparts > 1 ? x->shared_from : x->final;
    msgpack_pack_map(pk, 2);
    bcw__pack_str(pk, "pre");
    msgpack_pack_array(pk, 4);
    msgpack_pack_uint64(pk, r->parts[0].end);
    msgpack_pack_uint64(pk, rec_end[0]);
    msgpack_pack_uint64(pk, r->parts[0].nsyms);
    pack_counts(pk, pre);
    bcw__pack_str(pk, "each");
    msgpack_pack_array(pk, (uint32_t)r->nparts - 1);
    for (size_t i = 1; i < r->nparts; i++) {
        const results_part *t = &r->parts[i];
        msgpack_pack_array(pk, 5);
        msgpack_pack_uint32(pk, t->len);
        msgpack_pack_uint64(pk, t->subtree);
        msgpack_pack_uint64(pk, t->end);
        msgpack_pack_uint64(pk, rec_end[i]);
        msgpack_pack_uint64(pk, t->nsyms);
    }
    free(rec_end);
}

int bcw__results_states(bcw_results *r, const bcw_states *st)
{
    if (r == NULL || r->p.err != 0)
        return r ? r->p.err : 0;
    msgpack_packer *pk = &r->p.pk;
    msgpack_pack_map(pk, 2);
    bcw__pack_str(pk, "states");
    msgpack_pack_array(pk, st->nstates);
    for (unsigned i = 0; i < st->nstates; i++) {
        const bcw_dstate *d = &st->states[i];
        /* [name, value, cover] */
        msgpack_pack_array(pk, 3);
        bcw__pack_str(pk, d->name);
        msgpack_pack_uint32(pk, d->value);
        if (!d->walked) {
            msgpack_pack_nil(pk);
            continue;
        }
        msgpack_pack_array(pk, d->ncover + 1);
        for (unsigned k = 0; k <= d->ncover; k++)
            msgpack_pack_uint16(pk, d->seq[k]);
    }
    bcw__pack_str(pk, "transitions");
    msgpack_pack_array(pk, st->ntrans);
    for (unsigned i = 0; i < st->ntrans; i++) {
        const bcw_transition *t = &st->trans[i];
        /* [from, step, outcome, to] */
        msgpack_pack_array(pk, 4);
        msgpack_pack_uint32(pk, t->from);
        msgpack_pack_uint16(pk, t->step);
        msgpack_pack_uint8(pk, t->outcome);
        if (t->to >= 0)
            msgpack_pack_uint32(pk, (uint32_t)t->to);
        else
            msgpack_pack_nil(pk);
    }
    flush(r);
    return r->p.err;
}

int bcw__results_replay(bcw_results *r, const bcw_replay_rec *x)
{
    if (r == NULL || r->p.err != 0)
        return r ? r->p.err : 0;
    msgpack_packer *pk = &r->p.pk;
    size_t n = 0;
    uint64_t pc;
    const char *func, *file;
    unsigned line;
    while (bcw__symbols_used(x->symbols, n, &pc, &func, &file, &line))
        n++;
    if (r->parts_on)
        end_part(r, n);
    r->replay_at = bcw__results_size(r);
    msgpack_pack_map(pk, 1);
    bcw__pack_str(pk, "replay");
    msgpack_pack_map(pk, 8);
    bcw__pack_str(pk, "argv");
    msgpack_pack_array(pk, x->argc);
    for (unsigned i = 0; i < x->argc; i++)
        bcw__pack_str(pk, x->argv[i]);
    pack_kv_u64(pk, "key", x->key);
    bcw__pack_str(pk, "shard");
    if (x->shard_n > 0) {
        msgpack_pack_array(pk, 2);
        msgpack_pack_uint32(pk, x->shard_i);
        msgpack_pack_uint32(pk, x->shard_n);
    } else {
        msgpack_pack_nil(pk);
    }
    bcw__pack_str(pk, "symbols");
    msgpack_pack_array(pk, (uint32_t)n);
    for (size_t k = 0; k < n; k++) {
        bcw__symbols_used(x->symbols, k, &pc, &func, &file, &line);
        msgpack_pack_array(pk, 4);
        msgpack_pack_uint64(pk, pc);
        bcw__pack_str(pk, func);
        bcw__pack_str(pk, file);
        msgpack_pack_uint32(pk, line);
    }
    bcw__pack_str(pk, "coverage");
    if (x->cov != NULL) {
        msgpack_pack_map(pk, 2);
        bcw__pack_str(pk, "map");
        bcw__cov_map_pack(pk, x->cov);
        bcw__pack_str(pk, "hits");
        bcw__cov_hits_pack(pk, x->hits, x->cov->nflags);
    } else {
        msgpack_pack_nil(pk);
    }
    pack_parts(r, x);
    flush(r);
    /* the two big ones packed straight to the file */
    bcw__pack_str(pk, "model");
    msgpack_pack_bin(pk, x->model_len);
    flush(r);
    put(r, x->model, x->model_len);
    size_t nrec = 0;
    for (size_t k = 0; k < x->nrecords; k++)
        nrec += x->records[k].len;
    bcw__pack_str(pk, "records");
    msgpack_pack_bin(pk, (uint32_t)nrec);
    flush(r);
    for (size_t k = 0; k < x->nrecords; k++)
        put(r, x->records[k].at, x->records[k].len);
    return r->p.err;
}

int bcw__results_close(bcw_results *r, const bcw_summary *s)
{
    if (r == NULL)
        return 0;
    int err = r->p.err;
    if (s != NULL && err == 0) {
        msgpack_packer *pk = &r->p.pk;
        msgpack_pack_map(pk, r->replay_at ? 3 : 2);
        bcw__pack_str(pk, "summary");
        msgpack_pack_map(pk, BCW_COUNTS + (s->partial ? 1 : 0));
        if (s->partial) {
            bcw__pack_str(pk, "partial");
            msgpack_pack_true(pk);
        }
        for (unsigned i = 0; i < BCW_COUNTS; i++)
            pack_kv_u64(pk, bcw__counts[i].name, count(s, i));
        /* last, in 9 bytes: a reader finds the replay section from the
         * file's end without reading the sequences */
        if (r->replay_at) {
            bcw__pack_str(pk, "replay_at");
            msgpack_pack_fix_uint64(pk, r->replay_at);
        }
        /* the checksum of every byte before its own 8, which end the
         * file */
        bcw__pack_str(pk, "checksum");
        flush(r);
        put(r, "\xcf", 1);
        uint64_t sum = bcw__hasher_end(&r->sum);
        unsigned char be[8];
        for (unsigned i = 0; i < 8; i++)
            be[i] = (unsigned char)(sum >> (56 - 8 * i));
        put(r, be, sizeof be);
        err = r->p.err;
        if (err == 0 && (fflush(r->f) != 0 || fsync(fileno(r->f)) != 0))
            err = bcw__error(BCW_ERROR, "sync %s: %s", r->tmp, strerror(errno));
    }
    if (r->f != NULL && fclose(r->f) != 0 && err == 0)
        err = bcw__error(BCW_ERROR, "close %s: %s", r->tmp, strerror(errno));
    if (s != NULL && err == 0 && rename(r->tmp, r->path) != 0)
        err = bcw__error(BCW_ERROR, "rename %s to %s: %s", r->tmp, r->path,
                         strerror(errno));
    if ((s == NULL || err != 0) && r->tmp != NULL && r->f != NULL)
        unlink(r->tmp);
    if (r->tmp != NULL)
        bcw__tmp_release(r->tmp);
    bcw__pack_free(&r->p);
    bcw__hasher_end(&r->sum);
    free(r->parts);
    free(r->text);
    free(r->path);
    free(r->tmp);
    free(r);
    return err;
}
