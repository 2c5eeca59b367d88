/* report.c - prints walks as JWalk does (in C syntax), as JSON and as
 * JSON lines. */
#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include "engine.h"

#include "build.h"
#include "learn.h"
#include "plan.h"
#include "text.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#define SHOWN_CHARS 24 /* of a string argument, then its length */
/* A result or out value in words: a returned string or a buffer's
 * content, quoted, fits (4 characters a byte at worst) */
#define VALUE_CHARS (4 * BCW_TEXT_MAX + 16)

/* Parameter of `g` through which it gives out handle h (the storage it
 * fills), or -1. */
static int given_in(const bcw_unit *u, const bcw_func *g, int h)
{
    for (unsigned q = 0; q < g->nparams; q++)
        if (bcw__handle_given_in(u, g, q) == h)
            return (int)q;
    return -1;
}

/* A struct result of f as "{ptr#0, 7}": its first element `first`, the
 * others as the worker reported them after f's parameters' outs. */
static void struct_text(const bcw_func *f, uint64_t first, const uint64_t *outs,
                        char *buf, size_t n)
{
    size_t len = (size_t)snprintf(buf, n, "{");
    for (unsigned e = 0; e < f->ret.nsig && len < n; e++) {
        char v[64];
        unsigned slot = f->nparams + e - 1;
        if (e > 0 && (outs == NULL || slot >= BCW_MAX_PARAMS))
            snprintf(v, sizeof v, "?");
        else
            bcw_value_format(v, sizeof v, BCW_PK_OUT,
                             (enum bcw_abi)f->ret.sig[e],
                             e == 0 ? first : outs[slot], 1);
        len += (size_t)snprintf(buf + len, n - len, "%s%s", e ? ", " : "", v);
    }
    if (len < n)
        snprintf(buf + len, n - len, "}");
}

/* The handle argument of parameter `pa` of call k: the result of the
 * earlier call giving out that handle `age` calls before the last one
 * that did, as the worker passed it, or the storage it filled ("&iter",
 * an older one "&iter_1"); a call with none takes NULL, or is not made
 * ("none", in C a comment). */
static void handle_arg(const bcw_reporter *r, const bcw_seq *seq, unsigned k,
                       const bcw_param *pa, unsigned age, char *buf, size_t n,
                       bool json)
{
    int h = bcw__handle_index(r->unit, pa->detail);
    for (unsigned j = k, older = 0; j-- > 0;) {
        const bcw_func *g = &r->unit->funcs[r->steps[seq->steps[j]].func];
        int q = h < 0 ? -1 : given_in(r->unit, g, h);
        if (q < 0 && (h < 0 || bcw__handle_given(r->unit, g) != h))
            continue;
        if (older++ < age)
            continue;
        if (q >= 0) {
            if (age > 0)
                snprintf(buf, n, "&%s_%u", g->params[q].name, age);
            else
                snprintf(buf, n, "&%s", g->params[q].name);
            return;
        }
        if (seq->rets[j] == BCW_PTR_NULL)
            break;
        bcw_value_format(buf, n, BCW_PK_HANDLE, BCW_ABI_PTR, seq->rets[j], 1);
        return;
    }
    if (pa->nullable)
        snprintf(buf, n, "NULL");
    else if (json)
        snprintf(buf, n, "none");
    else
        snprintf(buf, n, "/* no %s */", pa->detail);
}

/* Another unit's argument made by constructor `ctor` of unit `other`:
 * "sbuf_new(3)", "rb_tree_new(int_compare)", "cc_array_new(&out)",
 * "conf_init(&storage)", with the generated arguments drawn from `gen`
 * as the worker drew them, other units' instances in turn. */
static void ctor_call(const bcw_reporter *r, unsigned other, int ctor,
                      int depth, bcw_gen *gen, char *buf, size_t n)
{
    const bcw_func *f = &r->model->units[other].funcs[ctor];
    int len = snprintf(buf, n, "%s(", f->name);
    for (unsigned k = 0; k < f->nparams && len > 0 && (size_t)len < n; k++) {
        char v[256];
        const bcw_param *p = &f->params[k];
        unsigned sub = 0;
        int c = bcw__unit_ref_ctor_within(r->model, p, &sub, depth - 1);
        if (p->kind == BCW_PK_CALLBACK) {
            snprintf(v, sizeof v, "%s", p->parts[0].str);
        } else if (c >= 0) {
            ctor_call(r, sub, c, depth - 1, gen, v, sizeof v);
        } else if (p->kind == BCW_PK_UNIT_OUT) {
            snprintf(v, sizeof v, "&out");
        } else if (p->kind == BCW_PK_UNIT) {
            snprintf(v, sizeof v, "&storage");
        } else {
            bcw_value_format(v, sizeof v, p->kind, p->abi,
                             bcw_gen_next(gen, p->kind, p->abi), 0);
        }
        len += snprintf(buf + len, n - (size_t)len, "%s%s", k ? ", " : "", v);
    }
    if (len > 0 && (size_t)len + 1 < n)
        snprintf(buf + len, n - (size_t)len, ")");
}

/* Another unit's argument: its constructor's call (ctor_call), or
 * "&scratch" when it has no constructor bcwalk can call. */
static void unit_ref_arg(const bcw_reporter *r, const bcw_param *pa,
                         bcw_gen *gen, char *buf, size_t n)
{
    unsigned other = 0;
    int ctor = r->model ? bcw__unit_ref_ctor(r->model, pa, &other) : -1;
    if (ctor < 0)
        snprintf(buf, n, "&scratch");
    else
        ctor_call(r, other, ctor, BCW_REF_DEPTH, gen, buf, n);
}

/* A string argument: a C literal (so ASCII), a long one by its start
 * and length, or NULL. */
static void string_arg(char *buf, size_t n, const char *str)
{
    if (str == NULL) {
        snprintf(buf, n, "NULL");
        return;
    }
    size_t len = strlen(str);
    char head[SHOWN_CHARS + 1], q[4 * SHOWN_CHARS + 3];
    snprintf(head, sizeof head, "%s", str);
    if (len > SHOWN_CHARS) {
        bcw__c_quote_to(q, sizeof q, head, '"');
        snprintf(buf, n, "%.26s... (%zu chars)", q, len);
    } else {
        bcw__c_quote_to(buf, n, head, '"');
    }
}

/* A call's text (a string it returned, a buffer it filled) as a C
 * literal, any bytes escaped, `...` after one that went on. */
static void text_literal(const bcw_seq_text *t, char *buf, size_t n)
{
    char bytes[BCW_TEXT_MAX + 1];
    memcpy(bytes, t->at, t->n);
    bytes[t->n] = '\0';
    size_t len = bcw__c_quote_to(buf, n, bytes, '"');
    if (t->cut && len < n)
        snprintf(buf + len, n - len, "...");
}

const bcw_func *bcw__report_call(const bcw_reporter *r, const bcw_seq *seq,
                                 unsigned k, bcw_gen *gen, char (*args)[64],
                                 const char **labels, char *result, size_t n,
                                 bool json)
{
    const bcw_unit *u = r->unit;
    const bcw_step *st = &r->steps[seq->steps[k]];
    const bcw_func *f = &u->funcs[st->func];
    for (unsigned p = 0; p < f->nparams; p++) {
        const bcw_param *pa = &f->params[p];
        labels[p] = st->label[p];
        if (st->relative[p]) {
            /* computed from the object at call time: the value the
             * worker passed, or the bound if the call did not report or
             * was not made (the object allowed no value) */
            bool unmade = seq->outcome == BCW_RUN_REJECTED &&
                          seq->signo == BCW_SIG_UNMET && seq->halted_at == k;
            if (seq->outs[k] != NULL && !unmade)
                bcw_value_format(args[p], 64, BCW_PK_INT, pa->abi,
                                 seq->outs[k][p], 0);
            else
                snprintf(args[p], 64, "%s", st->relative[p]->rel_text);
            continue;
        }
        if (st->fixed[p] && st->part[p] != NULL && st->part[p]->str) {
            if (pa->kind == BCW_PK_CALLBACK)
                snprintf(args[p], 64, "%s", st->part[p]->str);
            else
                string_arg(args[p], 64, st->part[p]->str);
            continue;
        }
        if (pa->kind == BCW_PK_BUFFER && seq->outs[k] != NULL) {
            snprintf(args[p], 64, "bytes[%llu]",
                     (unsigned long long)seq->outs[k][p]);
            continue;
        }
        if (st->fixed[p]) {
            bcw_value_format(args[p], 64,
                             pa->kind == BCW_PK_ELEMENT ? BCW_PK_ELEMENT
                                                        : BCW_PK_INT,
                             pa->abi, (uint64_t)st->value[p], 0);
            continue;
        }
        if (pa->kind == BCW_PK_HANDLE) {
            handle_arg(r, seq, k, pa, st->age[p], args[p], 64, json);
            continue;
        }
        if (pa->kind == BCW_PK_UNIT_REF) {
            unit_ref_arg(r, pa, gen, args[p], 64);
            continue;
        }
        if (st->custom[p]) {
            /* the custom generator's draw, replayed as the worker made it */
            const char *str = NULL;
            uint64_t raw = bcw__generator_next(r->gen, f, p, gen, &str);
            if (pa->kind == BCW_PK_STRING)
                string_arg(args[p], 64, str);
            else
                bcw_value_format(args[p], 64, pa->kind, pa->abi, raw, 0);
            continue;
        }
        if (bcw__handle_given_in(u, f, p) >= 0) {
            /* storage the call fills and gives out as a handle */
            snprintf(args[p], 64, "&%s", pa->name);
            continue;
        }
        uint64_t raw = bcw_gen_next(gen, pa->kind, pa->abi);
        if ((pa->kind == BCW_PK_UNIT || pa->kind == BCW_PK_UNIT_DEREF) &&
            (json || u->cell))
            /* a cell unit's cell is &target; its value, target */
            snprintf(args[p], 64, "%s%s",
                     u->cell && pa->kind == BCW_PK_UNIT ? "&" : "",
                     json ? "#0" : "target");
        else
            bcw_value_format(args[p], 64, pa->kind, pa->abi, raw, 0);
    }
    result[0] = '\0';
    bcw_seq_text t = {0};
    if (f->ret.kind == BCW_PK_STRING && seq->outs[k] != NULL)
        t = bcw_seq_text_of(seq->outs[k]);
    if (f->ret.kind == BCW_PK_STRUCT)
        struct_text(f, seq->rets[k], seq->outs[k], result, n);
    else if (t.there && t.of == 0)
        /* a string by its content: the same whatever its address */
        text_literal(&t, result, n);
    else if (f->ret.kind == BCW_PK_STRING)
        /* NULL, or where the worker could not read: by its number */
        bcw_value_format(result, n, BCW_PK_ELEMENT, f->ret.abi, seq->rets[k],
                         1);
    else if (f->ret.kind != BCW_PK_NONE)
        bcw_value_format(result, n, f->ret.kind, f->ret.abi, seq->rets[k], 1);
    return f;
}

/* What call parameter p left behind (outs: the call's out block): an
 * out-parameter's value, how often a built-in callback was called ("2
 * calls"), or a buffer's content.  False if nothing. */
static bool out_text(const bcw_step *st, const bcw_param *pa, unsigned p,
                     const uint64_t *outs, char *buf, size_t n)
{
    uint64_t raw = outs[p];
    if (bcw__param_filled(pa)) {
        bcw_seq_text t = bcw_seq_text_of(outs);
        if (!t.there || t.of != p + 1)
            return false;
        text_literal(&t, buf, n);
        return true;
    }
    if (pa->kind == BCW_PK_OUT) {
        bcw_value_format(buf, n, BCW_PK_OUT, pa->pointee, raw, 1);
        return true;
    }
    if (pa->kind == BCW_PK_CALLBACK && st->part[p] != NULL &&
        st->part[p]->nvalues > 0 && st->part[p]->values[0] < 0) {
        snprintf(buf, n, "%llu call%s", (unsigned long long)raw,
                 raw == 1 ? "" : "s");
        return true;
    }
    return false;
}

/* "REQUIRES(amount > 0)": the failed contract of the call that halted,
 * its text from the model when the method has one of that kind. */
static const char *contract_text(const bcw_reporter *r, const bcw_seq *s)
{
    static char buf[160];
    static const char *const kinds[] = {"contract", "REQUIRES", "ENSURES",
                                        "INVARIANT"};
    enum bcw_contract_origin ck = s->signo == 1   ? BCW_CK_REQUIRES
                                  : s->signo == 2 ? BCW_CK_ENSURES
                                                  : BCW_CK_INVARIANT;
    const char *kind = kinds[s->signo <= 3 ? s->signo : 0];
    const char *expr = NULL;
    if (s->halted_at <= s->len) {
        const bcw_func *f =
            &r->unit->funcs[r->steps[s->steps[s->halted_at]].func];
        for (unsigned k = 0; k < f->ncontracts; k++) {
            if (f->contracts[k].kind != ck)
                continue;
            expr = expr == NULL ? f->contracts[k].expr : "";
        }
    }
    if (expr != NULL && expr[0] != '\0')
        snprintf(buf, sizeof buf, "%s(%s)", kind, expr);
    else
        snprintf(buf, sizeof buf, "%s", kind);
    return buf;
}

/* The destructor that ended sequence s, as the worker chose it. */
static const char *destructor_of(const bcw_reporter *r, const bcw_seq *s)
{
    unsigned d = bcw_wire_destructor_of(s->steps, s->len, r->ndtors);
    return r->ndtors > 0 ? r->unit->funcs[r->steps[r->dtors[d]].func].name
                         : "?";
}

/* The function of call c of sequence s: its constructor (0), a method
 * or the destructor (len + 1). */
static const char *call_name(const bcw_reporter *r, const bcw_seq *s,
                             uint32_t c)
{
    if (c <= s->len)
        return r->unit->funcs[r->steps[s->steps[c]].func].name;
    return c == s->len + 1 || c == s->len + 2 ? destructor_of(r, s) : "?";
}

/* Where address pc of the worker is, " in f (f.c:12)" (" in f" without
 * `line`), appended to buf (n bytes); nothing when the symbolizer cannot
 * tell. */
static void append_site(const bcw_reporter *r, uint64_t pc, bool line,
                        char *buf, size_t n)
{
    char func[128], file[128];
    unsigned lineno;
    size_t len = strlen(buf);
    if (len >= n || r->symbols == NULL ||
        !bcw__symbols_get(r->symbols, pc, func, sizeof func, file, sizeof file,
                          &lineno))
        return;
    if (file[0] && lineno && line)
        snprintf(buf + len, n - len, " in %s (%s:%u)", func, file, lineno);
    else
        snprintf(buf + len, n - len, " in %s", func);
}

/* "a 16-byte block allocated in t_grow (t.c:12)" (by call c of s, where
 * the site is unknown), with " and freed in ..." for a freed one. */
static void block_text(const bcw_reporter *r, const bcw_seq *s,
                       const bcw_wire_cause *c, bool freed, char *buf, size_t n)
{
    snprintf(buf, n, "a %u-byte block allocated", c->size);
    size_t len = strlen(buf);
    append_site(r, c->alloc_site, true, buf, n);
    if (strlen(buf) == len)
        snprintf(buf + len, n - len, " by %s", call_name(r, s, c->alloc_call));
    if (!freed)
        return;
    len = strlen(buf);
    snprintf(buf + len, n - len, " and freed");
    len = strlen(buf);
    append_site(r, c->free_site, true, buf, n);
    if (strlen(buf) == len)
        snprintf(buf + len, n - len, " by %s", call_name(r, s, c->free_call));
}

/* ": read of address 0x8", ": write 4 bytes past the end of a 16-byte
 * block allocated in t_new (t.c:3)" ...: a faulting access as bcw_where
 * placed it, the same from run to run. */
static void address_text(const bcw_reporter *r, const bcw_seq *s,
                         const bcw_wire_cause *c, char *buf, size_t n)
{
    const char *verb = c->access == BCW_ACCESS_WRITE ? "write" : "read";
    char block[256];
    block_text(r, s, c, c->where == BCW_WHERE_FREED, block, sizeof block);
    switch (c->where) {
    case BCW_WHERE_LOW:
        snprintf(buf, n, ": %s address 0x%llx",
                 c->access == BCW_ACCESS_WRITE ? "write to" : "read of",
                 (unsigned long long)c->addr);
        break;
    case BCW_WHERE_BLOCK:
    case BCW_WHERE_FREED:
        snprintf(buf, n, ": %s at offset %llu of %s", verb,
                 (unsigned long long)c->addr, block);
        break;
    case BCW_WHERE_PAST:
        snprintf(buf, n, ": %s %llu bytes past the end of %s", verb,
                 (unsigned long long)c->addr, block);
        break;
    case BCW_WHERE_STACK:
        snprintf(buf, n, ": stack overflow");
        break;
    default:
        snprintf(buf, n, ": %s an address outside the heap's blocks",
                 c->access == BCW_ACCESS_WRITE ? "write to" : "read of");
        break;
    }
}

/* What the worker saw of s's halt (bcw_wire_cause) in words; false when
 * it said nothing. */
static bool worker_cause(const bcw_reporter *r, const bcw_seq *s, char *buf,
                         size_t n)
{
    const bcw_wire_cause *c = s->cause;
    if (c == NULL)
        return false;
    switch (c->kind) {
    case BCW_CAUSE_SIGNAL:
        snprintf(buf, n, "%s", bcw__signal_name(s->signo));
        if (c->access != BCW_ACCESS_UNKNOWN)
            address_text(r, s, c, buf + strlen(buf), n - strlen(buf));
        break;
    case BCW_CAUSE_OVERFLOW: {
        char block[256];
        block_text(r, s, c, c->free_call != UINT32_MAX, block, sizeof block);
        /* the call that wrote is the sequence's last: no site */
        snprintf(buf, n, "heap overflow: a write past the end of %s", block);
        return true;
    }
    case BCW_CAUSE_DOUBLE_FREE: {
        char block[256];
        block_text(r, s, c, true, block, sizeof block);
        snprintf(buf, n, "double free of %s, freed again", block);
        break;
    }
    case BCW_CAUSE_ASSERT: {
        /* "expr\tfile\tline" */
        char text[sizeof c->text + 1];
        memcpy(text, c->text, sizeof c->text);
        text[sizeof c->text] = '\0';
        char *file = strchr(text, '\t'), *line = NULL;
        if (file != NULL && (line = strchr(file + 1, '\t')) != NULL)
            *file++ = '\0', *line++ = '\0';
        if (line != NULL)
            snprintf(buf, n, "assertion failed: %s (%s:%s)", text, file, line);
        else
            snprintf(buf, n, "assertion failed: %s", text);
        return true;
    }
    case BCW_CAUSE_ABORT:
        snprintf(buf, n, "abort() called");
        break;
    case BCW_CAUSE_EXIT:
        snprintf(buf, n, "exit(%d) called", (int)c->size);
        break;
    case BCW_CAUSE_EXEC: {
        char text[sizeof c->text + 1];
        memcpy(text, c->text, sizeof c->text);
        text[sizeof c->text] = '\0';
        snprintf(buf, n, "exec of \"%s\" called (not run)", text);
        break;
    }
    case BCW_CAUSE_MEMORY:
        snprintf(buf, n,
                 "runaway allocation: %u more bytes would pass the "
                 "sequence's limit (--worker-memory)",
                 c->size);
        break;
    case BCW_CAUSE_DIED:
        snprintf(buf, n,
                 "the worker ended with status %d, by no call bcwalk "
                 "intercepts",
                 (int)c->size);
        return true;
    case BCW_CAUSE_SCRIBBLE:
        /* found after the call returned: no site */
        snprintf(buf, n, "wrote over bcwalk's shared memory%s",
                 c->size == 1 ? " after the sequence ended (a thread or "
                                "process it left)"
                              : "");
        return true;
    case BCW_CAUSE_SANITIZER:
    case BCW_CAUSE_UNDEFINED: {
        char text[sizeof c->text + 1];
        memcpy(text, c->text, sizeof c->text);
        text[sizeof c->text] = '\0';
        snprintf(buf, n, "%s: %s",
                 c->kind == BCW_CAUSE_SANITIZER ? "AddressSanitizer"
                                                : "undefined behaviour",
                 text);
        if (c->access != BCW_ACCESS_UNKNOWN)
            address_text(r, s, c, buf + strlen(buf), n - strlen(buf));
        break;
    }
    default:
        return false;
    }
    /* where a stack overflows depends on where the stack starts: the
     * function, not the line */
    append_site(r, c->pc,
                !(c->kind == BCW_CAUSE_SIGNAL && c->where == BCW_WHERE_STACK),
                buf, n);
    return true;
}

/* Why sequence s halted, in words ("SIGSEGV: read of address 0x0 in f
 * (f.c:3)", "no node handle given out"): what the worker saw, else what
 * its outcome and signal say. */
static void cause_text(const bcw_reporter *r, const bcw_seq *s, char *buf,
                       size_t n)
{
    const bcw_func *f =
        s->halted_at <= s->len
            ? &r->unit->funcs[r->steps[s->steps[s->halted_at]].func]
            : NULL;
    const char *type = NULL;
    bool head = false; /* takes a list's head it does not check */
    for (unsigned k = 0; f != NULL && k < f->nparams; k++) {
        if (f->params[k].kind == BCW_PK_HANDLE && type == NULL)
            type = f->params[k].detail;
        head |=
            f->params[k].kind == BCW_PK_UNIT_DEREF && !f->params[k].nullable;
    }
    buf[0] = '\0';
    switch (s->outcome) {
    case BCW_RUN_CRASH:
    case BCW_RUN_ABORT:
        if (worker_cause(r, s, buf, n))
            break;
        if (s->signo == BCW_SIG_OVERFLOW)
            snprintf(buf, n, "heap overflow (a write past the end of a block)");
        else
            snprintf(buf, n, "%s", bcw__signal_name(s->signo));
        break;
    case BCW_RUN_HANG:
        if (s->cause != NULL && s->cause->kind == BCW_CAUSE_CPU)
            snprintf(buf, n,
                     "its worker passed its CPU time limit, %u s "
                     "(--worker-cpu)",
                     s->cause->size);
        else
            snprintf(buf, n, "no return within %u ms", r->timeout_ms);
        break;
    case BCW_RUN_REJECTED:
        if (s->signo == BCW_SIG_FREED)
            snprintf(buf, n, "the %s handle was freed since it was given out",
                     type ? type : "");
        else if (s->signo == BCW_SIG_NO_ARG && head && type == NULL)
            snprintf(buf, n,
                     "the list is empty (the function does not check its "
                     "entry for NULL)");
        else if (s->signo == BCW_SIG_NO_ARG && type != NULL)
            snprintf(buf, n, "no %s handle given out", type);
        else if (s->signo == BCW_SIG_NO_ARG)
            snprintf(buf, n, "no instance for an argument");
        else if (s->signo == BCW_SIG_UNMET)
            snprintf(buf, n,
                     "no value of an argument's category on the object as it "
                     "is: the call was not made");
        else if (s->signo == 0)
            snprintf(buf, n, "the constructor returned NULL");
        else
            snprintf(buf, n, "%s", contract_text(r, s));
        break;
    case BCW_RUN_FAILURE:
        if (s->signo == BCW_SIG_INVARIANT && r->unit->invariant >= 0)
            snprintf(buf, n, "invariant %s(target) is false after the call",
                     r->unit->funcs[r->unit->invariant].name);
        else
            snprintf(buf, n, "%s", contract_text(r, s));
        break;
    default:
        break;
    }
}

/* How the call that halted is described after "==> ": its outcome and
 * cause ("*crash* SIGSEGV ..."), a NULL constructor "NULL  *rejected*". */
static void halt_text(const bcw_reporter *r, const bcw_seq *s, char *buf,
                      size_t n)
{
    if (s->outcome == BCW_RUN_REJECTED && s->signo == 0) {
        snprintf(buf, n, "NULL  *rejected*");
        return;
    }
    char cause[320];
    cause_text(r, s, cause, sizeof cause);
    snprintf(buf, n, "*%s* %s", bcw__outcome_name(s->outcome), cause);
}

/* The destructor's argument as the reports show it: the object, or NULL
 * where the halt was its call with NULL (BCW_WIRE_NULLABLE_SELF). */
static const char *dtor_arg(const bcw_seq *s, bool json)
{
    if (s->halted_at == s->len + 2u && s->outcome != BCW_RUN_NORMAL)
        return "NULL";
    return json ? "#0" : "target";
}

/* Calls shown for a sequence: up to the one that halted, the destructor
 * included when it was the one. */
static unsigned shown_calls(const bcw_seq *s)
{
    if (s->outcome == BCW_RUN_NORMAL || s->outcome == BCW_RUN_REJECTED)
        return s->len + 1;
    return s->halted_at <= s->len ? s->halted_at + 1u : s->len + 2u;
}

/* "2 blocks, 24 bytes, the first allocated in t_add (t.c:9)": what s's
 * destructor left that nothing reaches (bcw_seq.leak). */
static void leak_text(const bcw_reporter *r, const bcw_seq *s, char *buf,
                      size_t n)
{
    const bcw_wire_cause *c = s->leak;
    snprintf(buf, n, "%llu block%s, %u bytes, %sallocated",
             (unsigned long long)c->addr, c->addr == 1 ? "" : "s", c->size,
             c->addr == 1 ? "" : "the first ");
    size_t len = strlen(buf);
    append_site(r, c->alloc_site, true, buf, n);
    if (strlen(buf) == len)
        snprintf(buf + len, n - len, " by %s", call_name(r, s, c->alloc_call));
    len = strlen(buf);
    snprintf(buf + len, n - len, ", left by %s", destructor_of(r, s));
}

void bcw__report_words(const bcw_reporter *r, const bcw_seq *s, char *cause,
                       size_t ncause, char *leak, size_t nleak)
{
    cause[0] = leak[0] = '\0';
    if (s->outcome != BCW_RUN_NORMAL)
        cause_text(r, s, cause, ncause);
    else if (s->leak != NULL)
        leak_text(r, s, leak, nleak);
}

/* bcwalk test: the line after a judged sequence that did not pass. */
static void judgement_text(const bcw_reporter *r, FILE *f)
{
    char was[512];
    switch (r->verdict->judgement) {
    case BCW_JUDGED_NEW:
        fputs(r->reference ? "--- unmatched: the reference build's walk "
                             "did not make it\n"
                           : "--- new: pending, the oracle has not seen it\n",
              f);
        break;
    case BCW_JUDGED_DIFFERS:
        bcw_observation_text(r->verdict->was, was, sizeof was);
        fprintf(f, "--- failed: the reference build gives ==> %s\n", was);
        break;
    case BCW_JUDGED_CHANGED:
        bcw_observation_text(r->verdict->was, was, sizeof was);
        fprintf(f, "--- changed: pending, the oracle has ==> %s\n", was);
        break;
    case BCW_JUDGED_FAIL:
        fputs("--- failed: the oracle has it wrong\n", f);
        break;
    case BCW_JUDGED_BROKEN:
        fputs("--- failed: a contract, an assertion or the invariant\n", f);
        break;
    case BCW_JUDGED_PENDING:
        fputs("--- pending: the oracle has it, not judged yet\n", f);
        break;
    default:
        break;
    }
}

static void print_text(bcw_reporter *r, const bcw_seq *s)
{
    /* a judged walk prints what needs a person's eye */
    if (r->verdict != NULL && (r->verdict->judgement == BCW_JUDGED_PASS ||
                               r->verdict->judgement == BCW_JUDGED_RULE ||
                               r->verdict->judgement == BCW_JUDGED_NOT))
        return;
    FILE *f = r->f;
    unsigned len = s->len - s->nprefix;
    if (r->state != NULL && (!r->started_state || len != r->last_len)) {
        /* the state walk: grouped by state, then length */
        fprintf(f, "%s%s: all transitions of length %u\n\n",
                r->started ? "\n" : "", r->state, len);
        r->started = r->started_state = true;
        r->last_len = len;
    } else if (!r->started || len != r->last_len) {
        fprintf(f, "%sExploring all %s of length: %u\n\n",
                r->started ? "\n" : "",
                r->walk == BCW_WALK_ALGEBRA ? "algebraic constructions"
                                            : "method protocols",
                len);
        r->started = true;
        r->last_len = len;
    } else {
        fputc('\n', f);
    }
    bcw__report_c(r, s, f);
    if (r->verdict != NULL)
        judgement_text(r, f);
}

void bcw__report_c(const bcw_reporter *r, const bcw_seq *s, FILE *f)
{
    const bcw_unit *u = r->unit;
    bcw_gen gen = {0};
    bcw__generator_reset(r->gen);
    char args[BCW_MAX_PARAMS][64], result[VALUE_CHARS] = "",
                                   last[3 * VALUE_CHARS] = "";
    const char *labels[BCW_MAX_PARAMS];
    unsigned ncalls = shown_calls(s);
    for (unsigned k = 0; k < ncalls; k++) {
        bool is_dtor = k == s->len + 1u;
        if (is_dtor) {
            fprintf(f, "%s(%s);\n", destructor_of(r, s), dtor_arg(s, false));
            continue;
        }
        const bcw_func *fn = bcw__report_call(r, s, k, &gen, args, labels,
                                              result, sizeof result, false);
        unsigned first = 0;
        if (k == 0 && fn->role == BCW_ROLE_EMPTY) {
            fprintf(f, "%starget = NULL;\n", u->ctype);
            memcpy(last, "NULL", 5);
            continue;
        } else if (k == 0 && fn->role == BCW_ROLE_CONSTRUCTOR &&
                   fn->ret.kind == BCW_PK_UNIT) {
            /* as the constructor declares its result: `bstack *`, or a
             * handle that is a pointer type already (typedef char *sds) */
            size_t n = strlen(fn->ret.ctype);
            fprintf(f, "%s%starget = %s(", fn->ret.ctype,
                    n > 0 && fn->ret.ctype[n - 1] == '*' ? "" : " ", fn->name);
        } else if (k == 0 && fn->role == BCW_ROLE_CONSTRUCTOR) {
            fprintf(f, "%s *target = %s(", u->ctype, fn->name);
        } else if (k == 0) {
            fprintf(f, "%s storage, *target = &storage;\n%s(target", u->ctype,
                    fn->name);
            first = 1;
        } else {
            fprintf(f, "%s(", fn->name);
        }
        for (unsigned p = first; p < fn->nparams; p++)
            fprintf(f, labels[p] ? "%s%s /* %s */" : "%s%s", p ? ", " : "",
                    args[p], labels[p]);
        /* a handle given out before the last call: the name later calls
         * pass it by */
        if (k < s->len && bcw__handle_given(u, fn) >= 0)
            fprintf(f, ");  /* ==> %s */\n", result);
        else
            fputs(");\n", f);
        snprintf(last, sizeof last, "%s", result);
        if (k == s->len && fn->nparams > 0 && s->outcome == BCW_RUN_NORMAL) {
            char out[VALUE_CHARS];
            const bcw_step *st = &r->steps[s->steps[k]];
            for (unsigned p = 0; p < fn->nparams; p++) {
                if (s->outs[k] == NULL ||
                    !out_text(st, &fn->params[p], p, s->outs[k], out,
                              sizeof out))
                    continue;
                size_t n = strlen(last);
                snprintf(last + n, sizeof last - n, "%s%s%s = %s",
                         n ? ", " : "",
                         fn->params[p].kind == BCW_PK_OUT ? "*" : "",
                         fn->params[p].name, out);
            }
        }
    }
    if (s->outcome != BCW_RUN_NORMAL)
        halt_text(r, s, last, sizeof last);
    if (s->suspect)
        fprintf(f, "==> *suspect* %s, after an argument bcwalk made up\n",
                last);
    else
        fprintf(f, "==> %s\n", last[0] ? last : "void");
    if (s->leak != NULL) {
        char leak[400];
        leak_text(r, s, leak, sizeof leak);
        fprintf(f, "==> *leak* %s\n", leak);
    }
}

bool bcw__report_site(const bcw_reporter *r, const bcw_seq *s, char *file,
                      size_t nfile, unsigned *line)
{
    const bcw_wire_cause *c = s->outcome != BCW_RUN_NORMAL ? s->cause : s->leak;
    char func[128];
    uint64_t pc = c == NULL                      ? 0
                  : s->outcome == BCW_RUN_NORMAL ? c->alloc_site
                                                 : c->pc;
    if (pc != 0 && r->symbols != NULL &&
        bcw__symbols_get(r->symbols, pc, func, sizeof func, file, nfile,
                         line) &&
        file[0] != '\0' && *line > 0) {
        /* a name the symbolizer gave relative: the unit's source file of
         * that name, as the model has it, when there is one */
        size_t n = strlen(file);
        for (unsigned i = 0; file[0] != '/' && i < r->unit->nfuncs; i++) {
            const char *p = r->unit->funcs[i].file;
            size_t k = p != NULL ? strlen(p) : 0;
            if (k > n && p[k - n - 1] == '/' && strcmp(p + k - n, file) == 0)
                snprintf(file, nfile, "%s", p);
        }
        return true;
    }
    if (c != NULL && c->kind == BCW_CAUSE_ASSERT) {
        /* "expr\tfile\tline" */
        char text[sizeof c->text + 1];
        memcpy(text, c->text, sizeof c->text);
        text[sizeof c->text] = '\0';
        char *f = strchr(text, '\t'), *l = f ? strchr(f + 1, '\t') : NULL;
        if (l != NULL && (*line = (unsigned)strtoul(l + 1, NULL, 10)) > 0) {
            snprintf(file, nfile, "%.*s", (int)(l - f - 1), f + 1);
            return true;
        }
    }
    /* the function whose call halted, where it is defined */
    const bcw_func *fn =
        s->halted_at <= s->len
            ? &r->unit->funcs[r->steps[s->steps[s->halted_at]].func]
            : NULL;
    if (fn == NULL || fn->file == NULL || fn->line == 0)
        return false;
    snprintf(file, nfile, "%s", fn->file);
    *line = fn->line;
    return true;
}

const char *bcw__report_destructor(const bcw_reporter *r, const bcw_seq *s)
{
    return destructor_of(r, s);
}

const char *bcw__report_halted_fn(const bcw_reporter *r, const bcw_seq *s)
{
    return call_name(r, s, s->halted_at);
}

/* The halted call's cause as jsonl and the oracle word it (cause_text;
 * a suspect halt's with its outcome and why it is suspect). */
static void halt_cause(const bcw_reporter *r, const bcw_seq *s, char *buf,
                       size_t n)
{
    char cause[320];
    cause_text(r, s, cause, sizeof cause);
    if (s->suspect)
        snprintf(buf, n, "%s: %s, after an argument bcwalk made up",
                 bcw__outcome_name(s->outcome), cause);
    else
        snprintf(buf, n, "%s", cause);
}

/* The halted call's ", \"cause\": ...". */
static void json_cause(const bcw_reporter *r, const bcw_seq *s, FILE *f)
{
    char cause[400];
    halt_cause(r, s, cause, sizeof cause);
    fputs(", \"cause\": ", f);
    bcw__json_str(f, cause);
}

/* A jsonl sequence's verdict: the oracle's word in a judged walk. */
static const char *verdict_word(const bcw_reporter *r, const bcw_seq *s)
{
    if (s->predicted)
        return "predicted";
    switch (r->verdict ? r->verdict->judgement : BCW_JUDGED_NOT) {
    case BCW_JUDGED_PASS:
    case BCW_JUDGED_RULE:
        return "pass";
    case BCW_JUDGED_FAIL:
    case BCW_JUDGED_BROKEN:
    case BCW_JUDGED_DIFFERS:
        return "fail";
    case BCW_JUDGED_NEW:
        return r->reference ? "unmatched" : "pending";
    default:
        return "pending";
    }
}

/* "oracle": how the judged sequence stands to it, and what it had of a
 * changed one. */
static void json_judgement(const bcw_verdict_of *v, FILE *f)
{
    static const char *const words[] = {
        [BCW_JUDGED_PASS] = "same",       [BCW_JUDGED_FAIL] = "same",
        [BCW_JUDGED_BROKEN] = "same",     [BCW_JUDGED_NEW] = "new",
        [BCW_JUDGED_CHANGED] = "changed", [BCW_JUDGED_PENDING] = "same",
        [BCW_JUDGED_DIFFERS] = "differs", [BCW_JUDGED_RULE] = "void rule"};
    fprintf(f, "\"oracle\": \"%s\", ", words[v->judgement]);
    if (v->was == NULL)
        return;
    const bcw_observation *o = v->was;
    fputs("\"was\": {\"outcome\": ", f);
    bcw__json_str(f, o->outcome);
    if (o->cause != NULL) {
        fputs(", \"cause\": ", f);
        bcw__json_str(f, o->cause);
    }
    if (o->result != NULL) {
        fputs(", \"result\": ", f);
        bcw__json_str(f, o->result);
    }
    for (unsigned k = 0; k < o->nout; k++) {
        fputs(k ? ", " : ", \"out\": {", f);
        bcw__json_str(f, o->out[2 * k]);
        fputs(": ", f);
        bcw__json_str(f, o->out[2 * k + 1]);
    }
    fputs(o->nout ? "}}, " : "}, ", f);
}

static void print_jsonl(bcw_reporter *r, const bcw_seq *s)
{
    FILE *f = r->f;
    fprintf(f, "{\"length\": %u, \"state\": ", s->len - s->nprefix);
    bcw__json_str(f, r->state ? r->state : "default");
    fprintf(f, ", \"verdict\": \"%s\", ", verdict_word(r, s));
    if (r->verdict != NULL && r->verdict->judgement != BCW_JUDGED_NOT)
        json_judgement(r->verdict, f);
    if (s->state != 0)
        fprintf(f, "\"concrete_state\": \"%016llx\", ",
                (unsigned long long)s->state);
    if (s->pruned)
        fputs("\"pruned\": \"state\", ", f);
    fputs("\"calls\": [", f);
    bcw_gen gen = {0};
    bcw__generator_reset(r->gen);
    char args[BCW_MAX_PARAMS][64], result[VALUE_CHARS];
    const char *labels[BCW_MAX_PARAMS];
    unsigned ncalls = shown_calls(s);
    for (unsigned k = 0; k < ncalls; k++) {
        bool halted = s->outcome != BCW_RUN_NORMAL && k + 1 == ncalls;
        const char *outcome = halted && s->suspect
                                  ? "suspect"
                                  : bcw__outcome_name(halted ? s->outcome : 0);
        if (k == s->len + 1u) {
            fputs(", {\"fn\": ", f);
            bcw__json_str(f, destructor_of(r, s));
            fprintf(f,
                    ", \"args\": [\"%s\"], \"labels\": [null], "
                    "\"outcome\": \"%s\"",
                    dtor_arg(s, true), outcome);
            if (halted)
                json_cause(r, s, f);
            fputs("}", f);
            continue;
        }
        const bcw_func *fn = bcw__report_call(r, s, k, &gen, args, labels,
                                              result, sizeof result, true);
        fputs(k ? ", {\"fn\": " : "{\"fn\": ", f);
        bcw__json_str(f, fn->name);
        fputs(", \"args\": [", f);
        for (unsigned p = 0; p < fn->nparams; p++) {
            fputs(p ? ", " : "", f);
            bcw__json_str(f, args[p]);
        }
        fputs("], \"labels\": [", f);
        for (unsigned p = 0; p < fn->nparams; p++) {
            fputs(p ? ", " : "", f);
            if (labels[p] != NULL)
                bcw__json_str(f, labels[p]);
            else
                fputs("null", f);
        }
        fputs("]", f);
        /* a call halted by a signal, or not made, has no result; nor
         * has a call of a state's cover the walk did not observe */
        if (result[0] && k >= s->nprefix &&
            !(halted &&
              (s->outcome != BCW_RUN_REJECTED || s->signo == BCW_SIG_NO_ARG))) {
            fputs(", \"result\": ", f);
            bcw__json_str(f, result);
        }
        if (s->outs[k] != NULL && !halted) {
            bool first = true;
            const bcw_step *st = &r->steps[s->steps[k]];
            for (unsigned p = 0; p < fn->nparams; p++) {
                const bcw_param *pa = &fn->params[p];
                char v[VALUE_CHARS];
                if (!out_text(st, pa, p, s->outs[k], v, sizeof v))
                    continue;
                fputs(first ? ", \"out\": {" : ", ", f);
                first = false;
                bcw__json_str(f, pa->name);
                fputs(": ", f);
                bcw__json_str(f, v);
            }
            if (!first)
                fputs("}", f);
        }
        fprintf(f, ", \"outcome\": \"%s\"", outcome);
        if (halted)
            json_cause(r, s, f);
        fputs("}", f);
    }
    fputs("]", f);
    if (s->leak != NULL) {
        char leak[400];
        leak_text(r, s, leak, sizeof leak);
        fputs(", \"leak\": ", f);
        bcw__json_str(f, leak);
    }
    fputs("}\n", f);
}

void bcw__report_begin_state(void *reporter, const char *name, int index)
{
    bcw_reporter *r = reporter;
    r->state = name;
    r->state_index = index;
    r->last_len = 0;
    r->started_state = false;
}

int bcw__report_seq(void *payload, const bcw_seq *s)
{
    bcw_reporter *r = payload;
    if (r->f == NULL)
        return 0;
    if (r->format == BCW_REPORT_TEXT && !s->predicted)
        print_text(r, s);
    else if (r->format == BCW_REPORT_JSONL)
        print_jsonl(r, s);
    if (ferror(r->f))
        return bcw__error(BCW_ERROR, "writing the report failed");
    return 0;
}

static void json_counts(FILE *f, const bcw_summary *s)
{
    fprintf(f, "{\"normal\": %llu, \"terminated\": %llu, \"discarded\": %llu}",
            (unsigned long long)s->normal, (unsigned long long)s->terminated,
            (unsigned long long)s->discarded);
}

/* Every step's text (bcw__step_text), by plan index, made before
 * anything of the state walk's summary is printed; NULL when out of
 * memory. */
static char **step_texts(const bcw_reporter *r)
{
    char **v = bcw__calloc(r->nsteps ? r->nsteps : 1, sizeof *v);
    for (unsigned i = 0; v != NULL && i < r->nsteps; i++)
        if ((v[i] = bcw__step_text(r->unit, &r->steps[i])) == NULL) {
            bcw__strv_free(v, i);
            return NULL;
        }
    return v;
}

bcw_efficiency bcw__report_efficiency(const bcw_summary *s)
{
    bcw_efficiency e = {0};
    uint64_t executed = s->normal + s->terminated;
    e.manual = s->judged.manual < executed ? s->judged.manual : executed;
    e.predicted = executed - e.manual;
    if (executed > 0) {
        e.manual_pct = 100.0 * (double)e.manual / (double)executed;
        e.predicted_pct = 100.0 - e.manual_pct;
    }
    if (executed + s->discarded > 0)
        e.automated_pct = 100.0 * (double)(e.predicted + s->discarded) /
                          (double)(executed + s->discarded);
    return e;
}

/* The state walk's states (with their predicates, covers and counts)
 * and the transitions fired between them; `texts` names the steps. */
static void json_states(const bcw_reporter *r, const bcw_states *st,
                        char **texts, const char *nl)
{
    FILE *f = r->f;
    fputs("\"states\": [", f);
    for (unsigned i = 0; i < st->nstates; i++) {
        const bcw_dstate *d = &st->states[i];
        fprintf(f, "%s{\"name\": ", i ? ", " : "");
        bcw__json_str(f, d->name);
        fputs(", \"predicates\": {", f);
        for (unsigned k = 0; k < st->nchosen; k++) {
            fputs(k ? ", " : "", f);
            bcw__json_str(f, r->unit->preds[st->cand[st->chosen[k]]].name);
            fputs((d->value >> k) & 1u ? ": true" : ": false", f);
        }
        fputs("}, \"cover\": ", f);
        if (!d->walked) {
            fputs("null", f);
        } else {
            fputc('[', f);
            for (unsigned k = 0; k <= d->ncover; k++) {
                fputs(k ? ", " : "", f);
                bcw__json_str(f, texts[d->seq[k]]);
            }
            fputc(']', f);
        }
        if (d->origin != NULL) {
            fputs(", \"cover_from\": ", f);
            bcw__json_str(f, d->origin);
        }
        fputs(", \"sequences\": ", f);
        json_counts(f, &d->sum);
        fputc('}', f);
    }
    fprintf(f, "],%s\"transitions\": [", nl);
    for (unsigned i = 0; i < st->ntrans; i++) {
        const bcw_transition *t = &st->trans[i];
        fprintf(f, "%s{\"from\": ", i ? ", " : "");
        bcw__json_str(f, st->states[t->from].name);
        fputs(", \"call\": ", f);
        bcw__json_str(f, texts[t->step]);
        fprintf(f, ", \"outcome\": \"%s\", \"to\": ",
                bcw__outcome_name(t->outcome));
        if (t->to >= 0)
            bcw__json_str(f, st->states[t->to].name);
        else
            fputs("null", f);
        fputc('}', f);
    }
    fprintf(f, "],%s", nl);
}

/* The gaps of a walk --from-tests: one list, in text or JSON (there
 * followed by `after`). */
static void gap_list(FILE *f, bool json, const char *key, const char *title,
                     const bcw_strlist *l, const char *after)
{
    if (json) {
        fprintf(f, "\"%s\": [", key);
        for (unsigned i = 0; i < l->n; i++) {
            fputs(i ? ", " : "", f);
            bcw__json_str(f, l->v[i]);
        }
        fprintf(f, "]%s", after);
        return;
    }
    if (l->n == 0)
        return;
    fprintf(f, "  %s (%u):\n", title, l->n);
    for (unsigned i = 0; i < l->n; i++)
        fprintf(f, "    %s\n", l->v[i]);
}

static void print_gaps(FILE *f, const bcw_gaps *g, bool json, const char *nl)
{
    char sep[8], end[16];
    snprintf(sep, sizeof sep, ",%s", json ? nl : "");
    snprintf(end, sizeof end, "},%s", json ? nl : "");
    if (json)
        fprintf(f,
                "\"from_tests\": {\"categories\": %u, \"sequences\": %u, "
                "\"longer_than_depth\": %u,%s",
                g->categories, g->sequences, g->longer, nl);
    else
        fprintf(f,
                "\nFrom the tests: %u categories of their values; %u "
                "sequences of their calls, %u longer than the depth %u\n",
                g->categories, g->sequences, g->longer, g->depth);
    gap_list(f, json, "cut", "test sequences cut short", &g->cut, sep);
    gap_list(f, json, "states_only_tests",
             "states only the tests reach (their calls are the cover)",
             &g->only_tests, sep);
    gap_list(f, json, "states_untested", "states no test reaches", &g->states,
             sep);
    gap_list(f, json, "transitions_untested", "transitions no test makes",
             &g->transitions, sep);
    gap_list(f, json, "functions_untested", "functions no test calls",
             &g->methods, sep);
    gap_list(f, json, "functions_unwalked",
             "functions the tests call that the walk does not", &g->unwalked,
             end);
}

static int print_json(bcw_reporter *r, const bcw_summary *s, char **texts,
                      bool one_line)
{
    int err = 0;
    FILE *f = r->f;
    const char *nl = one_line ? " " : "\n  ";
    const bcw_unit *u = r->unit;
    uint64_t executed = s->normal + s->terminated;
    fputs("{\"unit\": ", f);
    bcw__json_str(f, u->name);
    fprintf(f, ", \"walk\": \"%s\", \"depth\": %u,%s", bcw__walk_name(r->walk),
            r->depth, nl);
    fprintf(f,
            "\"sequences\": {\"normal\": %llu, \"terminated\": %llu, "
            "\"suspect\": %llu, \"unmet\": %llu, \"leaking\": %llu, "
            "\"discarded\": %llu, \"pruned_observer\": %llu, "
            "\"pruned_state\": %llu, \"predicted_void\": %llu",
            (unsigned long long)s->normal, (unsigned long long)s->terminated,
            (unsigned long long)s->suspect, (unsigned long long)s->unmet,
            (unsigned long long)s->leaking, (unsigned long long)s->discarded,
            (unsigned long long)s->pruned_observer,
            (unsigned long long)s->pruned_state,
            (unsigned long long)s->predicted_void);
    if (r->walk == BCW_WALK_LEARNED)
        fprintf(f, ", \"pruned_model\": %llu",
                (unsigned long long)s->pruned_model);
    fprintf(f, "},%s", nl);
    fprintf(f, "\"prune\": \"%s\", \"concrete_states\": %llu,%s",
            s->prune_state ? "state" : "none",
            (unsigned long long)s->concrete_states, nl);
    if (s->spilled_at > 0)
        fprintf(f, "\"spilled_at\": %u,%s", s->spilled_at, nl);
    if (s->stopped_at > 0)
        fprintf(f, "\"stopped_at\": %u,%s", s->stopped_at, nl);
    if (s->partial)
        fprintf(f, "\"partial\": true,%s", nl);
    /* judged by an oracle: its counts; else only predicted results
     * pass, and every other executed sequence is pending */
    const struct bcw_judged *j = &s->judged;
    uint64_t pending = j->on ? j->fresh + j->changed + j->unjudged
                             : executed - s->predicted_void;
    uint64_t judged = j->on ? j->passed + j->failed + pending : pending;
    fprintf(f,
            "\"verdicts\": {\"pass_auto\": %llu, \"pass_confirmed\": 0, "
            "\"fail\": %llu, \"pending\": %llu, \"meaningless\": %llu},%s",
            (unsigned long long)(s->predicted_void + j->passed),
            (unsigned long long)j->failed, (unsigned long long)pending,
            (unsigned long long)(executed - s->predicted_void - judged), nl);
    if (j->on) {
        fprintf(
            f,
            "\"oracle\": {\"passed\": %llu, \"failed\": %llu, "
            "\"new\": %llu, \"changed\": %llu, \"pending\": %llu, "
            "\"accepted\": %llu, \"rejected\": %llu, \"unreached\": "
            "%llu, \"reference\": %s, \"differs\": %llu},%s",
            (unsigned long long)j->passed, (unsigned long long)j->failed,
            (unsigned long long)j->fresh, (unsigned long long)j->changed,
            (unsigned long long)j->unjudged, (unsigned long long)j->accepted,
            (unsigned long long)j->rejected, (unsigned long long)j->unreached,
            j->reference ? "true" : "false", (unsigned long long)j->differs,
            nl);
        bcw_efficiency e = bcw__report_efficiency(s);
        fprintf(f,
                "\"efficiency\": {\"manual\": %llu, \"predicted\": %llu, "
                "\"weak\": %llu, \"manual_pct\": %.2f, \"predicted_pct\": "
                "%.2f, \"automated_pct\": %.2f},%s",
                (unsigned long long)e.manual, (unsigned long long)e.predicted,
                (unsigned long long)j->weak, e.manual_pct, e.predicted_pct,
                e.automated_pct, nl);
    }
    if (r->states != NULL) {
        json_states(r, r->states, texts, nl);
    } else {
        fputs("\"states\": [{\"name\": \"default\", \"predicates\": {}, "
              "\"cover\": [",
              f);
        bool first = true;
        for (unsigned i = 0; i < u->nfuncs; i++) {
            if (u->funcs[i].role != BCW_ROLE_CONSTRUCTOR &&
                u->funcs[i].role != BCW_ROLE_INIT_CONSTRUCTOR &&
                u->funcs[i].role != BCW_ROLE_EMPTY)
                continue;
            char call[200];
            snprintf(call, sizeof call, "%s()", u->funcs[i].name);
            fputs(first ? "" : ", ", f);
            first = false;
            bcw__json_str(f, call);
        }
        fprintf(f, "]}],%s", nl);
    }
    if (r->cov != NULL)
        err = bcw__cov_print(f, r->cov, r->hits, r->depth, true, nl);
    if (r->gaps != NULL)
        print_gaps(f, r->gaps, true, nl);
    fputs("\"warnings\": [", f);
    for (unsigned i = 0; i < r->warnings.n; i++) {
        fputs(i ? ", " : "", f);
        bcw__json_str(f, r->warnings.v[i]);
    }
    for (unsigned i = 0; r->states && i < r->states->notes.n; i++) {
        fputs(i || r->warnings.n ? ", " : "", f);
        bcw__json_str(f, r->states->notes.v[i]);
    }
    fprintf(f, "],%s", nl);
    fprintf(f,
            "\"elapsed_s\": %.6f, \"calls\": %llu, \"calls_per_s\": %.1f, "
            "\"worker_restarts\": %llu}\n",
            s->elapsed_s, (unsigned long long)s->calls,
            s->elapsed_s > 0 ? (double)s->calls / s->elapsed_s : 0.0,
            (unsigned long long)s->worker_restarts);
    return err;
}

/* bcwalk test's lines of the summary. */
static void text_judged(FILE *f, const bcw_summary *s)
{
    const struct bcw_judged *j = &s->judged;
    if (j->reference) {
        fprintf(f,
                "Passed %llu test sequences as the reference build gives "
                "them\n"
                "Failed %llu test sequences: %llu not as the reference "
                "build gives them, %llu a failed contract or assertion\n",
                (unsigned long long)j->passed, (unsigned long long)j->failed,
                (unsigned long long)j->differs,
                (unsigned long long)(j->failed - j->differs));
        if (j->fresh > 0)
            fprintf(f,
                    "Unmatched %llu test sequences the reference build's walk "
                    "did not make\n",
                    (unsigned long long)j->fresh);
    } else {
        fprintf(
            f,
            "Passed %llu test sequences as the oracle has them\n"
            "Failed %llu test sequences (a failed contract or assertion, or "
            "a known failure)\n"
            "Pending %llu test sequences: %llu new, %llu changed, %llu not "
            "judged yet\n",
            (unsigned long long)j->passed, (unsigned long long)j->failed,
            (unsigned long long)(j->fresh + j->changed + j->unjudged),
            (unsigned long long)j->fresh, (unsigned long long)j->changed,
            (unsigned long long)j->unjudged);
    }
    if (j->accepted > 0)
        fprintf(f, "Accepted %llu observations into the oracle as passing\n",
                (unsigned long long)j->accepted);
    if (j->rejected > 0)
        fprintf(f,
                "Rejected %llu observations into the oracle as known "
                "failures\n",
                (unsigned long long)j->rejected);
    if (j->unreached > 0)
        fprintf(f,
                "Missed %llu observations of the %s that this walk did "
                "not reach\n",
                (unsigned long long)j->unreached,
                j->reference ? "reference build" : "oracle");
    if (j->reference)
        return; /* no person asked */
    bcw_efficiency e = bcw__report_efficiency(s);
    fprintf(f,
            "Asked a person about %llu observations (%.2f%% of the executed "
            "sequences), predicted %llu (%.2f%%; %llu by the void rule)\n"
            "Automated %.2f%% of the walk's decisions (predictions and "
            "discarded sequences)\n",
            (unsigned long long)e.manual, e.manual_pct,
            (unsigned long long)e.predicted, e.predicted_pct,
            (unsigned long long)j->weak, e.automated_pct);
}

/* The state walk's tail: each state with its cover and counts, the
 * transitions, the notes on predicates. */
static void text_states(const bcw_reporter *r, const bcw_states *st,
                        char **texts)
{
    FILE *f = r->f;
    fprintf(f, "\nDesign states (%u, from %llu probed sequences):\n",
            st->nstates, (unsigned long long)st->probed);
    for (unsigned i = 0; i < st->nstates; i++) {
        const bcw_dstate *d = &st->states[i];
        fprintf(f, "  %s: ", d->name);
        if (!d->walked) {
            fprintf(f, "no cover (reached beyond the probe depth)\n");
            continue;
        }
        fprintf(f,
                "cover of %u call%s after the constructor%s%s; %llu normal, "
                "%llu terminated, %llu discarded\n",
                d->ncover, d->ncover == 1 ? "" : "s",
                d->origin ? ", from test " : "", d->origin ? d->origin : "",
                (unsigned long long)d->sum.normal,
                (unsigned long long)d->sum.terminated,
                (unsigned long long)d->sum.discarded);
    }
    fprintf(f, "\nTransitions:\n");
    for (unsigned i = 0; i < st->ntrans; i++) {
        const bcw_transition *t = &st->trans[i];
        fprintf(f, "  %s --%s--> %s", st->states[t->from].name, texts[t->step],
                t->to >= 0 ? st->states[t->to].name : "(halted)");
        if (t->outcome != BCW_RUN_NORMAL)
            fprintf(f, " *%s*", bcw__outcome_name(t->outcome));
        fputc('\n', f);
    }
    for (unsigned i = 0; i < st->notes.n; i++)
        fprintf(f, "Note: %s\n", st->notes.v[i]);
}

int bcw__report_summary(bcw_reporter *r, const bcw_summary *s)
{
    FILE *f = r->f;
    if (f == NULL)
        return 0;
    char **texts = NULL;
    if (r->states != NULL && (texts = step_texts(r)) == NULL)
        return BCW_ENOMEM;
    int err = 0;
    switch (r->format) {
    case BCW_REPORT_TEXT:
        fprintf(f, "%sTest summary for unit: %s\n\n", r->started ? "\n" : "",
                r->unit->name);
        fprintf(f,
                "Test unit: %s\nTest mode: %s exploration\nTest depth: %u"
                "\n\n",
                r->unit->name,
                r->walk == BCW_WALK_ALGEBRA   ? "Algebraic"
                : r->walk == BCW_WALK_STATE   ? "State"
                : r->walk == BCW_WALK_LEARNED ? "Learned"
                                              : "Protocol",
                r->depth);
        if (r->walk == BCW_WALK_ALGEBRA)
            fprintf(f,
                    "Withheld %llu void results predicted from "
                    "signatures\n",
                    (unsigned long long)s->predicted_void);
        fprintf(f,
                "Exercised %llu test sequences that executed normally\n"
                "Terminated %llu test sequences that halted (crash, abort, "
                "hang, rejected or failure)\n"
                "Discarded %llu test sequences whose prefixes %s\n",
                (unsigned long long)s->normal,
                (unsigned long long)s->terminated,
                (unsigned long long)s->discarded,
                r->walk == BCW_WALK_ALGEBRA || r->walk == BCW_WALK_LEARNED ||
                        s->pruned_state > 0
                    ? "were pruned"
                    : "had failed");
        if (s->suspect > 0)
            fprintf(f,
                    "Of the terminated, %llu suspect: they halted after an "
                    "argument bcwalk made up (zeroed storage: no function a "
                    "walk can call makes one), not the library's failure\n",
                    (unsigned long long)s->suspect);
        if (s->unmet > 0)
            fprintf(f,
                    "Of the terminated, %llu not made: an argument's "
                    "category had no value on the object as it was\n",
                    (unsigned long long)s->unmet);
        if (s->leaking > 0)
            fprintf(f,
                    "Of the normal, %llu leaking: the destructor left blocks "
                    "they allocated that nothing reaches\n",
                    (unsigned long long)s->leaking);
        if (s->prune_state)
            fprintf(f,
                    "Pruned %llu of them below sequences that reached an "
                    "already visited concrete state\n",
                    (unsigned long long)s->pruned_state);
        if (r->walk == BCW_WALK_LEARNED)
            fprintf(f,
                    "Of the discarded, %llu are not paths of the model "
                    "learned from the tests\n",
                    (unsigned long long)s->pruned_model);
        if (s->concrete_states > 0)
            fprintf(f, "Reached %llu distinct concrete states\n",
                    (unsigned long long)s->concrete_states);
        if (s->judged.on)
            text_judged(f, s);
        if (r->cov != NULL)
            err = bcw__cov_print(f, r->cov, r->hits, r->depth, false, NULL);
        for (unsigned i = 0; i < r->warnings.n; i++)
            fprintf(f, "Warning: %s\n", r->warnings.v[i]);
        if (r->states != NULL)
            text_states(r, r->states, texts);
        if (r->gaps != NULL)
            print_gaps(f, r->gaps, false, NULL);
        break;
    case BCW_REPORT_JSON:
        err = print_json(r, s, texts, false);
        break;
    case BCW_REPORT_JSONL:
        err = print_json(r, s, texts, true);
        break;
    }
    bcw__strv_free(texts, r->nsteps);
    if (err < 0)
        return err;
    if (fflush(f) != 0 || ferror(f))
        return bcw__error(BCW_ERROR, "writing the report failed");
    return 0;
}

void bcw__report_observed_free(bcw_oracle_entry *e)
{
    /* the outcome is a static string */
    bcw__strv_free((char **)e->calls, e->ncalls);
    bcw__strv_free((char **)e->obs.out, 2 * e->obs.nout);
    free((char *)e->obs.cause);
    free((char *)e->obs.result);
    memset(e, 0, sizeof *e);
}

/* The pointer names in an observation (ptr#k: the k-th pointer the
 * sequence gave out), numbered afresh in the order the observation
 * names them, so that what a call does in a state reads the same
 * whatever prefix reached it; `seen` maps the sequence's numbers to the
 * new ones.  The caller's string, or NULL. */
typedef struct renumber {
    unsigned long from[2 * BCW_MAX_PARAMS + 2];
    unsigned n;
} renumber;

static char *renumbered(const char *text, renumber *seen)
{
    char out[256];
    size_t n = 0;
    for (const char *p = text; *p != '\0' && n + 24 < sizeof out;) {
        char *end;
        if (strncmp(p, "ptr#", 4) == 0 && p[4] >= '0' && p[4] <= '9') {
            unsigned long k = strtoul(p + 4, &end, 10);
            unsigned i = 0;
            while (i < seen->n && seen->from[i] != k)
                i++;
            if (i == seen->n &&
                seen->n < sizeof seen->from / sizeof *seen->from)
                seen->from[seen->n++] = k;
            n += (size_t)snprintf(out + n, sizeof out - n, "ptr#%u", i);
            p = end;
            continue;
        }
        out[n++] = *p++;
    }
    out[n] = '\0';
    return bcw__strdup(out);
}

/* Call k of s as the text report writes it, without its `;`. */
static char *call_text(const bcw_reporter *r, const bcw_seq *s, unsigned k,
                       const bcw_func *fn, char (*args)[64],
                       const char **labels)
{
    if (k == s->len + 1u)
        return bcw__sprintf("%s(%s)", destructor_of(r, s), dtor_arg(s, false));
    if (k == 0 && fn->role == BCW_ROLE_EMPTY)
        return bcw__strdup("target = NULL");
    char line[BCW_MAX_PARAMS * 200 + 128];
    size_t n = (size_t)snprintf(line, sizeof line, "%s(", fn->name);
    for (unsigned p = 0; p < fn->nparams && n < sizeof line; p++)
        n += (size_t)snprintf(line + n, sizeof line - n,
                              labels[p] ? "%s%s /* %s */" : "%s%s",
                              p ? ", " : "", args[p], labels[p]);
    if (n < sizeof line)
        snprintf(line + n, sizeof line - n, ")");
    return bcw__strdup(line);
}

int bcw__report_observe(const bcw_reporter *r, const bcw_seq *s, bool whole,
                        bcw_oracle_entry *e)
{
    memset(e, 0, sizeof *e);
    unsigned ncalls = shown_calls(s);
    char **calls = bcw__calloc(ncalls, sizeof *calls);
    char **out = bcw__calloc(2 * BCW_MAX_PARAMS, sizeof *out);
    e->calls = (const char *const *)calls;
    e->obs.out = (const char *const *)out;
    if (calls == NULL || out == NULL) {
        bcw__report_observed_free(e);
        return BCW_ENOMEM;
    }
    e->ncalls = ncalls;
    e->state = s->before;
    e->after = s->outcome == BCW_RUN_NORMAL ? s->state : 0;
    bool halted = s->outcome != BCW_RUN_NORMAL;
    bool ok = true;
    renumber seen = {.n = 0};
    bcw_gen gen = {0};
    bcw__generator_reset(r->gen);
    char args[BCW_MAX_PARAMS][64], result[VALUE_CHARS] = "";
    const char *labels[BCW_MAX_PARAMS];
    for (unsigned k = 0; k < ncalls; k++) {
        const bcw_func *fn =
            k == s->len + 1u ? NULL
                             : bcw__report_call(r, s, k, &gen, args, labels,
                                                result, sizeof result, false);
        if (whole || k + 1 == ncalls)
            ok &= (calls[k] = call_text(r, s, k, fn, args, labels)) != NULL;
        if (k + 1 < ncalls || fn == NULL)
            continue;
        /* the last call's result and out-parameters, as jsonl shows them */
        if (result[0] && k >= s->nprefix &&
            !(halted &&
              (s->outcome != BCW_RUN_REJECTED || s->signo == BCW_SIG_NO_ARG)))
            ok &= (e->obs.result = renumbered(result, &seen)) != NULL;
        const bcw_step *st = &r->steps[s->steps[k]];
        for (unsigned p = 0; s->outs[k] != NULL && !halted && p < fn->nparams;
             p++) {
            char v[VALUE_CHARS];
            if (!out_text(st, &fn->params[p], p, s->outs[k], v, sizeof v))
                continue;
            ok &= (out[2 * e->obs.nout] = bcw__strdup(fn->params[p].name)) !=
                  NULL;
            ok &= (out[2 * e->obs.nout + 1] = renumbered(v, &seen)) != NULL;
            e->obs.nout++;
        }
    }
    e->obs.outcome =
        halted && s->suspect ? "suspect" : bcw__outcome_name(s->outcome);
    if (halted) {
        char cause[400];
        halt_cause(r, s, cause, sizeof cause);
        ok &= (e->obs.cause = bcw__strdup(cause)) != NULL;
    }
    if (!ok) {
        bcw__report_observed_free(e);
        return BCW_ENOMEM;
    }
    return 0;
}
