/* summary.c - the parts of a walk's summary its text and JSON share
 * (summary.h): the oracle's efficiency, the gaps of a walk --from-tests
 * in either form, the coverage's counts. */
#define _POSIX_C_SOURCE 200809L
#include "summary.h"

#include "learn.h"
#include "text.h"

uint64_t bcw__report_executed(const bcw_summary *s)
{
    return s->normal + s->terminated + s->unmet;
}

bcw_efficiency bcw__report_efficiency(const bcw_summary *s)
{
    bcw_efficiency e = {0};
    uint64_t executed = bcw__report_executed(s);
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

/* The gaps of a walk --from-tests: one list, in text (under `title`,
 * unless NULL) or JSON (there followed by `after`). */
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
    if (title != NULL)
        fprintf(f, "  %s (%u):\n", title, l->n);
    for (unsigned i = 0; i < l->n; i++)
        fprintf(f, "    %s\n", l->v[i]);
}

void bcw__summary_gaps(FILE *f, const bcw_gaps *g, bool json, const char *nl)
{
    char sep[8], end[16];
    snprintf(sep, sizeof sep, ",%s", json ? nl : "");
    snprintf(end, sizeof end, "},%s", json ? nl : "");
    double times =
        bcw__learned_growth(g->ctors_before, g->methods_before, g->ctors_after,
                            g->methods_after, g->depth);
    unsigned walked = g->categories - g->dropped.n;
    if (json)
        fprintf(f,
                "\"from_tests\": {\"categories\": %u, \"walked\": %u, "
                "\"growth\": %u, \"steps\": "
                "{\"constructors\": [%u, %u], \"methods\": [%u, %u], "
                "\"times\": %.2f}, \"sequences\": %u, "
                "\"longer_than_depth\": %u,%s",
                g->categories, walked, g->growth, g->ctors_before,
                g->ctors_after, g->methods_before, g->methods_after, times,
                g->sequences, g->longer, nl);
    else
        fprintf(f,
                "\nFrom the tests: %u categories of their values, %u walked "
                "(the walk's methods %u -> %u, constructors %u -> %u: up to "
                "%.2f times its sequences at depth %u); %u sequences of their "
                "calls, %u longer than the depth %u\n",
                g->categories, walked, g->methods_before, g->methods_after,
                g->ctors_before, g->ctors_after, times, g->depth, g->sequences,
                g->longer, g->depth);
    if (!json && g->dropped.n > 0)
        fprintf(f,
                "  %u of them not walked, the least used, to keep the "
                "walk's growth within --tests-growth %u:\n",
                g->dropped.n, g->growth);
    gap_list(f, json, "not_walked", NULL, &g->dropped, sep);
    gap_list(f, json, "no_sequence", "tests that gave no sequence", &g->none,
             sep);
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

void bcw__summary_standalone(FILE *f, const bcw_reporter *r,
                             const bcw_summary *s, bool json, const char *nl)
{
    const struct bcw_standalone_counts *c = &s->standalone;
    if (!c->on)
        return;
    if (json) {
        fprintf(f,
                "\"standalone\": {\"halts\": %llu, \"reproduced\": %llu, "
                "\"not_reproduced\": %llu, \"not_written\": %llu, "
                "\"not_built\": %llu, \"list\": [",
                (unsigned long long)c->halts, (unsigned long long)c->reproduced,
                (unsigned long long)c->differed,
                (unsigned long long)c->unwritten,
                (unsigned long long)c->unbuilt);
        for (unsigned i = 0; i < r->nstandalone; i++) {
            const bcw_standalone_halt *h = &r->standalone[i];
            const char *const members[][2] = {
                {"fn", h->fn},           {"outcome", h->outcome},
                {"cause", h->cause},     {"sequence", h->sequence},
                {"verdict", h->verdict}, {"standalone", h->what}};
            for (unsigned k = 0; k < sizeof members / sizeof *members; k++) {
                fprintf(f, "%s\"%s\": ",
                        k   ? ", "
                        : i ? ", {"
                            : "{",
                        members[k][0]);
                bcw__json_str(f, members[k][1]);
            }
            fputc('}', f);
        }
        fprintf(f, "]},%s", nl);
        return;
    }
    fprintf(f,
            "Standalone programs: %llu distinct halts, %llu reproduced (the "
            "library's), %llu not reproduced (bcwalk's own), %llu not "
            "written, %llu not built\n",
            (unsigned long long)c->halts, (unsigned long long)c->reproduced,
            (unsigned long long)c->differed, (unsigned long long)c->unwritten,
            (unsigned long long)c->unbuilt);
    for (unsigned i = 0; i < r->nstandalone; i++) {
        const bcw_standalone_halt *h = &r->standalone[i];
        fprintf(f, "  halt %u, %s: %s %s: %s\n    walk: %s\n    program: %s\n",
                i, h->verdict, h->fn, h->outcome, h->sequence, h->cause,
                h->what);
    }
}

int bcw__report_coverage(bcw_reporter *r, const bcw_cov_map *map,
                         const uint8_t *hits, bcw_summary *out)
{
    bcw_cov_summary s;
    int err = bcw__cov_summarize(map, hits, 0, &s);
    if (err < 0)
        return err;
    out->coverage =
        (struct bcw_coverage){.on = 1,
                              .lines = s.total.n[BCW_COV_LINES],
                              .lines_hit = s.hit.n[BCW_COV_LINES],
                              .branches = s.total.n[BCW_COV_BRANCHES],
                              .branches_hit = s.hit.n[BCW_COV_BRANCHES],
                              .functions = s.total.n[BCW_COV_FUNCTIONS],
                              .functions_hit = s.hit.n[BCW_COV_FUNCTIONS]};
    bcw__cov_summary_free(&s);
    r->cov = map;
    r->hits = hits;
    if (map->nlines > 0)
        return 0;
    return bcw__strlist_add(
        &r->warnings,
        bcw__sprintf("coverage: the bitcode has no debug information "
                     "(clang -g): it counts functions only, no source "
                     "lines nor branch arms, and the lcov file has none"));
}
