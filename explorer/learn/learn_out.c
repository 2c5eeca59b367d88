/* learn_out.c - a learned model's outputs (learn.h): the text and JSON
 * reports, the graph in DOT, and the model's msgpack file. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"
#include "learn.h"
#include "pack.h"
#include "text.h"
#include "unpack.h"

#define LEARNED_FORMAT "bcwalk-learned"
#define LEARNED_VERSION 1
#define LEARNED_LIMIT ((size_t)1 << 30)
#define MAX_OBJECT (1 << 24) /* k of #k, Obj#k in a file, at most */

static unsigned unit_calls(const bcw_ltest *x)
{
    unsigned n = 0;
    for (unsigned i = 0; i < x->ncalls; i++)
        n += x->calls[i].func >= 0;
    return n;
}

/* A call as C: "queue_push_head(#0, Obj#1) = 1". */
static void call_text(FILE *f, const bcw_lcall *c)
{
    fprintf(f, "%s(", c->fn);
    for (unsigned a = 0; a < c->nargs; a++)
        fprintf(f, "%s%s", a ? ", " : "", c->args[a].text);
    fputc(')', f);
    for (unsigned o = 0; o < c->nouts; o++)
        fprintf(f, " [arg %u: %s]", c->out_arg[o] + 1, c->outs[o].text);
    if (c->outcome != NULL)
        fprintf(f, " -> %s", c->outcome);
    else if (c->result.kind != BCW_LV_NONE && c->result.text != NULL)
        fprintf(f, " = %s", c->result.text);
}

/* A node's calls as C: its function and each argument's values,
 * "a|b|c" (three, then "|..."). */
static void node_text(FILE *f, const bcw_lnode *nd, const char *sep)
{
    fprintf(f, "%s(", nd->fn);
    for (unsigned a = 0; a < nd->nargs; a++) {
        fputs(a ? ", " : "", f);
        const bcw_strlist *v = &nd->values[a];
        for (unsigned i = 0; i < v->n && i < 3; i++)
            fprintf(f, "%s%s", i ? sep : "", v->v[i]);
        if (v->n > 3)
            fprintf(f, "%s...", sep);
    }
    fputc(')', f);
}

static const char *edge_kind(uint8_t k)
{
    return k == BCW_LE_CONTROL ? "control" : "data";
}

int bcw__learned_text(const bcw_learned *l, FILE *f)
{
    fprintf(f,
            "Learned unit %s from %u test%s (%s; the program ran "
            "%u time%s, exit status %d)\n\n",
            l->unit, l->ntests, l->ntests == 1 ? "" : "s", l->how, l->runs,
            l->runs == 1 ? "" : "s", l->status);
    for (unsigned t = 0; t < l->ntests; t++) {
        const bcw_ltest *x = &l->tests[t];
        fprintf(f,
                "Test %s: %s; %u call%s of the unit (%" PRIu64
                " into the library)\n",
                x->name, x->end, unit_calls(x), unit_calls(x) == 1 ? "" : "s",
                x->made);
        unsigned shown = x->ncalls < 12 ? x->ncalls : 12;
        for (unsigned i = 0; i < shown; i++) {
            fputs("  ", f);
            call_text(f, &x->calls[i]);
            fputc('\n', f);
        }
        if (x->ncalls > shown)
            fprintf(f, "  ... %u more\n", x->ncalls - shown);
    }
    fprintf(f,
            "\nModel (k %u, %u): %u nodes and %u edges traced, %u nodes and "
            "%u edges merged\n",
            l->k_strict, l->k_loose, l->traced_nodes, l->traced_edges,
            l->graph.nnodes, l->graph.nedges);
    for (unsigned i = 0; i < l->graph.nnodes; i++) {
        const bcw_lnode *nd = &l->graph.nodes[i];
        fprintf(f, "  n%-3u ", i);
        node_text(f, nd, "|");
        if (nd->outcome)
            fprintf(f, " -> %s", nd->outcome);
        fprintf(f, "  x%u, %u test%s\n", nd->count, nd->tests.n,
                nd->tests.n == 1 ? "" : "s");
    }
    for (unsigned e = 0; e < l->graph.nedges; e++) {
        const bcw_ledge *x = &l->graph.edges[e];
        fprintf(f, "  n%u -> n%u %s", x->from, x->to, edge_kind(x->kind));
        if (x->kind == BCW_LE_DATA)
            fprintf(f, " (arg %u)", x->param + 1);
        fputc('\n', f);
    }
    return ferror(f) ? bcw__error(BCW_ERROR, "writing the report failed") : 0;
}

static void json_strs(FILE *f, const bcw_strlist *l)
{
    fputc('[', f);
    for (unsigned i = 0; i < l->n; i++) {
        fputs(i ? ", " : "", f);
        bcw__json_str(f, l->v[i]);
    }
    fputc(']', f);
}

static void json_call(FILE *f, const bcw_lcall *c)
{
    fputs("{\"fn\": ", f);
    bcw__json_str(f, c->fn);
    fprintf(f, ", \"unit\": %s, \"args\": [", c->func >= 0 ? "true" : "false");
    for (unsigned a = 0; a < c->nargs; a++) {
        fputs(a ? ", " : "", f);
        bcw__json_str(f, c->args[a].text);
    }
    fputc(']', f);
    if (c->result.kind != BCW_LV_NONE && c->result.text != NULL) {
        fputs(", \"result\": ", f);
        bcw__json_str(f, c->result.text);
    }
    if (c->nouts > 0) {
        fputs(", \"out\": {", f);
        for (unsigned o = 0; o < c->nouts; o++) {
            fprintf(f, "%s\"%u\": ", o ? ", " : "", c->out_arg[o]);
            bcw__json_str(f, c->outs[o].text);
        }
        fputc('}', f);
    }
    fputs(", \"outcome\": ", f);
    bcw__json_str(f, c->outcome ? c->outcome : "normal");
    if (c->where != NULL) {
        fputs(", \"where\": ", f);
        bcw__json_str(f, c->where);
    }
    fputc('}', f);
}

int bcw__learned_json(const bcw_learned *l, FILE *f)
{
    fputs("{\"unit\": ", f);
    bcw__json_str(f, l->unit);
    fputs(", \"found\": ", f);
    bcw__json_str(f, l->how);
    fprintf(f, ", \"test_functions\": %u, \"runs\": %u, \"status\": %d,\n",
            l->nfound, l->runs, l->status);
    fputs(" \"tests\": [", f);
    for (unsigned t = 0; t < l->ntests; t++) {
        const bcw_ltest *x = &l->tests[t];
        fputs(t ? ",\n  " : "\n  ", f);
        fputs("{\"name\": ", f);
        bcw__json_str(f, x->name);
        fputs(", \"end\": ", f);
        bcw__json_str(f, x->end);
        fprintf(f,
                ", \"passed\": %s, \"library_calls\": %" PRIu64
                ", \"unit_calls\": %u, \"calls\": [",
                x->passed ? "true" : "false", x->made, unit_calls(x));
        for (unsigned i = 0; i < x->ncalls; i++) {
            fputs(i ? ", " : "", f);
            json_call(f, &x->calls[i]);
        }
        fputs("]}", f);
    }
    fprintf(f,
            "],\n \"model\": {\"k\": [%u, %u], \"traced\": {\"nodes\": %u, "
            "\"edges\": %u}, \"merged\": {\"nodes\": %u, \"edges\": %u},\n"
            "  \"nodes\": [",
            l->k_strict, l->k_loose, l->traced_nodes, l->traced_edges,
            l->graph.nnodes, l->graph.nedges);
    for (unsigned i = 0; i < l->graph.nnodes; i++) {
        const bcw_lnode *nd = &l->graph.nodes[i];
        fprintf(f, "%s{\"id\": %u, \"fn\": ", i ? ",\n   " : "\n   ", i);
        bcw__json_str(f, nd->fn);
        fprintf(f, ", \"unit\": %s, \"outcome\": ",
                nd->func >= 0 ? "true" : "false");
        bcw__json_str(f, nd->outcome ? nd->outcome : "normal");
        fprintf(f, ", \"calls\": %u, \"args\": [", nd->count);
        for (unsigned a = 0; a < nd->nargs; a++) {
            fputs(a ? ", " : "", f);
            json_strs(f, &nd->values[a]);
        }
        fputs("], \"tests\": ", f);
        json_strs(f, &nd->tests);
        fputc('}', f);
    }
    fputs("],\n  \"edges\": [", f);
    for (unsigned e = 0; e < l->graph.nedges; e++) {
        const bcw_ledge *x = &l->graph.edges[e];
        fprintf(f, "%s{\"from\": %u, \"to\": %u, \"kind\": \"%s\"",
                e ? ",\n   " : "\n   ", x->from, x->to, edge_kind(x->kind));
        if (x->kind == BCW_LE_DATA)
            fprintf(f, ", \"param\": %u", x->param);
        fputc('}', f);
    }
    fputs("]}}\n", f);
    return ferror(f) ? bcw__error(BCW_ERROR, "writing the report failed") : 0;
}

/* on[e]: edge e lies on a cycle (its target reaches its source). */
static int edges_on_cycles(const bcw_lgraph *g, bool *on)
{
    unsigned n = g->nnodes;
    unsigned *queue = bcw__calloc(n + 1, sizeof *queue);
    bool *seen = bcw__calloc(n + 1, sizeof *seen);
    if (queue == NULL || seen == NULL) {
        free(queue);
        free(seen);
        return BCW_ENOMEM;
    }
    for (unsigned e = 0; e < g->nedges; e++) {
        unsigned from = g->edges[e].from, to = g->edges[e].to;
        memset(seen, 0, n);
        unsigned head = 0, tail = 0;
        queue[tail++] = to;
        seen[to] = true;
        while (head < tail && !seen[from])
            for (unsigned v = queue[head++], x = 0; x < g->nedges; x++)
                if (g->edges[x].from == v && !seen[g->edges[x].to]) {
                    seen[g->edges[x].to] = true;
                    queue[tail++] = g->edges[x].to;
                }
        on[e] = seen[from];
    }
    free(queue);
    free(seen);
    return 0;
}

static void dot_label(FILE *f, const bcw_lnode *nd)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (m == NULL)
        return;
    node_text(m, nd, " | ");
    if (nd->outcome)
        fprintf(m, "\n-> %s", nd->outcome);
    fprintf(m, "\nx%u", nd->count);
    fclose(m);
    bcw__json_str(f, text ? text : nd->fn); /* DOT strings escape as JSON's */
    free(text);
}

int bcw__learned_dot(const bcw_learned *l, FILE *f)
{
    const bcw_lgraph *g = &l->graph;
    bool *loop = bcw__calloc(g->nedges + 1, sizeof *loop);
    unsigned *producers =
        bcw__calloc((size_t)g->nnodes * TR_MAX_ARGS + 1, sizeof *producers);
    bool *has_in = bcw__calloc(g->nnodes + 1, sizeof *has_in);
    int err =
        loop && producers && has_in ? edges_on_cycles(g, loop) : BCW_ENOMEM;
    if (err < 0)
        goto done;
    fputs("digraph learned {\n  rankdir=TB;\n"
          "  node [shape=box, fontname=\"monospace\", fontsize=10];\n"
          "  edge [fontname=\"monospace\", fontsize=9];\n"
          "  start [shape=point, width=0.15];\n",
          f);
    fputs("  label=", f);
    char *title = bcw__sprintf("%s: learned from %u tests (k %u, %u)", l->unit,
                               l->ntests, l->k_strict, l->k_loose);
    bcw__json_str(f, title ? title : l->unit);
    free(title);
    fputs(";\n  labelloc=t;\n", f);
    for (unsigned i = 0; i < g->nnodes; i++) {
        const bcw_lnode *nd = &g->nodes[i];
        fprintf(f, "  n%u [label=", i);
        dot_label(f, nd);
        if (nd->outcome)
            fputs(", style=filled, fillcolor=pink", f);
        else if (nd->func < 0)
            fputs(", style=rounded, color=gray50", f);
        fputs("];\n", f);
    }
    for (unsigned e = 0; e < g->nedges; e++) {
        const bcw_ledge *x = &g->edges[e];
        has_in[x->to] = true;
        if (x->kind == BCW_LE_DATA)
            producers[(size_t)x->to * TR_MAX_ARGS + x->param]++;
    }
    for (unsigned i = 0; i < g->nnodes; i++)
        if (!has_in[i])
            fprintf(f, "  start -> n%u [color=sienna];\n", i);
    for (unsigned e = 0; e < g->nedges; e++) {
        const bcw_ledge *x = &g->edges[e];
        const char *bold = loop[e] ? ", penwidth=2.5" : "";
        if (x->kind == BCW_LE_CONTROL) {
            fprintf(f, "  n%u -> n%u [color=sienna%s];\n", x->from, x->to,
                    bold);
            continue;
        }
        if (producers[(size_t)x->to * TR_MAX_ARGS + x->param] > 1)
            fprintf(f, "  n%u -> one%u_%u [style=dashed, color=gray40%s];\n",
                    x->from, x->to, x->param, bold);
        else
            fprintf(f,
                    "  n%u -> n%u [style=dashed, color=gray40, "
                    "label=\"arg %u\"%s];\n",
                    x->from, x->to, x->param + 1, bold);
    }
    /* several producers of one argument: a oneOf diamond */
    for (unsigned i = 0; i < g->nnodes; i++)
        for (unsigned a = 0; a < TR_MAX_ARGS; a++)
            if (producers[(size_t)i * TR_MAX_ARGS + a] > 1)
                fprintf(f,
                        "  one%u_%u [shape=diamond, label=\"oneOf\", "
                        "fontsize=8];\n  one%u_%u -> n%u [style=dashed, "
                        "color=gray40, label=\"arg %u\"];\n",
                        i, a, i, a, i, a + 1);
    fputs("}\n", f);
    if (ferror(f))
        err = bcw__error(BCW_ERROR, "writing the graph failed");
done:
    free(loop);
    free(producers);
    free(has_in);
    return err;
}

/* ---- the file ---- */

static void pack_lval(msgpack_packer *pk, const bcw_lval *v)
{
    msgpack_pack_array(pk, 4);
    msgpack_pack_uint8(pk, v->kind);
    msgpack_pack_int64(pk, v->value);
    bcw__pack_str(pk, v->text);
    bcw__pack_str(pk, v->str);
}

static void pack_strs(msgpack_packer *pk, const bcw_strlist *l)
{
    msgpack_pack_array(pk, l->n);
    for (unsigned i = 0; i < l->n; i++)
        bcw__pack_str(pk, l->v[i]);
}

static void pack_call(msgpack_packer *pk, const bcw_lcall *c)
{
    msgpack_pack_array(pk, 7);
    bcw__pack_str(pk, c->fn);
    msgpack_pack_int32(pk, c->func);
    msgpack_pack_array(pk, c->nargs);
    for (unsigned a = 0; a < c->nargs; a++)
        pack_lval(pk, &c->args[a]);
    pack_lval(pk, &c->result);
    msgpack_pack_array(pk, c->nouts);
    for (unsigned o = 0; o < c->nouts; o++) {
        msgpack_pack_array(pk, 2);
        msgpack_pack_uint8(pk, c->out_arg[o]);
        pack_lval(pk, &c->outs[o]);
    }
    bcw__pack_str(pk, c->outcome);
    bcw__pack_str(pk, c->where);
}

int bcw__learned_save(const bcw_learned *l, const char *path)
{
    bcw_pack p;
    bcw__pack_init(&p, "the learned model", LEARNED_LIMIT);
    msgpack_packer *pk = &p.pk;
    msgpack_pack_map(pk, 13);
    bcw__pack_str(pk, "format");
    bcw__pack_str(pk, LEARNED_FORMAT);
    bcw__pack_str(pk, "version");
    msgpack_pack_uint32(pk, LEARNED_VERSION);
    bcw__pack_str(pk, "unit");
    bcw__pack_str(pk, l->unit);
    bcw__pack_str(pk, "how");
    bcw__pack_str(pk, l->how);
    bcw__pack_str(pk, "found");
    msgpack_pack_uint32(pk, l->nfound);
    bcw__pack_str(pk, "runs");
    msgpack_pack_uint32(pk, l->runs);
    bcw__pack_str(pk, "status");
    msgpack_pack_int32(pk, l->status);
    bcw__pack_str(pk, "k");
    msgpack_pack_array(pk, 2);
    msgpack_pack_uint32(pk, l->k_strict);
    msgpack_pack_uint32(pk, l->k_loose);
    bcw__pack_str(pk, "traced");
    msgpack_pack_array(pk, 2);
    msgpack_pack_uint32(pk, l->traced_nodes);
    msgpack_pack_uint32(pk, l->traced_edges);
    bcw__pack_str(pk, "tests");
    msgpack_pack_array(pk, l->ntests);
    for (unsigned t = 0; t < l->ntests; t++) {
        const bcw_ltest *x = &l->tests[t];
        msgpack_pack_array(pk, 5);
        bcw__pack_str(pk, x->name);
        bcw__pack_str(pk, x->end);
        msgpack_pack_uint8(pk, x->passed);
        msgpack_pack_uint64(pk, x->made);
        msgpack_pack_array(pk, x->ncalls);
        for (unsigned i = 0; i < x->ncalls; i++)
            pack_call(pk, &x->calls[i]);
    }
    bcw__pack_str(pk, "nodes");
    msgpack_pack_array(pk, l->graph.nnodes);
    for (unsigned i = 0; i < l->graph.nnodes; i++) {
        const bcw_lnode *nd = &l->graph.nodes[i];
        msgpack_pack_array(pk, 6);
        bcw__pack_str(pk, nd->fn);
        msgpack_pack_int32(pk, nd->func);
        bcw__pack_str(pk, nd->outcome);
        msgpack_pack_uint32(pk, nd->count);
        msgpack_pack_array(pk, nd->nargs);
        for (unsigned a = 0; a < nd->nargs; a++)
            pack_strs(pk, &nd->values[a]);
        pack_strs(pk, &nd->tests);
    }
    bcw__pack_str(pk, "edges");
    msgpack_pack_array(pk, l->graph.nedges);
    for (unsigned e = 0; e < l->graph.nedges; e++) {
        const bcw_ledge *x = &l->graph.edges[e];
        msgpack_pack_array(pk, 4);
        msgpack_pack_uint32(pk, x->from);
        msgpack_pack_uint32(pk, x->to);
        msgpack_pack_uint8(pk, x->kind);
        msgpack_pack_uint8(pk, x->param);
    }
    bcw__pack_seal(&p);
    int err = p.err != 0 ? p.err
                         : bcw__write_file_atomic(path, p.buf.data, p.buf.len);
    bcw__pack_free(&p);
    return err;
}

static void read_lval(bcw_rd *r, const msgpack_object *o, bcw_lval *v)
{
    const msgpack_object *a = bcw__rd_arr(r, o, 4, "value");
    if (a == NULL)
        return;
    v->kind = (uint8_t)bcw__rd_u64(r, &a[0], BCW_LV_FUNC, "value kind");
    v->value = bcw__rd_i64(r, &a[1], "value");
    v->text = bcw__rd_str(r, &a[2], true, "value text");
    v->str = bcw__rd_str(r, &a[3], true, "value bytes");
    /* what the readers of a value rely on */
    if (r->err == 0 && ((v->kind != BCW_LV_NONE && v->text == NULL) ||
                        (v->kind == BCW_LV_STRING && v->str == NULL) ||
                        ((v->kind == BCW_LV_UNIT || v->kind == BCW_LV_OBJ) &&
                         (v->value < 0 || v->value > MAX_OBJECT))))
        bcw__rd_bad(r, "value");
}

static void read_strs(bcw_rd *r, const msgpack_object *o, bcw_strlist *l)
{
    unsigned n = 0;
    char **v = bcw__rd_strv(r, o, &n, "strings");
    l->v = v;
    l->n = n;
    l->cap = n;
}

static void read_call(bcw_rd *r, const msgpack_object *o, bcw_lcall *c)
{
    const msgpack_object *a = bcw__rd_arr(r, o, 7, "call");
    if (a == NULL)
        return;
    c->fn = bcw__rd_str(r, &a[0], false, "call function");
    c->func = (int)bcw__rd_i64(r, &a[1], "call function index");
    const msgpack_object *args = bcw__rd_arr(r, &a[2], 0, "call arguments");
    if (args != NULL && a[2].via.array.size <= TR_MAX_ARGS) {
        c->nargs = a[2].via.array.size;
        for (unsigned i = 0; i < c->nargs; i++)
            read_lval(r, &args[i], &c->args[i]);
    } else if (args != NULL)
        bcw__rd_bad(r, "too many arguments");
    read_lval(r, &a[3], &c->result);
    const msgpack_object *outs = bcw__rd_arr(r, &a[4], 0, "call outs");
    if (outs != NULL && a[4].via.array.size > TR_MAX_ARGS)
        bcw__rd_bad(r, "too many outs");
    else if (outs != NULL)
        for (unsigned i = 0; i < a[4].via.array.size; i++) {
            const msgpack_object *pr = bcw__rd_arr(r, &outs[i], 2, "out");
            if (pr == NULL)
                break;
            c->out_arg[c->nouts] = (uint8_t)bcw__rd_u64(
                r, &pr[0], TR_MAX_ARGS - 1, "out argument");
            if (c->out_arg[c->nouts] >= c->nargs)
                bcw__rd_bad(r, "out argument");
            read_lval(r, &pr[1], &c->outs[c->nouts++]);
        }
    c->outcome = bcw__rd_str(r, &a[5], true, "call outcome");
    c->where = bcw__rd_str(r, &a[6], true, "call place");
}

int bcw__learned_load(bcw_learned *out, const char *path)
{
    memset(out, 0, sizeof *out);
    char *data = NULL;
    size_t len = 0;
    int err = bcw__read_file(&data, &len, path, LEARNED_LIMIT);
    if (err < 0)
        return err;
    bcw_rd r = {path, "learned model", 0};
    msgpack_unpacked up;
    msgpack_unpacked_init(&up);
    const msgpack_object *root =
        bcw__rd_root(&r, &up, data, len, LEARNED_FORMAT, LEARNED_VERSION,
                     "learn it again with this bcwalk");
    if (root != NULL) {
        out->unit = bcw__rd_str(&r, bcw__rd_field(root, "unit"), false, "unit");
        out->how = bcw__rd_str(&r, bcw__rd_field(root, "how"), false, "how");
        out->nfound = (unsigned)bcw__rd_u64(&r, bcw__rd_field(root, "found"),
                                            UINT32_MAX, "found");
        out->runs = (unsigned)bcw__rd_u64(&r, bcw__rd_field(root, "runs"),
                                          UINT32_MAX, "runs");
        out->status =
            (int)bcw__rd_i64(&r, bcw__rd_field(root, "status"), "status");
        const msgpack_object *k =
            bcw__rd_arr(&r, bcw__rd_field(root, "k"), 2, "k");
        const msgpack_object *tr =
            bcw__rd_arr(&r, bcw__rd_field(root, "traced"), 2, "traced");
        if (k != NULL && tr != NULL) {
            out->k_strict = (unsigned)bcw__rd_u64(&r, &k[0], 64, "k");
            out->k_loose = (unsigned)bcw__rd_u64(&r, &k[1], 64, "k");
            out->traced_nodes =
                (unsigned)bcw__rd_u64(&r, &tr[0], UINT32_MAX, "traced");
            out->traced_edges =
                (unsigned)bcw__rd_u64(&r, &tr[1], UINT32_MAX, "traced");
        }
        uint32_t n = 0;
        const msgpack_object *tests =
            bcw__rd_items(&r, bcw__rd_field(root, "tests"), sizeof(bcw_ltest),
                          &out->tests, &n, "tests");
        out->ntests = n;
        for (unsigned t = 0; t < n && r.err == 0; t++) {
            bcw_ltest *x = &out->tests[t];
            const msgpack_object *a = bcw__rd_arr(&r, &tests[t], 5, "test");
            if (a == NULL)
                break;
            x->name = bcw__rd_str(&r, &a[0], false, "test name");
            x->end = bcw__rd_str(&r, &a[1], false, "test end");
            x->passed = bcw__rd_u64(&r, &a[2], 1, "test passed") != 0;
            x->made = bcw__rd_u64(&r, &a[3], UINT64_MAX, "test calls");
            uint32_t nc = 0;
            const msgpack_object *calls = bcw__rd_items(
                &r, &a[4], sizeof(bcw_lcall), &x->calls, &nc, "test calls");
            x->ncalls = nc;
            for (unsigned i = 0; i < nc && r.err == 0; i++)
                read_call(&r, &calls[i], &x->calls[i]);
        }
        const msgpack_object *nodes =
            bcw__rd_items(&r, bcw__rd_field(root, "nodes"), sizeof(bcw_lnode),
                          &out->graph.nodes, &n, "nodes");
        out->graph.nnodes = n;
        for (unsigned i = 0; i < n && r.err == 0; i++) {
            bcw_lnode *nd = &out->graph.nodes[i];
            const msgpack_object *a = bcw__rd_arr(&r, &nodes[i], 6, "node");
            if (a == NULL)
                break;
            nd->fn = bcw__rd_str(&r, &a[0], false, "node function");
            nd->func = (int)bcw__rd_i64(&r, &a[1], "node function index");
            nd->outcome = bcw__rd_str(&r, &a[2], true, "node outcome");
            nd->count = (unsigned)bcw__rd_u64(&r, &a[3], UINT32_MAX, "count");
            const msgpack_object *vals =
                bcw__rd_arr(&r, &a[4], 0, "node values");
            if (vals != NULL && a[4].via.array.size <= TR_MAX_ARGS) {
                nd->nargs = a[4].via.array.size;
                for (unsigned v = 0; v < nd->nargs; v++)
                    read_strs(&r, &vals[v], &nd->values[v]);
            } else if (vals != NULL)
                bcw__rd_bad(&r, "too many arguments");
            read_strs(&r, &a[5], &nd->tests);
        }
        const msgpack_object *edges =
            bcw__rd_items(&r, bcw__rd_field(root, "edges"), sizeof(bcw_ledge),
                          &out->graph.edges, &n, "edges");
        out->graph.nedges = n;
        for (unsigned e = 0; e < n && r.err == 0; e++) {
            const msgpack_object *a = bcw__rd_arr(&r, &edges[e], 4, "edge");
            if (a == NULL)
                break;
            bcw_ledge *x = &out->graph.edges[e];
            x->from = (unsigned)bcw__rd_u64(&r, &a[0], UINT32_MAX, "edge");
            x->to = (unsigned)bcw__rd_u64(&r, &a[1], UINT32_MAX, "edge");
            x->kind = (uint8_t)bcw__rd_u64(&r, &a[2], BCW_LE_DATA, "edge");
            x->param = (uint8_t)bcw__rd_u64(&r, &a[3], TR_MAX_ARGS - 1, "edge");
            if (x->from >= out->graph.nnodes || x->to >= out->graph.nnodes ||
                (x->kind == BCW_LE_DATA &&
                 x->param >= out->graph.nodes[x->to].nargs))
                bcw__rd_bad(&r, "edge to no node");
        }
    }
    msgpack_unpacked_destroy(&up);
    free(data);
    if (r.err < 0)
        bcw__learned_free(out);
    return r.err;
}
