/* coverage.c - the coverage map and hits: kept, merged, written and read
 * (coverage.h); the report stage summarizes them (report/cov_report.c). */
#include "coverage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "file.h"
#include "pack.h"

#define MAP_FORMAT "bcwalk-coverage-map"
#define MAP_VERSION 3
#define MAP_LIMIT ((size_t)1 << 30)
#define LINE_WORDS 4 /* file, line, flag, fn */
#define BRANCH_WORDS                                                           \
    13 /* fn, file, line, block, flag, group, arm, kind,                       \
         value's low and high words, col, to_line, to_col */

void bcw__cov_take(uint8_t *hits, uint8_t *set, uint32_t n, unsigned len)
{
    uint8_t at = bcw_cov_at(len);
    for (uint32_t i = 0; i < n; i++)
        if (set[i] != 0) {
            if (hits[i] == BCW_COV_NEVER || hits[i] > at)
                hits[i] = at;
            set[i] = 0;
        }
}

void bcw__cov_merge(uint8_t *hits, const uint8_t *other, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (other[i] != BCW_COV_NEVER &&
            (hits[i] == BCW_COV_NEVER || hits[i] > other[i]))
            hits[i] = other[i];
}

void bcw__cov_map_free(bcw_cov_map *map)
{
    bcw__strv_free(map->files, map->nfiles);
    for (uint32_t i = 0; i < map->nfns; i++)
        free(map->fns[i].name);
    free(map->fns);
    free(map->lines);
    free(map->branches);
    free(map->refs_at);
    free(map->refs);
    memset(map, 0, sizeof *map);
}

/* --- the map in msgpack ------------------------------------------- */

/* n words into a bin's body, little-endian. */
static void put_words(msgpack_packer *pk, const uint32_t *w, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char b[4] = {(unsigned char)w[i], (unsigned char)(w[i] >> 8),
                              (unsigned char)(w[i] >> 16),
                              (unsigned char)(w[i] >> 24)};
        msgpack_pack_bin_body(pk, b, 4);
    }
}

static uint32_t get_word(const char *p)
{
    const unsigned char *b = (const unsigned char *)p;
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
           (uint32_t)b[3] << 24;
}

void bcw__cov_map_pack(msgpack_packer *pk, const bcw_cov_map *m)
{
    msgpack_pack_map(pk, 8);
    bcw__pack_str(pk, "flags");
    msgpack_pack_uint32(pk, m->nflags);
    bcw__pack_str(pk, "files");
    msgpack_pack_array(pk, m->nfiles);
    for (uint32_t i = 0; i < m->nfiles; i++)
        bcw__pack_str(pk, m->files[i]);
    bcw__pack_str(pk, "functions");
    msgpack_pack_array(pk, m->nfns);
    for (uint32_t i = 0; i < m->nfns; i++) {
        const bcw_cov_fn *f = &m->fns[i];
        msgpack_pack_array(pk, 5);
        bcw__pack_str(pk, f->name);
        msgpack_pack_uint32(pk, f->file);
        msgpack_pack_uint32(pk, f->line);
        msgpack_pack_uint32(pk, f->flag);
        if (f->unit)
            msgpack_pack_true(pk);
        else
            msgpack_pack_false(pk);
    }
    bcw__pack_str(pk, "lines");
    msgpack_pack_bin(pk, (size_t)m->nlines * LINE_WORDS * 4);
    for (uint32_t i = 0; i < m->nlines; i++) {
        const bcw_cov_line *l = &m->lines[i];
        uint32_t w[LINE_WORDS] = {l->file, l->line, l->flag, l->fn};
        put_words(pk, w, LINE_WORDS);
    }
    bcw__pack_str(pk, "branches");
    msgpack_pack_bin(pk, (size_t)m->nbranches * BRANCH_WORDS * 4);
    for (uint32_t i = 0; i < m->nbranches; i++) {
        const bcw_cov_branch *b = &m->branches[i];
        uint64_t v = (uint64_t)b->value;
        uint32_t w[BRANCH_WORDS] = {
            b->fn,    b->file,    b->line,  b->block,    b->flag,
            b->group, b->arm,     b->kind,  (uint32_t)v, (uint32_t)(v >> 32),
            b->col,   b->to_line, b->to_col};
        put_words(pk, w, BRANCH_WORDS);
    }
    bcw__pack_str(pk, "switches_skipped");
    msgpack_pack_uint32(pk, m->switches_skipped);
    bcw__pack_str(pk, "refs_at");
    msgpack_pack_bin(pk, m->nfns > 0 ? ((size_t)m->nfns + 1) * 4 : 0);
    if (m->nfns > 0)
        put_words(pk, m->refs_at, (size_t)m->nfns + 1);
    bcw__pack_str(pk, "refs");
    msgpack_pack_bin(pk, (size_t)m->nrefs * 4);
    put_words(pk, m->refs, m->nrefs);
}

/* The bin o as n records of `words` words each into *out. */
static const char *records(bcw_rd *r, const msgpack_object *o, size_t words,
                           uint32_t *n, const char *what)
{
    if (o == NULL || o->type != MSGPACK_OBJECT_BIN ||
        o->via.bin.size % (words * 4) != 0) {
        bcw__rd_bad(r, what);
        return NULL;
    }
    *n = (uint32_t)(o->via.bin.size / (words * 4));
    return o->via.bin.ptr;
}

/* The refs of a map read back into m: each index in range, each
 * function's span inside refs. */
static void read_refs(bcw_rd *r, const msgpack_object *o, bcw_cov_map *m)
{
    uint32_t nat = 0, nrefs = 0;
    const char *at =
        records(r, bcw__rd_field(o, "refs_at"), 1, &nat, "coverage refs");
    const char *refs =
        records(r, bcw__rd_field(o, "refs"), 1, &nrefs, "coverage refs");
    if (r->err != 0 || m->nfns == 0)
        return;
    if (nat != m->nfns + 1) {
        bcw__rd_bad(r, "coverage refs");
        return;
    }
    m->refs_at = bcw__calloc(nat, sizeof *m->refs_at);
    m->refs = bcw__calloc(nrefs ? nrefs : 1, sizeof *m->refs);
    if (m->refs_at == NULL || m->refs == NULL) {
        r->err = BCW_ENOMEM;
        return;
    }
    for (uint32_t i = 0; i < nat; i++) {
        m->refs_at[i] = get_word(at + 4 * (size_t)i);
        if (m->refs_at[i] > nrefs ||
            (i > 0 && m->refs_at[i] < m->refs_at[i - 1]))
            bcw__rd_bad(r, "coverage refs out of range");
    }
    for (uint32_t i = 0; i < nrefs; i++)
        if ((m->refs[i] = get_word(refs + 4 * (size_t)i)) >= m->nfns)
            bcw__rd_bad(r, "coverage refs out of range");
    m->nrefs = nrefs;
}

void bcw__cov_scope(bcw_cov_map *m, const char *const *roots, unsigned nroots)
{
    uint32_t *todo = bcw__calloc(m->nfns ? m->nfns : 1, sizeof *todo);
    uint32_t ntodo = 0;
    for (uint32_t i = 0; i < m->nfns; i++) {
        m->fns[i].unit = false;
        for (unsigned k = 0; todo != NULL && k < nroots; k++)
            if (strcmp(m->fns[i].name, roots[k]) == 0) {
                m->fns[i].unit = true;
                todo[ntodo++] = i;
                break;
            }
    }
    while (ntodo > 0) {
        uint32_t f = todo[--ntodo];
        for (uint32_t k = m->refs_at ? m->refs_at[f] : 0;
             m->refs_at != NULL && k < m->refs_at[f + 1]; k++) {
            bcw_cov_fn *g = &m->fns[m->refs[k]];
            if (!g->unit) {
                g->unit = true;
                todo[ntodo++] = m->refs[k];
            }
        }
    }
    free(todo);
}

int bcw__cov_map_read(bcw_rd *r, const msgpack_object *o, bcw_cov_map *m)
{
    memset(m, 0, sizeof *m);
    if (o == NULL || o->type != MSGPACK_OBJECT_MAP)
        return bcw__rd_bad(r, "coverage map");
    m->nflags = (uint32_t)bcw__rd_u64(r, bcw__rd_field(o, "flags"), UINT32_MAX,
                                      "coverage flags");
    unsigned nfiles = 0;
    m->files =
        bcw__rd_strv(r, bcw__rd_field(o, "files"), &nfiles, "coverage files");
    m->nfiles = nfiles;
    const msgpack_object *fns =
        bcw__rd_items(r, bcw__rd_field(o, "functions"), sizeof *m->fns, &m->fns,
                      &m->nfns, "coverage functions");
    for (uint32_t i = 0; fns != NULL && r->err == 0 && i < m->nfns; i++) {
        const msgpack_object *a = bcw__rd_arr(r, &fns[i], 5, "function");
        if (a == NULL)
            break;
        bcw_cov_fn *f = &m->fns[i];
        f->name = bcw__rd_str(r, &a[0], false, "function name");
        f->file = (uint32_t)bcw__rd_u64(r, &a[1], UINT32_MAX, "function file");
        f->line = (uint32_t)bcw__rd_u64(r, &a[2], UINT32_MAX, "function line");
        f->flag = (uint32_t)bcw__rd_u64(r, &a[3], UINT32_MAX, "function flag");
        f->unit = bcw__rd_bool(r, &a[4], "function of the unit");
        if (r->err == 0 && ((f->line > 0 && f->file >= m->nfiles) ||
                            (f->flag != UINT32_MAX && f->flag >= m->nflags)))
            bcw__rd_bad(r, "function out of range");
    }
    uint32_t n = 0;
    const char *p =
        records(r, bcw__rd_field(o, "lines"), LINE_WORDS, &n, "coverage lines");
    if (p != NULL && r->err == 0 && n > 0 &&
        (m->lines = bcw__calloc(n, sizeof *m->lines)) == NULL)
        r->err = BCW_ENOMEM;
    for (uint32_t i = 0; p != NULL && r->err == 0 && i < n; i++) {
        const char *w = p + (size_t)i * LINE_WORDS * 4;
        bcw_cov_line l = {get_word(w), get_word(w + 4), get_word(w + 8),
                          get_word(w + 12)};
        if (l.file >= m->nfiles || l.flag >= m->nflags || l.fn >= m->nfns) {
            bcw__rd_bad(r, "coverage line out of range");
            break;
        }
        m->lines[m->nlines++] = l;
    }
    p = records(r, bcw__rd_field(o, "branches"), BRANCH_WORDS, &n,
                "coverage branches");
    if (p != NULL && r->err == 0 && n > 0 &&
        (m->branches = bcw__calloc(n, sizeof *m->branches)) == NULL)
        r->err = BCW_ENOMEM;
    for (uint32_t i = 0; p != NULL && r->err == 0 && i < n; i++) {
        const char *w = p + (size_t)i * BRANCH_WORDS * 4;
        bcw_cov_branch b = {get_word(w),
                            get_word(w + 4),
                            get_word(w + 8),
                            get_word(w + 12),
                            get_word(w + 16),
                            get_word(w + 20),
                            get_word(w + 24),
                            get_word(w + 28),
                            (int64_t)((uint64_t)get_word(w + 32) |
                                      (uint64_t)get_word(w + 36) << 32),
                            get_word(w + 40),
                            get_word(w + 44),
                            get_word(w + 48)};
        if (b.fn >= m->nfns || b.file >= m->nfiles || b.block >= m->nflags ||
            b.flag >= m->nflags || b.kind > BCW_ARM_DEFAULT) {
            bcw__rd_bad(r, "coverage branch out of range");
            break;
        }
        m->branches[m->nbranches++] = b;
    }
    m->switches_skipped =
        (uint32_t)bcw__rd_u64(r, bcw__rd_field(o, "switches_skipped"),
                              UINT32_MAX, "switches skipped");
    read_refs(r, o, m);
    if (r->err != 0)
        bcw__cov_map_free(m);
    return r->err;
}

void bcw__cov_hits_pack(msgpack_packer *pk, const uint8_t *hits, uint32_t n)
{
    msgpack_pack_bin(pk, n);
    msgpack_pack_bin_body(pk, hits, n);
}

int bcw__cov_hits_read(bcw_rd *r, const msgpack_object *o, uint32_t n,
                       uint8_t **hits)
{
    *hits = NULL;
    if (o == NULL || o->type != MSGPACK_OBJECT_BIN || o->via.bin.size != n)
        return bcw__rd_bad(r, "coverage hits");
    if ((*hits = bcw__malloc(n ? n : 1)) == NULL)
        return r->err = BCW_ENOMEM;
    memcpy(*hits, o->via.bin.ptr, n);
    return 0;
}

int bcw__cov_map_save(const bcw_cov_map *map, const char *path)
{
    bcw_pack p;
    bcw__pack_init(&p, "the coverage map", MAP_LIMIT);
    msgpack_pack_map(&p.pk, 4);
    bcw__pack_str(&p.pk, "format");
    bcw__pack_str(&p.pk, MAP_FORMAT);
    bcw__pack_str(&p.pk, "version");
    msgpack_pack_uint32(&p.pk, MAP_VERSION);
    bcw__pack_str(&p.pk, "map");
    bcw__cov_map_pack(&p.pk, map);
    bcw__pack_seal(&p);
    int err = p.err != 0 ? p.err
                         : bcw__write_file_atomic(path, p.buf.data, p.buf.len);
    bcw__pack_free(&p);
    return err;
}

int bcw__cov_map_load(bcw_cov_map *map, const char *path)
{
    memset(map, 0, sizeof *map);
    char *data = NULL;
    size_t len = 0;
    int err = bcw__read_file(&data, &len, path, MAP_LIMIT);
    if (err < 0)
        return err;
    bcw_rd r = {path, "coverage map", 0};
    msgpack_unpacked up;
    msgpack_unpacked_init(&up);
    const msgpack_object *root = bcw__rd_root(&r, &up, data, len, MAP_FORMAT,
                                              MAP_VERSION, "build it again");
    if (root != NULL)
        bcw__cov_map_read(&r, bcw__rd_field(root, "map"), map);
    msgpack_unpacked_destroy(&up);
    free(data);
    return r.err;
}
