/* export.c - HTML, JUnit XML, SARIF and SVG of a walk (export.h).
 *
 * What the walk ran is kept as groups (a JUnit test case each: the
 * sequences of one length, or of one state in the state walk) and
 * distinct halts: sequences that halted the same way (outcome, the
 * function whose call halted, the cause in words, the place in the
 * source) are one halt, kept with the shortest of them, in C syntax as
 * the text report prints it, and how many there were.
 *
 * A halt is a *failure* of the library when it crashed, hung, broke a
 * contract or the invariant, or leaked; an abort (abort, a failed
 * assert, exit) is a halt the report shows but no failure: a library's
 * own precondition check (pop on an empty stack) ends that way by
 * design, and only an oracle tells one from a bug.  A rejected,
 * suspect or aliasing sequence (a meaningless call, an argument bcwalk
 * made up, the target passed as its own argument) is neither. */
#define _GNU_SOURCE
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "bcwalk/version.h"
#include "build.h"
#include "emit_c.h"
#include "engine.h"
#include "file.h"
#include "hash.h"
#include "standalone.h"
#include "text.h"

#define GROUP_SHOWN 10 /* halts a JUnit test case shows in full */

typedef struct halt {
    uint64_t key;
    char *outcome, *fn, *cause, *file;
    unsigned line;
    char *text; /* the shortest sequence, as the text report prints it */
    unsigned len;
    uint64_t count;
    bool failure;
    char *group;  /* the first group it was met in */
    char *line1;  /* --reproduce: its calls on one line */
    bool inside;  /* line is the halt's own, not the function's start */
    bool guarded; /* a write found after the call, by a block's guard */
} halt;

typedef struct group {
    char *name;
    uint64_t run, failed, halted;
    unsigned *halts; /* distinct halts met in it, by index */
    unsigned nhalts;
    size_t caphalts;
} group;

struct bcw_exports {
    bcw_export_opts o;
    halt *halts;
    unsigned nhalts;
    size_t caphalts;
    group *groups;
    unsigned ngroups;
    size_t capgroups;
    uint64_t rejected, suspect, aliasing;
    bcw_emit_c *emit;      /* --emit-c, or NULL */
    bcw_standalone *repro; /* --reproduce, or for --sarif, or NULL */
    char *scratch; /* --sarif without --reproduce: repro's folder, removed */
    bcw_standalone_halt *said; /* --reproduce: what each halt's program did */
    bcw_standalone_verdict *verdicts;
    bcw_stateset entries; /* a judged walk: the oracle entries emitted */
};

int bcw__exports_new(bcw_exports **out, const bcw_export_opts *o)
{
    *out = NULL;
    if (o->html_path == NULL && o->junit_path == NULL &&
        o->sarif_path == NULL && o->svg_path == NULL &&
        o->emit_c_path == NULL && o->reproduce_dir == NULL && !o->halts)
        return 0;
    bcw_exports *x = bcw__calloc(1, sizeof *x);
    if (x == NULL)
        return BCW_ENOMEM;
    x->o = *o;
    *out = x;
    if (o->reproduce_dir != NULL)
        return bcw__standalone_new(&x->repro, o->reproduce_dir);
    if (o->sarif_path == NULL)
        return 0;
    /* SARIF puts a write a block's guard found at the line that wrote:
     * the halt's standalone program under AddressSanitizer says it */
    if ((x->scratch = bcw__sprintf("%s/bcwalk-sarif.XXXXXX", bcw__tmp_dir())) ==
        NULL)
        return BCW_ENOMEM;
    if (mkdtemp(x->scratch) == NULL) {
        int err = bcw__error(BCW_ERROR, "mkdtemp %s: %s", x->scratch,
                             strerror(errno));
        free(x->scratch);
        x->scratch = NULL;
        return err;
    }
    return bcw__standalone_new(&x->repro, x->scratch);
}

static bool is_failure(const bcw_seq *s)
{
    switch (s->outcome) {
    case BCW_RUN_CRASH:
    case BCW_RUN_HANG:
    case BCW_RUN_FAILURE:
        return true;
    case BCW_RUN_NORMAL:
        return s->leak != NULL;
    default:
        return false;
    }
}

/* The sequence in C syntax, the caller's. */
static char *c_text(const bcw_reporter *r, const bcw_seq *s)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f == NULL)
        return NULL;
    bcw__report_c(r, s, f);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

static group *group_of(bcw_exports *x, const char *name)
{
    if (x->ngroups > 0 && strcmp(x->groups[x->ngroups - 1].name, name) == 0)
        return &x->groups[x->ngroups - 1];
    for (unsigned i = 0; i < x->ngroups; i++)
        if (strcmp(x->groups[i].name, name) == 0)
            return &x->groups[i];
    if (bcw__grow(&x->groups, &x->capgroups, x->ngroups + 1,
                  sizeof *x->groups) < 0)
        return NULL;
    group *g = &x->groups[x->ngroups];
    memset(g, 0, sizeof *g);
    if ((g->name = bcw__strdup(name)) == NULL)
        return NULL;
    x->ngroups++;
    return g;
}

/* The halt s is one of, made when it is the first; *chosen when s is
 * its shortest sequence so far. */
static int halt_of(bcw_exports *x, const bcw_reporter *r, const bcw_seq *s,
                   const char *gname, unsigned *index, bool *chosen)
{
    *chosen = false;
    char cause[512], leak[512], file[256] = "";
    unsigned line = 0;
    bcw__report_words(r, s, cause, sizeof cause, leak, sizeof leak);
    bool inside = true;
    bool site = bcw__report_site(r, s, file, sizeof file, &line, &inside);
    const char *outcome =
        s->outcome == BCW_RUN_NORMAL ? "leak" : bcw__outcome_name(s->outcome);
    const char *fn = s->outcome == BCW_RUN_NORMAL
                         ? r->unit->funcs[r->steps[s->steps[0]].func].name
                         : bcw__report_halted_fn(r, s);
    const char *words = s->outcome == BCW_RUN_NORMAL ? leak : cause;
    /* one halt: the same outcome of the same function's call at the
     * same place (a leak: blocks allocated at the same place), whatever
     * the address or the number of blocks; where no place is known, the
     * same cause in words */
    uint64_t key = bcw__hash(outcome, strlen(outcome) + 1, 0);
    if (s->outcome != BCW_RUN_NORMAL)
        key = bcw__hash(fn, strlen(fn) + 1, key);
    if (site) {
        key = bcw__hash(file, strlen(file) + 1, key);
        key = bcw__hash(&line, sizeof line, key);
    } else {
        key = bcw__hash(words, strlen(words) + 1, key);
    }
    for (unsigned i = 0; i < x->nhalts; i++) {
        halt *h = &x->halts[i];
        if (h->key != key)
            continue;
        h->count++;
        *index = i;
        if (s->len >= h->len)
            return 0;
        *chosen = true;
        /* a shorter one of the same halt (the state walk's states are
         * walked one after another) */
        char *text = c_text(r, s);
        if (text == NULL)
            return BCW_ENOMEM;
        free(h->text);
        h->text = text;
        h->len = s->len;
        return x->repro != NULL ? bcw__standalone_halt(x->repro, r, s, i) : 0;
    }
    if (bcw__grow(&x->halts, &x->caphalts, x->nhalts + 1, sizeof *x->halts) < 0)
        return BCW_ENOMEM;
    halt *h = &x->halts[x->nhalts];
    *h = (halt){.key = key,
                .outcome = bcw__strdup(outcome),
                .fn = bcw__strdup(fn),
                .cause = bcw__strdup(words),
                .file = site ? bcw__strdup(file) : NULL,
                .line = site ? line : 0,
                .text = c_text(r, s),
                .len = s->len,
                .count = 1,
                .inside = inside,
                .guarded = s->outcome != BCW_RUN_NORMAL && s->cause != NULL &&
                           (s->cause->kind == BCW_CAUSE_OVERFLOW ||
                            s->cause->kind == BCW_CAUSE_UNDERFLOW),
                .failure = is_failure(s),
                .group = bcw__strdup(gname)};
    *index = x->nhalts++;
    *chosen = true;
    if (h->outcome == NULL || h->fn == NULL || h->cause == NULL ||
        h->text == NULL || h->group == NULL || (site && h->file == NULL))
        return BCW_ENOMEM;
    return x->repro != NULL ? bcw__standalone_halt(x->repro, r, s, *index) : 0;
}

/* A judged walk emits a test per oracle entry it confirmed: s when it
 * passed as the oracle has it and is the first sequence met of its
 * entry (the state its last call started from, and that call; the
 * whole sequence where no state was computed).  *first says so. */
static int confirmed_entry(bcw_exports *x, const bcw_reporter *r,
                           const bcw_seq *s, bool *first)
{
    *first = false;
    if (r->verdict->judgement != BCW_JUDGED_PASS)
        return 0;
    uint64_t key =
        s->before != 0
            ? bcw__hash(&s->steps[s->len], sizeof *s->steps, s->before)
            : bcw__hash(s->steps, (s->len + 1) * sizeof *s->steps, s->len);
    return bcw__stateset_add(&x->entries, key ? key : 1, first);
}

/* Halting or leaking sequence s counted in its halt and group g;
 * *chosen when it is its halt's shortest so far. */
static int count_halt(bcw_exports *x, const bcw_reporter *r, const bcw_seq *s,
                      group *g, bool *chosen)
{
    unsigned k;
    int err = halt_of(x, r, s, g->name, &k, chosen);
    if (err < 0)
        return err;
    if (x->halts[k].failure)
        g->failed++;
    else
        g->halted++;
    for (unsigned i = 0; i < g->nhalts; i++)
        if (g->halts[i] == k)
            return 0;
    if (bcw__grow(&g->halts, &g->caphalts, g->nhalts + 1, sizeof *g->halts) < 0)
        return BCW_ENOMEM;
    g->halts[g->nhalts++] = k;
    return 0;
}

int bcw__exports_seq(bcw_exports *x, const bcw_reporter *r, const bcw_seq *s)
{
    if (x == NULL)
        return 0;
    char name[300];
    if (r->state != NULL)
        snprintf(name, sizeof name, "state %s", r->state);
    else
        snprintf(name, sizeof name, "length %u", s->len - s->nprefix);
    group *g = group_of(x, name);
    if (g == NULL)
        return BCW_ENOMEM;
    g->run++;
    int err = 0;
    bool chosen = false;
    if (s->suspect || s->aliasing) { /* listed apart */
        x->suspect += s->suspect;
        x->aliasing += !s->suspect;
    } else if (s->outcome == BCW_RUN_REJECTED) {
        x->rejected++;
    } else if (s->outcome != BCW_RUN_NORMAL || s->leak != NULL) {
        err = count_halt(x, r, s, g, &chosen);
    }
    if (err == 0 && x->o.emit_c_path != NULL && x->emit == NULL)
        err = bcw__emit_c_new(&x->emit, r, x->o.emit_c_all);
    if (err < 0 || x->emit == NULL)
        return err;
    /* kept whatever the sample: a halt's shortest sequence, a state's
     * transitions, an oracle entry confirmed */
    bool pin = chosen || (r->state != NULL && s->len - s->nprefix <= 1);
    if (r->verdict != NULL) {
        err = confirmed_entry(x, r, s, &pin);
        if (err < 0 || !pin)
            return err;
    }
    return bcw__emit_c_seq(x->emit, r, s, (unsigned)(g - x->groups), pin);
}

/* --- writing ---------------------------------------------------------- */

/* f's bytes (an open_memstream's) into `path` atomically, f closed. */

/* "bstack_pop: abort abort() called ... (3 sequences, the shortest of
 * length 1)", as XML text. */
static void halt_words(const halt *h, char *msg, size_t n)
{
    snprintf(msg, n, "%s: %s %s%s (%llu sequence%s, the shortest of length %u)",
             h->fn, h->outcome, h->cause,
             h->failure ? "" : "; a halt, no failure",
             (unsigned long long)h->count, h->count == 1 ? "" : "s", h->len);
}

static void halt_message(FILE *f, const halt *h)
{
    char msg[1024];
    halt_words(h, msg, sizeof msg);
    bcw__xml_str(f, msg);
}

void bcw__exports_halts_text(const bcw_exports *x, FILE *f)
{
    if (x == NULL || x->nhalts == 0)
        return;
    fprintf(f, "\nDistinct halts: %u, each with its shortest sequence\n",
            x->nhalts);
    for (unsigned i = 0; i < x->nhalts; i++) {
        char msg[1024];
        halt_words(&x->halts[i], msg, sizeof msg);
        fprintf(f, "\n%u. %s\n%s", i + 1, msg, x->halts[i].text);
    }
}

static int write_junit(bcw_exports *x, const bcw_reporter *r,
                       const bcw_summary *sum, const char *path)
{
    char *data = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&data, &len);
    if (f == NULL)
        return BCW_ENOMEM;
    unsigned failures = 0;
    for (unsigned i = 0; i < x->ngroups; i++)
        failures += x->groups[i].failed > 0;
    char suite[300];
    snprintf(suite, sizeof suite, "%s %s walk, depth %u", r->unit->name,
             bcw__walk_name(r->walk), r->depth);
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"", f);
    bcw__xml_str(f, suite);
    fprintf(f, "\" tests=\"%u\" failures=\"%u\" errors=\"0\">\n", x->ngroups,
            failures);
    fputs("  <testsuite name=\"", f);
    bcw__xml_str(f, suite);
    fprintf(f,
            "\" tests=\"%u\" failures=\"%u\" errors=\"0\" skipped=\"0\" "
            "time=\"%.3f\">\n    <properties>\n",
            x->ngroups, failures, sum->elapsed_s);
    const struct {
        const char *name;
        uint64_t v;
    } props[] = {{"normal", sum->normal},       {"terminated", sum->terminated},
                 {"discarded", sum->discarded}, {"rejected", x->rejected},
                 {"suspect", x->suspect},       {"aliasing", x->aliasing},
                 {"calls", sum->calls}};
    for (size_t i = 0; i < sizeof props / sizeof *props; i++)
        fprintf(f, "      <property name=\"%s\" value=\"%llu\"/>\n",
                props[i].name, (unsigned long long)props[i].v);
    fputs("    </properties>\n", f);
    for (unsigned i = 0; i < x->ngroups; i++) {
        const group *g = &x->groups[i];
        fputs("    <testcase classname=\"", f);
        bcw__xml_str(f, r->unit->name);
        fprintf(f, ".%s\" name=\"", bcw__walk_name(r->walk));
        bcw__xml_str(f, g->name);
        fputs("\" time=\"0\">\n", f);
        if (g->failed > 0) {
            fprintf(f,
                    "      <failure type=\"halt\" message=\"%llu of %llu "
                    "sequences failed\">",
                    (unsigned long long)g->failed, (unsigned long long)g->run);
            unsigned shown = 0;
            for (unsigned k = 0; k < g->nhalts && shown < GROUP_SHOWN; k++) {
                const halt *h = &x->halts[g->halts[k]];
                if (!h->failure)
                    continue;
                shown++;
                halt_message(f, h);
                fputs("\n", f);
                bcw__xml_str(f, h->text);
                fputs("\n", f);
            }
            fputs("</failure>\n", f);
        }
        fprintf(f,
                "      <system-out>%llu sequences ran, %llu failed, %llu "
                "halted without a failure (abort, exit)",
                (unsigned long long)g->run, (unsigned long long)g->failed,
                (unsigned long long)g->halted);
        for (unsigned k = 0; k < g->nhalts; k++) {
            const halt *h = &x->halts[g->halts[k]];
            if (h->failure)
                continue;
            fputs("\n", f);
            halt_message(f, h);
        }
        fputs("</system-out>\n    </testcase>\n", f);
    }
    fputs("  </testsuite>\n</testsuites>\n", f);
    return bcw__write_stream_atomic(f, &data, &len, path);
}

/* A source file's path as a JSON string holding its URI: file:// and
 * the absolute path, or the relative path, percent-encoded but for
 * RFC 3986's unreserved characters and '/'. */
static void uri(FILE *f, const char *path)
{
    fputs(path[0] == '/' ? "\"file://" : "\"", f);
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
            (*p >= '0' && *p <= '9') || strchr("-._~/", *p) != NULL)
            fputc(*p, f);
        else
            fprintf(f, "%%%02X", *p);
    }
    fputc('"', f);
}

/* SARIF's level of a halt. */
static const char *sarif_level(const halt *h)
{
    return h->failure ? "error" : "warning";
}

static int write_sarif(bcw_exports *x, const bcw_reporter *r, const char *path)
{
    char *data = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&data, &len);
    if (f == NULL)
        return BCW_ENOMEM;
    static const char *const rules[][2] = {
        {"crash", "A call crashed (a fatal signal, a heap block overrun)"},
        {"hang", "A call did not return within its time limit"},
        {"failure", "A call broke a contract or the unit's invariant"},
        {"leak", "The destructor left blocks nothing reaches"},
        {"abort", "A call aborted, failed an assertion or exited"}};
    fputs("{\n  \"$schema\": \"https://docs.oasis-open.org/sarif/sarif/"
          "v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json\",\n"
          "  \"version\": \"2.1.0\",\n  \"runs\": [{\n"
          "    \"tool\": {\"driver\": {\"name\": \"bcwalk\", "
          "\"version\": ",
          f);
    bcw__json_str(f, bcw_version());
    fputs(", \"rules\": [", f);
    for (size_t i = 0; i < sizeof rules / sizeof *rules; i++) {
        fprintf(f,
                "%s\n      {\"id\": \"%s\", \"shortDescription\": "
                "{\"text\": ",
                i ? "," : "", rules[i][0]);
        bcw__json_str(f, rules[i][1]);
        fputs("}}", f);
    }
    fputs("]}},\n    \"results\": [", f);
    bool first = true;
    for (unsigned i = 0; i < x->nhalts; i++) {
        const halt *h = &x->halts[i];
        fprintf(f,
                "%s\n      {\"ruleId\": \"%s\", \"level\": \"%s\", "
                "\"message\": {\"text\": ",
                first ? "" : ",", h->outcome, sarif_level(h));
        first = false;
        char *msg =
            bcw__sprintf("%s: %s %s, %llu sequence%s; the shortest:\n%s", h->fn,
                         h->outcome, h->cause, (unsigned long long)h->count,
                         h->count == 1 ? "" : "s", h->text);
        if (msg == NULL) {
            fclose(f);
            free(data);
            return BCW_ENOMEM;
        }
        bcw__json_str(f, msg);
        free(msg);
        fputs("}", f);
        /* a write its block's guard found: the line that wrote, as
         * AddressSanitizer found it in the halt's standalone program */
        const bcw_standalone_verdict *v = x->verdicts != NULL && h->guarded &&
                                                  !h->inside &&
                                                  x->verdicts[i].site_line > 0
                                              ? &x->verdicts[i]
                                              : NULL;
        if (v != NULL) {
            fputs(", \"locations\": [{\"physicalLocation\": "
                  "{\"artifactLocation\": {\"uri\": ",
                  f);
            uri(f, v->site);
            fprintf(f,
                    "}, \"region\": {\"startLine\": %u}}, \"message\": "
                    "{\"text\": ",
                    v->site_line);
            bcw__json_str(f, "the line that wrote past the block, as "
                             "AddressSanitizer found it when the halt's "
                             "shortest sequence ran again as a standalone "
                             "C program (the walk's guard found the write "
                             "after the call)");
            fputs("}}]", f);
        } else if (h->file != NULL) {
            fputs(", \"locations\": [{\"physicalLocation\": "
                  "{\"artifactLocation\": {\"uri\": ",
                  f);
            uri(f, h->file);
            fprintf(f, "}, \"region\": {\"startLine\": %u}}", h->line);
            if (!h->inside) {
                /* the function's start: say why not the halt's line */
                fputs(", \"message\": {\"text\": ", f);
                bcw__json_str(
                    f, h->guarded
                           ? "where the function whose call halted starts: "
                             "the write past the block was found after the "
                             "call, by the block's guard; the walk's own "
                             "SARIF (explore --sarif) has the line that "
                             "wrote when the halt's standalone program "
                             "shows it, and a walk with --sanitize address "
                             "has it always"
                           : "where the function whose call halted starts: "
                             "the halt has no place of its own");
                fputs("}", f);
            }
            fputs("}]", f);
        }
        fprintf(f, ", \"properties\": {\"sequences\": %llu, \"group\": ",
                (unsigned long long)h->count);
        bcw__json_str(f, h->group);
        fputs(", \"unit\": ", f);
        bcw__json_str(f, r->unit->name);
        fputs("}}", f);
    }
    fputs("\n    ]\n  }]\n}\n", f);
    return bcw__write_stream_atomic(f, &data, &len, path);
}

/* --- Graphviz --------------------------------------------------------- */

/* The path of program `name` on $PATH, the caller's, or NULL. */
static char *on_path(const char *name)
{
    const char *path = getenv("PATH");
    for (const char *p = path ? path : "/usr/bin:/bin"; *p != '\0';) {
        size_t n = strcspn(p, ":");
        /* an empty entry is the working folder */
        char *exe = n ? bcw__sprintf("%.*s/%s", (int)n, p, name)
                      : bcw__sprintf("./%s", name);
        if (exe != NULL && access(exe, X_OK) == 0)
            return exe;
        free(exe);
        p += n + (p[n] == ':');
    }
    return NULL;
}

int bcw__svg_of_dot(const char *dot, size_t len, char **svg)
{
    *svg = NULL;
    char *exe = on_path("dot");
    if (exe == NULL)
        return bcw__error(BCW_EINPUT,
                          "the SVG is drawn by Graphviz's dot, which is not "
                          "on PATH (Debian: apt-get install graphviz)");
    /* a folder of its own: no name another user could have made first */
    char *dir = bcw__sprintf("%s/bcwalk-graph.XXXXXX", bcw__tmp_dir());
    if (dir != NULL && mkdtemp(dir) == NULL) {
        int err = bcw__error(BCW_ERROR, "mkdtemp %s: %s", dir, strerror(errno));
        free(dir);
        free(exe);
        return err;
    }
    char *in = dir ? bcw__sprintf("%s/graph.dot", dir) : NULL;
    char *out = dir ? bcw__sprintf("%s/graph.svg", dir) : NULL;
    char *log = dir ? bcw__sprintf("%s/dot.log", dir) : NULL;
    int err = in && out && log ? 0 : BCW_ENOMEM;
    if (err == 0)
        err = bcw__write_file_atomic(in, dot, len);
    if (err == 0) {
        const char *argv[] = {exe, "-Tsvg", in, "-o", out, NULL};
        int rc = bcw__build_clang(argv, log);
        if (rc > 0)
            err = bcw__build_failed(in, "drawing the state graph", log);
        else
            err = rc;
    }
    char *data = NULL;
    size_t n = 0;
    if (err == 0)
        err = bcw__read_file(&data, &n, out, (size_t)1 << 30);
    if (err == 0) {
        /* from <svg on: the XML prolog and DOCTYPE are a file's, not a
         * page's */
        const char *at = strstr(data, "<svg");
        *svg = bcw__strdup(at ? at : data);
        if (*svg == NULL)
            err = BCW_ENOMEM;
    }
    free(data);
    if (in)
        unlink(in);
    if (out)
        unlink(out);
    /* a failure's log stays where its message says it is */
    if (log && err == 0)
        unlink(log);
    if (dir && err == 0)
        rmdir(dir);
    free(in);
    free(out);
    free(log);
    free(dir);
    free(exe);
    return err;
}

/* The state graph's SVG, or NULL (no states) into *svg. */
static int graph_svg(const bcw_reporter *r, const bcw_states *st, char **svg)
{
    *svg = NULL;
    if (st == NULL || st->nstates == 0)
        return 0;
    bcw_buf dot;
    bcw__buf_init(&dot, (size_t)64 << 20);
    int err = bcw__states_dot_buf(st, r->unit, r->steps, &dot);
    if (err == 0)
        err = bcw__svg_of_dot(dot.data, dot.len, svg);
    bcw__buf_free(&dot);
    return err;
}

/* --- HTML ------------------------------------------------------------- */

static const char CSS[] =
    "body{font-family:Helvetica,Arial,sans-serif;margin:2em;color:#202124}"
    "h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em}"
    "table{border-collapse:collapse}td,th{border:1px solid #dadce0;"
    "padding:.3em .6em;text-align:right}th{background:#f1f3f4}"
    "td.l,th.l{text-align:left}pre{background:#f8f9fa;padding:.6em;"
    "margin:.3em 0;white-space:pre-wrap}"
    ".failure{color:#b3261e;font-weight:bold}.halt{color:#a15c00}"
    "#graph svg{max-width:100%;height:auto}";

/* The page's script: the halts table filtered as the user types. */
static const char SCRIPT[] =
    "(function(){var box=document.getElementById('filter');"
    "if(!box)return;box.addEventListener('input',function(){"
    "var q=box.value.toLowerCase();"
    "document.querySelectorAll('#halts tbody tr').forEach(function(tr){"
    "tr.style.display=tr.textContent.toLowerCase().indexOf(q)<0?'none':'';"
    "});});})();";

static void count_row(FILE *f, const char *what, uint64_t n, const char *id)
{
    fprintf(f, "<tr><td class=\"l\">%s</td><td id=\"%s\">%llu</td></tr>\n",
            what, id, (unsigned long long)n);
}

static void html_summary(FILE *f, bcw_exports *x, const bcw_summary *s)
{
    uint64_t executed = bcw__report_executed(s);
    uint64_t total = executed + s->discarded;
    fputs("<h2>Summary</h2>\n<table id=\"summary\">\n", f);
    count_row(f, "Exercised: sequences that executed normally", s->normal,
              "normal");
    count_row(f, "Terminated: sequences that halted", s->terminated,
              "terminated");
    if (s->unmet > 0)
        count_row(f,
                  "Not made: sequences whose last call's argument had no "
                  "value on the object",
                  s->unmet, "unmet");
    count_row(f, "Discarded: sequences not run", s->discarded, "discarded");
    count_row(f, "of the discarded, pruned below a visited state",
              s->pruned_state, "pruned_state");
    count_row(f, "of the terminated, rejected (a meaningless call)",
              x->rejected, "rejected");
    count_row(f, "of the normal, leaking", s->leaking, "leaking");
    count_row(f, "Distinct concrete states", s->concrete_states,
              "concrete_states");
    count_row(f, "Calls into the unit", s->calls, "calls");
    fputs("</table>\n<h2>Efficiency</h2>\n<table id=\"efficiency\">\n", f);
    fprintf(f,
            "<tr><td class=\"l\">Sequences run of the walk's whole set</td>"
            "<td>%.1f%%</td></tr>\n",
            total ? 100.0 * (double)executed / (double)total : 0.0);
    fprintf(f,
            "<tr><td class=\"l\">Decided without running (discarded)</td>"
            "<td>%.1f%%</td></tr>\n",
            total ? 100.0 * (double)s->discarded / (double)total : 0.0);
    fprintf(f,
            "<tr><td class=\"l\">Results predicted (void, algebra walk)</td>"
            "<td>%llu</td></tr>\n",
            (unsigned long long)s->predicted_void);
    fprintf(f,
            "<tr><td class=\"l\">Sequences run per second</td><td>%.0f</td>"
            "</tr>\n<tr><td class=\"l\">Calls per second</td><td>%.0f</td>"
            "</tr>\n",
            s->elapsed_s > 0 ? (double)executed / s->elapsed_s : 0.0,
            s->elapsed_s > 0 ? (double)s->calls / s->elapsed_s : 0.0);
    if (s->judged.on) {
        /* a judged walk: JWalk's oracle efficiency */
        const struct bcw_judged *j = &s->judged;
        bcw_efficiency e = bcw__report_efficiency(s);
        fprintf(f,
                "<tr><td class=\"l\">Passed as the oracle has them</td>"
                "<td id=\"passed\">%llu</td></tr>\n<tr><td class=\"l\">"
                "Failed</td><td id=\"failed\">%llu</td></tr>\n<tr><td "
                "class=\"l\">Pending a person's judgement</td><td>%llu</td>"
                "</tr>\n<tr><td class=\"l\">Observations put to a person"
                "</td><td>%llu (%.2f%%)</td></tr>\n<tr><td class=\"l\">"
                "Predicted</td><td>%llu (%.2f%%)</td></tr>\n<tr><td "
                "class=\"l\">Decisions automated</td><td>%.2f%%</td></tr>\n",
                (unsigned long long)j->passed, (unsigned long long)j->failed,
                (unsigned long long)(j->fresh + j->changed + j->unjudged),
                (unsigned long long)e.manual, e.manual_pct,
                (unsigned long long)e.predicted, e.predicted_pct,
                e.automated_pct);
    }
    fputs("</table>\n", f);
}

static void html_halts(FILE *f, bcw_exports *x)
{
    uint64_t failures = 0;
    for (unsigned i = 0; i < x->nhalts; i++)
        failures += x->halts[i].failure;
    fprintf(f,
            "<h2>Halts and failures</h2>\n<p>%u distinct ways the walk's "
            "sequences halted, %llu of them failures of the library "
            "(crash, hang, a broken contract or invariant, a leak); each "
            "with the shortest sequence that halted so, in C.</p>\n",
            x->nhalts, (unsigned long long)failures);
    if (x->nhalts == 0)
        return;
    fputs("<p><input id=\"filter\" type=\"search\" placeholder=\"filter\">"
          "</p>\n<table id=\"halts\"><thead><tr><th class=\"l\">outcome</th>"
          "<th class=\"l\">call</th><th class=\"l\">cause</th>"
          "<th class=\"l\">where</th><th>sequences</th>"
          "<th class=\"l\">shortest sequence</th></tr></thead><tbody>\n",
          f);
    for (unsigned i = 0; i < x->nhalts; i++) {
        const halt *h = &x->halts[i];
        fprintf(f, "<tr><td class=\"l %s\">", h->failure ? "failure" : "halt");
        bcw__xml_str(f, h->outcome);
        fputs("</td><td class=\"l\">", f);
        bcw__xml_str(f, h->fn);
        fputs("</td><td class=\"l\">", f);
        bcw__xml_str(f, h->cause);
        fputs("</td><td class=\"l\">", f);
        if (h->file != NULL) {
            bcw__xml_str(f, h->file);
            fprintf(f, ":%u", h->line);
        }
        fprintf(f, "</td><td>%llu</td><td class=\"l\"><pre>",
                (unsigned long long)h->count);
        bcw__xml_str(f, h->text);
        fputs("</pre></td></tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
}

static int write_html(bcw_exports *x, const bcw_reporter *r,
                      const bcw_summary *sum, const char *svg, const char *path)
{
    char *data = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&data, &len);
    if (f == NULL)
        return BCW_ENOMEM;
    char title[300];
    snprintf(title, sizeof title, "bcwalk: %s, %s walk, depth %u", r->unit_name,
             bcw__walk_name(r->walk), r->depth);
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
          "charset=\"utf-8\">\n<title>",
          f);
    bcw__xml_str(f, title);
    fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", CSS);
    bcw__xml_str(f, title);
    fputs("</h1>\n", f);
    if (sum->partial)
        fputs("<p class=\"halt\">The walk stopped before its end "
              "(partial): the counts are of the lengths it finished.</p>\n",
              f);
    html_summary(f, x, sum);
    fputs("<h2>State graph</h2>\n", f);
    if (svg != NULL) {
        fputs("<div id=\"graph\">\n", f);
        fputs(svg, f);
        fputs("</div>\n", f);
    } else {
        fputs("<p>No design states: the state walk (--walk state) finds "
              "them and draws its graph.</p>\n",
              f);
    }
    html_halts(f, x);
    fputs("<h2>Coverage</h2>\n", f);
    if (r->cov != NULL)
        bcw__cov_html(f, r->cov, r->hits, r->depth);
    else
        fputs("<p>Not measured: explore --coverage measures it.</p>\n", f);
    if (r->warnings.n > 0) {
        fputs("<h2>Warnings</h2>\n<ul>\n", f);
        for (unsigned i = 0; i < r->warnings.n; i++) {
            fputs("<li>", f);
            bcw__xml_str(f, r->warnings.v[i]);
            fputs("</li>\n", f);
        }
        fputs("</ul>\n", f);
    }
    fprintf(f, "<script>%s</script>\n</body>\n</html>\n", SCRIPT);
    return bcw__write_stream_atomic(f, &data, &len, path);
}

/* x's --emit-c file. */
static int write_emit_c(bcw_exports *x, const bcw_reporter *r)
{
    const bcw_export_opts *o = &x->o;
    int err =
        x->emit == NULL ? bcw__emit_c_new(&x->emit, r, x->o.emit_c_all) : 0;
    if (err < 0)
        return err;
    char from[1024] = "";
    size_t n = 0;
    for (unsigned i = 0; i < o->argc && n < sizeof from; i++)
        n += (size_t)snprintf(from + n, sizeof from - n, "%s%s",
                              i ? " " : "bcwalk ", o->argv[i]);
    const char **names = bcw__calloc(x->ngroups + 1, sizeof *names);
    for (unsigned i = 0; names != NULL && i < x->ngroups; i++)
        names[i] = x->groups[i].name;
    err = names == NULL ? BCW_ENOMEM
                        : bcw__emit_c_write(x->emit, r, from, names, x->ngroups,
                                            o->emit_c_path);
    free(names);
    return err;
}

/* err, or 0 when it is an export refused (BCW_EINPUT: no states to
 * draw, no Graphviz, a file that cannot be written), kept in *refused:
 * that export fails alone, and the others are written. */
static int alone(int err, int *refused)
{
    if (err != BCW_EINPUT)
        return err;
    *refused = err;
    return 0;
}

int bcw__exports_write(bcw_exports *x, const bcw_reporter *r,
                       const bcw_summary *sum, const bcw_states *st)
{
    if (x == NULL)
        return 0;
    const bcw_export_opts *o = &x->o;
    char *svg = NULL;
    int refused = 0;
    /* the page and the SVG need the graph drawn */
    int drawn = o->html_path != NULL || o->svg_path != NULL
                    ? graph_svg(r, st, &svg)
                    : 0;
    int err = alone(drawn, &refused);
    if (err == 0 && drawn == 0 && o->svg_path != NULL)
        err = alone(svg == NULL
                        ? bcw__error(BCW_EINPUT,
                                     "--svg: the walk found no design "
                                     "states: there is no state graph to "
                                     "draw")
                        : bcw__write_file_atomic(o->svg_path, svg, strlen(svg)),
                    &refused);
    if (err == 0 && o->junit_path != NULL)
        err = alone(write_junit(x, r, sum, o->junit_path), &refused);
    if (err == 0 && o->sarif_path != NULL)
        err = alone(write_sarif(x, r, o->sarif_path), &refused);
    if (err == 0 && drawn == 0 && o->html_path != NULL)
        err = alone(write_html(x, r, sum, svg, o->html_path), &refused);
    if (err == 0 && o->emit_c_path != NULL)
        err = alone(write_emit_c(x, r), &refused);
    free(svg);
    return err < 0 ? err : refused;
}

/* The calls of a sequence as the text report prints it (a line each,
 * then "==> " lines) on one line; the caller's. */
static char *one_line(const char *text)
{
    char *out = bcw__calloc(strlen(text) + 1, 1);
    if (out == NULL)
        return NULL;
    size_t n = 0;
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, "\n");
        if (len > 0 && strncmp(p, "==>", 3) != 0) {
            if (n > 0)
                out[n++] = ' ';
            memcpy(out + n, p, len);
            n += len;
        }
        p += len + (p[len] == '\n');
    }
    out[n] = '\0';
    return out;
}

int bcw__exports_reproduce(bcw_exports *x, bcw_reporter *r, const char *bitcode,
                           const char *setup, bcw_summary *sum)
{
    if (x == NULL || x->repro == NULL)
        return 0;
    static const char *const verdicts[] = {"reproduced", "not reproduced",
                                           "not written", "not built"};
    /* for SARIF alone, only when a block's guard found a write */
    bool asked = x->o.reproduce_dir != NULL, needed = asked;
    for (unsigned i = 0; i < x->nhalts && !needed; i++)
        needed = x->halts[i].guarded && !x->halts[i].inside;
    sum->standalone.on = asked;
    /* bcwalk report runs nothing: its SARIF says what the walk's did */
    if (x->nhalts == 0 || !needed || (!asked && bitcode == NULL))
        return 0;
    x->verdicts = bcw__calloc(x->nhalts, sizeof *x->verdicts);
    x->said = bcw__calloc(x->nhalts, sizeof *x->said);
    if (x->verdicts == NULL || x->said == NULL)
        return BCW_ENOMEM;
    int err = bcw__standalone_run(x->repro, r, bitcode, setup, x->verdicts);
    if (err < 0 || !asked)
        return err;
    for (unsigned i = 0; i < x->nhalts; i++) {
        const bcw_standalone_verdict *v = &x->verdicts[i];
        if ((x->halts[i].line1 = one_line(x->halts[i].text)) == NULL)
            return BCW_ENOMEM;
        x->said[i] = (bcw_standalone_halt){.fn = x->halts[i].fn,
                                           .outcome = x->halts[i].outcome,
                                           .cause = x->halts[i].cause,
                                           .sequence = x->halts[i].line1,
                                           .verdict = verdicts[v->verdict],
                                           .what = v->what};
        sum->standalone.halts++;
        sum->standalone.reproduced += v->verdict == BCW_STANDALONE_REPRODUCED;
        sum->standalone.differed += v->verdict == BCW_STANDALONE_DIFFERED;
        sum->standalone.unwritten += v->verdict == BCW_STANDALONE_UNWRITTEN;
        sum->standalone.unbuilt += v->verdict == BCW_STANDALONE_UNBUILT;
    }
    r->standalone = x->said;
    r->nstandalone = x->nhalts;
    return 0;
}

void bcw__exports_free(bcw_exports *x)
{
    if (x == NULL)
        return;
    bcw__standalone_free(x->repro);
    if (x->scratch != NULL)
        bcw__remove_tree(x->scratch);
    free(x->scratch);
    free(x->said);
    free(x->verdicts);
    for (unsigned i = 0; i < x->nhalts; i++) {
        halt *h = &x->halts[i];
        free(h->outcome);
        free(h->fn);
        free(h->cause);
        free(h->file);
        free(h->text);
        free(h->group);
        free(h->line1);
    }
    free(x->halts);
    for (unsigned i = 0; i < x->ngroups; i++) {
        free(x->groups[i].name);
        free(x->groups[i].halts);
    }
    free(x->groups);
    bcw__emit_c_free(x->emit);
    bcw__stateset_clear(&x->entries);
    free(x);
}
