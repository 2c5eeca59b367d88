/* json_report.c - the walk's summary as one JSON object
 * (json_report.h): its counts, verdicts, the oracle's counts and
 * efficiency, the states, coverage, the gaps --from-tests, warnings and
 * timing. */
#define _POSIX_C_SOURCE 200809L
#include "json_report.h"

#include "engine.h"

#include "build.h"
#include "summary.h"
#include "text.h"

static void json_counts(FILE *f, const bcw_summary *s)
{
    fprintf(f,
            "{\"normal\": %llu, \"terminated\": %llu, \"unmet\": %llu, "
            "\"discarded\": %llu}",
            (unsigned long long)s->normal, (unsigned long long)s->terminated,
            (unsigned long long)s->unmet, (unsigned long long)s->discarded);
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

/* "sequences" and what the walk did to them: pruning, spilling,
 * stopping. */
static void json_sequences(const bcw_reporter *r, const bcw_summary *s,
                           const char *nl)
{
    FILE *f = r->f;
    fprintf(f,
            "\"sequences\": {\"normal\": %llu, \"terminated\": %llu, "
            "\"suspect\": %llu, \"aliasing\": %llu, \"unmet\": %llu, "
            "\"leaking\": %llu, "
            "\"discarded\": %llu, \"pruned_observer\": %llu, "
            "\"pruned_state\": %llu, \"predicted_void\": %llu",
            (unsigned long long)s->normal, (unsigned long long)s->terminated,
            (unsigned long long)s->suspect, (unsigned long long)s->aliasing,
            (unsigned long long)s->unmet, (unsigned long long)s->leaking,
            (unsigned long long)s->discarded,
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
}

/* "verdicts"; in a judged walk, the oracle's counts and efficiency. */
static void json_verdicts(FILE *f, const bcw_summary *s, const char *nl)
{
    uint64_t executed = bcw__report_executed(s);
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
            "%llu, \"missing\": %llu, \"dropped\": %llu, \"beyond\": %llu, "
            "\"reference\": %s, \"differs\": %llu, \"missing_list\": [",
            (unsigned long long)j->passed, (unsigned long long)j->failed,
            (unsigned long long)j->fresh, (unsigned long long)j->changed,
            (unsigned long long)j->unjudged, (unsigned long long)j->accepted,
            (unsigned long long)j->rejected, (unsigned long long)j->unreached,
            (unsigned long long)j->missing, (unsigned long long)j->dropped,
            (unsigned long long)j->beyond, j->reference ? "true" : "false",
            (unsigned long long)j->differs);
        for (unsigned i = 0; i < j->nlisted; i++) {
            fputs(i ? ", {\"sequence\": " : "{\"sequence\": ", f);
            bcw__json_str(f, j->listed[i].sequence);
            fputs(", \"why\": ", f);
            bcw__json_str(f, j->listed[i].why);
            fputc('}', f);
        }
        fprintf(f, "]},%s", nl);
        bcw_efficiency e = bcw__report_efficiency(s);
        fprintf(f,
                "\"efficiency\": {\"manual\": %llu, \"predicted\": %llu, "
                "\"weak\": %llu, \"manual_pct\": %.2f, \"predicted_pct\": "
                "%.2f, \"automated_pct\": %.2f},%s",
                (unsigned long long)e.manual, (unsigned long long)e.predicted,
                (unsigned long long)j->weak, e.manual_pct, e.predicted_pct,
                e.automated_pct, nl);
    }
}

/* "states" of a walk other than the state walk: one, the default,
 * covered by the unit's constructors. */
static void json_default_state(FILE *f, const bcw_unit *u, const char *nl)
{
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

/* "warnings": about the alphabet, and the state walk's notes. */
static void json_warnings(const bcw_reporter *r, const char *nl)
{
    FILE *f = r->f;
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
}

int bcw__json_report_summary(const bcw_reporter *r, const bcw_summary *s,
                             char **texts, bool one_line)
{
    int err = 0;
    FILE *f = r->f;
    const char *nl = one_line ? " " : "\n  ";
    fputs("{\"unit\": ", f);
    bcw__json_str(f, r->unit->name);
    fprintf(f, ", \"walk\": \"%s\", \"depth\": %u,%s", bcw__walk_name(r->walk),
            r->depth, nl);
    json_sequences(r, s, nl);
    json_verdicts(f, s, nl);
    if (r->states != NULL)
        json_states(r, r->states, texts, nl);
    else
        json_default_state(f, r->unit, nl);
    if (r->cov != NULL)
        err = bcw__cov_print(f, r->cov, r->hits, r->depth, true, nl);
    if (r->gaps != NULL)
        bcw__summary_gaps(f, r->gaps, true, nl);
    bcw__summary_standalone(f, r, s, true, nl);
    json_warnings(r, nl);
    fprintf(f,
            "\"elapsed_s\": %.6f, \"calls\": %llu, \"calls_per_s\": %.1f, "
            "\"worker_restarts\": %llu}\n",
            s->elapsed_s, (unsigned long long)s->calls,
            s->elapsed_s > 0 ? (double)s->calls / s->elapsed_s : 0.0,
            (unsigned long long)s->worker_restarts);
    return err;
}
