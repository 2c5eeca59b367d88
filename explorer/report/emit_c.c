/* emit_c.c - cmocka tests of a walk's sequences (emit_c.h).
 *
 * A sequence becomes a test function of plain calls, as the standalone
 * reproductions write them (cprog.h): every argument as the worker made
 * it (element cells, buffers, strings, handles given out earlier, other
 * units' instances, built-in callbacks as C functions, storage a call
 * fills), and after each call the result the walk observed asserted (an
 * integer or a float exactly, a string by its content, a pointer as
 * NULL, the target, an element's cell, or the pointer an earlier call
 * gave).  A sequence whose call halted runs in a child process, expected
 * to end as the walk saw it end: the same fatal signal, SIGABRT (abort,
 * a failed assert or contract), exit with the same status, still
 * running when its time is up (a hang), exit 124 where the invariant
 * turned false.  What only a checker sees (a heap overflow, a double
 * free, a leak) is expected under AddressSanitizer and LeakSanitizer,
 * undefined behaviour under -fsanitize=undefined -DBCW_UNDEFINED; each
 * is skipped, saying how to build it, without.  Left out as a skipped
 * test that says why: a runaway allocation, a halt only bcwalk's worker
 * sees, an argument with no C spelling.  Rejected, suspect and aliasing
 * sequences are no tests.
 *
 * A walk's tests are a chosen set unless all are asked for: the pinned
 * ones (each distinct halt's shortest sequence, each transition out of
 * each state, each oracle entry confirmed) and a uniform sample of the
 * others of each group (a length, a state), drawn by a reservoir with a
 * fixed seed, so the same walk emits the same tests.  They are written
 * in the walk's order, EMIT_PER_FILE to a file. */
#define _GNU_SOURCE
#include "emit_c.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "cprog.h"
#include "file.h"
#include "hash.h"
#include "plan.h"
#include "text.h"

/* Tests of a group (a length, a state) kept by the sample. */
#define EMIT_SAMPLE 100
/* Tests to a file: one compiles in about a second. */
#define EMIT_PER_FILE 1000

/* How a test runs. */
enum run_kind {
    RUN_SKIPPED, /* not at all: `why` says why */
    RUN_HERE,    /* asserting each result, in a child process */
    RUN_CHILD    /* in a child process, expected to halt */
};

typedef struct test {
    uint64_t ord; /* the sequence's place in the walk */
    unsigned group;
    char *calls; /* its statements, NULL once dropped from the sample */
    enum run_kind run;
    const char *why; /* RUN_SKIPPED */
    const char *fn;  /* of `why`: the function it names, or NULL */
    /* RUN_CHILD: the build it needs, a sanitizer's */
    enum { NEEDS_NOTHING, NEEDS_ASAN, NEEDS_UBSAN } needs;
    enum bcw_expect how; /* RUN_CHILD */
    int code;
    unsigned seconds;
    bool leak;
} test;

typedef struct sample {
    uint64_t seen; /* the group's unpinned tests so far */
    size_t *slot;  /* the kept ones, by index into tests */
    unsigned nslot;
} sample;

struct bcw_emit_c {
    bool all;
    test *tests;
    size_t ntests, captests;
    sample *samples;
    size_t nsamples, capsamples;
    uint64_t seqs; /* sequences offered */
    bcw_c_names names;
};

int bcw__emit_c_new(bcw_emit_c **out, const bcw_reporter *r, bool all)
{
    (void)r;
    bcw_emit_c *e = bcw__calloc(1, sizeof *e);
    if (e == NULL)
        return BCW_ENOMEM;
    e->all = all;
    *out = e;
    return 0;
}

enum bcw_expect bcw__halt_expect(const bcw_seq *s, int *code, const char **why)
{
    const bcw_wire_cause *c = s->cause;
    unsigned kind = c != NULL ? c->kind : BCW_CAUSE_NONE;
    *code = 0;
    *why = NULL;
    switch (s->outcome) {
    case BCW_RUN_CRASH:
        if (kind == BCW_CAUSE_SIGNAL && c->where != BCW_WHERE_BLOCK &&
            c->where != BCW_WHERE_FREED && c->where != BCW_WHERE_PAST) {
            /* a bad address, the stack: the same signal natively */
            *code = s->signo;
            return EXPECT_SIGNAL;
        }
        if (kind == BCW_CAUSE_SIGNAL || kind == BCW_CAUSE_OVERFLOW ||
            kind == BCW_CAUSE_UNDERFLOW || kind == BCW_CAUSE_DOUBLE_FREE ||
            kind == BCW_CAUSE_SANITIZER ||
            (kind == BCW_CAUSE_GARBAGE && c->addr == BCW_GUARD_WORD))
            /* in or past a heap block: only a checker stops it */
            return EXPECT_CHECKED;
        if (kind == BCW_CAUSE_GARBAGE) {
            *why = "a pointer read from memory nothing wrote, which only "
                   "bcwalk's fill of new blocks shows";
            return EXPECT_NONE;
        }
        break;
    case BCW_RUN_ABORT:
        if (kind == BCW_CAUSE_ABORT || kind == BCW_CAUSE_ASSERT)
            return EXPECT_ABORT;
        if (kind == BCW_CAUSE_DOUBLE_FREE) /* the worker's allocator saw it */
            return EXPECT_CHECKED;
        if (kind == BCW_CAUSE_EXIT) {
            *code = (int)(c->size & 0xff);
            return EXPECT_EXIT;
        }
        break;
    case BCW_RUN_HANG:
        return EXPECT_HANG;
    case BCW_RUN_FAILURE:
        /* contract.h's failure aborts; the invariant is bcwalk's call */
        return s->signo == BCW_SIG_INVARIANT ? EXPECT_INVARIANT : EXPECT_ABORT;
    default:
        break;
    }
    *why = kind == BCW_CAUSE_MEMORY
               ? "a runaway allocation: it halts where memory is limited"
               : "it halted where only bcwalk's worker sees it (undefined "
                 "behaviour it checks, an exec, shared memory written over)";
    return EXPECT_NONE;
}

static const char HALTS[] =
    "enum halt { HALT_SIGNAL, HALT_ABORT, HALT_EXIT, HALT_HANG, "
    "HALT_CHECKED, HALT_NONE };\n\n"
    "/* Runs `run` in a child process of its own process group and says\n"
    " * whether it ended as `how` expects: killed by signal `code`, by\n"
    " * SIGABRT, exiting with status `code`, still running after `seconds`\n"
    " * (a hang), any halt (a checker's report), or (HALT_NONE) returning,\n"
    " * its assertions true.  A halt's output is silenced; returning is\n"
    " * exit status 125 where a halt is expected.  The group is killed at\n"
    " * the end: what the library started goes with it.  A test whose\n"
    " * assertion fails in the child ends it (bcw_child_ends). */\n"
    "static __attribute__((unused)) int halts(void (*run)(void),\n"
    "                                         enum halt how, int code,\n"
    "                                         unsigned seconds)\n{\n"
    "    fflush(NULL);\n    pid_t pid = fork();\n    if (pid < 0)\n"
    "        return 0;\n    if (pid == 0) {\n        setpgid(0, 0);\n"
    "        setenv(\"BCW_CHILD\", \"1\", 1);\n"
    "        /* cmocka's handlers of fatal signals are the parent's */\n"
    "        for (int sig = 1; sig < 32; sig++)\n"
    "            signal(sig, SIG_DFL);\n"
    "        int null = open(\"/dev/null\", O_WRONLY);\n"
    "        if (null >= 0 && how != HALT_NONE) {\n"
    "            dup2(null, 1);\n            dup2(null, 2);\n        }\n"
    "        run();\n        fflush(NULL);\n"
    "        _exit(how == HALT_NONE ? 0 : 125);\n    }\n"
    "    setpgid(pid, pid);\n"
    "    int st = 0, hung = 0;\n"
    "    long waited = 0, nap = 100000; /* ns, doubling to 10 ms */\n"
    "    while (waitpid(pid, &st, WNOHANG) == 0) {\n"
    "        if (waited >= (long)seconds * 1000000000L) {\n"
    "            hung = 1;\n            kill(-pid, SIGKILL);\n"
    "            waitpid(pid, &st, 0);\n            break;\n        }\n"
    "        struct timespec t = {0, nap};\n"
    "        nanosleep(&t, NULL);\n        waited += nap;\n"
    "        nap = nap < 10000000 ? 2 * nap : nap;\n    }\n"
    "    kill(-pid, SIGKILL);\n"
    "    if (how == HALT_HANG || hung)\n        return how == HALT_HANG && "
    "hung;\n"
    "    switch (how) {\n    case HALT_NONE:\n"
    "        return WIFEXITED(st) && WEXITSTATUS(st) == 0;\n"
    "    case HALT_SIGNAL: /* a checker reports, exits */\n"
    "        return (WIFSIGNALED(st) && WTERMSIG(st) == code) ||\n"
    "               (BCW_CHECKED && WIFEXITED(st) && WEXITSTATUS(st) != 125);\n"
    "    case HALT_ABORT:\n"
    "        return WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT;\n"
    "    case HALT_EXIT:\n"
    "        return WIFEXITED(st) && WEXITSTATUS(st) == code;\n"
    "    default:\n"
    "        return WIFSIGNALED(st) || (WIFEXITED(st) && WEXITSTATUS(st) != "
    "125);\n    }\n}\n\n"
    "/* Each test's setup: in a child whose assertion failed (cmocka,\n"
    " * having said so, goes on to the next test there), the child's end.\n"
    " * So is the end of a group. */\n"
    "static __attribute__((unused)) int bcw_child_ends(void **state)\n{\n"
    "    (void)state;\n    if (getenv(\"BCW_CHILD\") != NULL)\n"
    "        _exit(1);\n    return 0;\n}\n";

/* How sequence s runs as a test, into t. */
static void plan_test(test *t, const bcw_reporter *r, const bcw_seq *s)
{
    t->leak = s->outcome == BCW_RUN_NORMAL && s->leak != NULL;
    t->seconds = 10;
    if (s->outcome == BCW_RUN_NORMAL && !t->leak) {
        t->run = RUN_HERE;
        t->how = EXPECT_NONE; /* HALT_NONE */
        t->seconds = 60;
        return;
    }
    t->run = RUN_CHILD;
    if (t->leak) {
        t->how = EXPECT_EXIT;
        t->code = 123;
        t->needs = NEEDS_ASAN;
        return;
    }
    if (s->cause != NULL && s->cause->kind == BCW_CAUSE_UNDEFINED) {
        t->how = EXPECT_CHECKED;
        t->needs = NEEDS_UBSAN;
        return;
    }
    t->how = bcw__halt_expect(s, &t->code, &t->why);
    if (t->how == EXPECT_INVARIANT) {
        t->how = EXPECT_EXIT; /* bcw_invariant_false */
        t->code = 124;
    } else if (t->how == EXPECT_CHECKED && s->cause->size == 0 &&
               (s->cause->kind == BCW_CAUSE_OVERFLOW ||
                s->cause->where == BCW_WHERE_PAST ||
                s->cause->where == BCW_WHERE_BLOCK)) {
        t->run = RUN_SKIPPED;
        t->why = "an access past a 0-byte block, which AddressSanitizer "
                 "gives a byte (bcwalk --reproduce shows it)";
    } else if (t->how == EXPECT_CHECKED) {
        t->needs = NEEDS_ASAN;
    } else if (t->how == EXPECT_HANG) {
        t->seconds = (r->timeout_ms + 999) / 1000 * 2;
        t->seconds = t->seconds < 2 ? 2 : t->seconds;
    } else if (t->how == EXPECT_NONE) {
        t->run = RUN_SKIPPED;
    }
}

/* Where test `id` goes: a new slot, or (a group's sample full) a slot
 * of the sample drawn by the reservoir, or nowhere (SIZE_MAX). */
static size_t place(bcw_emit_c *e, unsigned group, bool pin)
{
    if (e->all || pin)
        return e->ntests;
    if (group >= e->nsamples) {
        if (bcw__grow(&e->samples, &e->capsamples, group + 1,
                      sizeof *e->samples) < 0)
            return SIZE_MAX - 1;
        memset(&e->samples[e->nsamples], 0,
               (group + 1 - e->nsamples) * sizeof *e->samples);
        e->nsamples = group + 1;
    }
    sample *g = &e->samples[group];
    uint64_t i = g->seen++;
    if (g->slot == NULL &&
        (g->slot = bcw__calloc(EMIT_SAMPLE, sizeof *g->slot)) == NULL)
        return SIZE_MAX - 1;
    if (i < EMIT_SAMPLE) {
        g->slot[g->nslot++] = e->ntests;
        return e->ntests;
    }
    /* Vitter's algorithm R, its draws a fixed function of (group, i) */
    uint64_t j = bcw__hash(&i, sizeof i, group + 1) % (i + 1);
    if (j >= EMIT_SAMPLE)
        return SIZE_MAX;
    test *old = &e->tests[g->slot[j]];
    free(old->calls);
    old->calls = NULL;
    old->run = RUN_SKIPPED;
    old->why = NULL; /* dropped: not written */
    g->slot[j] = e->ntests;
    return e->ntests;
}

/* A function of the library s calls that another file cannot: static
 * in it (a static inline of its header too), or NULL. */
static const char *static_call(const bcw_reporter *r, const bcw_seq *s)
{
    for (uint32_t k = 0; k <= s->len + 1; k++) {
        const char *name = bcw__calls_name(r, s, k);
        for (unsigned i = 0; i < r->unit->nfuncs; i++)
            if (r->unit->funcs[i].is_static &&
                strcmp(r->unit->funcs[i].name, name) == 0)
                return name;
    }
    return NULL;
}

int bcw__emit_c_seq(bcw_emit_c *e, const bcw_reporter *r, const bcw_seq *s,
                    unsigned group, bool pin)
{
    if (s->suspect || s->aliasing || s->outcome == BCW_RUN_REJECTED)
        return 0;
    uint64_t ord = e->seqs++;
    size_t at = place(e, group, pin);
    if (at == SIZE_MAX)
        return 0;
    if (at == SIZE_MAX - 1 ||
        bcw__grow(&e->tests, &e->captests, e->ntests + 1, sizeof *e->tests) < 0)
        return BCW_ENOMEM;
    test *t = &e->tests[e->ntests++];
    *t = (test){.ord = ord, .group = group};
    plan_test(t, r, s);
    if (t->run != RUN_SKIPPED && (t->fn = static_call(r, s)) != NULL) {
        t->run = RUN_SKIPPED;
        t->why = "static in the library: another file cannot call it";
    }
    if (t->run == RUN_SKIPPED)
        return 0;
    size_t len = 0;
    FILE *f = open_memstream(&t->calls, &len);
    if (f == NULL)
        return BCW_ENOMEM;
    e->names.why = NULL;
    bcw__cprog_calls(f, r, s, &e->names,
                     t->run == RUN_HERE ? BCW_CPROG_CHECK : 0);
    if (fclose(f) != 0 || t->calls == NULL)
        return BCW_ENOMEM;
    if (e->names.why != NULL) {
        free(t->calls);
        t->calls = NULL;
        t->run = RUN_SKIPPED;
        t->why = e->names.why;
    }
    return 0;
}

/* Is test t written?  (Dropped from a sample: not.) */
static bool written(const test *t)
{
    return t->calls != NULL || t->why != NULL;
}

/* Test t as function seq_<id> into f, headed by its group's name. */
static void write_test(FILE *f, const test *t, unsigned id, const char *gname)
{
    static const char *const names[] = {
        "HALT_SIGNAL", "HALT_ABORT", "HALT_EXIT", "HALT_HANG", "HALT_CHECKED"};
    fputs("\n/* ", f);
    for (const char *p = gname; *p; p++)
        fputc(*p == '*' && p[1] == '/' ? '+' : *p, f);
    fprintf(f, "%s */\n", t->leak ? "; it leaks: LeakSanitizer sees it" : "");
    if (t->run == RUN_SKIPPED) {
        fprintf(f,
                "static void seq_%u(void **state)\n{\n    (void)state;\n"
                "    /* not in C: %s%s%s */\n    skip();\n}\n",
                id, t->fn ? t->fn : "", t->fn ? " is " : "", t->why);
        return;
    }
    fprintf(f, "static void seq_%u_run(void)\n{\n%s}\n\n", id, t->calls);
    fprintf(f, "static void seq_%u(void **state)\n{\n    (void)state;\n", id);
    if (t->needs == NEEDS_UBSAN)
        fputs("#ifndef BCW_UNDEFINED\n    skip(); /* undefined behaviour: "
              "build with -fsanitize=undefined\n"
              "             -fno-sanitize-recover=all -DBCW_UNDEFINED */\n"
              "#endif\n",
              f);
    else if (t->needs == NEEDS_ASAN)
        fprintf(f,
                "#if !BCW_CHECKED\n    skip(); /* %s: build with "
                "-fsanitize=address */\n#endif\n",
                t->leak ? "a leak LeakSanitizer sees"
                        : "a halt a checker sees");
    fprintf(f, "    assert_true(halts(seq_%u_run, %s, %d, %u));\n}\n", id,
            t->how == EXPECT_NONE ? "HALT_NONE" : names[t->how], t->code,
            t->seconds);
}

static int by_ord(const void *a, const void *b)
{
    const test *x = a, *y = b;
    return (x->ord > y->ord) - (x->ord < y->ord);
}

/* The name of file `part` of path: path itself, then stem_2.c ... */
static char *part_path(const char *path, unsigned part)
{
    if (part == 0)
        return bcw__strdup(path);
    size_t n = strlen(path);
    int stem = n > 2 && strcmp(path + n - 2, ".c") == 0 ? (int)n - 2 : (int)n;
    return bcw__sprintf("%.*s_%u.c", stem, path, part + 1);
}

static const char PRELUDE[] =
    "#define _GNU_SOURCE\n"
    "#include <fcntl.h>\n#include <setjmp.h>\n#include <signal.h>\n"
    "#include <stdarg.h>\n#include <stdbool.h>\n#include <stddef.h>\n"
    "#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n"
    "#include <string.h>\n#include <sys/resource.h>\n#include <sys/types.h>\n"
    "#include <sys/wait.h>\n#include <time.h>\n#include <unistd.h>\n\n"
    "#include <cmocka.h>\n\n";

/* File `part` of `nparts`: its tests (ids first..), the function
 * running them by group, and in the first the program's main(). */
static int write_part(const bcw_emit_c *e, const bcw_reporter *r,
                      const char *head, const test *const *tests,
                      unsigned ntests, unsigned first, unsigned part,
                      unsigned nparts, const char *const *groups,
                      unsigned ngroups, const char *path)
{
    char *data = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&data, &len);
    if (f == NULL)
        return BCW_ENOMEM;
    fputs(head, f);
    fputs(PRELUDE, f);
    fputs(bcw__cprog_helpers, f);
    if (part == 0)
        fputs(bcw__cprog_sanitizers, f);
    bcw__cprog_declare(f, r->model, &e->names);
    fputc('\n', f);
    fputs(HALTS, f);
    for (unsigned k = 0; k < ntests; k++)
        write_test(f, tests[k], first + k, groups[tests[k]->group]);
    fprintf(f,
            "\nint bcw_tests_%u(void);\n\nint bcw_tests_%u(void)\n{\n"
            "    int failed = 0;\n",
            part + 1, part + 1);
    for (unsigned i = 0; i < ngroups; i++) {
        bool any = false;
        for (unsigned k = 0; k < ntests && !any; k++)
            any = tests[k]->group == i;
        if (!any)
            continue;
        fprintf(f, "    {\n        const struct CMUnitTest tests[] = {\n");
        for (unsigned k = 0; k < ntests; k++)
            if (tests[k]->group == i)
                fprintf(f,
                        "            cmocka_unit_test_setup(seq_%u, "
                        "bcw_child_ends),\n",
                        first + k);
        fputs("        };\n        failed += cmocka_run_group_tests_name(", f);
        bcw__c_quote_file(f, groups[i], '"');
        fputs(", tests, NULL, NULL);\n"
              "        bcw_child_ends(NULL);\n    }\n",
              f);
    }
    fputs("    return failed;\n}\n", f);
    if (part == 0) {
        for (unsigned p = 1; p < nparts; p++)
            fprintf(f, "\nint bcw_tests_%u(void);", p + 1);
        fputs("\n\nint main(void)\n{\n"
              "    /* what the library starts and leaves running stops once\n"
              "     * it has used this much CPU time, as bcwalk's worker's */\n"
              "    struct rlimit cpu;\n"
              "    if (getrlimit(RLIMIT_CPU, &cpu) == 0 &&\n"
              "        cpu.rlim_cur == RLIM_INFINITY) {\n"
              "        cpu.rlim_cur = 300;\n"
              "        setrlimit(RLIMIT_CPU, &cpu);\n    }\n"
              "    int failed = 0;\n",
              f);
        for (unsigned p = 0; p < nparts; p++)
            fprintf(f, "    failed += bcw_tests_%u();\n", p + 1);
        fputs("    return failed != 0;\n}\n", f);
    }
    return bcw__write_stream_atomic(f, &data, &len, path);
}

int bcw__emit_c_write(bcw_emit_c *e, const bcw_reporter *r, const char *from,
                      const char *const *groups, unsigned ngroups,
                      const char *path)
{
    qsort(e->tests, e->ntests, sizeof *e->tests, by_ord);
    const test **kept = bcw__calloc(e->ntests + 1, sizeof *kept);
    if (kept == NULL)
        return BCW_ENOMEM;
    unsigned n = 0, skipped = 0;
    for (size_t i = 0; i < e->ntests; i++)
        if (written(&e->tests[i])) {
            kept[n++] = &e->tests[i];
            skipped += e->tests[i].run == RUN_SKIPPED;
        }
    unsigned nparts = n > 0 ? (n + EMIT_PER_FILE - 1) / EMIT_PER_FILE : 1;
    /* the command as the comment's text: no comment end inside */
    char safe[1024];
    size_t w = 0;
    for (const char *p = from; *p && w + 2 < sizeof safe; p++) {
        safe[w++] = *p;
        if (p[0] == '*' && p[1] == '/')
            safe[w++] = ' ';
    }
    safe[w] = '\0';
    char *files = NULL, *head = NULL;
    size_t nfiles = 0, nhead = 0;
    FILE *ff = open_memstream(&files, &nfiles);
    for (unsigned p = 0; ff != NULL && p < nparts; p++) {
        char *name = part_path(path, p);
        const char *base = name ? strrchr(name, '/') : NULL;
        fprintf(ff, " %s", base ? base + 1 : name ? name : "?");
        free(name);
    }
    int err = ff == NULL || fclose(ff) != 0 ? BCW_ENOMEM : 0;
    FILE *f = err == 0 ? open_memstream(&head, &nhead) : NULL;
    if (f != NULL) {
        fprintf(f,
                "/* Generated by bcwalk --emit-c from %s: the %s walk of "
                "%s,\n * depth %u: %u tests of its %llu sequences (%s), "
                "%u of them skipped.\n * Each replays a sequence the walk "
                "ran and asserts what it observed; a\n * call that halted "
                "is expected to halt, in a child process.  L_name is\n"
                " * the library's function name, declared by its ABI: no "
                "header is needed.\n * Build and run it with the library "
                "and cmocka (AddressSanitizer runs\n * the tests of halts "
                "only a checker sees, and of leaks):\n"
                " *  cc -g -fsanitize=address -o tests%s LIBRARY.c -lcmocka\n"
                " *  ./tests\n */\n",
                safe, bcw__walk_name(r->walk), r->unit->name, r->depth, n,
                (unsigned long long)e->seqs,
                e->all ? "all"
                       : "a chosen set: every distinct halt, each state's "
                         "transitions, a sample of each length or state; "
                         "--emit-c-all for all",
                skipped, files ? files : "");
        err = fclose(f) != 0 || head == NULL ? BCW_ENOMEM : 0;
    } else {
        err = BCW_ENOMEM;
    }
    for (unsigned p = 0; err == 0 && p < nparts; p++) {
        char *name = part_path(path, p);
        unsigned first = p * EMIT_PER_FILE;
        unsigned count = n - first < EMIT_PER_FILE ? n - first : EMIT_PER_FILE;
        err = name == NULL ? BCW_ENOMEM
                           : write_part(e, r, head, kept + first, count, first,
                                        p, nparts, groups, ngroups, name);
        free(name);
    }
    free(files);
    free(head);
    free(kept);
    return err;
}

void bcw__emit_c_free(bcw_emit_c *e)
{
    if (e == NULL)
        return;
    for (size_t i = 0; i < e->ntests; i++)
        free(e->tests[i].calls);
    free(e->tests);
    for (size_t i = 0; i < e->nsamples; i++)
        free(e->samples[i].slot);
    free(e->samples);
    bcw__c_names_free(&e->names);
    free(e);
}
