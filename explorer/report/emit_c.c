/* emit_c.c - cmocka tests of a walk's sequences (emit_c.h).
 *
 * A sequence becomes a test function of plain calls, the text report's
 * C with assertions: the constructor's object is not NULL, each call's
 * result is the one the walk recorded (an integer, bool, char or enum
 * exactly; a string by its content; a pointer NULL or not), and a call
 * after which the invariant was false finds it false.  A sequence whose
 * call halted runs in a child process, expected to end as the walk saw
 * it end: the same fatal signal, SIGABRT (abort, a failed assert or
 * contract), exit with the same status, or still running when its time
 * is up (a hang).  A halt only a checker sees (a heap overflow, a double
 * free) is expected under AddressSanitizer and skipped without it.
 *
 * What plain C cannot say is left out, as a skipped test that says why:
 * an argument bcwalk made (an element Obj#k, a built-in callback, a
 * buffer, a handle, another unit's instance, a string too long to show),
 * a float result.  Rejected, suspect and aliasing sequences (a
 * meaningless call, an argument bcwalk made up, the target passed as its
 * own argument) are no tests. */
#define _GNU_SOURCE
#include "emit_c.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "file.h"
#include "plan.h"
#include "text.h"
#include "values.h"

struct bcw_emit_c {
    char *body; /* the test functions so far */
    size_t len;
    FILE *f; /* writing body */
    unsigned ntests, nskipped;
    unsigned *group; /* each test's group */
    size_t capgroup;
};

int bcw__emit_c_new(bcw_emit_c **out, const bcw_reporter *r)
{
    (void)r;
    bcw_emit_c *e = bcw__calloc(1, sizeof *e);
    if (e == NULL || (e->f = open_memstream(&e->body, &e->len)) == NULL) {
        free(e);
        return BCW_ENOMEM;
    }
    *out = e;
    return 0;
}

/* Is `a`, an argument as the text report writes it, a C expression the
 * emitted file can pass?  Into `c` (n bytes) as C; *header set when it
 * is a name only the library's header declares (a function passed as a
 * callback, an enum constant). */
static bool c_arg(const char *a, char *c, size_t n, bool *header)
{
    size_t len = strlen(a);
    if (len + 8 > n)
        return false;
    bool name = isalpha((unsigned char)a[0]) || a[0] == '_';
    for (size_t i = 1; name && i < len; i++)
        name = isalnum((unsigned char)a[i]) || a[i] == '_';
    if (name && strncmp(a, "bcw_", 4) != 0 && strcmp(a, "target") != 0 &&
        strcmp(a, "NULL") != 0 && strcmp(a, "true") != 0 &&
        strcmp(a, "false") != 0) {
        *header = true;
        memcpy(c, a, len + 1);
        return true;
    }
    if (strcmp(a, "target") == 0 || strcmp(a, "&target") == 0 ||
        strcmp(a, "NULL") == 0 || strcmp(a, "true") == 0 ||
        strcmp(a, "false") == 0 ||
        (len >= 2 && a[0] == '\'' && a[len - 1] == '\'') ||
        (len >= 2 && a[0] == '"' && a[len - 1] == '"' &&
         strstr(a, "...") == NULL)) {
        memcpy(c, a, len + 1);
        return true;
    }
    const char *d = a[0] == '-' ? a + 1 : a;
    if (!isdigit((unsigned char)d[0]))
        return false;
    char *end;
    errno = 0;
    if (strchr(a, '.') != NULL || strchr(a, 'e') != NULL) {
        strtod(a, &end);
        if (*end != '\0')
            return false;
        memcpy(c, a, len + 1);
        return true;
    }
    unsigned long long v = strtoull(d, &end, 10);
    if (*end != '\0' || errno != 0)
        return false;
    if (a[0] == '-' && v > (unsigned long long)INT64_MAX)
        snprintf(c, n, "(-%lldLL - 1)", (long long)(v - 1));
    else if (v > (unsigned long long)INT64_MAX)
        snprintf(c, n, "%lluULL", v);
    else
        snprintf(c, n, "%.*s%s", (int)len, a, v > 2147483647ull ? "LL" : "");
    return true;
}

/* A category label as a C comment after an argument, into buf at *n:
 * no comment end inside. */
static void comment(char *buf, size_t size, size_t *n, const char *label)
{
    *n += (size_t)snprintf(buf + *n, *n < size ? size - *n : 0, " /* ");
    for (const char *p = label; *p && *n + 1 < size; p++) {
        buf[(*n)++] = *p;
        if (p[0] == '*' && p[1] == '/' && *n + 1 < size)
            buf[(*n)++] = ' ';
    }
    *n += (size_t)snprintf(buf + *n, *n < size ? size - *n : 0, " */");
}

/* The assertion on call k's result (the call's C text in `call`), or
 * the bare call when nothing is asserted. */
static void assert_result(FILE *f, const bcw_func *fn, const bcw_seq *s,
                          unsigned k, const char *call)
{
    const bcw_param *ret = &fn->ret;
    uint64_t raw = s->rets[k];
    char v[80];
    switch (ret->kind) {
    case BCW_PK_INT:
    case BCW_PK_ENUM:
    case BCW_PK_BOOL:
    case BCW_PK_CHAR:
    case BCW_PK_LENGTH:
        bcw_value_format(v, sizeof v, BCW_PK_INT, ret->abi, raw, 0);
        if (strcmp(v, "-9223372036854775808") == 0)
            snprintf(v, sizeof v, "(-9223372036854775807LL - 1)");
        fprintf(f, "    assert_true((%s) == %s%s);\n", call, v,
                v[0] != '-' && strtoull(v, NULL, 10) > INT64_MAX ? "ULL" : "");
        return;
    case BCW_PK_STRING: {
        bcw_seq_text t = {0};
        if (s->outs[k] != NULL)
            t = bcw_seq_text_of(s->outs[k]);
        if (raw == 0) {
            fprintf(f, "    assert_null(%s);\n", call);
        } else if (t.there && t.of == 0 && !t.cut) {
            char bytes[BCW_TEXT_MAX + 1];
            memcpy(bytes, t.at, t.n);
            bytes[t.n] = '\0';
            fprintf(f, "    assert_string_equal(%s, ", call);
            bcw__c_quote_file(f, bytes, '"');
            fputs(");\n", f);
        } else {
            fprintf(f, "    assert_non_null(%s);\n", call);
        }
        return;
    }
    case BCW_PK_UNIT:
    case BCW_PK_ELEMENT:
    case BCW_PK_HANDLE:
        fprintf(f,
                raw == 0 ? "    assert_null(%s);\n"
                         : "    assert_non_null(%s);\n",
                call);
        return;
    default:
        fprintf(f, "    %s;\n", call);
        return;
    }
}

/* Sequence s's calls 0 .. last as C statements into f, asserting each
 * result when `check`; false (with *why) when an argument cannot be
 * written in C; *header set when one needs the library's header. */
static bool statements(FILE *f, const bcw_reporter *r, const bcw_seq *s,
                       unsigned last, bool check, bool *header,
                       const char **why)
{
    const bcw_unit *u = r->unit;
    bcw_gen gen = {0};
    bcw__generator_reset(r->gen);
    char args[BCW_MAX_PARAMS][64], result[256], c[96];
    const char *labels[BCW_MAX_PARAMS];
    for (unsigned k = 0; k <= last && k <= s->len; k++) {
        const bcw_func *fn = bcw__report_call(r, s, k, &gen, args, labels,
                                              result, sizeof result, false);
        bool halts =
            k == last && s->outcome != BCW_RUN_NORMAL && s->halted_at == k;
        char call[1024];
        size_t n = 0;
        unsigned first = 0;
        if (k == 0 && fn->role == BCW_ROLE_EMPTY) {
            fprintf(f, "    %starget = NULL;\n", u->ctype);
            continue;
        }
        if (k == 0 && fn->role == BCW_ROLE_INIT_CONSTRUCTOR) {
            /* storage of the unit's size: its type may be incomplete
             * here (the declarations bcwalk writes) */
            fprintf(f,
                    "    _Alignas(max_align_t) unsigned char storage[%llu];\n"
                    "    %s *target = (%s *)storage;\n",
                    (unsigned long long)(u->size ? u->size : 1), u->ctype,
                    u->ctype);
            n = (size_t)snprintf(call, sizeof call, "%s(target", fn->name);
            first = 1;
        } else {
            n = (size_t)snprintf(call, sizeof call, "%s(", fn->name);
        }
        for (unsigned p = first; p < fn->nparams && n < sizeof call; p++) {
            if (!c_arg(args[p], c, sizeof c, header)) {
                *why = "an argument bcwalk made has no C spelling here";
                return false;
            }
            n += (size_t)snprintf(call + n, sizeof call - n, "%s%s",
                                  p ? ", " : "", c);
            if (labels[p] != NULL && n < sizeof call)
                comment(call, sizeof call, &n, labels[p]);
        }
        if (n < sizeof call)
            snprintf(call + n, sizeof call - n, ")");
        if (k == 0 && fn->role == BCW_ROLE_CONSTRUCTOR &&
            fn->ret.kind == BCW_PK_UNIT) {
            size_t tn = strlen(fn->ret.ctype);
            fprintf(f, "    %s%starget = %s;\n", fn->ret.ctype,
                    tn > 0 && fn->ret.ctype[tn - 1] == '*' ? "" : " ", call);
            if (check && !halts && k >= s->nprefix)
                fputs("    assert_non_null(target);\n", f);
        } else if (k == 0 && fn->role == BCW_ROLE_CONSTRUCTOR) {
            *why = "its constructor gives the object back through a pointer";
            return false;
        } else if (check && !halts && k >= s->nprefix) {
            /* the state walk's cover (its prefix) was not observed */
            assert_result(f, fn, s, k, call);
        } else {
            fprintf(f, "    %s;\n", call);
        }
    }
    return true;
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
            kind == BCW_CAUSE_DOUBLE_FREE || kind == BCW_CAUSE_SANITIZER)
            /* in or past a heap block: only a checker stops it */
            return EXPECT_CHECKED;
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

int bcw__emit_c_seq(bcw_emit_c *e, const bcw_reporter *r, const bcw_seq *s,
                    unsigned group, const char *gname)
{
    if (s->suspect || s->aliasing || s->outcome == BCW_RUN_REJECTED)
        return 0;
    if (bcw__grow(&e->group, &e->capgroup, e->ntests + 1, sizeof *e->group) < 0)
        return BCW_ENOMEM;
    unsigned id = e->ntests++;
    e->group[id] = group;
    FILE *f = e->f;
    int code = 0;
    const char *why = NULL;
    enum bcw_expect how = s->outcome == BCW_RUN_NORMAL
                              ? EXPECT_NONE
                              : bcw__halt_expect(s, &code, &why);
    /* the calls made: up to the one that halted (the destructor: all) */
    unsigned last = s->outcome == BCW_RUN_NORMAL || s->halted_at > s->len
                        ? s->len
                        : s->halted_at;
    bool dtor_halts = s->outcome != BCW_RUN_NORMAL && s->halted_at > s->len;
    char *calls = NULL;
    size_t ncalls = 0;
    FILE *cf = open_memstream(&calls, &ncalls);
    if (cf == NULL)
        return BCW_ENOMEM;
    bool native = how == EXPECT_SIGNAL || how == EXPECT_ABORT ||
                  how == EXPECT_EXIT || how == EXPECT_HANG ||
                  how == EXPECT_CHECKED;
    bool header = false;
    bool ok = (s->outcome == BCW_RUN_NORMAL || how != EXPECT_NONE) &&
              statements(cf, r, s, last, !native, &header, &why);
    /* a unit without a destructor: nothing ends its sequences */
    const char *dtor = r->ndtors > 0 ? bcw__report_destructor(r, s) : NULL;
    if (ok && dtor_halts && dtor != NULL)
        fprintf(cf, "    %s(%s);\n", dtor,
                s->halted_at == s->len + 2u ? "NULL" : "target");
    if (ok && how == EXPECT_INVARIANT)
        fprintf(cf, "    assert_false(%s(target));\n",
                r->unit->funcs[r->unit->invariant].name);
    else if (ok && !native && dtor != NULL)
        fprintf(cf, "    %s(target);\n", dtor);
    if (fclose(cf) != 0 || calls == NULL) {
        free(calls);
        return BCW_ENOMEM;
    }
    fputs("\n/* ", f);
    for (const char *p = gname; *p; p++)
        fputc(*p == '*' && p[1] == '/' ? '+' : *p, f);
    fprintf(f, "%s */\n",
            s->leak != NULL ? "; it leaks: LeakSanitizer sees it" : "");
    /* a test naming what only the header declares runs with it */
    const char *on = header ? "#ifdef BCW_HEADER\n" : "";
    const char *off = header ? "#else\n    skip(); /* it names what the "
                               "library's header declares: -DBCW_HEADER "
                               "*/\n#endif\n"
                             : "";
    if (!ok) {
        e->nskipped++;
        fprintf(f,
                "static void seq_%u(void **state)\n{\n    (void)state;\n"
                "    /* not in C: %s */\n    skip();\n}\n",
                id, why);
    } else if (!native) {
        fprintf(f,
                "static void seq_%u(void **state)\n{\n    (void)state;\n"
                "%s%s%s}\n",
                id, on, calls, off);
    } else {
        static const char *const names[] = {"HALT_SIGNAL", "HALT_ABORT",
                                            "HALT_EXIT", "HALT_HANG",
                                            "HALT_CHECKED"};
        unsigned seconds =
            how == EXPECT_HANG ? (r->timeout_ms + 999) / 1000 * 2 : 10;
        fprintf(f, "static void seq_%u_run(void)\n{\n%s%s%s}\n\n", id, on,
                calls, header ? "#endif\n" : "");
        fprintf(f, "static void seq_%u(void **state)\n{\n    (void)state;\n",
                id);
        if (how == EXPECT_CHECKED)
            fputs("#if !BCW_CHECKED\n    skip(); /* a halt a checker sees: "
                  "build with -fsanitize=address */\n#endif\n",
                  f);
        fprintf(f, "%s    assert_true(halts(seq_%u_run, %s, %d, %u));\n%s}\n",
                on, id, names[how], code, seconds ? seconds : 2, off);
    }
    free(calls);
    return ferror(f) ? BCW_ENOMEM : 0;
}

/* Does C know type `t` without the library's header?  The unit types
 * are declared by the file itself. */
static bool known_type(const bcw_model *m, const char *t)
{
    static const char *const words[] = {
        "const",     "volatile", "unsigned",  "signed",   "char",
        "short",     "int",      "long",      "float",    "double",
        "void",      "_Bool",    "bool",      "size_t",   "ssize_t",
        "ptrdiff_t", "intptr_t", "uintptr_t", "int8_t",   "int16_t",
        "int32_t",   "int64_t",  "uint8_t",   "uint16_t", "uint32_t",
        "uint64_t",  "struct",   "enum",      "restrict"};
    char word[128];
    bool after_tag = false;
    for (const char *p = t; *p;) {
        if (!isalpha((unsigned char)*p) && *p != '_') {
            p++;
            continue;
        }
        size_t n = 0;
        while ((isalnum((unsigned char)p[n]) || p[n] == '_') &&
               n + 1 < sizeof word) {
            word[n] = p[n];
            n++;
        }
        word[n] = '\0';
        p += n;
        bool ok = after_tag;
        after_tag = false;
        for (size_t i = 0; !ok && i < sizeof words / sizeof *words; i++)
            ok = strcmp(word, words[i]) == 0;
        for (unsigned i = 0; !ok && i < m->nunits; i++)
            ok = strcmp(word, m->units[i].ctype) == 0;
        if (!ok)
            return false;
        after_tag = strcmp(word, "struct") == 0 || strcmp(word, "enum") == 0;
    }
    return true;
}

static void declare(FILE *f, const bcw_func *fn)
{
    size_t n = strlen(fn->ret.ctype);
    fprintf(f, "%s%s%s(", fn->ret.kind == BCW_PK_NONE ? "void" : fn->ret.ctype,
            n > 0 && fn->ret.ctype[n - 1] == '*' ? "" : " ", fn->name);
    for (unsigned p = 0; p < fn->nparams; p++)
        fprintf(f, "%s%s", p ? ", " : "", fn->params[p].ctype);
    fputs(fn->nparams ? ");\n" : "void);\n", f);
}

/* The library's declarations the tests need: each unit's type and each
 * function the walk calls; the types they name that only the library's
 * header declares into *unknown (a `, `-separated list; empty if none). */
static void declarations(FILE *f, const bcw_reporter *r, char *unknown,
                         size_t n)
{
    const bcw_model *m = r->model;
    unknown[0] = '\0';
    for (unsigned i = 0; i < m->nunits; i++) {
        const char *t = m->units[i].ctype;
        if (strncmp(t, "struct ", 7) != 0 && strchr(t, '*') == NULL)
            fprintf(f, "typedef struct %s %s;\n", m->units[i].name, t);
    }
    const bcw_unit *u = r->unit;
    for (unsigned i = 0; i < u->nfuncs; i++) {
        const bcw_func *fn = &u->funcs[i];
        bool used = false;
        for (unsigned k = 0; k < r->nsteps && !used; k++)
            used = r->steps[k].func == i;
        used |= (int)i == u->invariant;
        if (!used)
            continue;
        bool ok = fn->ret.kind == BCW_PK_NONE || known_type(m, fn->ret.ctype);
        for (unsigned p = 0; p < fn->nparams; p++) {
            if (known_type(m, fn->params[p].ctype))
                continue;
            ok = false;
            size_t len = strlen(unknown);
            if (strstr(unknown, fn->params[p].ctype) == NULL)
                snprintf(unknown + len, n - len, "%s%s", len ? ", " : "",
                         fn->params[p].ctype);
        }
        if (!ok && fn->ret.kind != BCW_PK_NONE &&
            !known_type(m, fn->ret.ctype) &&
            strstr(unknown, fn->ret.ctype) == NULL) {
            size_t len = strlen(unknown);
            snprintf(unknown + len, n - len, "%s%s", len ? ", " : "",
                     fn->ret.ctype);
        }
        declare(f, fn);
    }
}

static const char PRELUDE[] =
    "#define _POSIX_C_SOURCE 200809L\n"
    "#include <fcntl.h>\n#include <setjmp.h>\n#include <signal.h>\n"
    "#include <stdarg.h>\n#include <stdbool.h>\n#include <stddef.h>\n"
    "#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n"
    "#include <sys/types.h>\n#include <sys/wait.h>\n#include <unistd.h>\n\n"
    "#include <cmocka.h>\n\n";

static const char HALTS[] =
    "/* Halts a checker sees (a heap overflow, a double free) need one. */\n"
    "#if defined(__SANITIZE_ADDRESS__)\n#define BCW_CHECKED 1\n"
    "#elif defined(__has_feature)\n#if __has_feature(address_sanitizer)\n"
    "#define BCW_CHECKED 1\n#endif\n#endif\n#ifndef BCW_CHECKED\n"
    "#define BCW_CHECKED 0\n#endif\n\n"
    "enum halt { HALT_SIGNAL, HALT_ABORT, HALT_EXIT, HALT_HANG, "
    "HALT_CHECKED };\n\n"
    "/* Runs `run` in a child process, its output silenced, and says whether\n"
    " * it ended as `how` expects: killed by signal `code`, by SIGABRT,\n"
    " * exiting with status `code`, still running after `seconds` (a hang),\n"
    " * or any halt (a checker's report).  Returning is exit status 125. */\n"
    "static int halts(void (*run)(void), enum halt how, int code,\n"
    "                 unsigned seconds)\n{\n"
    "    fflush(NULL);\n    pid_t pid = fork();\n    if (pid < 0)\n"
    "        return 0;\n    if (pid == 0) {\n"
    "        /* cmocka's handlers of fatal signals are the parent's */\n"
    "        for (int sig = 1; sig < 32; sig++)\n"
    "            signal(sig, SIG_DFL);\n"
    "        int null = open(\"/dev/null\", O_WRONLY);\n"
    "        if (null >= 0) {\n            dup2(null, 1);\n"
    "            dup2(null, 2);\n        }\n        alarm(seconds);\n"
    "        run();\n        _exit(125);\n    }\n    int st = 0;\n"
    "    if (waitpid(pid, &st, 0) != pid)\n        return 0;\n"
    "    switch (how) {\n    case HALT_SIGNAL: /* a checker reports, exits */\n"
    "        return (WIFSIGNALED(st) && WTERMSIG(st) == code) ||\n"
    "               (BCW_CHECKED && WIFEXITED(st) && WEXITSTATUS(st) != 125);\n"
    "    case HALT_ABORT:\n"
    "        return WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT;\n"
    "    case HALT_EXIT:\n"
    "        return WIFEXITED(st) && WEXITSTATUS(st) == code;\n"
    "    case HALT_HANG:\n"
    "        return WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM;\n"
    "    default:\n"
    "        return (WIFSIGNALED(st) && WTERMSIG(st) != SIGALRM) ||\n"
    "               (WIFEXITED(st) && WEXITSTATUS(st) != 125);\n    }\n}\n";

int bcw__emit_c_write(bcw_emit_c *e, const bcw_reporter *r, const char *from,
                      const char *const *groups, unsigned ngroups,
                      const char *path)
{
    if (fflush(e->f) != 0 || ferror(e->f))
        return BCW_ENOMEM;
    char *data = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&data, &len);
    if (f == NULL)
        return BCW_ENOMEM;
    /* the command as the comment's text: no comment end inside */
    char safe[1024];
    size_t w = 0;
    for (const char *p = from; *p && w + 2 < sizeof safe; p++) {
        safe[w++] = *p;
        if (p[0] == '*' && p[1] == '/')
            safe[w++] = ' ';
    }
    safe[w] = '\0';
    fprintf(f,
            "/* Generated by bcwalk --emit-c from %s: the %s walk of "
            "%s,\n * depth %u, %u tests (%u of them skipped: not in C).  "
            "Each replays a sequence\n * the walk ran and asserts what it "
            "observed; a call that halted is expected\n * to halt, in a "
            "child process.  Build it with the library and cmocka:\n"
            " *   cc -o tests this.c LIBRARY.c -lcmocka\n"
            " * and with the library's header instead of the declarations "
            "below:\n *   cc -DBCW_HEADER='\"lib.h\"' ...\n */\n",
            safe, bcw__walk_name(r->walk), r->unit->name, r->depth, e->ntests,
            e->nskipped);
    fputs(PRELUDE, f);
    char unknown[512];
    char *decls = NULL;
    size_t ndecls = 0;
    FILE *df = open_memstream(&decls, &ndecls);
    if (df == NULL) {
        fclose(f);
        free(data);
        return BCW_ENOMEM;
    }
    declarations(df, r, unknown, sizeof unknown);
    fclose(df);
    fputs("#ifdef BCW_HEADER\n#include BCW_HEADER\n#else\n", f);
    if (unknown[0] != '\0')
        fprintf(f,
                "#error \"the library's functions take types only its "
                "header declares (%s): compile with "
                "-DBCW_HEADER='\\\"lib.h\\\"'\"\n",
                unknown);
    fputs(decls ? decls : "", f);
    free(decls);
    fputs("#endif\n\n", f);
    fputs(HALTS, f);
    fwrite(e->body, 1, e->len, f);
    fputs("\nint main(void)\n{\n    int failed = 0;\n", f);
    for (unsigned i = 0; i < ngroups; i++) {
        bool any = false;
        for (unsigned k = 0; k < e->ntests && !any; k++)
            any = e->group[k] == i;
        if (!any)
            continue;
        fprintf(f, "    {\n        const struct CMUnitTest tests[] = {\n");
        for (unsigned k = 0; k < e->ntests; k++)
            if (e->group[k] == i)
                fprintf(f, "            cmocka_unit_test(seq_%u),\n", k);
        fputs("        };\n        failed += cmocka_run_group_tests_name(", f);
        bcw__c_quote_file(f, groups[i], '"');
        fputs(", tests, NULL, NULL);\n    }\n", f);
    }
    fputs("    return failed != 0;\n}\n", f);
    return bcw__write_stream_atomic(f, &data, &len, path);
}

void bcw__emit_c_free(bcw_emit_c *e)
{
    if (e == NULL)
        return;
    if (e->f != NULL)
        fclose(e->f);
    free(e->body);
    free(e->group);
    free(e);
}
