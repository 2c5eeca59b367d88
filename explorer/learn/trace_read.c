/* trace_read.c - the tracer runtime's records read back (trace_read.h):
 * tests begun and ended, calls and their returns paired, halts. */
#include "trace_read.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

/* Where the reading of one run's records is. */
typedef struct reader {
    const unsigned char *p, *end;
} reader;

static bool get(reader *r, void *dst, size_t n)
{
    if ((size_t)(r->end - r->p) < n)
        return false;
    memcpy(dst, r->p, n);
    r->p += n;
    return true;
}

static int new_test(bcw_trace_parse *ps, const char *name)
{
    bcw_trace *t = ps->t;
    if (bcw__grow(&t->tests, &ps->cap_tests, t->ntests + 1, sizeof *t->tests) <
        0)
        return BCW_ENOMEM;
    bcw_trace_test *x = &t->tests[t->ntests];
    memset(x, 0, sizeof *x);
    if ((x->name = bcw__strdup(name)) == NULL)
        return BCW_ENOMEM;
    return (int)t->ntests++;
}

int bcw__trace_read_target(bcw_trace_parse *ps)
{
    if (ps->cur >= 0)
        return ps->cur;
    if (ps->outside < 0)
        ps->outside = new_test(ps, "main");
    return ps->outside;
}

static int read_call(bcw_trace_parse *ps, reader *r, unsigned limit)
{
    uint32_t site;
    uint8_t n;
    if (!get(r, &site, 4) || !get(r, &n, 1) || site >= ps->t->nsites ||
        n > TR_MAX_ARGS)
        return 1;
    bcw_trace_call c = {.site = site, .nargs = n};
    int err = 0;
    for (unsigned i = 0; i < n && err == 0; i++) {
        uint8_t tag;
        if (!get(r, &tag, 1))
            err = 1;
        else if (tag == 0xff) {
            uint16_t len;
            if (!get(r, &len, 2))
                err = 1;
            if (err == 0 && (len & TR_STRING_CUT))
                c.cut |= 1u << i;
            len &= (uint16_t)~TR_STRING_CUT;
            if (err == 0 && (size_t)(r->end - r->p) < len)
                err = 1;
            else if (err == 0 && (c.strs[i] = bcw__strndup((const char *)r->p,
                                                           len)) == NULL)
                err = BCW_ENOMEM;
            else if (err == 0)
                r->p += len;
        } else if (!get(r, &c.words[i], 8))
            err = 1;
    }
    int ti = err == 0 ? bcw__trace_read_target(ps) : -1;
    if (err == 0 && ti < 0)
        err = ti;
    bcw_trace_test *x = err == 0 ? &ps->t->tests[ti] : NULL;
    if (err == 0 && ps->nflight < 64) {
        /* its return pairs with it, kept or not */
        ps->flight[ps->nflight][0] = (unsigned)ti;
        ps->flight[ps->nflight][1] = x->ncalls < limit ? x->ncalls : UINT_MAX;
        ps->flight[ps->nflight++][2] = site;
    }
    if (err == 0 && x->ncalls < limit) {
        size_t cap = x->ncalls; /* grows in powers of two */
        if (cap == 0 || (cap & (cap - 1)) == 0) {
            void *p = bcw__realloc(x->calls, (cap ? 2 * cap : 16) * sizeof c);
            if (p == NULL)
                err = BCW_ENOMEM;
            else
                x->calls = p;
        }
        if (err == 0) {
            x->calls[x->ncalls++] = c;
            return 0;
        }
    }
    for (unsigned i = 0; i < TR_MAX_ARGS; i++)
        free(c.strs[i]);
    return err;
}

static int read_return(bcw_trace_parse *ps, reader *r)
{
    uint32_t site;
    uint64_t result;
    uint8_t n;
    if (!get(r, &site, 4) || !get(r, &result, 8) || !get(r, &n, 1) ||
        n > TR_MAX_ARGS)
        return 1;
    bcw_trace_call *c = NULL;
    /* calls a jump left are over: the return is the innermost call's of
     * its site */
    while (ps->nflight > 0 && ps->flight[ps->nflight - 1][2] != site)
        ps->nflight--;
    if (ps->nflight > 0) {
        ps->nflight--;
        bcw_trace_test *x = &ps->t->tests[ps->flight[ps->nflight][0]];
        unsigned k = ps->flight[ps->nflight][1];
        c = k < x->ncalls ? &x->calls[k] : NULL;
    }
    if (c != NULL) {
        c->returned = true;
        c->result = result;
    }
    for (unsigned j = 0; j < n; j++) {
        uint8_t arg;
        uint64_t w;
        if (!get(r, &arg, 1) || !get(r, &w, 8))
            return 1;
        if (c != NULL && c->nouts < TR_MAX_ARGS && arg < c->nargs) {
            c->out_arg[c->nouts] = arg;
            c->out_word[c->nouts++] = w;
        }
    }
    return 0;
}

int bcw__trace_read_run(bcw_trace_parse *ps, const unsigned char *data,
                        size_t len, unsigned limit)
{
    reader r = {data, data + len};
    uint8_t tag;
    int err = 0;
    while (err == 0 && get(&r, &tag, 1)) {
        uint32_t run, id;
        uint64_t calls;
        uint8_t left;
        switch (tag) {
        case 'B':
            if (!get(&r, &run, 4) || !get(&r, &id, 4))
                return 0;
            ps->nflight = 0;
            ps->last_run = run;
            ps->cur = new_test(ps, id < ps->t->nfound ? ps->t->found[id] : "?");
            err = ps->cur < 0 ? ps->cur : 0;
            break;
        case 'E':
            if (!get(&r, &run, 4) || !get(&r, &calls, 8) || !get(&r, &left, 1))
                return 0;
            if (ps->cur >= 0) {
                ps->t->tests[ps->cur].made = calls;
                ps->t->tests[ps->cur].end =
                    left ? BCW_TRACE_LEFT : BCW_TRACE_PASSED;
            }
            ps->cur = -1;
            ps->nflight = 0;
            break;
        case 'C':
            err = read_call(ps, &r, limit);
            break;
        case 'M':
            if (!get(&r, &calls, 8))
                return 0;
            if (ps->outside >= 0)
                ps->t->tests[ps->outside].made = calls;
            break;
        case 'R':
            err = read_return(ps, &r);
            break;
        case 'H': {
            uint8_t kind;
            int32_t code;
            uint16_t mlen;
            if (!get(&r, &kind, 1) || !get(&r, &code, 4) ||
                !get(&r, &calls, 8) || !get(&r, &mlen, 2) ||
                (size_t)(r.end - r.p) < mlen)
                return 0;
            int ti = bcw__trace_read_target(ps);
            if (ti < 0)
                return ti;
            bcw_trace_test *x = &ps->t->tests[ti];
            x->end = BCW_TRACE_HALTED;
            x->made = calls > x->ncalls ? calls : x->ncalls;
            ps->halted_run = ps->cur >= 0 ? ps->last_run : UINT32_MAX;
            x->halt = kind;
            x->code = code;
            if (mlen > 0 &&
                (x->message = bcw__strndup((const char *)r.p, mlen)) == NULL)
                return BCW_ENOMEM;
            r.p += mlen;
            ps->halted = true;
            /* the test ended there; what follows is another process's (a
             * framework running each test in a child of its own) */
            ps->cur = -1;
            ps->nflight = 0;
            break;
        }
        default:
            return 0;
        }
        if (err > 0) /* cut short */
            return 0;
    }
    return err;
}
