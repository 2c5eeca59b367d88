/* observe.c - the oracle's view of a sequence (report.h's
 * bcw__report_observe; docs/oracle.md): its calls as the text report
 * writes them, what its last call did as the jsonl report words it, the
 * pointers it names numbered afresh. */
#define _POSIX_C_SOURCE 200809L
#include "report.h"

#include "engine.h"

#include "calls.h"
#include "cause.h"

#include <stdlib.h>
#include <string.h>

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
        return bcw__sprintf("%s(%s)", bcw__report_destructor(r, s),
                            bcw__calls_dtor_arg(s, false));
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

/* The calls an observation names: those the report shows, but a halt in
 * the teardown (the destructor the walk ends each sequence with) is
 * what the last method's call led to, observed on that call: the
 * oracle's entry for it then changes, both sides shown (undo.c's fault
 * 10), rather than a new entry for a call the walk adds. */
static unsigned calls_observed(const bcw_seq *s)
{
    return bcw_seq_returned(s) ? s->len + 1 : bcw__calls_shown(s);
}

int bcw__report_observe(const bcw_reporter *r, const bcw_seq *s, bool whole,
                        bcw_oracle_entry *e)
{
    memset(e, 0, sizeof *e);
    unsigned ncalls = calls_observed(s);
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
    bool returned = bcw_seq_returned(s);
    bool ok = true;
    renumber seen = {.n = 0};
    bcw_gen gen = {0};
    bcw__generator_reset(r->gen);
    char args[BCW_MAX_PARAMS][64], result[BCW_VALUE_CHARS] = "";
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
        if (result[0] &&
            (returned ? k >= s->nprefix : bcw__calls_result_shown(s, k)))
            ok &= (e->obs.result = renumbered(result, &seen)) != NULL;
        const bcw_step *st = &r->steps[s->steps[k]];
        for (unsigned p = 0; s->outs[k] != NULL && returned && p < fn->nparams;
             p++) {
            char v[BCW_VALUE_CHARS];
            if (!bcw__calls_out(st, &fn->params[p], p, s->outs[k], v, sizeof v))
                continue;
            ok &= (out[2 * e->obs.nout] = bcw__strdup(fn->params[p].name)) !=
                  NULL;
            ok &= (out[2 * e->obs.nout + 1] = renumbered(v, &seen)) != NULL;
            e->obs.nout++;
        }
    }
    /* the call's own outcome: whether a halt is listed apart (suspect,
     * aliasing) is the path's, not the state's */
    e->obs.outcome = bcw__outcome_name(s->outcome);
    if (halted) {
        char cause[400];
        bcw__cause_observed(r, s, true, cause, sizeof cause);
        ok &= (e->obs.cause = bcw__strdup(cause)) != NULL;
    } else if (s->observer_changed) {
        /* what the call did to the state is part of what it did: an
         * observer that changes it where the oracle's did not (a side
         * effect a fault added) is a changed observation; one that
         * always did (a cache it fills) is the oracle's */
        ok &= (e->obs.cause = bcw__strdup(BCW_OBSERVER_CHANGED)) != NULL;
    }
    if (!ok) {
        bcw__report_observed_free(e);
        return BCW_ENOMEM;
    }
    return 0;
}
