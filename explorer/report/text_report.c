/* text_report.c - the text report as JWalk prints its own, in C syntax
 * (text_report.h): sequences grouped by length (or by state, then
 * length), each call a C statement and "==> " what the last one gave;
 * then the summary. */
#define _POSIX_C_SOURCE 200809L
#include "text_report.h"

#include "engine.h"

#include "build.h"
#include "calls.h"
#include "cause.h"
#include "summary.h"

#include <string.h>

/* bcwalk test: the line after a judged sequence that did not pass. */
static void judgement_text(const bcw_reporter *r, FILE *f)
{
    char was[512];
    switch (r->verdict->judgement) {
    case BCW_JUDGED_NEW:
        fputs(r->reference ? "--- failed: unmatched, the reference "
                             "build's walk did not make it\n"
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
        if (r->verdict->lost) {
            fprintf(
                f,
                "--- failed: the cover of state %s no longer reaches it%s%s\n",
                r->state, r->verdict->lost_to ? ": it reaches " : "",
                r->verdict->lost_to ? r->verdict->lost_to : "");
            break;
        }
        fputs("--- failed: a contract or the invariant\n", f);
        break;
    case BCW_JUDGED_PENDING:
        fputs("--- pending: the oracle has it, not judged yet\n", f);
        break;
    default:
        break;
    }
}

void bcw__text_report_seq(bcw_reporter *r, const bcw_seq *s)
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
    char args[BCW_MAX_PARAMS][64], result[BCW_VALUE_CHARS] = "",
                                   last[3 * BCW_VALUE_CHARS] = "";
    const char *labels[BCW_MAX_PARAMS];
    unsigned ncalls = bcw__calls_shown(s);
    for (unsigned k = 0; k < ncalls; k++) {
        bool is_dtor = k == s->len + 1u;
        if (is_dtor) {
            fprintf(f, "%s(%s);\n", bcw__report_destructor(r, s),
                    bcw__calls_dtor_arg(s, false));
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
            fprintf(f, "%s storage%s, *target = &storage;\n%s(target",
                    u->ctype, fn->defaults ? " = {0}" : "", fn->name);
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
            char out[BCW_VALUE_CHARS];
            const bcw_step *st = &r->steps[s->steps[k]];
            for (unsigned p = 0; p < fn->nparams; p++) {
                if (s->outs[k] == NULL ||
                    !bcw__calls_out(st, &fn->params[p], p, s->outs[k], out,
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
        bcw__cause_halt(r, s, last, sizeof last);
    if (bcw__cause_apart(s) != NULL)
        fprintf(f, "==> *%s* %s, %s\n", bcw__cause_outcome(s), last,
                bcw__cause_apart(s));
    else if (s->observer_changed && r->verdict != NULL)
        fprintf(f, "==> %s (%s)\n", last[0] ? last : "void",
                BCW_OBSERVER_CHANGED);
    else
        fprintf(f, "==> %s\n", last[0] ? last : "void");
    if (s->leak != NULL) {
        char leak[400];
        bcw__cause_leak(r, s, leak, sizeof leak);
        fprintf(f, "==> *leak* %s\n", leak);
    }
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
                "build gives them, %llu a failed contract or check\n",
                (unsigned long long)j->passed, (unsigned long long)j->failed,
                (unsigned long long)j->differs,
                (unsigned long long)(j->failed - j->differs));
        if (j->fresh > 0)
            fprintf(f,
                    "Unmatched %llu test sequences the reference build's walk "
                    "did not make, failed\n",
                    (unsigned long long)j->fresh);
    } else {
        fprintf(f,
                "Passed %llu test sequences as the oracle has them\n"
                "Failed %llu test sequences (a failed contract or check, or "
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
    if (j->missing > 0)
        fprintf(f,
                "Missing %llu observations of the %s that this walk should "
                "have reached (a walk of this kind no deeper made them), "
                "%s%s\n",
                (unsigned long long)j->missing,
                j->reference ? "reference build" : "oracle",
                j->dropped == j->missing
                    ? "dropped from the oracle (--accept takes them as gone)"
                    : "failed",
                j->nlisted < j->missing ? "; the first:" : ":");
    for (unsigned i = 0; i < j->nlisted; i++)
        fprintf(f, "  %s\n    %s\n", j->listed[i].sequence, j->listed[i].why);
    if (j->beyond > 0)
        fprintf(f,
                "Beyond this walk: %llu observations of the %s made by "
                "another kind of walk or a deeper one\n",
                (unsigned long long)j->beyond,
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
    if (st->restored)
        fprintf(f, "\nDesign states (%u, reached by the oracle's covers):\n",
                st->nstates);
    else
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
                "%llu terminated, ",
                d->ncover, d->ncover == 1 ? "" : "s",
                d->origin ? ", from test " : "", d->origin ? d->origin : "",
                (unsigned long long)d->sum.normal,
                (unsigned long long)d->sum.terminated);
        if (d->sum.unmet > 0)
            fprintf(f, "%llu not made, ", (unsigned long long)d->sum.unmet);
        fprintf(f, "%llu discarded\n", (unsigned long long)d->sum.discarded);
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

/* The summary's counts: the sequences that ran normally, halted or
 * were discarded, the suspect, unmade, leaking and pruned among them,
 * the concrete states reached. */
static void text_counts(const bcw_reporter *r, const bcw_summary *s)
{
    FILE *f = r->f;
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
            (unsigned long long)s->normal, (unsigned long long)s->terminated,
            (unsigned long long)s->discarded,
            r->walk == BCW_WALK_ALGEBRA || r->walk == BCW_WALK_LEARNED ||
                    s->pruned_state > 0
                ? "were pruned"
                : "had failed");
    if (s->suspect > 0)
        fprintf(f,
                "Of the terminated and leaking, %llu suspect: they halted "
                "or leaked after an argument bcwalk made up (zeroed storage "
                "no function a walk can call makes), not the library's "
                "failure\n",
                (unsigned long long)s->suspect);
    if (s->aliasing > 0)
        fprintf(f,
                "Of the terminated and leaking, %llu aliasing: they halted "
                "or leaked after the "
                "target was passed as another argument of its own type (an "
                "array added to itself), not the library's failure\n",
                (unsigned long long)s->aliasing);
    if (s->unmet > 0)
        fprintf(f,
                "Not made %llu test sequences whose last call's argument "
                "had no value of its category on the object as it was\n",
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
}

int bcw__text_report_summary(const bcw_reporter *r, const bcw_summary *s,
                             char **texts)
{
    FILE *f = r->f;
    int err = 0;
    /* the unit as the user named it (ArrayList for _ArrayList) */
    fprintf(f, "%sTest summary for unit: %s\n\n", r->started ? "\n" : "",
            r->unit_name);
    fprintf(f,
            "Test unit: %s\nTest mode: %s exploration\nTest depth: %u"
            "\n\n",
            r->unit_name,
            r->walk == BCW_WALK_ALGEBRA   ? "Algebraic"
            : r->walk == BCW_WALK_STATE   ? "State"
            : r->walk == BCW_WALK_LEARNED ? "Learned"
                                          : "Protocol",
            r->depth);
    text_counts(r, s);
    if (s->judged.on)
        text_judged(f, s);
    if (r->cov != NULL)
        err = bcw__cov_print(f, r->cov, r->hits, r->depth, false, NULL);
    for (unsigned i = 0; i < r->warnings.n; i++)
        fprintf(f, "Warning: %s\n", r->warnings.v[i]);
    if (r->states != NULL)
        text_states(r, r->states, texts);
    if (r->gaps != NULL)
        bcw__summary_gaps(f, r->gaps, false, NULL);
    bcw__summary_standalone(f, r, s, false, NULL);
    return err;
}
