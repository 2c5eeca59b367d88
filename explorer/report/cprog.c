/* cprog.c - a walk's sequences as C with no bcwalk runtime (cprog.h). */
#define _POSIX_C_SOURCE 200809L
#include "cprog.h"

#include <string.h>

#include "plan.h"
#include "text.h"
#include "values.h"

#define HELPER "static __attribute__((unused)) "
#define STR_(x) #x
#define STR(x) STR_(x)

const char bcw__cprog_helpers[] =
    "/* Elements: cells carrying their number in their first bytes. */\n"
    "#define BCW_CELLS 4096\n#define BCW_CELL_SIZE 16\n"
    "static _Alignas(16) char bcw_cells[BCW_CELLS][BCW_CELL_SIZE];\n\n" HELPER
    "void *bcw_obj(uint64_t k)\n{\n"
    "    char *cell = bcw_cells[k % BCW_CELLS];\n"
    "    memcpy(cell, &k, sizeof k);\n    return cell;\n}\n\n"
    "/* What a callback's argument stands for: cell k for k, another\n"
    " * pointer for itself, past the cells' numbers; where the target\n"
    " * copies its elements, the number in their first bcw_esize bytes. */\n"
    "static uint64_t bcw_esize;\n\n" HELPER
    "uint64_t bcw_key(const void *p)\n{\n"
    "    uint64_t k = 0;\n"
    "    if (bcw_esize > 0 && p != NULL) {\n"
    "        memcpy(&k, p, bcw_esize < sizeof k ? bcw_esize : sizeof k);\n"
    "        return k;\n    }\n"
    "    uintptr_t a = (uintptr_t)p, base = (uintptr_t)bcw_cells;\n"
    "    if (a >= base && a < base + sizeof bcw_cells)\n"
    "        return (a - base) / BCW_CELL_SIZE;\n"
    "    return (uint64_t)a + BCW_CELLS;\n}\n\n"
    "/* The built-in callbacks: compare, equal, hash, visit, zero,\n"
    " * predicate, free; a and b their first two pointer arguments. */\n" HELPER
    "int64_t bcw_builtin(int kind, const void *a, const void *b)\n{\n"
    "    uint64_t x = bcw_key(a), y = bcw_key(b);\n    switch (kind) {\n"
    "    case 1:\n        return x < y ? -1 : x > y;\n"
    "    case 2:\n        return x == y;\n"
    "    case 3:\n        return (int64_t)((x * 0x9e3779b97f4a7c15ull) >> "
    "40);\n"
    "    case 6:\n        return (int64_t)(x & 1);\n"
    "    default:\n        return 0;\n    }\n}\n\n"
    "/* What the calls made (storage, buffers, other units' instances),\n"
    " * reachable to the end as the worker's are: what LeakSanitizer finds\n"
    " * is the library's leak. */\n"
    "static void **bcw_kept;\nstatic size_t bcw_nkept, bcw_capkept;\n\n" HELPER
    "void *bcw_keep(void *p)\n{\n"
    "    if (bcw_nkept == bcw_capkept) {\n"
    "        bcw_capkept = bcw_capkept ? 2 * bcw_capkept : 64;\n"
    "        bcw_kept = realloc(bcw_kept, bcw_capkept * sizeof *bcw_kept);\n"
    "        if (bcw_kept == NULL)\n            abort();\n    }\n"
    "    return bcw_kept[bcw_nkept++] = p;\n}\n\n"
    "/* Zeroed storage of n bytes. */\n" HELPER "void *bcw_cell(size_t n)\n{\n"
    "    void *p = calloc(1, n ? n : 8);\n    if (p == NULL)\n"
    "        abort();\n    return bcw_keep(p);\n}\n\n"
    "/* Storage of n bytes as the worker gives an init function: every\n"
    " * byte 0xa5, as garbage a C caller's stack would hold. */\n" HELPER
    "void *bcw_init_cell(size_t n)\n{\n"
    "    return memset(bcw_cell(n), 0xa5, n ? n : 8);\n}\n\n"
    "/* A stream as the worker passes one: in memory, holding its text,\n"
    " * read from the start, then writable. */\n" HELPER
    "FILE *bcw_file(void)\n{\n"
    "    FILE *f = fmemopen(NULL, " STR(BCW_FILE_BYTES) ", \"w+\");\n"
    "    if (f == NULL)\n        abort();\n"
    "    fputs(" STR(BCW_FILE_TEXT) ", f);\n    rewind(f);\n"
    "    return f;\n}\n\n"
    "/* n writable bytes: `content`, then 'a' + i % 26. */\n" HELPER
    "void *bcw_bytes(size_t n, const char *content)\n{\n"
    "    size_t c = strlen(content);\n    char *b = bcw_cell(n);\n"
    "    for (size_t i = 0; i < n; i++)\n"
    "        b[i] = i < c ? content[i] : (char)('a' + i % 26);\n"
    "    return b;\n}\n\n"
    "/* A string as the worker passes one: a writable copy. */\n" HELPER
    "char *bcw_str(const char *s)\n{\n"
    "    size_t n = strlen(s) + 1;\n"
    "    return memcpy(bcw_cell(n), s, n);\n}\n\n"
    "/* The storage a call fills with a handle, by its parameter's name. */\n"
    "static struct {\n    const char *name;\n    void *at;\n} "
    "bcw_stored[16];\n\n" HELPER "void *bcw_store(const char *name)\n{\n"
    "    unsigned i = 0;\n"
    "    while (i < 16 && bcw_stored[i].name != NULL &&\n"
    "           strcmp(bcw_stored[i].name, name) != 0)\n"
    "        i++;\n    if (i == 16)\n        abort();\n"
    "    if (bcw_stored[i].name == NULL) {\n"
    "        bcw_stored[i].name = name;\n"
    "        bcw_stored[i].at = bcw_cell(4096);\n    }\n"
    "    return bcw_stored[i].at;\n}\n\n"
    "/* A sequence starts as the worker starts one: no element size known,\n"
    " * no storage filled. */\n" HELPER "void bcw_reset(void)\n{\n"
    "    bcw_esize = 0;\n    memset(bcw_stored, 0, sizeof "
    "bcw_stored);\n}\n\n" HELPER "void bcw_invariant_false(void)\n{\n"
    "    fputs(\"bcwalk: the invariant is false\\n\", stderr);\n"
    "    _exit(124);\n}\n\n"
    "/* Leaks: the blocks nothing the program holds reaches after the\n"
    " * destructor, LeakSanitizer's report.  Its roots are the globals\n"
    " * (bcw_kept), not the stack nor registers, where stale copies of what\n"
    " * the library dropped may linger. */\n"
    "#ifndef BCW_CHECKED\n#if defined(__SANITIZE_ADDRESS__)\n"
    "#define BCW_CHECKED 1\n#elif defined(__has_feature)\n"
    "#if __has_feature(address_sanitizer)\n#define BCW_CHECKED 1\n#endif\n"
    "#endif\n#endif\n#ifndef BCW_CHECKED\n#define BCW_CHECKED 0\n#endif\n\n"
    "#if BCW_CHECKED\nint "
    "__lsan_do_recoverable_leak_check(void);\n#endif\n\n" HELPER
    "void bcw_leaks(void)\n{\n#if BCW_CHECKED\n"
    "    if (__lsan_do_recoverable_leak_check())\n        _exit(123);\n"
    "#endif\n}\n\n";

const char bcw__cprog_sanitizers[] =
    "const char *__asan_default_options(void)\n{\n"
    "    return \"detect_leaks=1:leak_check_at_exit=0:handle_abort=0:\"\n"
    "           \"allocator_may_return_null=1\";\n}\n\n"
    "const char *__lsan_default_options(void)\n{\n"
    "    return \"use_stacks=0:use_registers=0\";\n}\n\n";

/* The C type of ABI class `abi`. */
static const char *c_type(enum bcw_abi abi)
{
    static const char *const names[] = {
        "void",     "_Bool",   "int8_t",   "uint8_t", "int16_t",
        "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t",
        "float",    "double",  "void *"};
    return (unsigned)abi < sizeof names / sizeof *names ? names[abi] : NULL;
}

/* A result's C type: its ABI class's, or a struct of the classes of
 * what a struct returned in registers holds. */
static void ret_type(const bcw_param *ret, char *buf, size_t n)
{
    if (ret->kind == BCW_PK_NONE) {
        snprintf(buf, n, "void");
        return;
    }
    if (ret->abi != BCW_ABI_STRUCT) {
        snprintf(buf, n, "%s", c_type(ret->abi));
        return;
    }
    size_t len = (size_t)snprintf(buf, n, "struct {");
    for (unsigned e = 0; e < ret->nsig && len < n; e++) {
        const char *t = c_type((enum bcw_abi)ret->sig[e]);
        len +=
            (size_t)snprintf(buf + len, n - len, " %s e%u;", t ? t : "char", e);
    }
    if (len < n)
        snprintf(buf + len, n - len, " }");
}

/* A built-in callback as a static C function of its signature. */
static void builtin(FILE *f, const struct bcw_c_builtin *b, unsigned i)
{
    const char *t = c_type((enum bcw_abi)b->sig[0]);
    fprintf(f, "\n" HELPER "%s bcw_cb_%u(", t ? t : "void", i);
    const char *ptrs[2] = {"NULL", "NULL"};
    static const char *const anames[] = {
        "a0", "a1",  "a2",  "a3",  "a4",  "a5",  "a6",  "a7", "a8",
        "a9", "a10", "a11", "a12", "a13", "a14", "a15", "a16"};
    unsigned np = 0;
    for (unsigned k = 1; k < b->nsig && k < 17; k++) {
        const char *at = c_type((enum bcw_abi)b->sig[k]);
        fprintf(f, "%s%s %s", k > 1 ? ", " : "", at ? at : "int64_t",
                anames[k - 1]);
        if (b->sig[k] == BCW_ABI_PTR && np < 2)
            ptrs[np++] = anames[k - 1];
    }
    fprintf(f, "%s)\n{\n", b->nsig > 1 ? "" : "void");
    for (unsigned k = 1; k < b->nsig && k < 17; k++)
        fprintf(f, "    (void)%s;\n", anames[k - 1]);
    if (b->sig[0] == BCW_ABI_VOID)
        fprintf(f, "    (void)bcw_builtin(%d, %s, %s);\n}\n", b->kind, ptrs[0],
                ptrs[1]);
    else if (b->sig[0] == BCW_ABI_PTR)
        fprintf(f, "    (void)bcw_builtin(%d, %s, %s);\n    return NULL;\n}\n",
                b->kind, ptrs[0], ptrs[1]);
    else
        fprintf(f, "    return (%s)bcw_builtin(%d, %s, %s);\n}\n", t, b->kind,
                ptrs[0], ptrs[1]);
}

/* Is function `name` one of the model's? */
static bool in_model(const bcw_model *m, const char *name)
{
    for (unsigned a = 0; a < m->nunits; a++)
        for (unsigned b = 0; b < m->units[a].nfuncs; b++)
            if (strcmp(m->units[a].funcs[b].name, name) == 0)
                return true;
    return false;
}

void bcw__cprog_declare(FILE *f, const bcw_model *m, const bcw_c_names *c)
{
    fputs("/* The library's functions, by their ABI: L_name is name. */\n", f);
    for (unsigned i = 0; i < m->nunits; i++)
        for (unsigned j = 0; j < m->units[i].nfuncs; j++) {
            const bcw_func *fn = &m->units[i].funcs[j];
            bool again = false;
            for (unsigned a = 0; a <= i && !again; a++)
                for (unsigned b = 0;
                     b < (a == i ? j : m->units[a].nfuncs) && !again; b++)
                    again = strcmp(m->units[a].funcs[b].name, fn->name) == 0;
            if (again)
                continue;
            char rt[256], name[300];
            ret_type(&fn->ret, rt, sizeof rt);
            bcw__c_name(name, sizeof name, fn->name, "");
            fprintf(f, "extern %s %s(", rt, name);
            for (unsigned k = 0; k < fn->nparams; k++) {
                const char *t = c_type(fn->params[k].abi);
                fprintf(f, "%s%s", k ? ", " : "", t ? t : "void *");
            }
            fprintf(f, "%s) __asm__(", fn->nparams ? "" : "void");
            bcw__c_quote_file(f, fn->name, '"');
            fputs(");\n", f);
        }
    for (unsigned i = 0; i < c->callbacks.n; i++) {
        const char *cb = c->callbacks.v[i];
        if (in_model(m, cb))
            continue;
        char name[300];
        bcw__c_name(name, sizeof name, cb, "");
        fprintf(f, "extern void %s(void) __asm__(", name);
        bcw__c_quote_file(f, cb, '"');
        fputs(");\n", f);
    }
    for (unsigned i = 0; i < c->nbuiltins; i++)
        builtin(f, &c->builtins[i], i);
}

/* The assertion that `x`, the result of call k (a call of fn), is what
 * the walk observed; first[i] the call whose result was the sequence's
 * other pointer i first (-1: none yet). */
static bool check_result(FILE *f, const bcw_func *fn, const bcw_seq *s,
                         unsigned k, const char *x, int *first, unsigned nfirst)
{
    uint64_t raw = s->rets[k];
    enum bcw_abi abi = fn->ret.abi;
    if (fn->ret.kind == BCW_PK_NONE || abi == BCW_ABI_STRUCT ||
        abi == BCW_ABI_VOID)
        return false;
    if (abi == BCW_ABI_FLOAT || abi == BCW_ABI_DOUBLE) {
        fprintf(f,
                "    {\n        %s v = %s;\n        uint%d_t bits;\n"
                "        memcpy(&bits, &v, sizeof bits);\n"
                "        assert_true(bits == %#llxULL);\n    }\n",
                c_type(abi), x, abi == BCW_ABI_FLOAT ? 32 : 64,
                (unsigned long long)raw);
        return true;
    }
    if (abi != BCW_ABI_PTR) {
        char v[64];
        if (bcw_abi_signed(abi)) {
            int64_t i = bcw_value_int(abi, raw);
            if (i == INT64_MIN)
                snprintf(v, sizeof v, "(-9223372036854775807LL - 1)");
            else
                snprintf(v, sizeof v, "%lldLL", (long long)i);
            fprintf(f, "    assert_true((int64_t)%s == %s);\n", x, v);
        } else {
            fprintf(f, "    assert_true((uint64_t)%s == %lluULL);\n", x,
                    (unsigned long long)bcw_value_int(abi, raw));
        }
        return true;
    }
    bcw_seq_text t = {0};
    if (fn->ret.kind == BCW_PK_STRING && s->outs[k] != NULL)
        t = bcw_seq_text_of(s->outs[k]);
    uint64_t tag = raw & (0xffull << 56), i = raw & ((1ull << 56) - 1);
    if (raw == BCW_PTR_NULL) {
        fprintf(f, "    assert_null(%s);\n", x);
    } else if (t.there && t.of == 0 && !t.cut) {
        char bytes[BCW_TEXT_MAX + 1];
        memcpy(bytes, t.at, t.n);
        bytes[t.n] = '\0';
        fprintf(f, "    assert_string_equal((const char *)%s, ", x);
        bcw__c_quote_file(f, bytes, '"');
        fputs(");\n", f);
    } else if (tag == BCW_PTR_TARGET && k > 0) {
        /* the object, maybe moved (the worker saw the old block freed):
         * the calls after it take what it returned */
        fprintf(f, "    assert_non_null(%s);\n    target = %s;\n", x, x);
    } else if (tag == BCW_PTR_CELL) {
        fprintf(f, "    assert_ptr_equal(%s, bcw_cells[%llu]);\n", x,
                (unsigned long long)i);
    } else if (tag == BCW_PTR_OTHER && i < nfirst && first[i] >= 0) {
        fprintf(f, "    assert_ptr_equal(%s, r%d);\n", x, first[i]);
    } else {
        if (tag == BCW_PTR_OTHER && i < nfirst)
            first[i] = (int)k;
        fprintf(f, "    assert_non_null(%s);\n", x);
    }
    return true;
}

/* Call `name`'s arguments into f, each generated one's category as a
 * comment after it (st's labels). */
static void call_args(FILE *f, const char *name, const bcw_step *st,
                      unsigned nparams, char (*args)[BCW_C_ARG_CHARS])
{
    fprintf(f, "%s(", name);
    for (unsigned p = 0; p < nparams; p++) {
        fprintf(f, "%s%s", p ? ", " : "", args[p]);
        if (st->label[p] == NULL)
            continue;
        fputs(" /* ", f);
        for (const char *c = st->label[p]; *c; c++)
            fputc((*c == '*' && c[1] == '/') || (*c == '/' && c[1] == '*') ? '+'
                                                                           : *c,
                  f);
        fputs(" */", f);
    }
    fputs(");\n", f);
}

/* Whether call k of s had its result observed, to assert it: not the
 * call that halted, nor a call of a state's cover. */
static bool observed(const bcw_seq *s, unsigned k)
{
    return k >= s->nprefix &&
           !(s->outcome != BCW_RUN_NORMAL && s->halted_at == k);
}

void bcw__cprog_calls(FILE *f, const bcw_reporter *r, const bcw_seq *s,
                      bcw_c_names *c, unsigned flags)
{
    bool normal = s->outcome == BCW_RUN_NORMAL;
    bool check = (flags & BCW_CPROG_CHECK) != 0;
    const bcw_unit *u = r->unit;
    bcw_gen gen = {0};
    bcw__generator_reset(r->gen);
    static char args[BCW_MAX_PARAMS][BCW_C_ARG_CHARS];
    int first[64];
    memset(first, -1, sizeof first);
    bool dtor = normal || s->halted_at > s->len;
    unsigned last = dtor ? s->len : s->halted_at;
    const bcw_func *ctor = &u->funcs[r->steps[s->steps[0]].func];
    fputs("    bcw_reset();\n", f);
    if (ctor->role == BCW_ROLE_INIT_CONSTRUCTOR)
        fprintf(f, "    void *target = %s(%llu);\n",
                ctor->defaults ? "bcw_cell" : "bcw_init_cell",
                (unsigned long long)(u->size ? u->size : 8));
    else
        fputs("    void *target = NULL;\n", f);
    /* the references it took, each released at the end */
    bool retains = false;
    for (unsigned k = 0; k <= last; k++)
        retains |= u->funcs[r->steps[s->steps[k]].func].retains;
    if (retains)
        fputs("    void *retained[64];\n    unsigned retains = 0;\n", f);
    for (unsigned k = 0; k <= last; k++) {
        const bcw_func *fn = &u->funcs[r->steps[s->steps[k]].func];
        if (k == 0 && fn->role == BCW_ROLE_EMPTY)
            continue;
        bcw__calls_args_c(r, s, k, s->steps[k], &gen, c, args);
        char rt[256], name[300], x[16];
        ret_type(&fn->ret, rt, sizeof rt);
        bcw__c_name(name, sizeof name, fn->name, "");
        bool unit_out = false;
        for (unsigned p = 0; p < fn->nparams; p++)
            unit_out |= fn->params[p].kind == BCW_PK_UNIT_OUT;
        for (unsigned p = 0; k == 0 && p < fn->nparams; p++)
            if (fn->params[p].elem_size)
                fprintf(f, "    bcw_esize = (uint64_t)(%s);\n", args[p]);
        if (flags & BCW_CPROG_TRACE)
            fprintf(f, "    bcw_call(%u);\n", k);
        bool made = k == 0 && fn->role == BCW_ROLE_CONSTRUCTOR && !unit_out;
        snprintf(x, sizeof x, made ? "target" : "r%u", k);
        fputs("    ", f);
        if (made)
            fputs("target = ", f);
        else if (fn->ret.kind != BCW_PK_NONE)
            /* a struct's type: the declaration's own */
            fprintf(f, "%s r%u = ",
                    fn->ret.abi == BCW_ABI_STRUCT ? "__auto_type" : rt, k);
        call_args(f, name, &r->steps[s->steps[k]], fn->nparams, args);
        bool checked =
            check && observed(s, k) &&
            check_result(f, fn, s, k, x, first, sizeof first / sizeof *first);
        if (fn->ret.kind != BCW_PK_NONE && !made && !checked)
            fprintf(f, "    (void)r%u;\n", k);
        if (k == 0 && fn->role == BCW_ROLE_CONSTRUCTOR &&
            (unit_out || fn->ret.abi == BCW_ABI_PTR))
            fputs("    bcw_keep(target);\n", f); /* held, as the worker does */
        else if (fn->ret.abi == BCW_ABI_PTR)
            fprintf(f, "    bcw_keep(r%u);\n", k);
        if (fn->ret.abi == BCW_ABI_PTR && k > 0 &&
            (fn->rebinds ||
             (observed(s, k) && s->rets[k] == BCW_PTR_TARGET && !checked)))
            fprintf(f, "    if (r%u != NULL)\n        target = r%u;\n", k, k);
        if (fn->retains && fn->ret.abi == BCW_ABI_PTR)
            fprintf(f,
                    "    if (r%u != NULL && r%u == target && retains < 64)\n"
                    "        retained[retains++] = target;\n",
                    k, k);
    }
    if (s->outcome == BCW_RUN_FAILURE && s->signo == BCW_SIG_INVARIANT &&
        u->invariant >= 0) {
        char name[300];
        bcw__c_name(name, sizeof name, u->funcs[u->invariant].name, "");
        fprintf(f, "    if (!%s(target))\n        bcw_invariant_false();\n",
                name);
    }
    if (!dtor || r->ndtors == 0 || s->ended)
        return;
    unsigned d = bcw__report_dtor_step(r, s);
    const bcw_func *fn = &u->funcs[r->steps[d].func];
    char name[300];
    bcw__c_name(name, sizeof name, fn->name, "");
    bcw__calls_args_c(r, s, s->len + 1, d, &gen, c, args);
    if (flags & BCW_CPROG_TRACE)
        fprintf(f, "    bcw_call(%u);\n", s->len + 1);
    for (int round = 0; round < 1 + retains; round++) {
        fputs(round ? "    for (unsigned i = 0; i < retains; i++) {\n"
                      "        target = retained[i];\n        "
                    : "    ",
              f);
        fprintf(f, "%s(", name);
        for (unsigned p = 0; p < fn->nparams; p++)
            fprintf(f, "%s%s", p ? ", " : "", args[p]);
        fputs(round ? ");\n    }\n" : ");\n", f);
    }
    if (normal && s->leak != NULL)
        fputs("    bcw_leaks();\n", f);
    else if (!normal && s->halted_at == s->len + 2u) {
        /* then given NULL, as the worker does once */
        if (flags & BCW_CPROG_TRACE)
            fprintf(f, "    bcw_call(%u);\n", s->len + 2);
        fprintf(f, "    %s(", name);
        for (unsigned p = 0; p < fn->nparams; p++)
            fprintf(f, "%s%s", p ? ", " : "",
                    (int)p == fn->self ? "NULL" : args[p]);
        fputs(");\n", f);
    }
}
