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
#include "unpack.h"

#include "model.h"

#define MODEL_FORMAT "bcwalk-model"
/* docs/model.md states it and tests/check_versions.py holds the two
 * together: raise both when readers of the old format would misread. */
#define MODEL_VERSION 16
#define MODEL_LIMIT ((size_t)1 << 30)
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

static void pfields(msgpack_packer *pk, const bcw_field *fs, unsigned n)
{
    msgpack_pack_array(pk, n);
    for (unsigned i = 0; i < n; i++) {
        const bcw_field *f = &fs[i];
        msgpack_pack_array(pk, 5);
        bcw__pack_str(pk, f->name);
        msgpack_pack_uint32(pk, f->offset);
        msgpack_pack_uint32(pk, f->bits);
        msgpack_pack_uint8(pk, f->callback);
        psig(pk, f->sig, f->nsig);
    }
}

/* A parameter; with `conds` (the analysis handed on, not a file) its
 * conditions too, and every expression node. */
static void pparam(msgpack_packer *pk, const bcw_param *p, bool conds)
{
    msgpack_pack_array(pk, conds ? 23 : 22);
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
    relative = relative || conds;
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
    msgpack_pack_uint64(pk, p->needs_set);
    p->by_value ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
    p->elem_size ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
    pfields(pk, p->members, p->nmembers);
    p->members_all ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
    p->taken ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
    p->alias_checked ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
    if (!conds)
        return;
    msgpack_pack_array(pk, p->nconds);
    for (unsigned i = 0; i < p->nconds; i++) {
        const bcw_cond *c = &p->conds[i];
        msgpack_pack_array(pk, 4);
        bcw__pack_str(pk, c->text);
        bcw__pack_str(pk, c->negated);
        msgpack_pack_uint32(pk, c->root);
        bcw__pack_str(pk, c->value);
    }
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

static void pfunc(msgpack_packer *pk, const bcw_func *f, bool conds)
{
    msgpack_pack_array(pk, 20);
    bcw__pack_str(pk, f->name);
    msgpack_pack_uint8(pk, (uint8_t)f->role);
    msgpack_pack_uint32(pk, f->sym);
    f->is_static ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
    bcw__pack_str(pk, f->why);
    bcw__pack_str(pk, f->unwalkable);
    msgpack_pack_int32(pk, f->self);
    f->rebinds ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
    pparam(pk, &f->ret, conds);
    msgpack_pack_array(pk, f->nparams);
    for (unsigned i = 0; i < f->nparams; i++)
        pparam(pk, &f->params[i], conds);
    pstrv(pk, f->reads, f->nreads);
    pstrv(pk, f->wrote, f->nwrote);
    msgpack_pack_array(pk, f->ncontracts);
    for (unsigned i = 0; i < f->ncontracts; i++) {
        msgpack_pack_array(pk, 2);
        msgpack_pack_uint8(pk, (uint8_t)f->contracts[i].kind);
        bcw__pack_str(pk, f->contracts[i].expr);
    }
    bcw__pack_str(pk, f->file);
    msgpack_pack_uint32(pk, f->line);
    msgpack_pack_uint8(pk, (uint8_t)f->ok);
    f->retains ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
    msgpack_pack_uint8(pk, (uint8_t)f->teardown);
    f->defaults ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
    bcw__pack_str(pk, f->family);
}

static void punit(msgpack_packer *pk, const bcw_unit *u, bool conds)
{
    msgpack_pack_array(pk, 9);
    bcw__pack_str(pk, u->name);
    bcw__pack_str(pk, u->ctype);
    msgpack_pack_uint64(pk, u->size);
    msgpack_pack_int32(pk, u->invariant);
    u->cell ? msgpack_pack_true(pk) : msgpack_pack_false(pk);
    pfields(pk, u->fields, u->nfields);
    msgpack_pack_array(pk, u->nfuncs);
    for (unsigned i = 0; i < u->nfuncs; i++)
        pfunc(pk, &u->funcs[i], conds);
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

/* The model file's bytes into p (p->err on failure); with `conds`, the
 * analyzer's conditions too (pparam). */
static void pack_model(bcw_pack *p, const bcw_model *m, bool conds)
{
    bcw__pack_init(p, "the model", MODEL_LIMIT);
    msgpack_packer *pk = &p->pk;
    msgpack_pack_map(pk, 8);
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
    bcw__pack_str(pk, "headers");
    pstrv(pk, m->headers, m->nheaders);
    bcw__pack_str(pk, "units");
    msgpack_pack_array(pk, m->nunits);
    for (unsigned i = 0; i < m->nunits; i++)
        punit(pk, &m->units[i], conds);
    /* last, so that it can cover every byte before it */
    bcw__pack_seal(p);
}

int bcw_model_save(const bcw_model *m, const char *path)
{
    bcw_pack p;
    pack_model(&p, m, false);
    int err = p.err != 0 ? p.err
                         : bcw__write_file_atomic(path, p.buf.data, p.buf.len);
    bcw__pack_free(&p);
    return err;
}

int bcw__model_to_bytes(const bcw_model *m, bool conds, char **data,
                        size_t *len)
{
    *data = NULL;
    *len = 0;
    bcw_pack p;
    pack_model(&p, m, conds);
    if (p.err != 0) {
        bcw__pack_free(&p);
        return p.err;
    }
    *data = p.buf.data; /* the buffer's, now the caller's */
    *len = p.buf.len;
    return 0;
}

/* --- reading ------------------------------------------------------- */

/* A callback's ABI (psig) into sig, n entries. */
static void rsig(bcw_rd *r, const msgpack_object *o, uint8_t *sig, uint8_t *n)
{
    const msgpack_object *sg = bcw__rd_arr(r, o, 0, "callback signature");
    if (sg != NULL && o->via.array.size > BCW_MAX_PARAMS + 1)
        bcw__rd_bad(r, "callback signature");
    for (uint32_t i = 0; sg && r->err == 0 && i < o->via.array.size; i++)
        sig[(*n)++] = (uint8_t)bcw__rd_u64(r, &sg[i], BCW_ABI_PTR, "ABI");
}

static void rfields(bcw_rd *r, const msgpack_object *o, bcw_field **out,
                    unsigned *nout)
{
    uint32_t n;
    const msgpack_object *fs =
        bcw__rd_items(r, o, sizeof **out, out, &n, "fields");
    for (uint32_t i = 0; fs && r->err == 0 && i < n; i++) {
        const msgpack_object *f = bcw__rd_arr(r, &fs[i], 5, "field");
        if (f == NULL)
            break;
        bcw_field *d = &(*out)[i];
        d->name = bcw__rd_str(r, &f[0], false, "field name");
        d->offset = (uint32_t)bcw__rd_u64(r, &f[1], UINT32_MAX, "offset");
        d->bits = (uint32_t)bcw__rd_u64(r, &f[2], UINT32_MAX, "bits");
        d->callback =
            (uint8_t)bcw__rd_u64(r, &f[3], BCW_CB_LAST, "field callback");
        rsig(r, &f[4], d->sig, &d->nsig);
        *nout = i + 1;
    }
}

/* The analyzer's conditions of p (pparam's with conds). */
static void rconds(bcw_rd *r, const msgpack_object *o, bcw_param *p)
{
    uint32_t n;
    const msgpack_object *cs =
        bcw__rd_items(r, o, sizeof *p->conds, &p->conds, &n, "conditions");
    for (uint32_t i = 0; cs && r->err == 0 && i < n; i++) {
        const msgpack_object *c = bcw__rd_arr(r, &cs[i], 4, "condition");
        if (c == NULL)
            break;
        bcw_cond *d = &p->conds[i];
        p->nconds = i + 1;
        d->text = bcw__rd_str(r, &c[0], false, "condition");
        d->negated = bcw__rd_str(r, &c[1], true, "condition negated");
        d->root = (uint32_t)bcw__rd_u64(r, &c[2], UINT32_MAX, "condition root");
        d->value = bcw__rd_str(r, &c[3], true, "condition value");
        if (d->root != UINT32_MAX && d->root >= p->nnodes)
            bcw__rd_bad(r, "condition root");
    }
}

static void rparam(bcw_rd *r, const msgpack_object *o, bcw_param *p)
{
    const msgpack_object *a = bcw__rd_arr(r, o, 0, "parameter");
    p->pair = -1;
    if (a == NULL)
        return;
    /* 23: the conditions handed on from the analysis */
    uint32_t size = o->via.array.size;
    if (size != 22 && size != 23) {
        bcw__rd_bad(r, "parameter");
        return;
    }
    p->name = bcw__rd_str(r, &a[0], false, "parameter name");
    p->ctype = bcw__rd_str(r, &a[1], false, "parameter type");
    p->kind =
        (enum bcw_pkind)bcw__rd_u64(r, &a[2], BCW_PK_LAST, "parameter kind");
    p->abi =
        (enum bcw_abi)bcw__rd_u64(r, &a[3], BCW_ABI_STRUCT, "parameter ABI");
    p->pointee =
        (enum bcw_abi)bcw__rd_u64(r, &a[4], BCW_ABI_PTR, "pointee ABI");
    p->pointee_size = (uint32_t)bcw__rd_u64(r, &a[5], 4096, "pointee size");
    p->detail = bcw__rd_str(r, &a[6], true, "parameter detail");
    p->pair = (int)bcw__rd_i64(r, &a[7], "parameter pair");
    p->nullable = bcw__rd_bool(r, &a[8], "nullable");
    p->into_unit = bcw__rd_bool(r, &a[9], "into unit");
    if (p->pair < -1 || p->pair >= BCW_MAX_PARAMS)
        bcw__rd_bad(r, "parameter pair");
    uint32_t n;
    const msgpack_object *cs =
        bcw__rd_items(r, &a[10], sizeof *p->parts, &p->parts, &n, "partitions");
    for (uint32_t i = 0; cs && r->err == 0 && i < n; i++) {
        const msgpack_object *c = bcw__rd_arr(r, &cs[i], 6, "partition");
        const msgpack_object *vs =
            c ? bcw__rd_arr(r, &c[1], 0, "values") : NULL;
        if (c == NULL || (vs == NULL && c[1].via.array.size > 0) ||
            c[1].via.array.size > 3) {
            bcw__rd_bad(r, "partition");
            break;
        }
        bcw_part *d = &p->parts[i];
        p->nparts = i + 1;
        d->label = bcw__rd_str(r, &c[0], false, "partition label");
        for (uint32_t v = 0; v < c[1].via.array.size; v++)
            d->values[d->nvalues++] = bcw__rd_i64(r, &vs[v], "partition value");
        d->rel = (int32_t)bcw__rd_i64(r, &c[2], "partition bounds");
        d->nrel = (uint32_t)bcw__rd_u64(r, &c[3], BCW_MAX_TERM_NODES, "bounds");
        d->rel_text = bcw__rd_str(r, &c[4], true, "partition bound text");
        d->str = bcw__rd_str(r, &c[5], true, "partition string");
    }
    p->parts_note = bcw__rd_str(r, &a[11], true, "partition note");
    const msgpack_object *ns =
        bcw__rd_items(r, &a[12], sizeof *p->nodes, &p->nodes, &n, "nodes");
    for (uint32_t i = 0; ns && r->err == 0 && i < n; i++) {
        const msgpack_object *e = bcw__rd_arr(r, &ns[i], 6, "node");
        if (e == NULL)
            break;
        bcw_cnode *d = &p->nodes[i];
        p->nnodes = i + 1;
        d->op = (uint8_t)bcw__rd_u64(r, &e[0], BCW_C_LAST, "node op");
        d->bits = (uint8_t)bcw__rd_u64(r, &e[1], 64, "node bits");
        d->pred = (uint8_t)bcw__rd_u64(r, &e[2], 255, "node predicate");
        d->value = bcw__rd_i64(r, &e[3], "node value");
        d->a = (uint32_t)bcw__rd_u64(r, &e[4], n - 1, "node operand");
        d->b = (uint32_t)bcw__rd_u64(r, &e[5], n - 1, "node operand");
        /* operands come before their users: evaluation terminates */
        if ((d->op > BCW_C_ARG && d->a >= i) ||
            (((d->op >= BCW_C_ADD && d->op <= BCW_C_ASHR) ||
              d->op == BCW_C_ICMP) &&
             d->b >= i))
            bcw__rd_bad(r, "node order");
    }
    rsig(r, &a[13], p->sig, &p->nsig);
    p->filled = bcw__rd_bool(r, &a[14], "filled");
    p->needs_set = bcw__rd_u64(r, &a[15], UINT64_MAX, "fields needed");
    p->by_value = bcw__rd_bool(r, &a[16], "by value");
    p->elem_size = bcw__rd_bool(r, &a[17], "element size");
    rfields(r, &a[18], &p->members, &p->nmembers);
    p->members_all = bcw__rd_bool(r, &a[19], "every member filled");
    p->taken = bcw__rd_bool(r, &a[20], "taken over");
    p->alias_checked = bcw__rd_bool(r, &a[21], "compared with the target");
    if (size == 23)
        rconds(r, &a[22], p);
    for (unsigned i = 0; i < p->nparts && r->err == 0; i++)
        if (p->parts[i].rel >= 0 &&
            (uint64_t)p->parts[i].rel + p->parts[i].nrel > p->nnodes)
            bcw__rd_bad(r, "partition bounds");
}

static void rterm(bcw_rd *r, const msgpack_object *o, bcw_term *t)
{
    const msgpack_object *a = bcw__rd_arr(r, o, 5, "term");
    if (a == NULL)
        return;
    t->kind =
        (enum bcw_term_kind)bcw__rd_u64(r, &a[0], BCW_TERM_NULL, "term kind");
    t->offset = (uint32_t)bcw__rd_u64(r, &a[1], UINT32_MAX, "term offset");
    t->bits = (uint32_t)bcw__rd_u64(r, &a[2], 64, "term bits");
    t->via = (int32_t)bcw__rd_i64(r, &a[3], "term via");
    t->value = bcw__rd_i64(r, &a[4], "term value");
}

static void rfunc(bcw_rd *r, const msgpack_object *o, bcw_func *f,
                  unsigned nsyms)
{
    const msgpack_object *a = bcw__rd_arr(r, o, 20, "function");
    if (a == NULL)
        return;
    f->name = bcw__rd_str(r, &a[0], false, "function name");
    f->role = (enum bcw_role)bcw__rd_u64(r, &a[1], BCW_ROLE_EMPTY, "role");
    f->sym = (unsigned)bcw__rd_u64(r, &a[2],
                                   f->role == BCW_ROLE_EMPTY ? UINT32_MAX
                                   : nsyms                   ? nsyms - 1
                                                             : 0,
                                   "symbol");
    f->is_static = bcw__rd_bool(r, &a[3], "static");
    f->why = bcw__rd_str(r, &a[4], true, "why");
    f->unwalkable = bcw__rd_str(r, &a[5], true, "not walked");
    f->self = (int)bcw__rd_i64(r, &a[6], "self");
    f->rebinds = bcw__rd_bool(r, &a[7], "rebinds");
    rparam(r, &a[8], &f->ret);
    const msgpack_object *ps = bcw__rd_arr(r, &a[9], 0, "parameters");
    if (ps != NULL && a[9].via.array.size > BCW_MAX_PARAMS)
        bcw__rd_bad(r, "too many parameters");
    for (uint32_t i = 0; ps && r->err == 0 && i < a[9].via.array.size; i++) {
        rparam(r, &ps[i], &f->params[i]);
        f->nparams = i + 1;
    }
    for (unsigned i = 0; i < f->nparams; i++)
        if (f->params[i].pair >= (int)f->nparams)
            bcw__rd_bad(r, "parameter pair");
    if (f->self < -1 || f->self >= (int)f->nparams)
        bcw__rd_bad(r, "self");
    f->file = bcw__rd_str(r, &a[13], true, "function file");
    f->line = (unsigned)bcw__rd_u64(r, &a[14], UINT32_MAX, "function line");
    f->ok =
        (enum bcw_status)bcw__rd_u64(r, &a[15], BCW_STATUS_NONZERO, "status");
    f->retains = bcw__rd_bool(r, &a[16], "retains");
    f->teardown = (enum bcw_teardown)bcw__rd_u64(r, &a[17], BCW_TEARDOWN_RELEASES,
                                                 "teardown");
    f->defaults = bcw__rd_bool(r, &a[18], "defaults");
    f->family = bcw__rd_str(r, &a[19], true, "family");
    f->reads = bcw__rd_strv(r, &a[10], &f->nreads, "reads");
    f->wrote = bcw__rd_strv(r, &a[11], &f->nwrote, "writes");
    uint32_t nc;
    const msgpack_object *cs = bcw__rd_items(r, &a[12], sizeof *f->contracts,
                                             &f->contracts, &nc, "contracts");
    for (uint32_t i = 0; cs && r->err == 0 && i < nc; i++) {
        const msgpack_object *c = bcw__rd_arr(r, &cs[i], 2, "contract");
        if (c == NULL)
            break;
        f->contracts[i].kind = (enum bcw_contract_origin)bcw__rd_u64(
            r, &c[0], BCW_CK_INVARIANT, "kind");
        f->contracts[i].expr = bcw__rd_str(r, &c[1], false, "contract");
        f->ncontracts = i + 1;
    }
}

static void runit(bcw_rd *r, const msgpack_object *o, bcw_unit *u,
                  unsigned nsyms)
{
    const msgpack_object *a = bcw__rd_arr(r, o, 9, "unit");
    if (a == NULL)
        return;
    u->name = bcw__rd_str(r, &a[0], false, "unit name");
    u->ctype = bcw__rd_str(r, &a[1], false, "unit type");
    u->size = bcw__rd_u64(r, &a[2], UINT32_MAX, "unit size");
    u->invariant = (int)bcw__rd_i64(r, &a[3], "invariant");
    u->cell = bcw__rd_bool(r, &a[4], "cell");
    uint32_t n;
    rfields(r, &a[5], &u->fields, &u->nfields);
    const msgpack_object *fn =
        bcw__rd_items(r, &a[6], sizeof *u->funcs, &u->funcs, &n, "functions");
    for (uint32_t i = 0; fn && r->err == 0 && i < n; i++) {
        rfunc(r, &fn[i], &u->funcs[i], nsyms);
        u->nfuncs = i + 1;
    }
    if (u->invariant < -1 || u->invariant >= (int)u->nfuncs)
        bcw__rd_bad(r, "invariant");
    const msgpack_object *ps =
        bcw__rd_items(r, &a[7], sizeof *u->preds, &u->preds, &n, "predicates");
    for (uint32_t i = 0; ps && r->err == 0 && i < n; i++) {
        const msgpack_object *p = bcw__rd_arr(r, &ps[i], 9, "predicate");
        if (p == NULL)
            break;
        bcw_pred *q = &u->preds[i];
        u->npreds = i + 1;
        q->name = bcw__rd_str(r, &p[0], false, "predicate name");
        q->interface = bcw__rd_bool(r, &p[1], "interface");
        q->func = (int)bcw__rd_i64(r, &p[2], "predicate function");
        q->op = (enum bcw_cmp)bcw__rd_u64(r, &p[3], BCW_CMP_ULE, "comparison");
        rterm(r, &p[4], &q->l);
        rterm(r, &p[5], &q->r);
        q->users = bcw__rd_strv(r, &p[6], &q->nusers, "users");
        q->formal = bcw__rd_bool(r, &p[7], "formal");
        q->negated = bcw__rd_bool(r, &p[8], "negated");
        if (q->interface && (q->func < 0 || q->func >= (int)u->nfuncs))
            bcw__rd_bad(r, "predicate function");
    }
    const msgpack_object *hs =
        bcw__rd_items(r, &a[8], sizeof *u->handles, &u->handles, &n, "handles");
    for (uint32_t i = 0; hs && r->err == 0 && i < n; i++) {
        const msgpack_object *h = bcw__rd_arr(r, &hs[i], 4, "handle");
        if (h == NULL)
            break;
        bcw_handle *d = &u->handles[i];
        u->nhandles = i + 1;
        d->type = bcw__rd_str(r, &h[0], false, "handle type");
        d->from = bcw__rd_strv(r, &h[1], &d->nfrom, "handle from");
        d->users = bcw__rd_strv(r, &h[2], &d->nusers, "handle users");
        d->invalidators =
            bcw__rd_strv(r, &h[3], &d->ninvalidators, "invalidators");
    }
}

int bcw_model_load(bcw_model **out, const char *path)
{
    *out = NULL;
    bcw__error_clear();
    char *data = NULL;
    size_t len = 0;
    int err = bcw__read_file(&data, &len, path, MODEL_LIMIT);
    if (err == 0)
        err = bcw__model_from_bytes(out, data, len, path);
    free(data);
    return err;
}

int bcw__model_from_bytes(bcw_model **out, const char *data, size_t len,
                          const char *name)
{
    *out = NULL;
    bcw_rd r = {name, "model", 0};
    msgpack_unpacked up;
    msgpack_unpacked_init(&up);
    bcw_model *m = NULL;
    const msgpack_object *root =
        bcw__rd_root(&r, &up, data, len, MODEL_FORMAT, MODEL_VERSION,
                     "analyze the bitcode again");
    if (root == NULL)
        goto done;
    const msgpack_object *file = bcw__rd_field(root, "file");
    const msgpack_object *syms = bcw__rd_field(root, "syms");
    const msgpack_object *skipped = bcw__rd_field(root, "skipped");
    const msgpack_object *headers = bcw__rd_field(root, "headers");
    const msgpack_object *units = bcw__rd_field(root, "units");
    if (!file || !syms || !skipped || !headers || !units) {
        bcw__rd_bad(&r, "missing fields");
        goto done;
    }
    if ((m = bcw__calloc(1, sizeof *m)) == NULL) {
        r.err = BCW_ENOMEM;
        goto done;
    }
    m->path = bcw__rd_str(&r, file, false, "file");
    m->syms = bcw__rd_strv(&r, syms, &m->nsyms, "symbols");
    m->skipped = bcw__rd_strv(&r, skipped, &m->nskipped, "skipped");
    m->headers = bcw__rd_strv(&r, headers, &m->nheaders, "headers");
    uint32_t n;
    const msgpack_object *us =
        bcw__rd_items(&r, units, sizeof *m->units, &m->units, &n, "units");
    for (uint32_t i = 0; us && r.err == 0 && i < n; i++) {
        m->units[i].invariant = -1;
        runit(&r, &us[i], &m->units[i], m->nsyms);
        m->nunits = i + 1;
    }
done:
    msgpack_unpacked_destroy(&up);
    if (r.err != 0) {
        bcw_model_free(m);
        return r.err;
    }
    *out = m;
    return 0;
}
