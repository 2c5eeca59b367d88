/* literals.c - what a string parameter is compared against: string
 * literals given to strcmp and its kin, literals and characters it is
 * searched for (strstr(s, "://"), strchr(s, '=')), characters tested at
 * a fixed position (s[0] == '-'), and lengths (strlen(s) > 8).  Each becomes a
 * condition whose `value` is a string that meets it; the solver makes
 * them the parameter's categories. */
#define _POSIX_C_SOURCE 200809L
#include "literals.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "bitcode.h"
#include "model.h"
#include "text.h"

#define MAX_LITERAL 64  /* longer literals are cut: a prefix still tells */
#define MAX_LENGTH 4096 /* strlen(s) tests past it are left out */
#define MAX_CONDS 16

/* The value under pointer casts and zero-index GEPs. */
static LLVMValueRef strip(LLVMValueRef v)
{
    for (int i = 0; i < 8 && v != NULL; i++) {
        if (LLVMIsABitCastInst(v) || LLVMIsAAddrSpaceCastInst(v))
            v = LLVMGetOperand(v, 0);
        else if (LLVMIsAConstantExpr(v) &&
                 (LLVMGetConstOpcode(v) == LLVMBitCast ||
                  LLVMGetConstOpcode(v) == LLVMGetElementPtr))
            v = LLVMGetOperand(v, 0);
        else
            break;
    }
    return v;
}

/* The C string a constant pointer points to, or NULL. */
static const char *literal(LLVMValueRef v, size_t *len)
{
    v = strip(v);
    if (v == NULL || !LLVMIsAGlobalVariable(v) || !LLVMIsGlobalConstant(v))
        return NULL;
    LLVMValueRef init = LLVMGetInitializer(v);
    if (init == NULL || !LLVMIsAConstantDataSequential(init) ||
        !LLVMIsConstantString(init))
        return NULL;
    const char *s = LLVMGetAsString(init, len);
    *len = strnlen(s, *len);
    return s;
}

/* Is `v` the parameter, seen through casts? */
static bool is_param(LLVMValueRef v, LLVMValueRef arg)
{
    return strip(v) == arg;
}

static int add(bcw_param *p, size_t *cap, char *text, char *negated,
               char *value)
{
    int err = 0;
    if (text == NULL || negated == NULL || value == NULL) {
        err = BCW_ENOMEM;
        goto drop;
    }
    for (unsigned i = 0; i < p->nconds; i++)
        if (strcmp(p->conds[i].value, value) == 0)
            goto drop; /* the same string, compared again */
    if (p->nconds >= MAX_CONDS)
        goto drop;
    if ((err = bcw__grow(&p->conds, cap, p->nconds + 1, sizeof *p->conds)) < 0)
        goto drop;
    p->conds[p->nconds++] = (bcw_cond){text, negated, UINT32_MAX, value};
    return 0;
drop:
    free(text);
    free(negated);
    free(value);
    return err;
}

/* The name of the function `call` calls, "" when it is no function. */
static const char *callee_name(LLVMValueRef call)
{
    LLVMValueRef callee = LLVMGetCalledValue(call);
    size_t len = 0;
    return callee && LLVMIsAFunction(callee) ? LLVMGetValueName2(callee, &len)
                                             : "";
}

/* strcmp(s, "lit") and its kin, either operand order. */
static int compared(bcw_param *p, size_t *cap, LLVMValueRef call,
                    LLVMValueRef arg)
{
    static const char *const fns[] = {"strcmp",      "strncmp", "strcasecmp",
                                      "strncasecmp", "memcmp",  "bcmp",
                                      "strcoll",     NULL};
    const char *name = callee_name(call);
    bool known = false;
    for (const char *const *f = fns; *f && !known; f++)
        known = strcmp(name, *f) == 0;
    if (!known || LLVMGetNumArgOperands(call) < 2)
        return 0;
    LLVMValueRef a = LLVMGetOperand(call, 0), b = LLVMGetOperand(call, 1);
    LLVMValueRef other = is_param(a, arg) ? b : is_param(b, arg) ? a : NULL;
    size_t len = 0;
    const char *lit = other ? literal(other, &len) : NULL;
    if (lit == NULL)
        return 0;
    if (len > MAX_LITERAL)
        len = MAX_LITERAL;
    char *value = bcw__strndup(lit, len);
    char *shown = value ? bcw__c_quote(value, '"') : NULL;
    int err =
        add(p, cap, shown ? bcw__sprintf("%s == %s", p->name, shown) : NULL,
            shown ? bcw__sprintf("%s != %s", p->name, shown) : NULL, value);
    free(shown);
    return err;
}

/* The parameter searched for a literal: strstr(s, "://"), strchr(s,
 * '='), strrchr, memchr, and strpbrk(s, ",;") or strcspn, whose needle is
 * a set of characters (its first stands for it).  Text that holds the
 * needle ("a=") is a category of its own: a parser that gives up on text
 * without its separator is walked past that point. */
static int searched(bcw_param *p, size_t *cap, LLVMValueRef call,
                    LLVMValueRef arg)
{
    static const struct {
        const char *fn;
        bool set;  /* the needle is a set of characters */
        bool byte; /* the needle is a character, not a string */
    } fns[] = {{"strstr", false, false}, {"strchr", false, true},
               {"strrchr", false, true}, {"memchr", false, true},
               {"strpbrk", true, false}, {"strcspn", true, false}};
    const char *name = callee_name(call);
    unsigned f = 0, n = sizeof fns / sizeof *fns;
    while (f < n && strcmp(name, fns[f].fn) != 0)
        f++;
    if (f == n || LLVMGetNumArgOperands(call) < 2 ||
        !is_param(LLVMGetOperand(call, 0), arg))
        return 0;
    LLVMValueRef needle = LLVMGetOperand(call, 1);
    char lit[MAX_LITERAL + 1];
    size_t len = 0;
    if (fns[f].byte) {
        if (!LLVMIsAConstantInt(needle) ||
            (LLVMConstIntGetZExtValue(needle) & 0xff) == 0)
            return 0;
        lit[len++] = (char)(LLVMConstIntGetZExtValue(needle) & 0xff);
    } else {
        const char *text = literal(needle, &len);
        if (text == NULL || len == 0)
            return 0;
        len = fns[f].set ? 1 : len > MAX_LITERAL ? MAX_LITERAL : len;
        memcpy(lit, text, len);
    }
    lit[len] = '\0';
    char *shown =
        fns[f].byte ? bcw__c_quote(lit, '\'') : bcw__c_quote(lit, '"');
    char *value = bcw__sprintf("a%s", lit);
    int err =
        add(p, cap, shown ? bcw__sprintf("%s holds %s", p->name, shown) : NULL,
            shown ? bcw__sprintf("%s lacks %s", p->name, shown) : NULL, value);
    free(shown);
    return err;
}

/* The character c is: a constant, or a byte loaded from a constant
 * string's start (zlib's version[0] != my_version[0]); -1 otherwise. */
static long long char_constant(LLVMValueRef c)
{
    if (LLVMIsASExtInst(c) || LLVMIsAZExtInst(c))
        c = LLVMGetOperand(c, 0);
    if (LLVMIsAConstantInt(c))
        return LLVMConstIntGetSExtValue(c) & 0xff;
    size_t len = 0;
    const char *s = LLVMIsALoadInst(c) ? literal(LLVMGetOperand(c, 0), &len)
                                       : NULL;
    return s != NULL && len > 0 ? (unsigned char)s[0] : -1;
}

/* s[i] compared with a character constant: a load of one byte at a
 * constant offset from the parameter. */
static int char_test(bcw_param *p, size_t *cap, LLVMValueRef cmp,
                     LLVMValueRef arg)
{
    for (unsigned side = 0; side < 2; side++) {
        LLVMValueRef v = LLVMGetOperand(cmp, side);
        long long ch = char_constant(LLVMGetOperand(cmp, 1 - side));
        if (LLVMIsASExtInst(v) || LLVMIsAZExtInst(v))
            v = LLVMGetOperand(v, 0);
        if (ch < 0 || !LLVMIsALoadInst(v) ||
            LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMIntegerTypeKind ||
            LLVMGetIntTypeWidth(LLVMTypeOf(v)) != 8)
            continue;
        LLVMValueRef ptr = LLVMGetOperand(v, 0);
        long long at = 0;
        if (LLVMIsAGetElementPtrInst(ptr) && LLVMGetNumOperands(ptr) == 2 &&
            LLVMIsAConstantInt(LLVMGetOperand(ptr, 1))) {
            at = LLVMConstIntGetSExtValue(LLVMGetOperand(ptr, 1));
            ptr = LLVMGetOperand(ptr, 0);
        }
        if (!is_param(ptr, arg) || at < 0 || at >= MAX_LITERAL || ch == 0)
            continue;
        char *value = bcw__malloc((size_t)at + 2);
        if (value == NULL)
            return BCW_ENOMEM;
        memset(value, 'a', (size_t)at);
        value[at] = (char)ch;
        value[at + 1] = '\0';
        char *shown = bcw__c_quote(value + at, '\'');
        int err = add(
            p, cap,
            shown ? bcw__sprintf("%s[%lld] == %s", p->name, at, shown) : NULL,
            shown ? bcw__sprintf("%s[%lld] != %s", p->name, at, shown) : NULL,
            value);
        free(shown);
        return err;
    }
    return 0;
}

/* strlen(s) compared with a constant n: strings of n and n + 1 chars,
 * one on each side of the usual bounds. */
static int length_test(bcw_param *p, size_t *cap, LLVMValueRef cmp,
                       LLVMValueRef arg)
{
    for (unsigned side = 0; side < 2; side++) {
        LLVMValueRef v = LLVMGetOperand(cmp, side);
        LLVMValueRef c = LLVMGetOperand(cmp, 1 - side);
        if (LLVMIsATruncInst(v))
            v = LLVMGetOperand(v, 0);
        if (!LLVMIsAConstantInt(c) || !LLVMIsACallInst(v))
            continue;
        if (strcmp(callee_name(v), "strlen") != 0 ||
            !is_param(LLVMGetOperand(v, 0), arg))
            continue;
        long long n = LLVMConstIntGetSExtValue(c);
        int err = 0;
        for (long long len = n; len <= n + 1 && err == 0; len++) {
            if (len < 0 || len > MAX_LENGTH)
                continue;
            char *value = bcw__malloc((size_t)len + 1);
            if (value == NULL)
                return BCW_ENOMEM;
            memset(value, 'x', (size_t)len);
            value[len] = '\0';
            err = add(p, cap, bcw__sprintf("strlen(%s) == %lld", p->name, len),
                      bcw__sprintf("strlen(%s) != %lld", p->name, len), value);
        }
        return err;
    }
    return 0;
}

/* p's conditions in fn, where it is `arg`, and in the module functions
 * fn passes it to (zlib's deflateInit_ handing version to
 * deflateInit2_), `depth` calls down so far. */
static int scan(bcw_param *p, size_t *cap, LLVMValueRef fn, LLVMValueRef arg,
                int depth)
{
    int err = 0;
    for (LLVMValueRef in = bcw__first_instruction(fn); in && err == 0;
         in = bcw__next_instruction(in)) {
        if (LLVMIsACallInst(in) && (err = compared(p, cap, in, arg)) == 0)
            err = searched(p, cap, in, arg);
        else if (LLVMIsAICmpInst(in) && (err = char_test(p, cap, in, arg)) == 0)
            err = length_test(p, cap, in, arg);
        LLVMValueRef q;
        for (unsigned k = 0;
             err == 0 && depth < 3 && (q = bcw__passed_to(in, arg, &k)); k++)
            err = scan(p, cap, LLVMGetParamParent(q), q, depth + 1);
    }
    return err;
}

int bcw__literals_find(bcw_func *f, LLVMValueRef fn)
{
    int err = 0;
    for (unsigned k = 0; k < f->nparams && err == 0; k++) {
        bcw_param *p = &f->params[k];
        size_t cap = 0;
        if (p->kind == BCW_PK_STRING)
            err = scan(p, &cap, fn, LLVMGetParam(fn, k), 0);
    }
    return err;
}
