/* bench_json.c - the jsonl report written by bcwalk's streaming writer
 * and by jansson, side by side, on the same sequences.
 *
 * Reads a jsonl report (`bcwalk explore --format jsonl`), keeps its
 * sequence lines as records (the summary line is written once per walk
 * and left out), checks that both writers give those lines back byte
 * for byte, then writes all records `reps` times to /dev/null with each,
 * best of `rounds` (CPU time), and prints a markdown table: lines/s, MB/s,
 * and jansson's allocations per line.  The streaming writer is
 * bcw__jsonl_report_seq's sequence of stdio calls and bcw__json_str
 * (explorer/report/jsonl_report.c); the jansson one builds each line as
 * a json_t tree (json_object, json_string, ...) and dumps it with
 * json_dumpf, or with json_dumps and one fputs.
 *
 * Usage: bench_json FILE.jsonl [reps] [rounds] */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "text.h"

#define MAX_PARAMS 8

typedef struct call {
    const char *fn, *result, *outcome;                 /* result NULL: absent */
    const char *args[MAX_PARAMS], *labels[MAX_PARAMS]; /* label NULL: null */
    const char *out_names[MAX_PARAMS], *out_values[MAX_PARAMS];
    unsigned nargs, nout;
} call;

typedef struct rec {
    unsigned length;
    const char *state, *verdict;
    uint64_t concrete; /* 0: absent */
    bool pruned;
    call *calls;
    unsigned ncalls;
} rec;

/* jansson's allocations, counted through json_set_alloc_funcs: each
 * block carries its size in front. */
static size_t nallocs, live, peak;

static void *count_malloc(size_t n)
{
    size_t *p = malloc(sizeof(size_t) + n);
    if (p == NULL)
        return NULL;
    *p = n;
    nallocs++;
    live += n;
    peak = live > peak ? live : peak;
    return p + 1;
}

static void count_free(void *q)
{
    if (q == NULL)
        return;
    size_t *p = (size_t *)q - 1;
    live -= *p;
    free(p);
}

static void die(const char *what)
{
    fprintf(stderr, "bench_json: %s\n", what);
    exit(1);
}

static const char *get_str(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

/* A jsonl line as a record; its strings are borrowed from `line`. */
static void read_rec(json_t *line, rec *r)
{
    r->length = (unsigned)json_integer_value(json_object_get(line, "length"));
    r->state = get_str(line, "state");
    r->verdict = get_str(line, "verdict");
    const char *cs = get_str(line, "concrete_state");
    r->concrete = cs ? strtoull(cs, NULL, 16) : 0;
    r->pruned = json_object_get(line, "pruned") != NULL;
    json_t *calls = json_object_get(line, "calls");
    r->ncalls = (unsigned)json_array_size(calls);
    r->calls = calloc(r->ncalls, sizeof *r->calls);
    if (r->calls == NULL)
        die("out of memory");
    for (unsigned k = 0; k < r->ncalls; k++) {
        json_t *c = json_array_get(calls, k);
        call *out = &r->calls[k];
        out->fn = get_str(c, "fn");
        out->result = get_str(c, "result");
        out->outcome = get_str(c, "outcome");
        json_t *args = json_object_get(c, "args");
        json_t *labels = json_object_get(c, "labels");
        out->nargs = (unsigned)json_array_size(args);
        if (out->nargs > MAX_PARAMS)
            die("too many arguments");
        for (unsigned p = 0; p < out->nargs; p++) {
            out->args[p] = json_string_value(json_array_get(args, p));
            out->labels[p] = json_string_value(json_array_get(labels, p));
        }
        const char *name;
        json_t *v;
        json_object_foreach(json_object_get(c, "out"), name, v)
        {
            if (out->nout == MAX_PARAMS)
                die("too many out-parameters");
            out->out_names[out->nout] = name;
            out->out_values[out->nout++] = json_string_value(v);
        }
    }
}

/* One line as bcw__jsonl_report_seq writes it: stdio and bcw__json_str. */
static void write_ours(FILE *f, const rec *r)
{
    fprintf(f, "{\"length\": %u, \"state\": ", r->length);
    bcw__json_str(f, r->state);
    fprintf(f, ", \"verdict\": \"%s\", ", r->verdict);
    if (r->concrete != 0)
        fprintf(f, "\"concrete_state\": \"%016" PRIx64 "\", ", r->concrete);
    if (r->pruned)
        fputs("\"pruned\": \"state\", ", f);
    fputs("\"calls\": [", f);
    for (unsigned k = 0; k < r->ncalls; k++) {
        const call *c = &r->calls[k];
        fputs(k ? ", {\"fn\": " : "{\"fn\": ", f);
        bcw__json_str(f, c->fn);
        fputs(", \"args\": [", f);
        for (unsigned p = 0; p < c->nargs; p++) {
            fputs(p ? ", " : "", f);
            bcw__json_str(f, c->args[p]);
        }
        fputs("], \"labels\": [", f);
        for (unsigned p = 0; p < c->nargs; p++) {
            fputs(p ? ", " : "", f);
            if (c->labels[p] != NULL)
                bcw__json_str(f, c->labels[p]);
            else
                fputs("null", f);
        }
        fputs("]", f);
        if (c->result != NULL) {
            fputs(", \"result\": ", f);
            bcw__json_str(f, c->result);
        }
        for (unsigned p = 0; p < c->nout; p++) {
            fputs(p ? ", " : ", \"out\": {", f);
            bcw__json_str(f, c->out_names[p]);
            fputs(": ", f);
            bcw__json_str(f, c->out_values[p]);
        }
        if (c->nout > 0)
            fputs("}", f);
        fprintf(f, ", \"outcome\": \"%s\"}", c->outcome);
    }
    fputs("]}\n", f);
}

/* The same line as a jansson tree; the caller's, freed with json_decref. */
static json_t *build_jansson(const rec *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "length", json_integer(r->length));
    json_object_set_new(o, "state", json_string(r->state));
    json_object_set_new(o, "verdict", json_string(r->verdict));
    if (r->concrete != 0) {
        char hex[17];
        snprintf(hex, sizeof hex, "%016" PRIx64, r->concrete);
        json_object_set_new(o, "concrete_state", json_string(hex));
    }
    if (r->pruned)
        json_object_set_new(o, "pruned", json_string("state"));
    json_t *calls = json_array();
    for (unsigned k = 0; k < r->ncalls; k++) {
        const call *c = &r->calls[k];
        json_t *jc = json_object();
        json_object_set_new(jc, "fn", json_string(c->fn));
        json_t *args = json_array(), *labels = json_array();
        for (unsigned p = 0; p < c->nargs; p++) {
            json_array_append_new(args, json_string(c->args[p]));
            json_array_append_new(
                labels, c->labels[p] ? json_string(c->labels[p]) : json_null());
        }
        json_object_set_new(jc, "args", args);
        json_object_set_new(jc, "labels", labels);
        if (c->result != NULL)
            json_object_set_new(jc, "result", json_string(c->result));
        if (c->nout > 0) {
            json_t *out = json_object();
            for (unsigned p = 0; p < c->nout; p++)
                json_object_set_new(out, c->out_names[p],
                                    json_string(c->out_values[p]));
            json_object_set_new(jc, "out", out);
        }
        json_object_set_new(jc, "outcome", json_string(c->outcome));
        json_array_append_new(calls, jc);
    }
    json_object_set_new(o, "calls", calls);
    return o;
}

enum writer { OURS, JANSSON_DUMPF, JANSSON_DUMPS, NWRITERS };

static const char *const writer_names[] = {"streaming (bcw__json_str)",
                                           "jansson, json_dumpf",
                                           "jansson, json_dumps + fputs"};

static void write_line(enum writer w, FILE *f, const rec *r)
{
    if (w == OURS) {
        write_ours(f, r);
        return;
    }
    json_t *o = build_jansson(r);
    if (w == JANSSON_DUMPF) {
        if (json_dumpf(o, f, 0) < 0)
            die("json_dumpf failed");
    } else {
        char *s = json_dumps(o, 0);
        if (s == NULL)
            die("json_dumps failed");
        fputs(s, f);
        count_free(s);
    }
    fputc('\n', f);
    json_decref(o);
}

/* CPU seconds of this process, user and system: steadier than wall time
 * on a machine shared with other work. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        die("usage: bench_json FILE.jsonl [reps] [rounds]");
    long reps = argc > 2 ? strtol(argv[2], NULL, 10) : 200;
    long rounds = argc > 3 ? strtol(argv[3], NULL, 10) : 3;
    json_set_alloc_funcs(count_malloc, count_free);

    /* the sequence lines, as bytes and as records */
    FILE *in = fopen(argv[1], "r");
    if (in == NULL)
        die("cannot open the jsonl file");
    char *line = NULL, *want = NULL;
    size_t cap = 0, nwant = 0;
    FILE *wantf = open_memstream(&want, &nwant);
    rec *recs = NULL;
    size_t nrecs = 0, rcap = 0;
    ssize_t len;
    json_t *keep = json_array(); /* owns the strings records borrow */
    while ((len = getline(&line, &cap, in)) > 0) {
        json_error_t err;
        json_t *j = json_loadb(line, (size_t)len, 0, &err);
        if (j == NULL)
            die(err.text);
        if (json_object_get(j, "length") == NULL) { /* the summary */
            json_decref(j);
            continue;
        }
        fwrite(line, 1, (size_t)len, wantf);
        if (nrecs == rcap) {
            rcap = rcap ? 2 * rcap : 1024;
            recs = realloc(recs, rcap * sizeof *recs);
            if (recs == NULL)
                die("out of memory");
        }
        read_rec(j, &recs[nrecs++]);
        json_array_append_new(keep, j);
    }
    fclose(in);
    fclose(wantf);
    if (nrecs == 0)
        die("no sequence lines in the jsonl file");

    /* both writers give the report's lines back, byte for byte */
    for (int w = 0; w < NWRITERS; w++) {
        char *got = NULL;
        size_t ngot = 0;
        FILE *g = open_memstream(&got, &ngot);
        for (size_t i = 0; i < nrecs; i++)
            write_line((enum writer)w, g, &recs[i]);
        fclose(g);
        if (ngot != nwant || memcmp(got, want, nwant) != 0) {
            fprintf(stderr, "bench_json: %s does not reproduce %s\n",
                    writer_names[w], argv[1]);
            return 1;
        }
        free(got);
    }

    FILE *null = fopen("/dev/null", "w");
    if (null == NULL)
        die("cannot open /dev/null");
    printf("%zu sequence lines, %zu bytes (%.0f bytes a line), written "
           "%ld times per round, best of %ld rounds\n\n",
           nrecs, nwant, (double)nwant / (double)nrecs, reps, rounds);
    printf("| writer | lines/s | MB/s | CPU seconds | allocations a line | "
           "peak heap a line |\n|---|---:|---:|---:|---:|---:|\n");
    for (int w = 0; w < NWRITERS; w++) {
        /* one pass counting jansson's allocations (the streaming writer
         * makes none: it writes into stdio's buffer) */
        size_t before = nallocs, base = live;
        peak = live;
        for (size_t i = 0; i < nrecs; i++)
            write_line((enum writer)w, null, &recs[i]);
        double allocs = (double)(nallocs - before) / (double)nrecs;
        double best = 1e30;
        for (long round = 0; round < rounds; round++) {
            double t0 = now();
            for (long k = 0; k < reps; k++)
                for (size_t i = 0; i < nrecs; i++)
                    write_line((enum writer)w, null, &recs[i]);
            fflush(null);
            double t = now() - t0;
            best = t < best ? t : best;
        }
        double lines = (double)nrecs * (double)reps;
        printf("| %s | %.2f M | %.0f | %.3f | %.0f | %zu bytes |\n",
               writer_names[w], lines / best / 1e6,
               (double)nwant * (double)reps / best / 1e6, best, allocs,
               peak - base);
    }
    fclose(null);
    for (size_t i = 0; i < nrecs; i++)
        free(recs[i].calls);
    free(recs);
    free(line);
    free(want);
    json_decref(keep);
    return 0;
}
