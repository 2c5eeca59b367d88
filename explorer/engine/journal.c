/* journal.c - the walk's checkpoint: results appended in checksummed
 * blocks, replayed on resume (journal.h, docs/checkpoint.md).
 *
 * A record holds a byte of the hash of the sequence's words (to tell a
 * journal of another walk) and the result as the walk reads it, about
 * 15 bytes: integers as varints, the concrete state and key by their
 * number in the order the journal met them (a walk reaches few), the
 * out-parameter words that are set, the text, and the cause when the
 * result has one. */
#define _GNU_SOURCE
#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "file.h"
#include "hash.h"
#include "walk.h"

#define MAGIC "BCWJOURN"
#define VERSION 2u
#define HEADER_BYTES 32
#define BLOCK_MAGIC 0x4a574342u /* "BCWJ" */
#define COVER_MAGIC 0x43574342u /* "BCWC": the coverage hits so far */
/* a block's header: magic, record count, payload bytes */
#define BLOCK_HEAD 16
/* pending records are written at this size (synced every every_s): as
 * a job finishes, while the workers run the next, a write short enough
 * not to hold them up (16 MiB at once held a depth-9 walk 12%) */
#define FLUSH_BYTES ((size_t)256 << 10)

/* The distinct values of a field most results share (the concrete
 * state, the pruning key: a walk reaches few), numbered in the order
 * the journal first met them: a record names one by its number. */
typedef struct dict {
    uint64_t *v;
    size_t n, cap;
    bcw_index ix;
} dict;

typedef struct dict_probe {
    const dict *d;
    uint64_t v;
} dict_probe;

static int dict_match(uint32_t i, const void *payload)
{
    const dict_probe *p = payload;
    return p->d->v[i] == p->v;
}

static uint64_t dict_hash(uint64_t v)
{
    return bcw__hash(&v, sizeof v, 0);
}

/* v's number, or d->n when it is new (not added). */
static size_t dict_find(const dict *d, uint64_t v)
{
    dict_probe p = {d, v};
    uint32_t i = bcw__index_get(&d->ix, dict_hash(v), dict_match, &p);
    return i == UINT32_MAX ? d->n : i;
}

static int dict_add(dict *d, uint64_t v)
{
    if (bcw__grow(&d->v, &d->cap, d->n + 1, sizeof *d->v) < 0)
        return BCW_ENOMEM;
    d->v[d->n] = v;
    return bcw__index_put(&d->ix, dict_hash(v), (uint32_t)d->n++);
}

static void dict_free(dict *d)
{
    free(d->v);
    bcw__index_free(&d->ix);
}

struct bcw_journal {
    bcw_journal_cfg cfg;
    int fd;
    /* replay: the file mapped, the block and record being read */
    const unsigned char *map;
    size_t maplen;
    size_t at;                          /* the next block's offset */
    const unsigned char *rec, *rec_end; /* the current block's records */
    uint32_t left;                      /* records left in it */
    /* recording */
    bcw_buf pending;
    uint32_t npending;
    dict states, keys; /* of the records read and written so far */
    double t0, synced;
    uint64_t replayed, recorded;
    bool ran; /* some sequences ran in this process: the time limit may
                 stop it (a replay longer than the limit still goes on) */
    int err;  /* the first write error: it sticks */
    /* coverage: the walk's hits (coverage.h), written before each block
     * of records and merged back from each in a replay; NULL: none */
    uint8_t *hits;
    uint32_t ncov;
    size_t cover_at; /* a coverage block read before hits were given */
};

static void put(unsigned char **p, const void *v, size_t n)
{
    memcpy(*p, v, n);
    *p += n;
}

static void put_var(unsigned char **p, uint64_t v)
{
    while (v >= 0x80) {
        *(*p)++ = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    *(*p)++ = (unsigned char)v;
}

static bool take(const unsigned char **p, const unsigned char *end, void *v,
                 size_t n)
{
    if ((size_t)(end - *p) < n)
        return false;
    memcpy(v, *p, n);
    *p += n;
    return true;
}

static bool take_var(const unsigned char **p, const unsigned char *end,
                     uint64_t *v)
{
    *v = 0;
    for (unsigned shift = 0; shift < 64 && *p < end; shift += 7) {
        unsigned char b = *(*p)++;
        *v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return true;
    }
    return false;
}

/* How a record is written: in a checkpoint, the sequence checked by a
 * byte of its hash and the state and key by their dictionaries (records
 * read in order); in a results file's replay section, by the whole hash
 * and the values themselves (records looked up by sequence). */
typedef struct codec {
    dict *states, *keys; /* NULL: values written whole */
} codec;

/* A field from its dictionary: 0 is 0, k its (k-1)-th value, d->n + 1 a
 * new value whose 8 bytes follow; without a dictionary, the 8 bytes. */
static int put_dict(unsigned char **p, dict *d, uint64_t v)
{
    if (d == NULL) {
        put(p, &v, 8);
        return 0;
    }
    if (v == 0) {
        put_var(p, 0);
        return 0;
    }
    size_t i = dict_find(d, v);
    put_var(p, i + 1);
    if (i < d->n)
        return 0;
    put(p, &v, 8);
    return dict_add(d, v);
}

static int take_dict(const unsigned char **p, const unsigned char *end, dict *d,
                     uint64_t *v, bool *ok)
{
    uint64_t i;
    *v = 0;
    if (d == NULL) {
        *ok = *ok && take(p, end, v, 8);
        return 0;
    }
    if (!(*ok = *ok && take_var(p, end, &i)) || i == 0)
        return 0;
    if (i <= d->n) {
        *v = d->v[i - 1];
        return 0;
    }
    if (!(*ok = i == d->n + 1 && take(p, end, v, 8)))
        return 0;
    return dict_add(d, *v);
}

uint64_t bcw__record_seq(const bcw_job *job, uint32_t i)
{
    /* its calls, not the flags of its first word (how the worker is to
     * run it, which the walk decides from the calls) */
    const uint16_t *w = job->words + job->off[i];
    size_t n = (size_t)(w[0] & BCW_SEQ_LEN_MASK) + 1;
    return bcw__hash(w + 1, n * sizeof *w, 0x6263772d6a726e6cull + n);
}

/* The most a record takes: its hash, every varint at its longest, two
 * new dictionary values, every out word, the text and the cause. */
#define RECORD_MAX                                                             \
    (8 + 2 + 5 * 10 + 2 * (10 + 8) + 1 + BCW_MAX_PARAMS * 10 + 2 +             \
     BCW_TEXT_MAX + sizeof(bcw_wire_cause))

/* Writes sequence i's record at rec: its length, or an error. */
static int put_record(unsigned char *rec, const codec *c, const bcw_job *job,
                      uint32_t i)
{
    unsigned char *p = rec;
    const bcw_wire_result *r = &job->results[i];
    uint64_t seq = bcw__record_seq(job, i);
    uint8_t mask = 0;
    for (unsigned k = 0; k < BCW_MAX_PARAMS; k++)
        if (r->out[k] != 0)
            mask |= (uint8_t)(1u << k);
    uint8_t ntext = r->ntext <= BCW_TEXT_MAX ? r->ntext : BCW_TEXT_MAX;
    uint8_t text = (uint8_t)(ntext | (r->text_cut ? 0x80 : 0));
    put(&p, &seq, c->states != NULL ? 1 : 8);
    put(&p, &r->outcome, 1);
    put(&p, &r->signo, 1);
    put_var(&p, r->halted_at);
    put_var(&p, r->calls);
    put_var(&p, r->flags);
    put_var(&p, r->preds);
    put_var(&p, r->known);
    put_var(&p, r->ret);
    int err = put_dict(&p, c->states, r->state);
    if (err == 0)
        err = put_dict(&p, c->keys, r->key);
    put(&p, &mask, 1);
    for (unsigned k = 0; k < BCW_MAX_PARAMS; k++)
        if (mask & (1u << k))
            put_var(&p, r->out[k]);
    put(&p, &text, 1);
    put(&p, &r->text_of, 1);
    put(&p, r->text, ntext);
    if (r->flags & (BCW_RESULT_CAUSE | BCW_RESULT_LEAK))
        put(&p, &job->causes[i], sizeof job->causes[i]);
    return err < 0 ? err : (int)(p - rec);
}

/* Reads the record at *p into sequence i of job, *seq its sequence's
 * hash (the low byte only with dictionaries).  1, 0 when it is damaged,
 * or BCW_ENOMEM. */
static int take_record(const unsigned char **p, const unsigned char *end,
                       const codec *c, bcw_job *job, uint32_t i, uint64_t *seq)
{
    bcw_wire_result *r = &job->results[i];
    memset(r, 0, sizeof *r);
    *seq = 0;
    uint8_t mask = 0, text = 0;
    uint64_t halted_at = 0, calls = 0, flags = 0, preds = 0, known = 0;
    bool ok = take(p, end, seq, c->states != NULL ? 1 : 8) &&
              take(p, end, &r->outcome, 1) && take(p, end, &r->signo, 1) &&
              take_var(p, end, &halted_at) && take_var(p, end, &calls) &&
              take_var(p, end, &flags) && take_var(p, end, &preds) &&
              take_var(p, end, &known) && take_var(p, end, &r->ret);
    int err = take_dict(p, end, c->states, &r->state, &ok);
    if (err == 0)
        err = take_dict(p, end, c->keys, &r->key, &ok);
    if (err < 0)
        return err;
    ok = ok && take(p, end, &mask, 1);
    for (unsigned k = 0; ok && k < BCW_MAX_PARAMS; k++)
        if (mask & (1u << k))
            ok = take_var(p, end, &r->out[k]);
    ok = ok && take(p, end, &text, 1) && take(p, end, &r->text_of, 1) &&
         (text & 0x7f) <= BCW_TEXT_MAX && take(p, end, r->text, text & 0x7f);
    r->halted_at = (uint16_t)halted_at;
    r->calls = (uint32_t)calls;
    r->flags = (uint32_t)flags;
    r->preds = (uint32_t)preds;
    r->known = (uint32_t)known;
    r->ntext = text & 0x7f;
    r->text_cut = text >> 7;
    if (ok && (r->flags & (BCW_RESULT_CAUSE | BCW_RESULT_LEAK)))
        ok = take(p, end, &job->causes[i], sizeof job->causes[i]);
    return ok;
}

int bcw__record_put(bcw_buf *b, const bcw_job *job, uint32_t i)
{
    unsigned char rec[RECORD_MAX];
    static const codec whole;
    int n = put_record(rec, &whole, job, i);
    return n < 0 ? n : bcw__buf_put(b, rec, (size_t)n);
}

int bcw__record_take(const unsigned char **p, const unsigned char *end,
                     bcw_job *job, uint32_t i, uint64_t *seq)
{
    static const codec whole;
    return take_record(p, end, &whole, job, i, seq);
}

/* Appends sequence i's record to j->pending. */
static int encode(bcw_journal *j, const bcw_job *job, uint32_t i)
{
    unsigned char rec[RECORD_MAX];
    codec c = {&j->states, &j->keys};
    int n = put_record(rec, &c, job, i);
    /* a block begins with its header, filled in when it is written */
    static const unsigned char head[BLOCK_HEAD];
    if (n >= 0 && j->npending == 0)
        bcw__buf_put(&j->pending, head, sizeof head);
    j->npending++;
    j->recorded++;
    return n < 0 ? n : bcw__buf_put(&j->pending, rec, (size_t)n);
}

/* Reads the next record into sequence i of job, checking it is that
 * sequence's.  0, BCW_EINPUT, or BCW_ENOMEM. */
static int decode(bcw_journal *j, bcw_job *job, uint32_t i)
{
    codec c = {&j->states, &j->keys};
    uint64_t seq;
    int ok = take_record(&j->rec, j->rec_end, &c, job, i, &seq);
    if (ok < 0)
        return ok;
    if (!ok)
        return bcw__error(BCW_EINPUT,
                          "%s: a damaged record in a block "
                          "whose checksum is right",
                          j->cfg.path);
    if ((uint8_t)seq != (uint8_t)bcw__record_seq(job, i))
        return bcw__error(BCW_EINPUT,
                          "%s: the checkpoint is of another walk: its "
                          "sequence %llu is not the one this walk runs "
                          "(the same command, bitcode and options resume it)",
                          j->cfg.path, (unsigned long long)j->replayed);
    j->left--;
    j->replayed++;
    return 0;
}

/* Moves to the next valid block; false at the end of what is valid. */
static bool next_block(bcw_journal *j)
{
    while (j->left == 0) {
        if (j->maplen - j->at < BLOCK_HEAD + 8)
            return false;
        const unsigned char *b = j->map + j->at;
        uint32_t magic, n;
        uint64_t len, sum;
        memcpy(&magic, b, 4);
        memcpy(&n, b + 4, 4);
        memcpy(&len, b + 8, 8);
        if ((magic != BLOCK_MAGIC && magic != COVER_MAGIC) ||
            len > j->maplen - j->at - BLOCK_HEAD - 8)
            return false;
        memcpy(&sum, b + BLOCK_HEAD + len, 8);
        if (sum != bcw__hash(b, BLOCK_HEAD + len, 0))
            return false;
        if (magic == COVER_MAGIC) {
            /* what the runs of the records before it covered: merged
             * now, or when the walk says where its hits are (a
             * reference build's walk, which measures none, reads ahead
             * into the first of the build under test's) */
            if (len != n || (j->hits != NULL && n != j->ncov))
                return false;
            if (j->hits != NULL)
                bcw__cov_merge(j->hits, b + BLOCK_HEAD, n);
            else
                j->cover_at = j->at;
            j->at += BLOCK_HEAD + len + 8;
            continue;
        }
        j->rec = b + BLOCK_HEAD;
        j->rec_end = j->rec + len;
        j->left = n;
        j->at += BLOCK_HEAD + len + 8;
    }
    return true;
}

static bool replaying(bcw_journal *j)
{
    return j->map != NULL && next_block(j);
}

/* Fills in block b's head (its `n` entries, `magic`) and appends its
 * checksum.  0 or BCW_ENOMEM. */
static int seal_block(bcw_buf *b, uint32_t magic, uint32_t n)
{
    if (b->data == NULL)
        return b->err ? b->err : BCW_ENOMEM;
    uint64_t len = b->len - BLOCK_HEAD;
    memcpy(b->data, &magic, 4);
    memcpy(b->data + 4, &n, 4);
    memcpy(b->data + 8, &len, 8);
    uint64_t sum = bcw__hash(b->data, b->len, 0);
    return bcw__buf_put(b, &sum, sizeof sum);
}

static void write_all(bcw_journal *j, const bcw_buf *b)
{
    for (size_t off = 0; j->err == 0 && off < b->len;) {
        ssize_t w = write(j->fd, b->data + off, b->len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            j->err = bcw__error(BCW_ERROR, "write %s: %s", j->cfg.path,
                                strerror(errno));
            break;
        }
        off += (size_t)w;
    }
}

/* Writes the coverage so far, then the pending records, as blocks, and
 * with `sync` syncs the file.  A block written is safe from a kill at
 * once (the system has it); the sync makes it safe from a crash of the
 * machine too.  The coverage block comes first: it has what the runs of
 * the records after it covered (their jobs finished before they were
 * recorded), so a kill between the two loses no coverage of a record
 * kept. */
static int write_pending(bcw_journal *j, bool sync)
{
    if (j->err != 0 || j->fd < 0 || j->npending == 0)
        return j->err;
    bcw_buf *b = &j->pending;
    if (j->hits != NULL) {
        static const unsigned char head[BLOCK_HEAD];
        bcw_buf c;
        bcw__buf_init(&c, (size_t)1 << 30);
        bcw__buf_put(&c, head, sizeof head);
        bcw__buf_put(&c, j->hits, j->ncov);
        if ((j->err = seal_block(&c, COVER_MAGIC, j->ncov)) == 0)
            write_all(j, &c);
        bcw__buf_free(&c);
    }
    int err = j->err == 0 ? seal_block(b, BLOCK_MAGIC, j->npending) : j->err;
    if (err < 0)
        return j->err = err;
    write_all(j, b);
    if (j->err == 0 && sync && fdatasync(j->fd) != 0)
        j->err = bcw__error(BCW_ERROR, "fdatasync %s: %s", j->cfg.path,
                            strerror(errno));
    b->len = 0;
    j->npending = 0;
    if (sync)
        j->synced = bcw__now_s();
    return j->err;
}

static int sync_pending(bcw_journal *j)
{
    return write_pending(j, true);
}

/* The file's header for walk `key`. */
static void header(unsigned char out[HEADER_BYTES], uint64_t key)
{
    uint32_t version = VERSION, zero = 0;
    memcpy(out, MAGIC, 8);
    memcpy(out + 8, &version, 4);
    memcpy(out + 12, &zero, 4);
    memcpy(out + 16, &key, 8);
    uint64_t sum = bcw__hash(out, 24, 0);
    memcpy(out + 24, &sum, 8);
}

/* Maps the file to resume from and checks its header; the file is cut
 * to its valid blocks once they are known (bcw__journal_exec's end of
 * replay). */
static int open_resume(bcw_journal *j)
{
    const char *path = j->cfg.path;
    j->fd = open(path, O_RDWR | O_CLOEXEC);
    if (j->fd < 0)
        return bcw__error(BCW_EINPUT, "%s: cannot resume: %s", path,
                          strerror(errno));
    struct stat st;
    if (fstat(j->fd, &st) != 0 || !S_ISREG(st.st_mode))
        return bcw__error(BCW_EINPUT, "%s: cannot resume: not a regular file",
                          path);
    unsigned char want[HEADER_BYTES];
    header(want, j->cfg.key);
    j->maplen = (size_t)st.st_size;
    if (j->maplen < HEADER_BYTES)
        return bcw__error(BCW_EINPUT, "%s: not a bcwalk checkpoint (too short)",
                          path);
    void *m = mmap(NULL, j->maplen, PROT_READ, MAP_PRIVATE, j->fd, 0);
    if (m == MAP_FAILED)
        return bcw__error(BCW_ERROR, "mmap %s: %s", path, strerror(errno));
    j->map = m;
    if (memcmp(j->map, MAGIC, 8) != 0)
        return bcw__error(BCW_EINPUT, "%s: not a bcwalk checkpoint", path);
    if (memcmp(j->map, want, 16) != 0)
        return bcw__error(BCW_EINPUT,
                          "%s: a checkpoint of another bcwalk version "
                          "(format %u, this bcwalk writes %u)",
                          path, (unsigned)j->map[8], VERSION);
    if (memcmp(j->map, want, HEADER_BYTES) != 0)
        return bcw__error(BCW_EINPUT,
                          "%s: the checkpoint is of another walk (the same "
                          "command, bitcode and options resume it)",
                          path);
    j->at = HEADER_BYTES;
    return 0;
}

/* Creates the checkpoint file, refusing one with results in it. */
static int open_fresh(bcw_journal *j)
{
    const char *path = j->cfg.path;
    struct stat st;
    if (stat(path, &st) == 0 && st.st_size > 0)
        return bcw__error(BCW_EINPUT,
                          "%s: a checkpoint is already there: --resume "
                          "continues its walk (or remove it)",
                          path);
    /* the file a link there names; never a device */
    char *target;
    int err = bcw__output_target(path, &target);
    if (err < 0)
        return err;
    j->fd =
        open(target, O_RDWR | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    free(target);
    if (j->fd < 0)
        return bcw__error(BCW_EINPUT, "%s: %s", path, strerror(errno));
    unsigned char h[HEADER_BYTES];
    header(h, j->cfg.key);
    if (write(j->fd, h, sizeof h) != (ssize_t)sizeof h || fsync(j->fd) != 0)
        return bcw__error(BCW_ERROR, "write %s: %s", path, strerror(errno));
    return 0;
}

int bcw__journal_open(bcw_journal **out, const bcw_journal_cfg *cfg)
{
    bcw_journal *j = bcw__calloc(1, sizeof *j);
    *out = j;
    if (j == NULL)
        return BCW_ENOMEM;
    j->cfg = *cfg;
    j->fd = -1;
    j->t0 = j->synced = bcw__now_s();
    bcw__buf_init(&j->pending, (size_t)1 << 30);
    if (cfg->path == NULL)
        return 0;
    return cfg->resume ? open_resume(j) : open_fresh(j);
}

/* The end of the replay: the file is cut after its last valid block, so
 * that blocks appended from now on follow it. */
static int end_replay(bcw_journal *j)
{
    munmap((void *)j->map, j->maplen);
    j->map = NULL;
    if (ftruncate(j->fd, (off_t)j->at) != 0 ||
        lseek(j->fd, (off_t)j->at, SEEK_SET) < 0)
        return j->err = bcw__error(BCW_ERROR, "%s: %s", j->cfg.path,
                                   strerror(errno));
    return 0;
}

/* The jobs run live: each, as it finishes, recorded, then handed to
 * the caller's `done` as the whole job it is part of. */
typedef struct live_run {
    bcw_journal *j;
    bcw_job *live, *jobs;
    uint32_t from; /* live[0] starts here in jobs[0] */
    bcw_job_done done;
    void *ctx;
} live_run;

static int live_done(void *ctx, bcw_job *job)
{
    live_run *lr = ctx;
    int err = 0;
    for (uint32_t i = 0; err == 0 && lr->j->fd >= 0 && i < job->nseq; i++)
        err = encode(lr->j, job, i);
    if (err == 0 && lr->j->fd >= 0 && lr->j->pending.len >= FLUSH_BYTES)
        err = write_pending(lr->j, false);
    /* the whole job's results are where the copy's are, less the
     * sequences replay gave the first (a job may take its results
     * buffer as it is prepared, which the copy was) */
    bcw_job *whole = &lr->jobs[job - lr->live];
    uint32_t skip = job == lr->live ? lr->from : 0;
    whole->results = job->results - skip;
    whole->causes = job->causes - skip;
    if (err == 0 && lr->done != NULL)
        err = lr->done(lr->ctx, whole);
    return err;
}

int bcw__journal_exec(bcw_journal *j, bcw_pool *pool, bcw_job *jobs,
                      size_t njobs, bcw_job_done done, void *ctx)
{
    size_t k = 0;
    uint32_t from = 0; /* the first sequence of jobs[k] not replayed */
    int err = 0;
    for (; k < njobs && j->map != NULL; k++) {
        if ((err = bcw__job_prepare(&jobs[k])) < 0)
            return err;
        for (from = 0; from < jobs[k].nseq && replaying(j); from++)
            if ((err = decode(j, &jobs[k], from)) < 0)
                return err;
        if (from < jobs[k].nseq)
            break;
        from = 0;
        if (done != NULL && (err = done(ctx, &jobs[k])) < 0)
            return err;
    }
    if (j->map != NULL && !replaying(j) && (err = end_replay(j)) < 0)
        return err;
    if (k == njobs)
        return 0;
    if (j->cfg.time_limit_s > 0 && j->ran &&
        bcw__now_s() - j->t0 >= j->cfg.time_limit_s) {
        err = sync_pending(j);
        return err < 0 ? err : BCW_STOPPED;
    }
    /* the rest run, the first of them from the sequence replay reached */
    bcw_job *live = bcw__calloc(njobs - k, sizeof *live);
    if (live == NULL)
        return BCW_ENOMEM;
    memcpy(live, &jobs[k], (njobs - k) * sizeof *live);
    if (from > 0) { /* jobs[0] was prepared to be replayed */
        live[0].off += from;
        live[0].nseq -= from;
        live[0].results += from;
        live[0].causes += from;
    }
    live_run lr = {j, live, &jobs[k], from, done, ctx};
    err = bcw__pool_run_each(pool, live, njobs - k, live_done, &lr);
    j->ran = true;
    free(live);
    if (err == 0 && j->fd >= 0 && bcw__now_s() - j->synced >= j->cfg.every_s)
        err = sync_pending(j);
    else if (err == 0 && j->fd >= 0 && j->pending.len >= FLUSH_BYTES)
        err = write_pending(j, false);
    return err;
}

void bcw__journal_cover(bcw_journal *j, uint8_t *hits, uint32_t n)
{
    j->hits = hits;
    j->ncov = n;
    if (j->map == NULL || j->cover_at == 0)
        return;
    /* the blocks are cumulative: the last one read holds the others */
    const unsigned char *b = j->map + j->cover_at;
    uint32_t m;
    memcpy(&m, b + 4, 4);
    if (m == n)
        bcw__cov_merge(hits, b + BLOCK_HEAD, n);
    j->cover_at = 0;
}

void bcw__journal_counts(const bcw_journal *j, uint64_t *replayed,
                         uint64_t *recorded)
{
    *replayed = j ? j->replayed : 0;
    *recorded = j ? j->recorded : 0;
}

int bcw__journal_close(bcw_journal *j)
{
    if (j == NULL)
        return 0;
    int err = j->map != NULL ? 0 : sync_pending(j);
    if (j->map != NULL)
        munmap((void *)j->map, j->maplen);
    if (j->fd >= 0 && close(j->fd) != 0 && err == 0)
        err =
            bcw__error(BCW_ERROR, "close %s: %s", j->cfg.path, strerror(errno));
    bcw__buf_free(&j->pending);
    dict_free(&j->states);
    dict_free(&j->keys);
    free(j);
    return err;
}
