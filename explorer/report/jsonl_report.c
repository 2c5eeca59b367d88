/* jsonl_report.c - a walk's sequences as JSON lines (jsonl_report.h),
 * each call as the worker made it, with the oracle's word on it in a
 * judged walk. */
#define _POSIX_C_SOURCE 200809L
#include "jsonl_report.h"

#include "engine.h"

#include "calls.h"
#include "cause.h"
#include "text.h"

/* The halted call's ", \"cause\": ...". */
static void json_cause(const bcw_reporter *r, const bcw_seq *s, FILE *f)
{
    char cause[400];
    bcw__cause_observed(r, s, false, cause, sizeof cause);
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
    if (v->lost) {
        /* a state's cover that no longer reaches it: what it reaches */
        fputs("\"cover_reaches\": ", f);
        if (v->lost_to != NULL)
            bcw__json_str(f, v->lost_to);
        else
            fputs("null", f);
        fputs(", ", f);
    }
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

/* The destructor's call ending s, as a member of "calls". */
static void jsonl_destructor(const bcw_reporter *r, const bcw_seq *s,
                             bool halted, const char *outcome, FILE *f)
{
    fputs(", {\"fn\": ", f);
    bcw__json_str(f, bcw__report_destructor(r, s));
    fprintf(f,
            ", \"args\": [\"%s\"], \"labels\": [null], "
            "\"outcome\": \"%s\"",
            bcw__calls_dtor_arg(s, true), outcome);
    if (halted)
        json_cause(r, s, f);
    fputs("}", f);
}

/* What call k of s, a call of fn, left in its out-parameters:
 * ", \"out\": {...}" when anything. */
static void jsonl_outs(const bcw_reporter *r, const bcw_seq *s, unsigned k,
                       const bcw_func *fn, FILE *f)
{
    bool first = true;
    const bcw_step *st = &r->steps[s->steps[k]];
    for (unsigned p = 0; p < fn->nparams; p++) {
        const bcw_param *pa = &fn->params[p];
        char v[BCW_VALUE_CHARS];
        if (!bcw__calls_out(st, pa, p, s->outs[k], v, sizeof v))
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

/* Call k of s, the constructor or a method, as a member of "calls": its
 * arguments drawn from `gen` as the worker drew them. */
static void jsonl_call(const bcw_reporter *r, const bcw_seq *s, unsigned k,
                       bool halted, const char *outcome, bcw_gen *gen, FILE *f)
{
    char args[BCW_MAX_PARAMS][64], result[BCW_VALUE_CHARS];
    const char *labels[BCW_MAX_PARAMS];
    const bcw_func *fn = bcw__report_call(r, s, k, gen, args, labels, result,
                                          sizeof result, true);
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
    if (result[0] && bcw__calls_result_shown(s, k)) {
        fputs(", \"result\": ", f);
        bcw__json_str(f, result);
    }
    if (s->outs[k] != NULL && !halted)
        jsonl_outs(r, s, k, fn, f);
    fprintf(f, ", \"outcome\": \"%s\"", outcome);
    if (halted)
        json_cause(r, s, f);
    fputs("}", f);
}

void bcw__jsonl_report_seq(const bcw_reporter *r, const bcw_seq *s)
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
    unsigned ncalls = bcw__calls_shown(s);
    for (unsigned k = 0; k < ncalls; k++) {
        bool halted = s->outcome != BCW_RUN_NORMAL && k + 1 == ncalls;
        const char *outcome =
            halted ? bcw__cause_outcome(s) : bcw__outcome_name(0);
        if (k == s->len + 1u)
            jsonl_destructor(r, s, halted, outcome, f);
        else
            jsonl_call(r, s, k, halted, outcome, &gen, f);
    }
    fputs("]", f);
    if (s->leak != NULL) {
        char leak[400];
        bcw__cause_leak(r, s, leak, sizeof leak);
        fputs(", \"leak\": ", f);
        bcw__json_str(f, leak);
    }
    fputs("}\n", f);
}
