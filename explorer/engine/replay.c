/* replay.c - the symbolizer's answers kept, results files read back, and
 * the executor that answers a walk from them (replay.h). */
#define _POSIX_C_SOURCE 200809L
#include "replay.h"

#include <msgpack.h>
#include <stddef.h>
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

/* Answer i used, after those used before: 0 or BCW_ENOMEM. */
static int mark_used(bcw_symbols *s, size_t i)
{
    if (s->v[i].used)
        return 0;
    if (bcw__grow(&s->used, &s->capused, s->nused + 1, sizeof *s->used) < 0)
        return BCW_ENOMEM;
    s->v[i].used = true;
    s->used[s->nused++] = (uint32_t)i;
    return 0;
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
    if (mark_used(s, i) < 0)
        s->err = BCW_ENOMEM;
    const symbol *e = &s->v[i];
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

int bcw__symbols_use(bcw_symbols *s, uint64_t pc)
{
    size_t i = find(s, pc);
    return i == s->n ? bcw__error(BCW_EINPUT, "the results files use a "
                                              "symbol none of them lists")
                     : mark_used(s, i);
}

size_t bcw__symbols_nused(const bcw_symbols *s)
{
    return s != NULL ? s->nused : 0;
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

/* The entry of sequence hash `seq`: its index's own key. */
static size_t find_seq(const bcw_recorded *rc, uint64_t seq)
{
    uint32_t i = bcw__index_get(&rc->ix, seq, NULL, NULL);
    return i == UINT32_MAX ? rc->nentries : i;
}

/* Lookups this many sequences ahead of their use load their index
 * slots first: a walk's sequences hash all over a table of millions of
 * slots, each a cache miss (a third of a depth-9 merge). */
#define AHEAD 16

/* Indexes the records of one file; a sequence already recorded keeps
 * its first record (the lengths every shard runs).  The records are
 * read first, then indexed with their slots loaded ahead. */
static int index_records(bcw_recorded *rc, const unsigned char *p, size_t len,
                         const char *path)
{
    const unsigned char *end = p + len;
    bcw_wire_result r;
    bcw_wire_cause c;
    bcw_job scratch = {.nseq = 1, .results = &r, .causes = &c};
    size_t first = rc->nentries;
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
        if (bcw__grow(&rc->entries, &rc->capentries, rc->nentries + 1,
                      sizeof *rc->entries) < 0)
            return BCW_ENOMEM;
        rc->entries[rc->nentries++] = (struct replay_entry){seq, at, p};
    }
    if (bcw__index_reserve(&rc->ix, rc->nentries) < 0)
        return BCW_ENOMEM;
    size_t kept = first;
    for (size_t i = first; i < rc->nentries; i++) {
        if (i + AHEAD < rc->nentries)
            bcw__index_prefetch(&rc->ix, rc->entries[i + AHEAD].seq);
        struct replay_entry e = rc->entries[i];
        if (find_seq(rc, e.seq) < rc->nentries)
            continue;
        rc->entries[kept] = e;
        if (bcw__index_put(&rc->ix, e.seq, (uint32_t)kept++) < 0)
            return BCW_ENOMEM;
    }
    rc->nentries = kept;
    return 0;
}

int bcw__replay_exec(bcw_recorded *rc, bcw_job *jobs, size_t njobs)
{
    for (size_t i = 0; !rc->indexed && i < rc->nfiles; i++) {
        int err = index_records(rc, rc->files[i].rec, rc->files[i].rec_len,
                                rc->files[i].path);
        if (err < 0)
            return err;
    }
    rc->indexed = true;
    for (size_t k = 0; k < njobs; k++) {
        int err = bcw__job_prepare(&jobs[k]);
        if (err < 0)
            return err;
        uint64_t ahead[AHEAD];
        for (uint32_t i = 0; i < jobs[k].nseq && i < AHEAD; i++) {
            ahead[i] = bcw__record_seq(&jobs[k], i);
            bcw__index_prefetch(&rc->ix, ahead[i]);
        }
        for (uint32_t i = 0; i < jobs[k].nseq; i++) {
            uint64_t seq = ahead[i % AHEAD], got;
            if (i + AHEAD < jobs[k].nseq) {
                ahead[i % AHEAD] = bcw__record_seq(&jobs[k], i + AHEAD);
                bcw__index_prefetch(&rc->ix, ahead[i % AHEAD]);
            }
            size_t e = find_seq(rc, seq);
            if (e == rc->nentries)
                return bcw__error(
                    BCW_EINPUT,
                    "the results files hold no result for a sequence this "
                    "walk runs: they are not all of this walk (its shards "
                    "from the same command and bitcode), one shard of "
                    "shards that pruned together (--shard-sync; merge "
                    "them), or the library gave other results in the "
                    "shards than here");
            const unsigned char *p = rc->entries[e].at;
            int ok =
                bcw__record_take(&p, rc->entries[e].end, &jobs[k], i, &got);
            if (ok <= 0)
                return ok < 0 ? ok : BCW_EINPUT;
        }
    }
    return 0;
}

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

/* A results file as read_one reads it: its bytes, the objects unpacked
 * from them, and what its replay section records. */
typedef struct results_file {
    const char *path;
    const char *data; /* mapped */
    size_t len;
    bcw_rd rd;
    /* the header, then the objects after it in turn; the replay
     * section's; the trailer's */
    msgpack_unpacked up, ur, us;
    const msgpack_object *replay, *summary; /* in ur and us */
    /* the replay section's fields; argv is the file's until rc takes it */
    char **argv;
    unsigned argc;
    uint64_t key;
    const msgpack_object *model, *records;
    unsigned shard_i, shard_n; /* 0/0: not a shard */
    size_t head_end, replay_at;
} results_file;

/* The file's first object, a map whose "format" is "bcwalk-results";
 * *off is where the object after it starts. */
static int read_header(results_file *f, size_t *off)
{
    bool header = false;
    /* lengths bounded by the bytes before msgpack allocates for them */
    if (bcw__msgpack_fits(f->data, f->len) > 0 &&
        msgpack_unpack_next(&f->up, f->data, f->len, off) ==
            MSGPACK_UNPACK_SUCCESS) {
        const msgpack_object *o = &f->up.data;
        const msgpack_object *fmt =
            o->type == MSGPACK_OBJECT_MAP ? bcw__rd_field(o, "format") : NULL;
        header = fmt != NULL && fmt->type == MSGPACK_OBJECT_STR &&
                 fmt->via.str.size == 14 &&
                 memcmp(fmt->via.str.ptr, "bcwalk-results", 14) == 0;
    }
    if (!header)
        return bcw__error(BCW_EINPUT, "%s: not a bcwalk results file", f->path);
    const msgpack_object *ver = bcw__rd_field(&f->up.data, "version");
    if (ver == NULL || ver->type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
        ver->via.u64 != RESULTS_VERSION)
        return bcw__error(BCW_EINPUT,
                          "%s: results version %llu, this bcwalk reads %d: "
                          "run the walk again with this bcwalk",
                          f->path,
                          ver && ver->type == MSGPACK_OBJECT_POSITIVE_INTEGER
                              ? (unsigned long long)ver->via.u64
                              : 0ull,
                          RESULTS_VERSION);
    return 0;
}

/* Is the file whole: its last 8 bytes the checksum of those before them
 * (the trailer's last entry, docs/results.md)?  Each object unpacked
 * from it is checked to fit its bytes before msgpack allocates for it;
 * the sequences, which a merge copies, are never unpacked. */
static bool sealed(const results_file *f)
{
    static const char key[] = "\xa8"
                              "checksum\xcf";
    const size_t tail = sizeof key - 1 + 8;
    if (f->len < tail ||
        memcmp(f->data + f->len - tail, key, sizeof key - 1) != 0)
        return false;
    uint64_t sum = 0;
    for (size_t i = f->len - 8; i < f->len; i++)
        sum = sum << 8 | (unsigned char)f->data[i];
    return sum == bcw__checksum(f->data, f->len - 8);
}

/* Where the replay section and the trailer start, into *roff and *soff,
 * as the trailer says: its `replay_at`, just before its checksum, is
 * where the section is, in 9 bytes (0xcf, then big-endian), and the
 * trailer follows the section.  false when it does not say, or says
 * wrong. */
static bool sections_by_trailer(const results_file *f, size_t *roff,
                                size_t *soff)
{
    static const char key[] = "\xa9replay_at\xcf";
    const size_t at = f->len - 18 - 9; /* before "checksum" and its 8 */
    if (f->len < 18 + sizeof key - 1 + 8 ||
        memcmp(f->data + at - (sizeof key - 2), key, sizeof key - 1) != 0)
        return false;
    uint64_t tail = 0;
    for (int k = 1; k <= 8; k++)
        tail = tail << 8 | (unsigned char)f->data[at + k];
    size_t r = (size_t)tail;
    msgpack_unpacked probe;
    msgpack_unpacked_init(&probe);
    /* where it says may be inside an object: what starts there is
     * bounded by the bytes before msgpack allocates for it */
    bool found = tail > 0 && tail < f->len &&
                 bcw__msgpack_fits(f->data + r, f->len - r) > 0 &&
                 msgpack_unpack_next(&probe, f->data, f->len, &r) ==
                     MSGPACK_UNPACK_SUCCESS &&
                 probe.data.type == MSGPACK_OBJECT_MAP &&
                 bcw__rd_field(&probe.data, "replay") != NULL;
    if (found) {
        *roff = (size_t)tail;
        *soff = r;
    }
    msgpack_unpacked_destroy(&probe);
    return found;
}

/* The same, by reading the objects from `off` on until the replay
 * section: a trailer is seen only before it. */
static void sections_by_scan(results_file *f, size_t off, size_t *roff,
                             size_t *soff)
{
    for (size_t at = off; *roff == SIZE_MAX &&
                          bcw__msgpack_fits(f->data + off, f->len - off) > 0 &&
                          msgpack_unpack_next(&f->up, f->data, f->len, &off) ==
                              MSGPACK_UNPACK_SUCCESS;
         at = off) {
        const msgpack_object *o = &f->up.data;
        if (o->type == MSGPACK_OBJECT_MAP && bcw__rd_field(o, "replay") != NULL)
            *roff = at;
        else if (o->type == MSGPACK_OBJECT_MAP &&
                 bcw__rd_field(o, "summary") != NULL)
            *soff = at;
    }
}

/* The replay section and the trailer's summary, found after the header
 * (which ends at `off`) and unpacked: both must be there, and the
 * summary not that of a walk stopped at its time limit. */
static int open_sections(results_file *f, size_t off)
{
    size_t roff = SIZE_MAX, soff = SIZE_MAX;
    if (!sections_by_trailer(f, &roff, &soff))
        sections_by_scan(f, off, &roff, &soff);
    f->replay_at = roff;
    if (roff != SIZE_MAX &&
        msgpack_unpack_next(&f->ur, f->data, f->len, &roff) ==
            MSGPACK_UNPACK_SUCCESS)
        f->replay = bcw__rd_field(&f->ur.data, "replay");
    if (soff != SIZE_MAX && bcw__msgpack_fits(f->data + soff, f->len - soff) &&
        msgpack_unpack_next(&f->us, f->data, f->len, &soff) ==
            MSGPACK_UNPACK_SUCCESS)
        f->summary = bcw__rd_field(&f->us.data, "summary");
    if (f->summary == NULL)
        return bcw__error(BCW_EINPUT,
                          "%s: a results file cut short (it has no trailer)",
                          f->path);
    if (f->replay == NULL)
        return bcw__error(BCW_EINPUT,
                          "%s: a results file without a replay section (of "
                          "an older bcwalk, or of a walk judged against a "
                          "reference build): it cannot be replayed",
                          f->path);
    if (bcw__rd_field(f->summary, "partial") != NULL)
        return bcw__error(BCW_EINPUT,
                          "%s: the results of a walk stopped at its time "
                          "limit: resume it (--checkpoint, --resume) first",
                          f->path);
    return 0;
}

/* The replay section's command, key, model, records and shard: 0 or
 * the reader's error. */
static int read_fields(results_file *f)
{
    bcw_rd *rd = &f->rd;
    const msgpack_object *replay = f->replay;
    f->argv = bcw__rd_strv(rd, bcw__rd_field(replay, "argv"), &f->argc, "argv");
    f->key = bcw__rd_u64(rd, bcw__rd_field(replay, "key"), UINT64_MAX, "key");
    f->model = bcw__rd_field(replay, "model");
    f->records = bcw__rd_field(replay, "records");
    const msgpack_object *sh = bcw__rd_field(replay, "shard");
    sh = sh != NULL && sh->type != MSGPACK_OBJECT_NIL
             ? bcw__rd_arr(rd, sh, 2, "shard")
             : NULL;
    f->shard_i = sh ? (unsigned)bcw__rd_u64(rd, &sh[0], 65535, "shard") : 0;
    f->shard_n = sh ? (unsigned)bcw__rd_u64(rd, &sh[1], 65535, "shard") : 0;
    if (f->model == NULL || f->model->type != MSGPACK_OBJECT_BIN ||
        f->records == NULL || f->records->type != MSGPACK_OBJECT_BIN)
        bcw__rd_bad(rd, "replay");
    return rd->err;
}

/* Is the file of the walk of the files before it (the same command,
 * key and model), a shard of as many shards as they are, and one not
 * read before? */
static int check_walk(const bcw_recorded *rc, const results_file *f,
                      const bool *shards_seen)
{
    unsigned si = f->shard_i, sn = f->shard_n;
    if (rc->nfiles > 0) {
        bool same =
            f->argc == rc->argc && f->key == rc->key &&
            f->model->via.bin.size == rc->model_len &&
            memcmp(f->model->via.bin.ptr, rc->model, rc->model_len) == 0;
        for (unsigned i = 0; same && i < f->argc; i++)
            same = strcmp(f->argv[i], rc->argv[i]) == 0;
        if (!same)
            return bcw__error(BCW_EINPUT,
                              "%s: not of the walk of %s (another command, "
                              "model or bitcode)",
                              f->path, "the files before it");
        if (sn != rc->shard_n)
            return bcw__error(BCW_EINPUT,
                              "%s: shard %u/%u, where the files before it "
                              "are shards of %u",
                              f->path, si, sn, rc->shard_n);
    }
    if (sn > 0 && si < sn && shards_seen[si])
        return bcw__error(BCW_EINPUT, "%s: shard %u/%u a second time", f->path,
                          si, sn);
    return 0;
}

/* The first file's command, key, shard and model become rc's (its argv
 * taken from f); the file's shard is marked seen. */
static int take_walk(bcw_recorded *rc, results_file *f, bool *shards_seen,
                     unsigned *nseen)
{
    if (rc->nfiles == 0) {
        rc->argv = f->argv;
        rc->argc = f->argc;
        f->argv = NULL;
        rc->key = f->key;
        rc->shard_i = f->shard_i;
        rc->shard_n = f->shard_n;
        rc->model_len = f->model->via.bin.size;
        if ((rc->model = bcw__malloc(rc->model_len ? rc->model_len : 1)) ==
            NULL)
            return BCW_ENOMEM;
        memcpy(rc->model, f->model->via.bin.ptr, rc->model_len);
    }
    if (f->shard_n > 0 && f->shard_i < f->shard_n) {
        shards_seen[f->shard_i] = true;
        (*nseen)++;
    }
    return 0;
}

/* The symbols the file's run used, kept in rc's where rc has no answer
 * for their address yet. */
static int read_symbols(bcw_recorded *rc, results_file *f,
                        bcw_recorded_file *kept)
{
    bcw_rd *rd = &f->rd;
    int err = 0;
    const msgpack_object *syms =
        bcw__rd_arr(rd, bcw__rd_field(f->replay, "symbols"), 0, "symbols");
    uint32_t nsyms =
        syms ? bcw__rd_field(f->replay, "symbols")->via.array.size : 0;
    if (nsyms > 0 &&
        (kept->pcs = bcw__calloc(nsyms, sizeof *kept->pcs)) == NULL)
        return BCW_ENOMEM;
    for (uint32_t i = 0; err == 0 && i < nsyms; i++) {
        const msgpack_object *e = bcw__rd_arr(rd, &syms[i], 4, "symbol");
        if (e == NULL)
            break;
        uint64_t pc = bcw__rd_u64(rd, &e[0], UINT64_MAX, "symbol");
        char *func = bcw__rd_str(rd, &e[1], false, "symbol");
        char *file = bcw__rd_str(rd, &e[2], false, "symbol");
        unsigned line = (unsigned)bcw__rd_u64(rd, &e[3], UINT32_MAX, "symbol");
        kept->pcs[kept->npcs++] = pc;
        if (rd->err == 0 && find(rc->symbols, pc) == rc->symbols->n &&
            add(rc->symbols, pc, func, file, line) < 0)
            err = BCW_ENOMEM;
        free(func);
        free(file);
    }
    return err != 0 ? err : rd->err;
}

const bcw_count bcw__counts[BCW_COUNTS] = {
    {"normal", offsetof(bcw_summary, normal)},
    {"terminated", offsetof(bcw_summary, terminated)},
    {"unmet", offsetof(bcw_summary, unmet)},
    {"suspect", offsetof(bcw_summary, suspect)},
    {"aliasing", offsetof(bcw_summary, aliasing)},
    {"discarded", offsetof(bcw_summary, discarded)},
    {"pruned_observer", offsetof(bcw_summary, pruned_observer)},
    {"predicted_void", offsetof(bcw_summary, predicted_void)},
    {"calls", offsetof(bcw_summary, calls)}};

/* The trailer's counts (bcw__counts) into v. */
static void read_counts(bcw_rd *rd, const msgpack_object *o, uint64_t *v)
{
    for (unsigned i = 0; i < BCW_COUNTS; i++)
        v[i] = bcw__rd_u64(rd, bcw__rd_field(o, bcw__counts[i].name),
                           UINT64_MAX, "summary");
}

/* The replay section's "parts": a shard's layout, or nil; its common
 * start is parts[0].  Each part ends past the one before it, within the
 * file's sequences, records and symbols. */
static int read_parts(results_file *f, bcw_recorded_file *k)
{
    bcw_rd *rd = &f->rd;
    const msgpack_object *o = bcw__rd_field(f->replay, "parts");
    if (o == NULL || o->type == MSGPACK_OBJECT_NIL)
        return 0;
    const msgpack_object *pre =
        bcw__rd_arr(rd, bcw__rd_field(o, "pre"), 4, "parts");
    const msgpack_object *c =
        pre ? bcw__rd_arr(rd, &pre[3], BCW_COUNTS, "parts") : NULL;
    const msgpack_object *each =
        bcw__rd_arr(rd, bcw__rd_field(o, "each"), 0, "parts");
    if (pre == NULL || c == NULL || each == NULL)
        return rd->err;
    for (unsigned i = 0; i < BCW_COUNTS; i++)
        k->pre_counts[i] = bcw__rd_u64(rd, &c[i], k->counts[i], "parts");
    uint32_t n = bcw__rd_field(o, "each")->via.array.size;
    if ((k->parts = bcw__calloc((size_t)n + 1, sizeof *k->parts)) == NULL)
        return BCW_ENOMEM;
    k->parts[0] = (bcw_shard_part){
        .end = bcw__rd_u64(rd, &pre[0], k->replay_at, "parts"),
        .rec_end = bcw__rd_u64(rd, &pre[1], k->rec_len, "parts"),
        .nsyms = bcw__rd_u64(rd, &pre[2], k->npcs, "parts")};
    k->nparts = 1;
    for (uint32_t i = 0; rd->err == 0 && i < n; i++) {
        const msgpack_object *e = bcw__rd_arr(rd, &each[i], 5, "parts");
        if (e == NULL)
            break;
        const bcw_shard_part *from = &k->parts[k->nparts - 1];
        bcw_shard_part *t = &k->parts[k->nparts++];
        t->len = (unsigned)bcw__rd_u64(rd, &e[0], UINT16_MAX, "parts");
        t->subtree = bcw__rd_u64(rd, &e[1], UINT64_MAX - 1, "parts");
        t->end = bcw__rd_u64(rd, &e[2], k->replay_at, "parts");
        t->rec_end = bcw__rd_u64(rd, &e[3], k->rec_len, "parts");
        t->nsyms = bcw__rd_u64(rd, &e[4], k->npcs, "parts");
        if (t->end < from->end || t->rec_end < from->rec_end ||
            t->nsyms < from->nsyms)
            bcw__rd_bad(rd, "parts");
    }
    /* the start ends past the header, the last part where the sequences
     * and the records do */
    const bcw_shard_part *last = &k->parts[k->nparts - 1];
    if (rd->err == 0 &&
        (last->end != k->replay_at || last->rec_end != k->rec_len ||
         k->parts[0].end < k->head_end))
        bcw__rd_bad(rd, "parts");
    k->laid = rd->err == 0;
    return rd->err;
}

/* The file kept for the walk (its records indexed when a replay first
 * asks) and for a merge (its bytes, its layout). */
static int keep_file(bcw_recorded *rc, results_file *f, bcw_recorded_file **k)
{
    if (bcw__grow(&rc->files, &rc->capfiles, rc->nfiles + 1,
                  sizeof *rc->files) < 0)
        return BCW_ENOMEM;
    *k = &rc->files[rc->nfiles++];
    **k = (bcw_recorded_file){
        .path = bcw__strdup(f->path),
        .data = f->data,
        .len = f->len,
        .head_end = f->head_end,
        .replay_at = f->replay_at,
        .rec = (const unsigned char *)f->records->via.bin.ptr,
        .rec_len = f->records->via.bin.size};
    f->data = NULL;
    if ((*k)->path == NULL)
        return BCW_ENOMEM;
    read_counts(&f->rd, f->summary, (*k)->counts);
    return f->rd.err;
}

/* Frees what read_one read, but for what rc took. */
static void close_file(results_file *f)
{
    for (unsigned i = 0; f->argv != NULL && i < f->argc; i++)
        free(f->argv[i]);
    free(f->argv);
    msgpack_unpacked_destroy(&f->up);
    msgpack_unpacked_destroy(&f->ur);
    msgpack_unpacked_destroy(&f->us);
    bcw__unmap_file(f->data, f->len);
}

/* One results file's replay section, checked against the files before
 * it (rc, when it has some), and indexed. */
static int read_one(bcw_recorded *rc, const char *path, bool *shards_seen,
                    unsigned *nseen)
{
    results_file f = {.path = path, .rd = {.path = path, .kind = "results"}};
    int err = bcw__map_file(&f.data, &f.len, path, RESULTS_LIMIT);
    if (err < 0)
        return err;
    msgpack_unpacked_init(&f.up);
    msgpack_unpacked_init(&f.ur);
    msgpack_unpacked_init(&f.us);
    size_t off = 0;
    err = read_header(&f, &off);
    f.head_end = off;
    if (err == 0 && !sealed(&f))
        err = bcw__rd_bad(&f.rd, "its checksum does not match its bytes");
    if (err == 0)
        err = open_sections(&f, off);
    if (err == 0)
        err = read_fields(&f);
    if (err == 0)
        err = check_walk(rc, &f, shards_seen);
    if (err == 0)
        err = take_walk(rc, &f, shards_seen, nseen);
    if (err == 0)
        err =
            read_coverage(rc, &f.rd, bcw__rd_field(f.replay, "coverage"), path);
    bcw_recorded_file *kept = NULL;
    if (err == 0)
        err = keep_file(rc, &f, &kept);
    if (err == 0)
        err = read_symbols(rc, &f, kept);
    if (err == 0)
        err = read_parts(&f, kept);
    close_file(&f);
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

int bcw_recorded_covered(const bcw_recorded *rc)
{
    return rc->hits != NULL;
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
    for (size_t i = 0; i < rc->nfiles; i++) {
        free(rc->files[i].path);
        bcw__unmap_file(rc->files[i].data, rc->files[i].len);
        free(rc->files[i].pcs);
        free(rc->files[i].parts);
    }
    free(rc->files);
    free(rc->entries);
    bcw__index_free(&rc->ix);
    bcw__cov_map_free(&rc->cov);
    free(rc->hits);
    free(rc);
}
