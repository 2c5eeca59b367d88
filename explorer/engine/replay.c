/* replay.c - the symbolizer's answers kept, results files read back, and
 * the executor that answers a walk from them (replay.h). */
#define _POSIX_C_SOURCE 200809L
#include "replay.h"

#include <msgpack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "build.h"
#include "file.h"
#include "hash.h"
#include "journal.h"
#include "model.h"
#include "unpack.h"

/* The most a results file may hold: beyond it the reader says so. */
#define RESULTS_LIMIT ((size_t)16 << 30)

typedef struct symbol {
    uint64_t pc;
    char *func, *file; /* func "" when the symbolizer could not tell */
    unsigned line;
    bool used;
} symbol;

struct bcw_symbols {
    char *exe;
    symbol *v;
    size_t n, cap;
    bcw_index ix;
    uint32_t *used; /* indices into v, in the order first used */
    size_t nused, capused;
    int err; /* the first allocation that failed: it sticks */
};

bcw_symbols *bcw__symbols_new(void)
{
    return bcw__calloc(1, sizeof(bcw_symbols));
}

static void forget(bcw_symbols *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->v[i].func);
        free(s->v[i].file);
    }
    s->n = s->nused = 0;
    bcw__index_free(&s->ix);
}

int bcw__symbols_exe(bcw_symbols *s, const char *exe)
{
    if (s->exe != NULL && exe != NULL && strcmp(s->exe, exe) == 0)
        return 0;
    if (s->exe != NULL)
        forget(s);
    free(s->exe);
    s->exe = exe ? bcw__strdup(exe) : NULL;
    return exe != NULL && s->exe == NULL ? BCW_ENOMEM : 0;
}

typedef struct pc_probe {
    const bcw_symbols *s;
    uint64_t pc;
} pc_probe;

static int pc_match(uint32_t i, const void *payload)
{
    const pc_probe *p = payload;
    return p->s->v[i].pc == p->pc;
}

static size_t find(const bcw_symbols *s, uint64_t pc)
{
    pc_probe p = {s, pc};
    uint32_t i =
        bcw__index_get(&s->ix, bcw__hash(&pc, sizeof pc, 0), pc_match, &p);
    return i == UINT32_MAX ? s->n : i;
}

/* Keeps the answer for pc; its index, or an error. */
static int64_t add(bcw_symbols *s, uint64_t pc, const char *func,
                   const char *file, unsigned line)
{
    if (bcw__grow(&s->v, &s->cap, s->n + 1, sizeof *s->v) < 0)
        return BCW_ENOMEM;
    symbol *e = &s->v[s->n];
    *e = (symbol){pc, bcw__strdup(func), bcw__strdup(file), line, false};
    if (e->func == NULL || e->file == NULL ||
        bcw__index_put(&s->ix, bcw__hash(&pc, sizeof pc, 0), (uint32_t)s->n) <
            0) {
        free(e->func);
        free(e->file);
        return BCW_ENOMEM;
    }
    return (int64_t)s->n++;
}

int bcw__symbols_get(bcw_symbols *s, uint64_t pc, char *func, size_t nfunc,
                     char *file, size_t nfile, unsigned *line)
{
    size_t i = find(s, pc);
    if (i == s->n) {
        char f[128] = "", fl[128] = "";
        unsigned ln = 0;
        if (s->exe == NULL ||
            !bcw__symbolize(s->exe, pc, f, sizeof f, fl, sizeof fl, &ln))
            f[0] = fl[0] = '\0', ln = 0;
        int64_t k = add(s, pc, f, fl, ln);
        if (k < 0) {
            s->err = (int)k;
            return 0;
        }
        i = (size_t)k;
    }
    symbol *e = &s->v[i];
    if (!e->used &&
        bcw__grow(&s->used, &s->capused, s->nused + 1, sizeof *s->used) < 0)
        s->err = BCW_ENOMEM;
    else if (!e->used) {
        e->used = true;
        s->used[s->nused++] = (uint32_t)i;
    }
    if (e->func[0] == '\0')
        return 0;
    snprintf(func, nfunc, "%s", e->func);
    snprintf(file, nfile, "%s", e->file);
    *line = e->line;
    return 1;
}

int bcw__symbols_err(const bcw_symbols *s)
{
    return s->err;
}

bool bcw__symbols_used(const bcw_symbols *s, size_t k, uint64_t *pc,
                       const char **func, const char **file, unsigned *line)
{
    if (s == NULL || k >= s->nused)
        return false;
    const symbol *e = &s->v[s->used[k]];
    *pc = e->pc;
    *func = e->func;
    *file = e->file;
    *line = e->line;
    return true;
}

void bcw__symbols_free(bcw_symbols *s)
{
    if (s == NULL)
        return;
    forget(s);
    free(s->v);
    free(s->used);
    free(s->exe);
    free(s);
}

/* A recorded result: where its record is. */
struct replay_entry {
    uint64_t seq;
    const unsigned char *at, *end;
};

typedef struct seq_probe {
    const bcw_recorded *rc;
    uint64_t seq;
} seq_probe;

static int seq_match(uint32_t i, const void *payload)
{
    const seq_probe *p = payload;
    return p->rc->entries[i].seq == p->seq;
}

static size_t find_seq(const bcw_recorded *rc, uint64_t seq)
{
    seq_probe p = {rc, seq};
    uint32_t i = bcw__index_get(&rc->ix, seq, seq_match, &p);
    return i == UINT32_MAX ? rc->nentries : i;
}

/* Indexes the records of one file; a sequence already recorded keeps
 * its first record (the lengths every shard runs). */
static int index_records(bcw_recorded *rc, const unsigned char *p, size_t len,
                         const char *path)
{
    const unsigned char *end = p + len;
    bcw_wire_result r;
    bcw_wire_cause c;
    bcw_job scratch = {.nseq = 1, .results = &r, .causes = &c};
    while (p < end) {
        const unsigned char *at = p;
        uint64_t seq;
        int ok = bcw__record_take(&p, end, &scratch, 0, &seq);
        if (ok < 0)
            return ok;
        if (!ok)
            return bcw__error(BCW_EINPUT,
                              "%s: corrupt results file (a damaged record "
                              "of its replay section)",
                              path);
        if (find_seq(rc, seq) < rc->nentries)
            continue;
        if (bcw__grow(&rc->entries, &rc->capentries, rc->nentries + 1,
                      sizeof *rc->entries) < 0 ||
            bcw__index_put(&rc->ix, seq, (uint32_t)rc->nentries) < 0)
            return BCW_ENOMEM;
        rc->entries[rc->nentries++] = (struct replay_entry){seq, at, p};
    }
    return 0;
}

int bcw__replay_exec(bcw_recorded *rc, bcw_job *jobs, size_t njobs)
{
    for (size_t k = 0; k < njobs; k++) {
        int err = bcw__job_prepare(&jobs[k]);
        if (err < 0)
            return err;
        for (uint32_t i = 0; i < jobs[k].nseq; i++) {
            uint64_t seq = bcw__record_seq(&jobs[k], i), got;
            size_t e = find_seq(rc, seq);
            if (e == rc->nentries)
                return bcw__error(
                    BCW_EINPUT,
                    "the results files hold no result for a sequence this "
                    "walk runs: they are not all of this walk (its shards "
                    "from the same command and bitcode), or the library "
                    "gave other results in the shards than here");
            const unsigned char *p = rc->entries[e].at;
            int ok =
                bcw__record_take(&p, rc->entries[e].end, &jobs[k], i, &got);
            if (ok <= 0)
                return ok < 0 ? ok : BCW_EINPUT;
        }
    }
    return 0;
}

/* One results file's replay section, checked against the files before
 * it (rc, when it has some), and indexed. */
/* The coverage a file recorded (o: its "coverage", nil for none): the
 * first file's map and hits, each later one's hits merged in.  Shards
 * of one walk have the same map, or measured none all alike. */
static int read_coverage(bcw_recorded *rc, bcw_rd *rd, const msgpack_object *o,
                         const char *path)
{
    bool has = o != NULL && o->type != MSGPACK_OBJECT_NIL;
    if (rc->nfiles > 0 && has != (rc->hits != NULL))
        return bcw__error(BCW_EINPUT,
                          "%s: %s coverage, where the files before it %s", path,
                          has ? "has" : "has no", has ? "have none" : "have");
    if (!has)
        return 0;
    bcw_cov_map map;
    uint8_t *hits = NULL;
    if (bcw__cov_map_read(rd, bcw__rd_field(o, "map"), &map) < 0 ||
        bcw__cov_hits_read(rd, bcw__rd_field(o, "hits"), map.nflags, &hits) <
            0) {
        bcw__cov_map_free(&map);
        return rd->err;
    }
    if (rc->hits == NULL) {
        rc->cov = map;
        rc->hits = hits;
        return 0;
    }
    int err = 0;
    if (map.nflags != rc->cov.nflags)
        err = bcw__error(BCW_EINPUT,
                         "%s: its coverage has %u flags, the files before it "
                         "%u: not of the same build",
                         path, (unsigned)map.nflags, (unsigned)rc->cov.nflags);
    else
        bcw__cov_merge(rc->hits, hits, map.nflags);
    bcw__cov_map_free(&map);
    free(hits);
    return err;
}

static int read_one(bcw_recorded *rc, const char *path, bool *shards_seen,
                    unsigned *nseen)
{
    char *data = NULL;
    size_t len = 0;
    int err = bcw__read_file(&data, &len, path, RESULTS_LIMIT);
    if (err < 0)
        return err;
    bcw_rd rd = {.path = path, .kind = "results"};
    msgpack_unpacked up, ur, us;
    msgpack_unpacked_init(&up);
    msgpack_unpacked_init(&ur);
    msgpack_unpacked_init(&us);
    size_t off = 0, at = 0, roff = SIZE_MAX, soff = SIZE_MAX;
    const msgpack_object *replay = NULL, *summary = NULL;
    bool header = false;
    if (msgpack_unpack_next(&up, data, len, &off) == MSGPACK_UNPACK_SUCCESS) {
        const msgpack_object *o = &up.data;
        const msgpack_object *f =
            o->type == MSGPACK_OBJECT_MAP ? bcw__rd_field(o, "format") : NULL;
        header = f != NULL && f->type == MSGPACK_OBJECT_STR &&
                 f->via.str.size == 14 &&
                 memcmp(f->via.str.ptr, "bcwalk-results", 14) == 0;
    }
    if (!header)
        err = bcw__error(BCW_EINPUT, "%s: not a bcwalk results file", path);
    /* the trailer ends with where the replay section is, in 9 bytes
     * (0xcf, then big-endian); the trailer follows the section */
    uint64_t tail = 0;
    if (err == 0 && len >= 9 && (unsigned char)data[len - 9] == 0xcf) {
        for (int k = 1; k <= 8; k++)
            tail = tail << 8 | (unsigned char)data[len - 9 + k];
        size_t r = (size_t)tail;
        msgpack_unpacked probe;
        msgpack_unpacked_init(&probe);
        if (tail > 0 && tail < len &&
            msgpack_unpack_next(&probe, data, len, &r) ==
                MSGPACK_UNPACK_SUCCESS &&
            probe.data.type == MSGPACK_OBJECT_MAP &&
            bcw__rd_field(&probe.data, "replay") != NULL) {
            roff = (size_t)tail;
            soff = r;
        }
        msgpack_unpacked_destroy(&probe);
    }
    /* else every object is read to find them */
    for (at = off;
         err == 0 && roff == SIZE_MAX &&
         msgpack_unpack_next(&up, data, len, &off) == MSGPACK_UNPACK_SUCCESS;
         at = off) {
        const msgpack_object *o = &up.data;
        if (o->type == MSGPACK_OBJECT_MAP && bcw__rd_field(o, "replay") != NULL)
            roff = at;
        else if (o->type == MSGPACK_OBJECT_MAP &&
                 bcw__rd_field(o, "summary") != NULL)
            soff = at;
    }
    if (roff != SIZE_MAX &&
        msgpack_unpack_next(&ur, data, len, &roff) == MSGPACK_UNPACK_SUCCESS)
        replay = bcw__rd_field(&ur.data, "replay");
    if (soff != SIZE_MAX &&
        msgpack_unpack_next(&us, data, len, &soff) == MSGPACK_UNPACK_SUCCESS)
        summary = bcw__rd_field(&us.data, "summary");
    if (err == 0 && summary == NULL)
        err = bcw__error(BCW_EINPUT,
                         "%s: a results file cut short (it has no trailer)",
                         path);
    if (err == 0 && replay == NULL)
        err = bcw__error(BCW_EINPUT,
                         "%s: a results file without a replay section (of an "
                         "older bcwalk, or of a walk judged against a "
                         "reference build): it cannot be replayed",
                         path);
    if (err == 0 && bcw__rd_field(summary, "partial") != NULL)
        err = bcw__error(BCW_EINPUT,
                         "%s: the results of a walk stopped at its time "
                         "limit: resume it (--checkpoint, --resume) first",
                         path);
    if (err < 0)
        goto out;
    unsigned argc = 0;
    char **argv =
        bcw__rd_strv(&rd, bcw__rd_field(replay, "argv"), &argc, "argv");
    uint64_t key =
        bcw__rd_u64(&rd, bcw__rd_field(replay, "key"), UINT64_MAX, "key");
    const msgpack_object *model = bcw__rd_field(replay, "model");
    const msgpack_object *rec = bcw__rd_field(replay, "records");
    const msgpack_object *sh = bcw__rd_field(replay, "shard");
    sh = sh != NULL && sh->type != MSGPACK_OBJECT_NIL
             ? bcw__rd_arr(&rd, sh, 2, "shard")
             : NULL;
    unsigned si = sh ? (unsigned)bcw__rd_u64(&rd, &sh[0], 65535, "shard") : 0;
    unsigned sn = sh ? (unsigned)bcw__rd_u64(&rd, &sh[1], 65535, "shard") : 0;
    if (model == NULL || model->type != MSGPACK_OBJECT_BIN || rec == NULL ||
        rec->type != MSGPACK_OBJECT_BIN)
        bcw__rd_bad(&rd, "replay");
    err = rd.err;
    if (err == 0 && rc->nfiles > 0) {
        bool same = argc == rc->argc && key == rc->key &&
                    model->via.bin.size == rc->model_len &&
                    memcmp(model->via.bin.ptr, rc->model, rc->model_len) == 0;
        for (unsigned i = 0; same && i < argc; i++)
            same = strcmp(argv[i], rc->argv[i]) == 0;
        if (!same)
            err = bcw__error(BCW_EINPUT,
                             "%s: not of the walk of %s (another command, "
                             "model or bitcode)",
                             path, "the files before it");
        else if (sn != rc->shard_n)
            err = bcw__error(BCW_EINPUT,
                             "%s: shard %u/%u, where the files before it are "
                             "shards of %u",
                             path, si, sn, rc->shard_n);
    }
    if (err == 0 && sn > 0 && si < sn && shards_seen[si])
        err = bcw__error(BCW_EINPUT, "%s: shard %u/%u a second time", path, si,
                         sn);
    if (err == 0 && rc->nfiles == 0) {
        rc->argv = argv;
        rc->argc = argc;
        argv = NULL;
        rc->key = key;
        rc->shard_i = si;
        rc->shard_n = sn;
        rc->model_len = model->via.bin.size;
        if ((rc->model = bcw__malloc(rc->model_len ? rc->model_len : 1)) ==
            NULL)
            err = BCW_ENOMEM;
        else
            memcpy(rc->model, model->via.bin.ptr, rc->model_len);
    }
    if (err == 0 && sn > 0 && si < sn) {
        shards_seen[si] = true;
        (*nseen)++;
    }
    /* the symbols the file's run used */
    const msgpack_object *syms =
        err == 0
            ? bcw__rd_arr(&rd, bcw__rd_field(replay, "symbols"), 0, "symbols")
            : NULL;
    uint32_t nsyms =
        syms ? bcw__rd_field(replay, "symbols")->via.array.size : 0;
    for (uint32_t i = 0; err == 0 && i < nsyms; i++) {
        const msgpack_object *e = bcw__rd_arr(&rd, &syms[i], 4, "symbol");
        if (e == NULL)
            break;
        uint64_t pc = bcw__rd_u64(&rd, &e[0], UINT64_MAX, "symbol");
        char *func = bcw__rd_str(&rd, &e[1], false, "symbol");
        char *file = bcw__rd_str(&rd, &e[2], false, "symbol");
        unsigned line = (unsigned)bcw__rd_u64(&rd, &e[3], UINT32_MAX, "symbol");
        if (rd.err == 0 && find(rc->symbols, pc) == rc->symbols->n &&
            add(rc->symbols, pc, func, file, line) < 0)
            err = BCW_ENOMEM;
        free(func);
        free(file);
    }
    if (err == 0)
        err = rd.err;
    if (err == 0)
        err = read_coverage(rc, &rd, bcw__rd_field(replay, "coverage"), path);
    /* the records, kept for the walk */
    unsigned char *bytes = NULL;
    if (err == 0 && (bcw__grow(&rc->bytes, &rc->capbytes, rc->nfiles + 1,
                               sizeof *rc->bytes) < 0 ||
                     (bytes = bcw__malloc(rec->via.bin.size ? rec->via.bin.size
                                                            : 1)) == NULL))
        err = BCW_ENOMEM;
    if (err == 0) {
        memcpy(bytes, rec->via.bin.ptr, rec->via.bin.size);
        rc->bytes[rc->nfiles++] = bytes;
        err = index_records(rc, bytes, rec->via.bin.size, path);
    } else {
        free(bytes);
    }
    for (unsigned i = 0; argv != NULL && i < argc; i++)
        free(argv[i]);
    free(argv);
out:
    msgpack_unpacked_destroy(&up);
    msgpack_unpacked_destroy(&ur);
    msgpack_unpacked_destroy(&us);
    free(data);
    return err;
}

int bcw_recorded_open(bcw_recorded **out, const char *const *paths, size_t n)
{
    bcw__error_clear();
    bcw_recorded *rc = bcw__calloc(1, sizeof *rc);
    *out = rc;
    if (rc == NULL || (rc->symbols = bcw__symbols_new()) == NULL)
        return BCW_ENOMEM;
    bool *seen = bcw__calloc(65536, sizeof *seen);
    if (seen == NULL)
        return BCW_ENOMEM;
    unsigned nseen = 0;
    int err = 0;
    for (size_t i = 0; i < n && err == 0; i++)
        err = read_one(rc, paths[i], seen, &nseen);
    if (err == 0 && n > 1 && rc->shard_n == 0)
        err = bcw__error(BCW_EINPUT,
                         "%s: not a shard (--shard I/N): only the shards of "
                         "one walk merge",
                         paths[0]);
    for (unsigned i = 0; err == 0 && n > 1 && i < rc->shard_n; i++)
        if (!seen[i])
            err = bcw__error(BCW_EINPUT,
                             "shard %u/%u is missing: the walk's results "
                             "need every shard",
                             i, rc->shard_n);
    free(seen);
    return err;
}

int bcw_recorded_model(const bcw_recorded *rc, bcw_model **out)
{
    return bcw__model_from_bytes(out, rc->model, rc->model_len,
                                 "the results file's model");
}

const char *const *bcw_recorded_argv(const bcw_recorded *rc, unsigned *argc)
{
    *argc = rc->argc;
    return (const char *const *)rc->argv;
}

void bcw_recorded_shard(const bcw_recorded *rc, unsigned *i, unsigned *n)
{
    *i = rc->shard_i;
    *n = rc->shard_n;
}

void bcw_recorded_free(bcw_recorded *rc)
{
    if (rc == NULL)
        return;
    for (unsigned i = 0; i < rc->argc; i++)
        free(rc->argv[i]);
    free(rc->argv);
    free(rc->model);
    bcw__symbols_free(rc->symbols);
    for (size_t i = 0; i < rc->nfiles; i++)
        free(rc->bytes[i]);
    free(rc->bytes);
    free(rc->entries);
    bcw__index_free(&rc->ix);
    bcw__cov_map_free(&rc->cov);
    free(rc->hits);
    free(rc);
}
