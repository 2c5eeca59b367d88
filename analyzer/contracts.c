/* contracts.c - contracts in the bitcode: assert() (a call of
 * __assert_fail with the condition's text), abort() or exit() on a
 * guarded path (the guard decompiled from the branch that leads there),
 * contract.h's REQUIRES/ENSURES/INVARIANT (calls of bcw_contract_fail
 * with the kind and text), and the unit's invariant function. */
#define _POSIX_C_SOURCE 200809L
#include "contracts.h"

#include <stdlib.h>
#include <string.h>

#include "addr.h"
#include "alloc.h"
#include "bitcode.h"
#include "cond_text.h"
#include "conditions.h"
#include "literals.h"

static const char *const invariant_words[] = {"invariant", "check",    "ok",
                                              "valid",     "is_valid", NULL};

/* The text of a constant C string argument, or NULL. */
static const char *const_string(LLVMValueRef v)
{
    while (v != NULL && LLVMIsAConstantExpr(v))
        v = LLVMGetOperand(v, 0);
    if (v == NULL || !LLVMIsAGlobalVariable(v))
        return NULL;
    LLVMValueRef init = LLVMGetInitializer(v);
    if (init == NULL || !LLVMIsAConstantDataSequential(init) ||
        !LLVMIsConstantString(init))
        return NULL;
    size_t len;
    return LLVMGetAsString(init, &len);
}

/* *out: the condition under which control reaches `bb`, the branch of
 * its only predecessor; "always" for the entry block; NULL when it is
 * not one condition bcwalk can write.  0 or BCW_ENOMEM. */
static int guard_of(char **out, const bcw_unit *u, const bcw_func *f,
                    LLVMValueRef fn, LLVMBasicBlockRef bb)
{
    *out = NULL;
    LLVMValueRef from = NULL;
    int preds = 0;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b;
         b = LLVMGetNextBasicBlock(b)) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
        unsigned n = t ? LLVMGetNumSuccessors(t) : 0;
        for (unsigned i = 0; i < n; i++)
            if (LLVMGetSuccessor(t, i) == bb) {
                from = t;
                preds++;
            }
    }
    if (preds == 0 && bb == LLVMGetEntryBasicBlock(fn))
        return (*out = bcw__strdup("always")) ? 0 : BCW_ENOMEM;
    if (preds != 1 || !LLVMIsABranchInst(from) || !LLVMIsConditional(from))
        return 0;
    bool when_false = LLVMGetSuccessor(from, 1) == bb;
    return bcw__cond_text(out, u, f, fn, LLVMGetCondition(from), when_false);
}

static int add(bcw_func *f, size_t *cap, enum bcw_contract_origin kind,
               char *expr)
{
    if (expr == NULL)
        return BCW_ENOMEM;
    if (bcw__grow(&f->contracts, cap, f->ncontracts + 1, sizeof *f->contracts) <
        0) {
        free(expr);
        return BCW_ENOMEM;
    }
    f->contracts[f->ncontracts++] = (bcw_contract){kind, expr};
    return 0;
}

static int scan(const bcw_unit *u, bcw_func *f, LLVMValueRef fn)
{
    size_t cap = 0;
    int err = 0;
    for (LLVMValueRef in = bcw__first_instruction(fn); in && !err;
         in = bcw__next_instruction(in)) {
        if (!LLVMIsACallInst(in))
            continue;
        LLVMValueRef callee = bcw__called_function(in);
        const char *name = callee ? bcw__value_name(callee) : "";
        const char *text;
        if (strcmp(name, "__assert_fail") == 0) {
            text = const_string(LLVMGetOperand(in, 0));
            err = add(f, &cap, BCW_CK_ASSERT, bcw__strdup(text ? text : "?"));
        } else if (strcmp(name, "bcw_contract_fail") == 0) {
            LLVMValueRef k = LLVMGetOperand(in, 0);
            long kind =
                LLVMIsAConstantInt(k) ? (long)LLVMConstIntGetZExtValue(k) : 0;
            text = const_string(LLVMGetOperand(in, 1));
            enum bcw_contract_origin ck = kind == 1   ? BCW_CK_REQUIRES
                                          : kind == 2 ? BCW_CK_ENSURES
                                                      : BCW_CK_INVARIANT;
            err = add(f, &cap, ck, bcw__strdup(text ? text : "?"));
        } else if (strcmp(name, "abort") == 0 || strcmp(name, "exit") == 0) {
            char *guard;
            err = guard_of(&guard, u, f, fn, LLVMGetInstructionParent(in));
            if (err == 0)
                err = add(f, &cap, BCW_CK_ABORT,
                          guard ? guard : bcw__strdup("on some path"));
        }
    }
    return err;
}

/* Is predicate p the invariant function's: the function itself, or a
 * condition only it branches on when it answers true or false (one
 * returning an int may be no invariant: bcwalk does not check it)? */
static bool invariants(const bcw_unit *u, const bcw_pred *p)
{
    if (p->interface)
        return p->func == u->invariant;
    if (u->funcs[u->invariant].ret.kind != BCW_PK_BOOL)
        return false;
    const char *name = u->funcs[u->invariant].name;
    for (unsigned k = 0; k < p->nusers; k++)
        if (strcmp(p->users[k], name) != 0)
            return false;
    return p->nusers > 0;
}

/* An invariant holds in every state, so it splits none: neither it nor
 * the conditions only it tests are state predicates. */
static void drop_invariant_predicate(bcw_unit *u)
{
    unsigned k = 0;
    for (unsigned i = 0; i < u->npreds; i++) {
        bcw_pred *p = &u->preds[i];
        if (u->invariant >= 0 && invariants(u, p)) {
            free(p->name);
            bcw__strv_free(p->users, p->nusers);
            continue;
        }
        u->preds[k++] = *p;
    }
    u->npreds = k;
}

int bcw_model_set_invariant(bcw_model *m, const char *function)
{
    for (unsigned k = 0; k < m->nunits; k++) {
        bcw_unit *u = &m->units[k];
        for (unsigned i = 0; i < u->nfuncs; i++) {
            const bcw_func *f = &u->funcs[i];
            if (strcmp(f->name, function) != 0)
                continue;
            if (f->role != BCW_ROLE_OBSERVER || f->nparams != 1 ||
                f->ret.kind == BCW_PK_NONE)
                return bcw__error(BCW_EINPUT,
                                  "%s cannot be %s's invariant: it must be an "
                                  "observer taking only the unit and "
                                  "returning a value (it is a %s with %u "
                                  "parameters)",
                                  function, u->name, bcw__role_name(f->role),
                                  f->nparams);
            u->invariant = (int)i;
            drop_invariant_predicate(u);
            return 0;
        }
    }
    return bcw__error(BCW_ENOTFOUND, "%s: no function %s in any unit", m->path,
                      function);
}

/* The fields of the unit an error flag's query reads: the unit's fields
 * at constant offsets that function `fn` (its unit parameter `unit`)
 * loads, at most `cap` of them, into off[]; -1 when it reads anything
 * else (a field's block, another value it computes from memory) or calls
 * a function: then it is no mere query of a flag. */
static int flag_fields(LLVMTargetDataRef td, LLVMValueRef fn, LLVMValueRef unit,
                       uint32_t *off, int cap)
{
    int n = 0;
    for (LLVMValueRef in = bcw__first_instruction(fn); in != NULL;
         in = bcw__next_instruction(in)) {
        if (LLVMIsACallInst(in) && !LLVMIsADbgInfoIntrinsic(in))
            return -1;
        if (!LLVMIsALoadInst(in))
            continue;
        uint32_t at;
        if (!bcw__addr_field_offset(td, LLVMGetOperand(in, 0), unit, &at) ||
            n == cap)
            return -1;
        int k = 0;
        while (k < n && off[k] != at)
            k++;
        if (k == n)
            off[n++] = at;
    }
    return n;
}

/* Is v one of the n fields at off[] of `unit` (function parameter): its
 * address? */
static bool is_flag(LLVMTargetDataRef td, LLVMValueRef v, LLVMValueRef unit,
                    const uint32_t *off, int n)
{
    uint32_t at;
    if (!bcw__addr_field_offset(td, v, unit, &at))
        return false;
    for (int k = 0; k < n; k++)
        if (at == off[k])
            return true;
    return false;
}

/* What function fn stores into the fields at off[] of its parameter
 * `unit`: -1 a value that is no constant nor the field with bits raised
 * (`err |= CORRUPT`); else 1 if it raises one (a constant not 0, or
 * bits), 0 if it only clears them. */
static int stores_to_flag(LLVMTargetDataRef td, LLVMValueRef fn,
                          LLVMValueRef unit, const uint32_t *off, int n)
{
    int raised = 0;
    for (LLVMValueRef in = bcw__first_instruction(fn); in != NULL;
         in = bcw__next_instruction(in)) {
        if (!LLVMIsAStoreInst(in) ||
            !is_flag(td, LLVMGetOperand(in, 1), unit, off, n))
            continue;
        LLVMValueRef v = LLVMGetOperand(in, 0);
        if (LLVMIsAConstantInt(v)) {
            raised |= LLVMConstIntGetZExtValue(v) != 0;
            continue;
        }
        if (!LLVMIsAInstruction(v) || LLVMGetInstructionOpcode(v) != LLVMOr)
            return -1;
        LLVMValueRef x = LLVMGetOperand(v, 0), y = LLVMGetOperand(v, 1);
        if (LLVMIsAConstantInt(x)) {
            LLVMValueRef t = x;
            x = y;
            y = t;
        }
        if (!LLVMIsAConstantInt(y) || !LLVMIsALoadInst(x) ||
            !is_flag(td, LLVMGetOperand(x, 0), unit, off, n))
            return -1;
        raised |= LLVMConstIntGetZExtValue(y) != 0;
    }
    return raised;
}

/* Does the invariant candidate `inv` (found by its name) only query an
 * error flag: read fields of the unit that no function of the module
 * given a unit sets but to constants or by raising bits, and that some
 * method raises?  Then it is false exactly when the library refused a
 * call and said so (sc_buf_valid after sc_buf_set_wpos past the end):
 * a state the object is in, not a broken one, and no invariant. */
static bool queries_a_flag(const bcw_unit *u, LLVMModuleRef mod,
                           const bcw_func *inv)
{
    LLVMValueRef fn = LLVMGetNamedFunction(mod, inv->name);
    if (fn == NULL || inv->self < 0)
        return false;
    LLVMTargetDataRef td = LLVMCreateTargetData(LLVMGetDataLayoutStr(mod));
    LLVMTypeRef type = LLVMTypeOf(LLVMGetParam(fn, (unsigned)inv->self));
    uint32_t off[4];
    int n = flag_fields(td, fn, LLVMGetParam(fn, (unsigned)inv->self), off, 4);
    bool raised = false, other = n <= 0;
    for (LLVMValueRef g = LLVMGetFirstFunction(mod); g != NULL && !other;
         g = LLVMGetNextFunction(g)) {
        if (LLVMIsDeclaration(g))
            continue;
        const char *name = LLVMGetValueName(g);
        const bcw_func *m = NULL;
        for (unsigned i = 0; i < u->nfuncs && m == NULL; i++)
            if (strcmp(u->funcs[i].name, name) == 0)
                m = &u->funcs[i];
        /* constructors and destructors set it up and tear it down */
        bool method = m == NULL || m->role == BCW_ROLE_OBSERVER ||
                      m->role == BCW_ROLE_MUTATOR;
        for (unsigned k = 0; k < LLVMCountParams(g) && !other; k++) {
            LLVMValueRef p = LLVMGetParam(g, k);
            if (LLVMTypeOf(p) != type)
                continue;
            int r = stores_to_flag(td, g, p, off, n);
            other = r < 0;
            raised = raised || (r > 0 && method);
        }
    }
    LLVMDisposeTargetData(td);
    return raised && !other;
}

int bcw__contracts_analyze(bcw_unit *u, LLVMModuleRef mod)
{
    size_t prefix = strlen(u->name);
    u->invariant = -1;
    for (unsigned i = 0; i < u->nfuncs; i++) {
        bcw_func *f = &u->funcs[i];
        LLVMValueRef fn = LLVMGetNamedFunction(mod, f->name);
        if (fn == NULL)
            continue;
        int err = scan(u, f, fn);
        if (err == 0)
            err = bcw__conditions_find(u, f, fn);
        if (err == 0)
            err = bcw__literals_find(f, fn);
        if (err < 0)
            return err;
        bool named =
            strncmp(f->name, u->name, prefix) == 0 && f->name[prefix] == '_';
        if (u->invariant < 0 && named && f->role == BCW_ROLE_OBSERVER &&
            f->nparams == 1 && f->ret.kind != BCW_PK_NONE) {
            for (const char *const *w = invariant_words; *w; w++)
                if (strcmp(f->name + prefix + 1, *w) == 0 &&
                    !queries_a_flag(u, mod, f))
                    u->invariant = (int)i;
        }
    }
    drop_invariant_predicate(u);
    return 0;
}
