/* standalone.c - each distinct halt as a standalone C program, built
 * with the library's bitcode by clang and run with no bcwalk runtime
 * (standalone.h).
 *
 * One file holds every halt's calls, a function each, written as a user
 * would write them: literals, element cells carrying their number in
 * their first bytes (as the worker's do), writable strings and buffers
 * filled as the worker fills them, zeroed storage, earlier results,
 * other units' instances made by their constructors, library functions
 * passed by name, and the built-in callbacks as C functions of the
 * callback's signature that read elements as the worker's closures do.
 * main() runs the halt its argument names.  The library is linked as its
 * bitcode says, but that its static functions are callable and every
 * function it defines is checked by AddressSanitizer; leaks are not. */
#define _GNU_SOURCE
#include "standalone.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "build.h"
#include "calls.h"
#include "cprog.h"
#include "emit_c.h"
#include "file.h"
#include "text.h"

extern char **environ;

typedef struct program {
    char *body; /* its function, NULL: none written */
    const char *why;
    enum bcw_expect how;
    int code;
    unsigned seconds; /* its alarm */
    int call;         /* the call that halted */
    const char **fns; /* each call's function (the model's) */
    unsigned nfns;
} program;

struct bcw_standalone {
    char *dir;
    program *progs;
    size_t cap;
    unsigned n;
    bcw_c_names names;
    bool undefined; /* a halt of --sanitize undefined: lib.bc checked so */
};

int bcw__standalone_new(bcw_standalone **out, const char *dir)
{
    bcw_standalone *p = bcw__calloc(1, sizeof *p);
    if (p == NULL || (p->dir = bcw__strdup(dir)) == NULL) {
        free(p);
        return BCW_ENOMEM;
    }
    *out = p;
    return 0;
}

void bcw__standalone_free(bcw_standalone *p)
{
    if (p == NULL)
        return;
    for (unsigned i = 0; i < p->n; i++) {
        free(p->progs[i].body);
        free(p->progs[i].fns);
    }
    free(p->progs);
    bcw__c_names_free(&p->names);
    free(p->dir);
    free(p);
}

int bcw__standalone_halt(bcw_standalone *p, const bcw_reporter *r,
                         const bcw_seq *s, unsigned id)
{
    if (id >= p->n) {
        if (bcw__grow(&p->progs, &p->cap, id + 1, sizeof *p->progs) < 0)
            return BCW_ENOMEM;
        memset(&p->progs[p->n], 0, (id + 1 - p->n) * sizeof *p->progs);
        p->n = id + 1;
    }
    program *g = &p->progs[id];
    free(g->body);
    free(g->fns);
    *g = (program){0};
    if ((g->fns = bcw__calloc(s->len + 3u, sizeof *g->fns)) == NULL)
        return BCW_ENOMEM;
    g->nfns = s->len + 3u;
    for (unsigned k = 0; k < g->nfns; k++)
        g->fns[k] = bcw__calls_name(r, s, k);
    if (s->outcome == BCW_RUN_NORMAL && r->ndtors == 0) {
        g->why = "a leak with no destructor to call";
        return 0;
    }
    g->how = s->outcome == BCW_RUN_NORMAL ? EXPECT_LEAK
             : s->cause != NULL && s->cause->kind == BCW_CAUSE_UNDEFINED
                 ? EXPECT_UNDEFINED
                 : bcw__halt_expect(s, &g->code, &g->why);
    p->undefined |= g->how == EXPECT_UNDEFINED;
    if (g->how == EXPECT_NONE)
        return 0;
    g->call = g->how == EXPECT_LEAK ? s->len + 1 : s->halted_at;
    g->seconds = g->how == EXPECT_HANG ? (r->timeout_ms + 999) / 1000 * 2 : 10;
    if (g->seconds < 2)
        g->seconds = 2;
    size_t len = 0;
    FILE *f = open_memstream(&g->body, &len);
    if (f == NULL)
        return BCW_ENOMEM;
    p->names.why = NULL;
    bcw__cprog_calls(f, r, s, &p->names, BCW_CPROG_TRACE);
    if (fclose(f) != 0 || g->body == NULL)
        return BCW_ENOMEM;
    if (p->names.why != NULL) {
        g->why = p->names.why;
        free(g->body);
        g->body = NULL;
    }
    return 0;
}

static const char PRELUDE[] =
    "#define _GNU_SOURCE\n#include <stdint.h>\n#include <stdio.h>\n"
    "#include <stdlib.h>\n#include <string.h>\n#include <unistd.h>\n\n"
    "/* The library's malloc, calloc, realloc and free: a 0-byte block is\n"
    " * the end of a 16-byte one, so that AddressSanitizer (which gives\n"
    " * malloc(0) a byte) sees a write into it. */\n"
    "static char *bcw_zero[256];\n"
    "static unsigned bcw_nzero;\n\n"
    "static int bcw_is_zero(void *p)\n{\n"
    "    for (unsigned i = 0; i < bcw_nzero; i++)\n"
    "        if (bcw_zero[i] + 16 == p) {\n"
    "            bcw_zero[i] = bcw_zero[--bcw_nzero];\n            return 1;\n"
    "        }\n    return 0;\n}\n\n"
    "void *bcw_sa_malloc(size_t n)\n{\n"
    "    if (n > 0 || bcw_nzero == 256)\n        return malloc(n);\n"
    "    char *p = malloc(16);\n    if (p == NULL)\n        return NULL;\n"
    "    return (bcw_zero[bcw_nzero++] = p) + 16;\n}\n\n"
    "void *bcw_sa_calloc(size_t n, size_t size)\n{\n"
    "    if (n > 0 && size > 0)\n        return calloc(n, size);\n"
    "    return bcw_sa_malloc(0);\n}\n\n"
    "void bcw_sa_free(void *p)\n{\n"
    "    free(p != NULL && bcw_is_zero(p) ? (char *)p - 16 : p);\n}\n\n"
    "void *bcw_sa_realloc(void *p, size_t n)\n{\n"
    "    if (p == NULL)\n        return bcw_sa_malloc(n);\n"
    "    if (!bcw_is_zero(p))\n        return n > 0 ? realloc(p, n) : "
    "(free(p), bcw_sa_malloc(0));\n"
    "    free((char *)p - 16);\n    return bcw_sa_malloc(n);\n}\n\n"
    "/* Which call runs: the last one named when the program halts. */\n"
    "static void bcw_call(unsigned k)\n{\n"
    "    fprintf(stderr, \"bcwalk standalone: call %u\\n\", k);\n}\n\n"
    "/* Called by bcwalk's checks of undefined behaviour, compiled into\n"
    " * lib.bc where the walk's --sanitize undefined found some, before\n"
    " * the operation. */\n"
    "void bcw_sa_ub(uint32_t kind, uint64_t a, uint64_t b, uint32_t bits)\n"
    "{\n"
    "    static const char *const what[] = {\n"
    "        \"signed integer overflow (+)\", \"signed integer overflow "
    "(-)\",\n"
    "        \"signed integer overflow (*)\", \"signed integer overflow "
    "(/)\",\n"
    "        \"division by zero\", \"a shift past its width\",\n"
    "        \"a misaligned access\",\n"
    "        \"NULL passed to memcpy, memmove, memset or memcmp\"};\n"
    "    fprintf(stderr, \"bcwalk standalone: undefined behaviour: %s \"\n"
    "            \"(%llu, %llu, %u bits)\\n\",\n"
    "            kind < sizeof what / sizeof *what ? what[kind] : \"?\",\n"
    "            (unsigned long long)a, (unsigned long long)b, bits);\n"
    "    _exit(122);\n}\n\n";

/* The file: the prelude, the library's functions declared by their
 * ABI, the built-in callbacks, each halt's function, main(). */
static int write_program(const bcw_standalone *p, const bcw_reporter *r,
                         const char *setup, const char *path)
{
    char *data = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&data, &len);
    if (f == NULL)
        return BCW_ENOMEM;
    fprintf(f,
            "/* Generated by bcwalk: the distinct halts of the %s walk of "
            "%s, one function\n * each, run by number: ./halts N.  Built "
            "with the library's bitcode:\n *   clang -g -fsanitize=address "
            "halts.c lib.bc -o halts -lm\n */\n",
            bcw__walk_name(r->walk), r->unit->name);
    fputs(PRELUDE, f);
    fputs(bcw__cprog_helpers, f);
    fputs(bcw__cprog_sanitizers, f);
    bcw__cprog_declare(f, r->model, &p->names);
    for (unsigned i = 0; i < p->n; i++)
        if (p->progs[i].body != NULL)
            fprintf(f, "\nstatic void halt_%u(void)\n{\n%s}\n", i,
                    p->progs[i].body);
    fputs("\nint main(int argc, char **argv)\n{\n"
          "    if (argc != 2) {\n"
          "        fprintf(stderr, \"usage: %s HALT\\n\", argv[0]);\n"
          "        return 2;\n    }\n",
          f);
    if (setup != NULL) {
        char name[300];
        bcw__c_name(name, sizeof name, setup, "");
        fprintf(f, "    extern void %s(void) __asm__(", name);
        bcw__c_quote_file(f, setup, '"');
        fprintf(f, ");\n    %s();\n", name);
    }
    fputs("    switch (atoi(argv[1])) {\n", f);
    for (unsigned i = 0; i < p->n; i++)
        if (p->progs[i].body != NULL)
            fprintf(f,
                    "    case %u:\n        alarm(%u);\n        halt_%u();\n"
                    "        break;\n",
                    i, p->progs[i].seconds, i);
    fputs("    default:\n        return 2;\n    }\n"
          "    /* every call returned */\n    return 125;\n}\n",
          f);
    return bcw__write_stream_atomic(f, &data, &len, path);
}

/* clang building the program with the prepared bitcode. */
static int build(const char *dir, const char *bitcode, bool undefined,
                 char *err, size_t nerr)
{
    char *src = bcw__sprintf("%s/halts.c", dir);
    char *lib = bcw__sprintf("%s/lib.bc", dir);
    char *exe = bcw__sprintf("%s/halts", dir);
    char *log = bcw__sprintf("%s/build.log", dir);
    int rc = BCW_ENOMEM;
    if (src != NULL && lib != NULL && exe != NULL && log != NULL &&
        (rc = bcw__native_standalone(bitcode, lib, undefined)) == 0) {
        const char *argv[] = {
            BCW_CLANG,
            "-g",
            "-O0",
            "-w",
            "-no-pie",
            "-fsanitize=address",
#if BCW_LLVM_MAJOR < 15
            "-mllvm",
            "-opaque-pointers",
#endif
            src,
            lib,
            "-lm",
            "-o",
            exe,
            NULL
        };
        rc = bcw__build_clang(argv, log);
        if (rc > 0) {
            snprintf(err, nerr, "clang could not build it (see %s)", log);
            rc = 0;
        }
    }
    free(src);
    free(lib);
    free(exe);
    free(log);
    return rc;
}

/* A frame's place, " in f /src/file.c:12:5" (or without the column),
 * into v's site; nothing for a frame of no line ("(lib.so+0x12)"). */
static void frame_site(const char *in, bcw_standalone_verdict *v)
{
    const char *path = strchr(in + strlen(" in "), ' ');
    if (path == NULL)
        return;
    path++;
    /* up to two numbers at the end, each after a colon: the leftmost
     * is the line */
    size_t end = strlen(path);
    unsigned line = 0;
    for (int nums = 0; nums < 2; nums++) {
        size_t k = end;
        while (k > 0 && isdigit((unsigned char)path[k - 1]))
            k--;
        if (k == end || k < 2 || path[k - 1] != ':')
            break;
        line = (unsigned)strtoul(path + k, NULL, 10);
        end = k - 1;
    }
    if (line == 0)
        return;
    snprintf(v->site, sizeof v->site, "%.*s", (int)end, path);
    v->site_line = line;
}

/* What AddressSanitizer said in `log`: "heap-use-after-free in f
 * (file.c:12)", its report's kind and first frame, into buf (and the
 * frame's place into v); false if it said nothing.  *call the call that
 * ran last (-1: none). */
static bool asan_said(const char *log, int *call, char *buf, size_t n,
                      bcw_standalone_verdict *v)
{
    *call = -1;
    FILE *f = fopen(log, "r");
    if (f == NULL)
        return false;
    char line[1024];
    bool said = false;
    buf[0] = '\0';
    while (fgets(line, sizeof line, f) != NULL) {
        unsigned k;
        if (!said && sscanf(line, "bcwalk standalone: call %u", &k) == 1) {
            *call = (int)k;
            continue;
        }
        /* a checker's report: its name and words */
        static const char *const checkers[] = {
            "ERROR: ", "ERROR: ", "bcwalk standalone: "};
        static const char *const reports[] = {
            "ERROR: AddressSanitizer: ", "ERROR: LeakSanitizer: ",
            "bcwalk standalone: undefined behaviour: "};
        char *at = NULL;
        for (size_t j = 0; at == NULL && j < sizeof reports / sizeof *reports;
             j++)
            if ((at = strstr(line, reports[j])) != NULL)
                at += strlen(checkers[j]);
        if (!said && at != NULL) {
            /* "heap-use-after-free on address ...", "attempting
             * double-free on ...": the words before " on " */
            const char *on = strstr(at, " on ");
            size_t kind = on != NULL ? (size_t)(on - at) : strcspn(at, "\n");
            snprintf(buf, n, "%.*s", (int)kind, at);
            said = true;
            continue;
        }
        char *in = strstr(line, " in ");
        /* the first frame in the program's own code: not the checker's
         * nor libc's */
        static const char *const not_own[] = {
            "libclang_rt", "asan",    "__sanitizer", "__interceptor",
            "/sysdeps/",   "libc.so", "BuildId",     " bcw_sa_"};
        bool own = in != NULL && strstr(line, "    #") == line;
        for (size_t j = 0; own && j < sizeof not_own / sizeof *not_own; j++)
            own = strstr(line, not_own[j]) == NULL;
        if (said && own) {
            in[strcspn(in, "\n")] = '\0';
            frame_site(in, v);
            size_t len = strlen(buf);
            snprintf(buf + len, n - len, "%s", in);
            break;
        }
    }
    fclose(f);
    return said;
}

/* Runs halt `id` of the program, its stderr into `log`: its exit status
 * (waitpid's), or -1 when it could not be run. */
static int run(const char *exe, unsigned id, unsigned seconds, const char *log)
{
    char arg[16];
    snprintf(arg, sizeof arg, "%u", id);
    const char *argv[] = {exe, arg, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, log, O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
    /* what LeakSanitizer and the symbolizer's paths add is not asked */
    const char *path = getenv("PATH");
    char *search = bcw__sprintf("PATH=%s", path ? path : "/usr/bin:/bin");
    char *env[] = {"ASAN_OPTIONS=detect_leaks=1:leak_check_at_exit=0:"
                   "handle_abort=0:allocator_may_return_null=1",
                   search, NULL};
    if (search == NULL)
        env[1] = NULL;
    pid_t pid;
    int rc = posix_spawn(&pid, exe, &fa, &at, (char *const *)argv, env);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    free(search);
    if (rc != 0)
        return -1;
    /* its own alarm ends a hang; this ends one that ignores it */
    int st = 0;
    struct timespec nap = {0, 20 * 1000 * 1000};
    for (unsigned waited = 0;; waited++) {
        pid_t got = waitpid(pid, &st, WNOHANG);
        if (got == pid)
            return st;
        if (got < 0 && errno != EINTR)
            return -1;
        if (waited == (seconds + 10) * 50u)
            kill(-pid, SIGKILL);
        nanosleep(&nap, NULL);
    }
}

/* Did halt g's run (status st, AddressSanitizer's report `asan`) end as
 * the walk saw it end, in call `call` (`said`: the report's words)?
 * A checker's report in that call
 * is the halt found no later than the walk found it (a use after free
 * before the assert it leads to). */
static bool as_walked(const program *g, int st, bool asan, const char *said,
                      int call)
{
    bool sig = WIFSIGNALED(st);
    if (call != g->call)
        return false;
    if (asan && g->how != EXPECT_HANG)
        return true;
    switch (g->how) {
    case EXPECT_SIGNAL:
        return (sig && WTERMSIG(st) == g->code) || asan;
    case EXPECT_ABORT:
        return sig && WTERMSIG(st) == SIGABRT;
    case EXPECT_EXIT:
        return !asan && WIFEXITED(st) && WEXITSTATUS(st) == g->code;
    case EXPECT_HANG:
        return sig && (WTERMSIG(st) == SIGALRM || WTERMSIG(st) == SIGKILL);
    case EXPECT_CHECKED:
        return asan;
    case EXPECT_INVARIANT:
        return !asan && WIFEXITED(st) && WEXITSTATUS(st) == 124;
    case EXPECT_UNDEFINED:
        return asan;
    case EXPECT_LEAK: /* of a block the library allocated */
        return asan && WIFEXITED(st) && WEXITSTATUS(st) == 123 &&
               strstr(said, "/halts.c") == NULL;
    default:
        return false;
    }
}

/* Halt g's run in words into buf. */
static void run_words(int st, bool asan, const char *said, char *buf, size_t n)
{
    if (asan)
        snprintf(buf, n, "%s", said);
    else if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM)
        snprintf(buf, n, "still running at its time limit (a hang)");
    else if (WIFSIGNALED(st))
        snprintf(buf, n, "killed by %s", strsignal(WTERMSIG(st)));
    else if (WIFEXITED(st) && WEXITSTATUS(st) == 125)
        snprintf(buf, n, "every call returned");
    else if (WIFEXITED(st) && WEXITSTATUS(st) == 124)
        snprintf(buf, n, "the invariant was false");
    else
        snprintf(buf, n, "exit status %d", WEXITSTATUS(st));
}

int bcw__standalone_run(bcw_standalone *p, const bcw_reporter *r,
                        const char *bitcode, const char *setup,
                        bcw_standalone_verdict *v)
{
    for (unsigned i = 0; i < p->n; i++) {
        v[i] = (bcw_standalone_verdict){.verdict = BCW_STANDALONE_UNWRITTEN};
        if (p->progs[i].body == NULL)
            snprintf(v[i].what, sizeof v[i].what, "%s",
                     p->progs[i].why ? p->progs[i].why : "no halt");
    }
    int err = bcw__mkdir_p(p->dir);
    char *src = bcw__sprintf("%s/halts.c", p->dir);
    char *exe = bcw__sprintf("%s/halts", p->dir);
    char *log = bcw__sprintf("%s/halt.log", p->dir);
    if (err == 0 && (src == NULL || exe == NULL || log == NULL))
        err = BCW_ENOMEM;
    if (err == 0)
        err = write_program(p, r, setup, src);
    char failed[512] = "";
    bool any = false;
    for (unsigned i = 0; i < p->n; i++)
        any |= p->progs[i].body != NULL;
    if (err == 0 && any)
        err = build(p->dir, bitcode, p->undefined, failed, sizeof failed);
    for (unsigned i = 0; err == 0 && any && i < p->n; i++) {
        const program *g = &p->progs[i];
        if (g->body == NULL)
            continue;
        if (failed[0] != '\0') {
            v[i].verdict = BCW_STANDALONE_UNBUILT;
            snprintf(v[i].what, sizeof v[i].what, "%s", failed);
            continue;
        }
        int st = run(exe, i, g->seconds, log);
        if (st < 0) {
            v[i].verdict = BCW_STANDALONE_UNBUILT;
            snprintf(v[i].what, sizeof v[i].what, "it could not be run: %s",
                     strerror(errno));
            continue;
        }
        char said[400];
        int call;
        bool asan = asan_said(log, &call, said, sizeof said, &v[i]);
        run_words(st, asan, said, v[i].what, sizeof v[i].what);
        size_t len = strlen(v[i].what);
        if (call != g->call && call >= 0 &&
            !(WIFEXITED(st) && WEXITSTATUS(st) == 125))
            snprintf(v[i].what + len, sizeof v[i].what - len,
                     ", in call %d (%s)", call,
                     (unsigned)call < g->nfns ? g->fns[call] : "?");
        v[i].verdict = as_walked(g, st, asan, said, call)
                           ? BCW_STANDALONE_REPRODUCED
                           : BCW_STANDALONE_DIFFERED;
    }
    if (log != NULL)
        unlink(log);
    free(src);
    free(exe);
    free(log);
    return err;
}
