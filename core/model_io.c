/* model_io.c - the model file (*.model.msgpack, docs/model.md): save,
 * load with validation, and the per-bitcode model cache that spares a
 * walk the analysis of unchanged bitcode. */
#define _POSIX_C_SOURCE 200809L
#include <msgpack.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "file.h"
#include "hash.h"
#include "pack.h"

#include "model.h"

#define MODEL_FORMAT "bcwalk-model"
/* docs/model.md states it and tests/check_versions.py holds the two
 * together: raise both when readers of the old format would misread. */
#define MODEL_VERSION 10
#define MODEL_LIMIT ((size_t)1 << 30)
/* The file ends in its checksum: the key (0xa8, a string of 8 bytes),
 * then a uint64 in its fixed 9-byte form (0xcf, 8 bytes big-endian)
 * holding bcw__hash of every byte before those 8.  In octal: after
 * "\xa8", the 'c' would be a hex digit. */
#define CHECKSUM_KEY "\250checksum\317"
#define CHECKSUM_TAIL (sizeof CHECKSUM_KEY - 1 + 8)

/* --- writing ------------------------------------------------------- */

static void pstrv(msgpack_packer *pk, char **v, unsigned n)
{
    msgpack_pack_array(pk, n);
    for (unsigned i = 0; i < n; i++)
        bcw__pack_str(pk, v[i]);
}

/* A callback's ABI: result, then parameters. */
static void psig(msgpack_packer *pk, const uint8_t *sig, unsigned n)
{
    msgpack_pack_array(pk, n);
    for (unsigned i = 0; i < n; i++)
        msgpack_pack_uint8(pk, sig[i]);
}

static void pparam(msgpack_packer *pk, const bcw_param *p)
{
    msgpack_pack_array(pk, 15);
    bcw__pack_str(pk, p->name);
    bcw__pack_str(pk, p->ctype);
    msgpack_pack_uint8(pk, (uint8_t)p->kind);
    msgpack_pack_uint8(pk, (uint8_t)p->abi);
    msgpack_pack_uint8(pk, (uint8_t)p->pointee);
    msgpack_pack_uint32(pk, p->pointee_size);
    bcw__pack_str(pk, p->detail);
    msgpack_pack_int32(pk, p->pair);
    p->nullable ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
    p->into_unit ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
    msgpack_pack_array(pk, p->nparts);
    bool relative = false;
    for (unsigned i = 0; i < p->nparts; i++) {
        const bcw_part *c = &p->parts[i];
        msgpack_pack_array(pk, 6);
        bcw__pack_str(pk, c->label);
        msgpack_pack_array(pk, c->nvalues);
        for (unsigned v = 0; v < c->nvalues; v++)
            msgpack_pack_int64(pk, c->values[v]);
        msgpack_pack_int32(pk, c->rel);
        msgpack_pack_uint32(pk, c->nrel);
        bcw__pack_str(pk, c->rel_text);
        bcw__pack_str(pk, c->str);
        relative = relative || c->rel >= 0;
    }
    bcw__pack_str(pk, p->parts_note);
    /* the expression nodes relative categories are evaluated from */
    msgpack_pack_array(pk, relative ? p->nnodes : 0);
    for (unsigned i = 0; relative && i < p->nnodes; i++) {
        const bcw_cnode *n = &p->nodes[i];
        msgpack_pack_array(pk, 6);
        msgpack_pack_uint8(pk, n->op);
        msgpack_pack_uint8(pk, n->bits);
        msgpack_pack_uint8(pk, n->pred);
        msgpack_pack_int64(pk, n->value);
        msgpack_pack_uint32(pk, n->a);
        msgpack_pack_uint32(pk, n->b);
    }
    psig(pk, p->sig, p->nsig);
    p->filled ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
}

static void pterm(msgpack_packer *pk, const bcw_term *t)
{
    msgpack_pack_array(pk, 5);
    msgpack_pack_uint8(pk, (uint8_t)t->kind);
    msgpack_pack_uint32(pk, t->offset);
    msgpack_pack_uint32(pk, t->bits);
    msgpack_pack_int32(pk, t->via);
    msgpack_pack_int64(pk, t->value);
}

static void pfunc(msgpack_packer *pk, const bcw_func *f)
{
    msgpack_pack_array(pk, 13);
    bcw__pack_str(pk, f->name);
    msgpack_pack_uint8(pk, (uint8_t)f->role);
    msgpack_pack_uint32(pk, f->sym);
    f->is_static ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
    bcw__pack_str(pk, f->why);
    bcw__pack_str(pk, f->unwalkable);
    msgpack_pack_int32(pk, f->self);
    f->rebinds ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
    pparam(pk, &f->ret);
    msgpack_pack_array(pk, f->nparams);
    for (unsigned i = 0; i < f->nparams; i++)
        pparam(pk, &f->params[i]);
    pstrv(pk, f->reads, f->nreads);
    pstrv(pk, f->wrote, f->nwrote);
    msgpack_pack_array(pk, f->ncontracts);
    for (unsigned i = 0; i < f->ncontracts; i++) {
        msgpack_pack_array(pk, 2);
        msgpack_pack_uint8(pk, (uint8_t)f->contracts[i].kind);
        bcw__pack_str(pk, f->contracts[i].expr);
    }
}

static void punit(msgpack_packer *pk, const bcw_unit *u)
{
    msgpack_pack_array(pk, 9);
    bcw__pack_str(pk, u->name);
    bcw__pack_str(pk, u->ctype);
    msgpack_pack_uint64(pk, u->size);
    msgpack_pack_int32(pk, u->invariant);
    u->cell ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
    msgpack_pack_array(pk, u->nfields);
    for (unsigned i = 0; i < u->nfields; i++) {
        const bcw_field *f = &u->fields[i];
        msgpack_pack_array(pk, 5);
        bcw__pack_str(pk, f->name);
        msgpack_pack_uint32(pk, f->offset);
        msgpack_pack_uint32(pk, f->bits);
        msgpack_pack_uint8(pk, f->callback);
        psig(pk, f->sig, f->nsig);
    }
    msgpack_pack_array(pk, u->nfuncs);
    for (unsigned i = 0; i < u->nfuncs; i++)
        pfunc(pk, &u->funcs[i]);
    msgpack_pack_array(pk, u->npreds);
    for (unsigned i = 0; i < u->npreds; i++) {
        const bcw_pred *p = &u->preds[i];
        msgpack_pack_array(pk, 9);
        bcw__pack_str(pk, p->name);
        p->interface ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
        msgpack_pack_int32(pk, p->func);
        msgpack_pack_uint8(pk, (uint8_t)p->op);
        pterm(pk, &p->l);
        pterm(pk, &p->r);
        pstrv(pk, p->users, p->nusers);
        p->formal ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
        p->negated ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
    }
    msgpack_pack_array(pk, u->nhandles);
    for (unsigned i = 0; i < u->nhandles; i++) {
        const bcw_handle *h = &u->handles[i];
        msgpack_pack_array(pk, 4);
        bcw__pack_str(pk, h->type);
        pstrv(pk, h->from, h->nfrom);
        pstrv(pk, h->users, h->nusers);
        pstrv(pk, h->invalidators, h->ninvalidators);
    }
}

int bcw_model_save(const bcw_model *m, const char *path)
{
    bcw_pack p;
    bcw__pack_init(&p, "the model", MODEL_LIMIT);
    msgpack_packer *pk = &p.pk;
    msgpack_pack_map(pk, 7);
    bcw__pack_str(pk, "format");
    bcw__pack_str(pk, MODEL_FORMAT);
    bcw__pack_str(pk, "version");
    msgpack_pack_uint32(pk, MODEL_VERSION);
    bcw__pack_str(pk, "file");
    bcw__pack_str(pk, m->path);
    bcw__pack_str(pk, "syms");
    pstrv(pk, m->syms, m->nsyms);
    bcw__pack_str(pk, "skipped");
    pstrv(pk, m->skipped, m->nskipped);
    bcw__pack_str(pk, "units");
    msgpack_pack_array(pk, m->nunits);
    for (unsigned i = 0; i < m->nunits; i++)
        punit(pk, &m->units[i]);
    /* last, so that it can cover every byte before it */
    bcw__pack_str(pk, "checksum");
    msgpack_pack_fix_uint64(pk, 0);
    if (p.err == 0) {
        uint64_t sum = bcw__hash(p.buf.data, p.buf.len - 8, 0);
        for (size_t i = 0; i < 8; i++)
            p.buf.data[p.buf.len - 1 - i] = (char)(sum >> (8 * i));
    }
    int err = p.err != 0 ? p.err
                         : bcw__write_file_atomic(path, p.buf.data, p.buf.len);
    bcw__pack_free(&p);
    return err;
}

/* --- reading ------------------------------------------------------- */

/* The reader keeps the first problem and the file it is reading; every
 * accessor returns a harmless value after a failure. */
typedef struct rd {
    const char *path;
    int err;
} rd;

static int bad(rd *r, const char *what)
{
    if (r->err == 0)
        r->err = bcw__error(BCW_EINPUT, "%s: corrupt model file (%s)", r->path,
                            what);
    return r->err;
}

static const msgpack_object *arr(rd *r, const msgpack_object *o, uint32_t n,
                                 const char *what)
{
    if (o->type != MSGPACK_OBJECT_ARRAY || (n && o->via.array.size != n)) {
        bad(r, what);
        return NULL;
    }
    return o->via.array.ptr;
}

static uint64_t u64(rd *r, const msgpack_object *o, uint64_t max,
                    const char *what)
{
    if (o->type != MSGPACK_OBJECT_POSITIVE_INTEGER || o->via.u64 > max) {
        bad(r, what);
        return 0;
    }
    return o->via.u64;
}

static int64_t i64(rd *r, const msgpack_object *o, const char *what)
{
    if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER && o->via.u64 <= INT64_MAX)
        return (int64_t)o->via.u64;
    if (o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
        return o->via.i64;
    bad(r, what);
    return 0;
}

static bool boolean(rd *r, const msgpack_object *o, const char *what)
{
    if (o->type != MSGPACK_OBJECT_BOOLEAN)
        bad(r, what);
    return o->type == MSGPACK_OBJECT_BOOLEAN && o->via.boolean;
}

/* A string, or NULL for nil when `nullable`. */
static char *str(rd *r, const msgpack_object *o, bool nullable,
                 const char *what)
{
    if (o->type == MSGPACK_OBJECT_NIL && nullable)
        return NULL;
    if (o->type != MSGPACK_OBJECT_STR && o->type != MSGPACK_OBJECT_BIN) {
        bad(r, what);
        return NULL;
    }
    /* bin: a string that is not UTF-8 (pstr) */
    char *s = o->type == MSGPACK_OBJECT_STR
                  ? bcw__strndup(o->via.str.ptr, o->via.str.size)
                  : bcw__strndup(o->via.bin.ptr, o->via.bin.size);
    if (s == NULL && r->err == 0)
        r->err = BCW_ENOMEM;
    return s;
}

static char **strv(rd *r, const msgpack_object *o, unsigned *n,
                   const char *what)
{
    *n = 0;
    const msgpack_object *a = arr(r, o, 0, what);
    if (a == NULL || o->via.array.size == 0)
        return NULL;
    char **v = bcw__calloc(o->via.array.size, sizeof *v);
    if (v == NULL) {
        r->err = r->err ? r->err : BCW_ENOMEM;
        return NULL;
    }
    for (uint32_t i = 0; i < o->via.array.size && r->err == 0; i++) {
        v[i] = str(r, &a[i], false, what);
        *n += v[i] != NULL;
    }
    return v;
}

/* The elements of array `o` and *out, a zeroed array of as many
 * `size`-byte items (NULL for none); 0 elements on error. */
static const msgpack_object *items(rd *r, const msgpack_object *o, size_t size,
                                   void *out, uint32_t *n, const char *what)
{
    void **p = out;
    *p = NULL;
    *n = 0;
    const msgpack_object *a = arr(r, o, 0, what);
    if (a == NULL || o->via.array.size == 0)
        return NULL;
    if ((*p = bcw__calloc(o->via.array.size, size)) == NULL) {
        r->err = r->err ? r->err : BCW_ENOMEM;
        return NULL;
    }
    *n = o->via.array.size;
    return a;
}

/* A callback's ABI (psig) into sig, n entries. */
static void rsig(rd *r, const msgpack_object *o, uint8_t *sig, uint8_t *n)
{
    const msgpack_object *sg = arr(r, o, 0, "callback signature");
    if (sg != NULL && o->via.array.size > BCW_MAX_PARAMS + 1)
        bad(r, "callback signature");
    for (uint32_t i = 0; sg && r->err == 0 && i < o->via.array.size; i++)
        sig[(*n)++] = (uint8_t)u64(r, &sg[i], BCW_ABI_PTR, "ABI");
}

static void rparam(rd *r, const msgpack_object *o, bcw_param *p)
{
    const msgpack_object *a = arr(r, o, 15, "parameter");
    p->pair = -1;
    if (a == NULL)
        return;
    p->name = str(r, &a[0], false, "parameter name");
    p->ctype = str(r, &a[1], false, "parameter type");
    p->kind = (enum bcw_pkind)u64(r, &a[2], BCW_PK_LAST, "parameter kind");
    p->abi = (enum bcw_abi)u64(r, &a[3], BCW_ABI_STRUCT, "parameter ABI");
    p->pointee = (enum bcw_abi)u64(r, &a[4], BCW_ABI_PTR, "pointee ABI");
    p->pointee_size = (uint32_t)u64(r, &a[5], 4096, "pointee size");
    p->detail = str(r, &a[6], true, "parameter detail");
    p->pair = (int)i64(r, &a[7], "parameter pair");
    p->nullable = boolean(r, &a[8], "nullable");
    p->into_unit = boolean(r, &a[9], "into unit");
    if (p->pair < -1 || p->pair >= BCW_MAX_PARAMS)
        bad(r, "parameter pair");
    uint32_t n;
    const msgpack_object *cs =
        items(r, &a[10], sizeof *p->parts, &p->parts, &n, "partitions");
    for (uint32_t i = 0; cs && r->err == 0 && i < n; i++) {
        const msgpack_object *c = arr(r, &cs[i], 6, "partition");
        const msgpack_object *vs = c ? arr(r, &c[1], 0, "values") : NULL;
        if (c == NULL || (vs == NULL && c[1].via.array.size > 0) ||
            c[1].via.array.size > 3) {
            bad(r, "partition");
            break;
        }
        bcw_part *d = &p->parts[i];
        p->nparts = i + 1;
        d->label = str(r, &c[0], false, "partition label");
        for (uint32_t v = 0; v < c[1].via.array.size; v++)
            d->values[d->nvalues++] = i64(r, &vs[v], "partition value");
        d->rel = (int32_t)i64(r, &c[2], "partition bounds");
        d->nrel = (uint32_t)u64(r, &c[3], BCW_MAX_TERM_NODES, "bounds");
        d->rel_text = str(r, &c[4], true, "partition bound text");
        d->str = str(r, &c[5], true, "partition string");
    }
    p->parts_note = str(r, &a[11], true, "partition note");
    const msgpack_object *ns =
        items(r, &a[12], sizeof *p->nodes, &p->nodes, &n, "nodes");
    for (uint32_t i = 0; ns && r->err == 0 && i < n; i++) {
        const msgpack_object *e = arr(r, &ns[i], 6, "node");
        if (e == NULL)
            break;
        bcw_cnode *d = &p->nodes[i];
        p->nnodes = i + 1;
        d->op = (uint8_t)u64(r, &e[0], BCW_C_LAST, "node op");
        d->bits = (uint8_t)u64(r, &e[1], 64, "node bits");
        d->pred = (uint8_t)u64(r, &e[2], 255, "node predicate");
        d->value = i64(r, &e[3], "node value");
        d->a = (uint32_t)u64(r, &e[4], n - 1, "node operand");
        d->b = (uint32_t)u64(r, &e[5], n - 1, "node operand");
        /* operands come before their users: evaluation terminates */
        if ((d->op > BCW_C_ARG && d->a >= i) ||
            (((d->op >= BCW_C_ADD && d->op <= BCW_C_ASHR) ||
              d->op == BCW_C_ICMP) &&
             d->b >= i))
            bad(r, "node order");
    }
    rsig(r, &a[13], p->sig, &p->nsig);
    p->filled = boolean(r, &a[14], "filled");
    for (unsigned i = 0; i < p->nparts && r->err == 0; i++)
        if (p->parts[i].rel >= 0 &&
            (uint64_t)p->parts[i].rel + p->parts[i].nrel > p->nnodes)
            bad(r, "partition bounds");
}

static void rterm(rd *r, const msgpack_object *o, bcw_term *t)
{
    const msgpack_object *a = arr(r, o, 5, "term");
    if (a == NULL)
        return;
    t->kind = (enum bcw_term_kind)u64(r, &a[0], BCW_TERM_NULL, "term kind");
    t->offset = (uint32_t)u64(r, &a[1], UINT32_MAX, "term offset");
    t->bits = (uint32_t)u64(r, &a[2], 64, "term bits");
    t->via = (int32_t)i64(r, &a[3], "term via");
    t->value = i64(r, &a[4], "term value");
}

static void rfunc(rd *r, const msgpack_object *o, bcw_func *f, unsigned nsyms)
{
    const msgpack_object *a = arr(r, o, 13, "function");
    if (a == NULL)
        return;
    f->name = str(r, &a[0], false, "function name");
    f->role = (enum bcw_role)u64(r, &a[1], BCW_ROLE_EMPTY, "role");
    f->sym = (unsigned)u64(r, &a[2],
                           f->role == BCW_ROLE_EMPTY ? UINT32_MAX
                           : nsyms                   ? nsyms - 1
                                                     : 0,
                           "symbol");
    f->is_static = boolean(r, &a[3], "static");
    f->why = str(r, &a[4], true, "why");
    f->unwalkable = str(r, &a[5], true, "not walked");
    f->self = (int)i64(r, &a[6], "self");
    f->rebinds = boolean(r, &a[7], "rebinds");
    rparam(r, &a[8], &f->ret);
    const msgpack_object *ps = arr(r, &a[9], 0, "parameters");
    if (ps != NULL && a[9].via.array.size > BCW_MAX_PARAMS)
        bad(r, "too many parameters");
    for (uint32_t i = 0; ps && r->err == 0 && i < a[9].via.array.size; i++) {
        rparam(r, &ps[i], &f->params[i]);
        f->nparams = i + 1;
    }
    for (unsigned i = 0; i < f->nparams; i++)
        if (f->params[i].pair >= (int)f->nparams)
            bad(r, "parameter pair");
    if (f->self < -1 || f->self >= (int)f->nparams)
        bad(r, "self");
    f->reads = strv(r, &a[10], &f->nreads, "reads");
    f->wrote = strv(r, &a[11], &f->nwrote, "writes");
    uint32_t nc;
    const msgpack_object *cs =
        items(r, &a[12], sizeof *f->contracts, &f->contracts, &nc, "contracts");
    for (uint32_t i = 0; cs && r->err == 0 && i < nc; i++) {
        const msgpack_object *c = arr(r, &cs[i], 2, "contract");
        if (c == NULL)
            break;
        f->contracts[i].kind =
            (enum bcw_contract_origin)u64(r, &c[0], BCW_CK_INVARIANT, "kind");
        f->contracts[i].expr = str(r, &c[1], false, "contract");
        f->ncontracts = i + 1;
    }
}

static void runit(rd *r, const msgpack_object *o, bcw_unit *u, unsigned nsyms)
{
    const msgpack_object *a = arr(r, o, 9, "unit");
    if (a == NULL)
        return;
    u->name = str(r, &a[0], false, "unit name");
    u->ctype = str(r, &a[1], false, "unit type");
    u->size = u64(r, &a[2], UINT32_MAX, "unit size");
    u->invariant = (int)i64(r, &a[3], "invariant");
    u->cell = boolean(r, &a[4], "cell");
    uint32_t n;
    const msgpack_object *fs =
        items(r, &a[5], sizeof *u->fields, &u->fields, &n, "fields");
    for (uint32_t i = 0; fs && r->err == 0 && i < n; i++) {
        const msgpack_object *f = arr(r, &fs[i], 5, "field");
        if (f == NULL)
            break;
        bcw_field *d = &u->fields[i];
        d->name = str(r, &f[0], false, "field name");
        d->offset = (uint32_t)u64(r, &f[1], UINT32_MAX, "offset");
        d->bits = (uint32_t)u64(r, &f[2], UINT32_MAX, "bits");
        d->callback = (uint8_t)u64(r, &f[3], BCW_CB_LAST, "field callback");
        rsig(r, &f[4], d->sig, &d->nsig);
        u->nfields = i + 1;
    }
    const msgpack_object *fn =
        items(r, &a[6], sizeof *u->funcs, &u->funcs, &n, "functions");
    for (uint32_t i = 0; fn && r->err == 0 && i < n; i++) {
        rfunc(r, &fn[i], &u->funcs[i], nsyms);
        u->nfuncs = i + 1;
    }
    if (u->invariant < -1 || u->invariant >= (int)u->nfuncs)
        bad(r, "invariant");
    const msgpack_object *ps =
        items(r, &a[7], sizeof *u->preds, &u->preds, &n, "predicates");
    for (uint32_t i = 0; ps && r->err == 0 && i < n; i++) {
        const msgpack_object *p = arr(r, &ps[i], 9, "predicate");
        if (p == NULL)
            break;
        bcw_pred *q = &u->preds[i];
        u->npreds = i + 1;
        q->name = str(r, &p[0], false, "predicate name");
        q->interface = boolean(r, &p[1], "interface");
        q->func = (int)i64(r, &p[2], "predicate function");
        q->op = (enum bcw_cmp)u64(r, &p[3], BCW_CMP_ULE, "comparison");
        rterm(r, &p[4], &q->l);
        rterm(r, &p[5], &q->r);
        q->users = strv(r, &p[6], &q->nusers, "users");
        q->formal = boolean(r, &p[7], "formal");
        q->negated = boolean(r, &p[8], "negated");
        if (q->interface && (q->func < 0 || q->func >= (int)u->nfuncs))
            bad(r, "predicate function");
    }
    const msgpack_object *hs =
        items(r, &a[8], sizeof *u->handles, &u->handles, &n, "handles");
    for (uint32_t i = 0; hs && r->err == 0 && i < n; i++) {
        const msgpack_object *h = arr(r, &hs[i], 4, "handle");
        if (h == NULL)
            break;
        bcw_handle *d = &u->handles[i];
        u->nhandles = i + 1;
        d->type = str(r, &h[0], false, "handle type");
        d->from = strv(r, &h[1], &d->nfrom, "handle from");
        d->users = strv(r, &h[2], &d->nusers, "handle users");
        d->invalidators = strv(r, &h[3], &d->ninvalidators, "invalidators");
    }
}

/* Does the file end in a checksum (CHECKSUM_KEY) that matches its
 * bytes? */
static bool sealed(const char *data, size_t len)
{
    if (len < CHECKSUM_TAIL || memcmp(data + len - CHECKSUM_TAIL, CHECKSUM_KEY,
                                      sizeof CHECKSUM_KEY - 1) != 0)
        return false;
    uint64_t sum = 0;
    for (size_t i = len - 8; i < len; i++)
        sum = sum << 8 | (unsigned char)data[i];
    return sum == bcw__hash(data, len - 8, 0);
}

/* The value of `key` in map `o`, or NULL. */
static const msgpack_object *field(const msgpack_object *o, const char *key)
{
    size_t n = strlen(key);
    for (uint32_t i = 0; i < o->via.map.size; i++) {
        const msgpack_object_kv *kv = &o->via.map.ptr[i];
        if (kv->key.type == MSGPACK_OBJECT_STR && kv->key.via.str.size == n &&
            memcmp(kv->key.via.str.ptr, key, n) == 0)
            return &kv->val;
    }
    return NULL;
}

int bcw_model_load(bcw_model **out, const char *path)
{
    *out = NULL;
    bcw__error_clear();
    char *data = NULL;
    size_t len = 0;
    int err = bcw__read_file(&data, &len, path, MODEL_LIMIT);
    if (err < 0)
        return err;
    rd r = {path, 0};
    msgpack_unpacked up;
    msgpack_unpacked_init(&up);
    size_t off = 0;
    bcw_model *m = NULL;
    if (msgpack_unpack_next(&up, data, len, &off) != MSGPACK_UNPACK_SUCCESS ||
        off != len || up.data.type != MSGPACK_OBJECT_MAP) {
        bad(&r, "not a msgpack map, or truncated");
        goto done;
    }
    const msgpack_object *root = &up.data;
    const msgpack_object *fmt = field(root, "format");
    const msgpack_object *ver = field(root, "version");
    if (fmt == NULL || fmt->type != MSGPACK_OBJECT_STR ||
        fmt->via.str.size != strlen(MODEL_FORMAT) ||
        memcmp(fmt->via.str.ptr, MODEL_FORMAT, fmt->via.str.size) != 0) {
        r.err = bcw__error(BCW_EINPUT, "%s: not a bcwalk model file", path);
        goto done;
    }
    if (ver == NULL || ver->type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
        ver->via.u64 != MODEL_VERSION) {
        r.err = bcw__error(BCW_EINPUT,
                           "%s: model version %llu, this bcwalk reads %d: "
                           "analyze the bitcode again",
                           path,
                           ver && ver->type == MSGPACK_OBJECT_POSITIVE_INTEGER
                               ? (unsigned long long)ver->via.u64
                               : 0ull,
                           MODEL_VERSION);
        goto done;
    }
    /* after the version: an older file gets "analyze again" */
    if (!sealed(data, len)) {
        bad(&r, "its checksum does not match its bytes");
        goto done;
    }
    const msgpack_object *file = field(root, "file");
    const msgpack_object *syms = field(root, "syms");
    const msgpack_object *skipped = field(root, "skipped");
    const msgpack_object *units = field(root, "units");
    if (!file || !syms || !skipped || !units) {
        bad(&r, "missing fields");
        goto done;
    }
    if ((m = bcw__calloc(1, sizeof *m)) == NULL) {
        r.err = BCW_ENOMEM;
        goto done;
    }
    m->path = str(&r, file, false, "file");
    m->syms = strv(&r, syms, &m->nsyms, "symbols");
    m->skipped = strv(&r, skipped, &m->nskipped, "skipped");
    uint32_t n;
    const msgpack_object *us =
        items(&r, units, sizeof *m->units, &m->units, &n, "units");
    for (uint32_t i = 0; us && r.err == 0 && i < n; i++) {
        m->units[i].invariant = -1;
        runit(&r, &us[i], &m->units[i], m->nsyms);
        m->nunits = i + 1;
    }
done:
    msgpack_unpacked_destroy(&up);
    free(data);
    if (r.err != 0) {
        bcw_model_free(m);
        return r.err;
    }
    *out = m;
    return 0;
}
