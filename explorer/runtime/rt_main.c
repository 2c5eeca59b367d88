/* rt_main.c - the worker: main() of every worker executable bcwalk
 * builds.  It maps the shared plan, prepares one libffi call interface
 * per function, then runs batches of sequences on command (proto.h).
 *
 * The worker's life: SETUP (map, check, prepare) -> READY (HELLO sent)
 * -> RUNNING a batch -> READY ... until QUIT or EOF on the command pipe.
 * abort(), assert() and exit() of the code under test are interposed
 * (bcwalk renames them in the bitcode), so they end only the sequence:
 * a siglongjmp back to run_seq, no signal at all.  Fatal signals are
 * different: memory may be corrupt, so the handler records the outcome
 * in shared memory and the worker exits for the parent to replace. */
#define _GNU_SOURCE
#include <errno.h>
#include <ffi.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rt.h"
#include "values.h"

/* Made by bcwalk in the instrumented bitcode: the unit's functions. */
extern void *bcw_unit_symtab[];
extern const uint32_t bcw_unit_nsyms;
/* Typed stubs: stub(args, ret) calls symtab[i] with args[k] as its k-th
 * parameter and stores the result's raw word in *ret. */
typedef void (*bcw_stub)(uint64_t *args, uint64_t *ret);
extern const bcw_stub bcw_unit_stubs[];
/* The unit's mutable globals, gathered into one section by bcwalk. */
extern char __start_bcw_globals[] __attribute__((weak));
extern char __stop_bcw_globals[] __attribute__((weak));

#define ARENA_SIZE (1u << 20)
#define CELLS 4096
#define CELL_SIZE 16
#define MAX_OTHER 64
#define MAX_BUFFER (64u << 10)

static bcw_shm *shm;
static ffi_cif cifs[BCW_MAX_FUNCS];

typedef struct closure {
    ffi_closure *fc;
    void *code; /* what the code under test calls */
    ffi_cif cif;
    ffi_type *args[BCW_MAX_PARAMS];
    uint8_t kind; /* enum bcw_callback */
    uint8_t sig[BCW_MAX_PARAMS + 1];
    uint32_t calls; /* during the call in flight */
} closure;
static closure *closures[BCW_MAX_FUNCS][BCW_MAX_PARAMS];
static ffi_type *argtypes[BCW_MAX_FUNCS][BCW_MAX_PARAMS];
static char *globals_copy;
static size_t globals_size;

/* State of the sequence in flight: static, because a siglongjmp back
 * into run_seq must see it. */
static uint32_t cur_call, seq_calls;
static void *target;
static _Alignas(16) char unit_storage[1 << 16];
static _Alignas(16) char arena[ARENA_SIZE];
static size_t arena_used;
/* the sequence's arena allocations, for the state hash to follow
 * pointers into; past MAX_ARENA_SPANS the state is not hashed */
#define MAX_ARENA_SPANS 4096
static bcw_rt_span arena_spans[MAX_ARENA_SPANS];
static size_t narena_spans;
static int arena_spans_lost;
static _Alignas(16) char cells[CELLS][CELL_SIZE];
static void *others[MAX_OTHER];
static unsigned nothers;
/* the handle of each slot given out last in this sequence, or NULL */
static void *handles[BCW_MAX_HANDLES];
static unsigned nhandle_types; /* the plan gives out handles 0 .. n-1 */

static ffi_type *ffi_of(enum bcw_abi abi)
{
    switch (abi) {
    case BCW_ABI_VOID:
        return &ffi_type_void;
    case BCW_ABI_BOOL:
    case BCW_ABI_U8:
        return &ffi_type_uint8;
    case BCW_ABI_S8:
        return &ffi_type_sint8;
    case BCW_ABI_S16:
        return &ffi_type_sint16;
    case BCW_ABI_U16:
        return &ffi_type_uint16;
    case BCW_ABI_S32:
        return &ffi_type_sint32;
    case BCW_ABI_U32:
        return &ffi_type_uint32;
    case BCW_ABI_S64:
        return &ffi_type_sint64;
    case BCW_ABI_U64:
        return &ffi_type_uint64;
    case BCW_ABI_FLOAT:
        return &ffi_type_float;
    case BCW_ABI_DOUBLE:
        return &ffi_type_double;
    case BCW_ABI_PTR:
        return &ffi_type_pointer;
    }
    return NULL;
}

static void put32(uint32_t v)
{
    while (write(BCW_FD_STATUS, &v, sizeof v) < 0 && errno == EINTR)
        ;
}

void bcw_rt_abort(void)
{
    bcw_rt_halt(BCW_RUN_ABORT, SIGABRT);
}

void bcw_rt_assert_fail(const char *expr, const char *file, unsigned line,
                        const char *fn)
{
    (void)expr, (void)file, (void)line, (void)fn;
    bcw_rt_halt(BCW_RUN_ABORT, SIGABRT);
}

/* contract.h's bcw_contract_fail, renamed in the unit's bitcode */
void bcw_rt_contract_fail(int kind, const char *expr, const char *file,
                          int line)
{
    (void)expr, (void)file, (void)line;
    bcw_rt_halt(kind == 1 ? BCW_RUN_REJECTED : BCW_RUN_FAILURE, kind);
}

void bcw_rt_exit(int status)
{
    (void)status;
    bcw_rt_halt(BCW_RUN_ABORT, 0);
}

/* A fatal signal: record it for the sequence in flight and leave. */
static void on_fatal(int signo)
{
    if (bcw_rt_land.in_seq) {
        bcw_wire_result *r = &shm->results[shm->cur];
        r->outcome = signo == SIGABRT ? BCW_RUN_ABORT : BCW_RUN_CRASH;
        r->signo = (uint8_t)signo;
        r->halted_at = (uint16_t)cur_call;
        r->calls = seq_calls;
        _exit(BCW_EXIT_FAULT);
    }
    signal(signo, SIG_DFL);
    raise(signo);
}

static void *arena_alloc(size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (n > ARENA_SIZE - arena_used)
        bcw_rt_halt(BCW_RUN_ABORT, 0);
    void *p = arena + arena_used;
    arena_used += n;
    memset(p, 0, n);
    if (narena_spans < MAX_ARENA_SPANS)
        arena_spans[narena_spans++] = (bcw_rt_span){(uintptr_t)p, n, 0, 0};
    else
        arena_spans_lost = 1;
    return p;
}

/* Pointers are reported canonically, never as addresses (values.h). */
static uint64_t canon_pointer(void *p)
{
    if (p == NULL)
        return BCW_PTR_NULL;
    if (p == target)
        return BCW_PTR_TARGET;
    uintptr_t c = (uintptr_t)p, base = (uintptr_t)cells;
    if (c >= base && c < base + sizeof cells)
        return BCW_PTR_CELL | (uint64_t)((c - base) / CELL_SIZE);
    for (unsigned i = 0; i < nothers; i++)
        if (others[i] == p)
            return BCW_PTR_OTHER | i;
    if (nothers < MAX_OTHER)
        others[nothers] = p;
    return BCW_PTR_OTHER | nothers++;
}

static uint64_t read_scalar(const void *p, enum bcw_abi abi)
{
    uint64_t v = 0;
    switch (abi) {
    case BCW_ABI_BOOL:
    case BCW_ABI_S8:
    case BCW_ABI_U8:
        memcpy(&v, p, 1);
        break;
    case BCW_ABI_S16:
    case BCW_ABI_U16:
        memcpy(&v, p, 2);
        break;
    case BCW_ABI_S32:
    case BCW_ABI_U32:
    case BCW_ABI_FLOAT:
        memcpy(&v, p, 4);
        break;
    default:
        memcpy(&v, p, 8);
        break;
    }
    return v;
}

/* Calls through libffi; the result as the stubs give it: integers
 * zero-extended from their width, float and pointer bits. */
static uint64_t call_ffi(unsigned fi, const bcw_wire_func *f, void **avalues)
{
    union {
        ffi_arg i;
        float f;
        double d;
        void *p;
    } rv = {0};
    ffi_call(&cifs[fi], FFI_FN(bcw_unit_symtab[f->sym]), &rv, avalues);
    switch (f->ret.abi) {
    case BCW_ABI_VOID:
        return 0;
    case BCW_ABI_PTR:
        return (uint64_t)(uintptr_t)rv.p;
    case BCW_ABI_FLOAT:
        return read_scalar(&rv.f, BCW_ABI_FLOAT);
    case BCW_ABI_DOUBLE: {
        uint64_t raw;
        memcpy(&raw, &rv.d, sizeof raw);
        return raw;
    }
    default:
        return read_scalar(&rv.i, (enum bcw_abi)f->ret.abi);
    }
}

static uint64_t mask(uint64_t v, unsigned bits)
{
    return bits >= 64 ? v : v & ((1ull << bits) - 1);
}

static int64_t sext(uint64_t v, unsigned bits)
{
    if (bits == 0 || bits >= 64)
        return (int64_t)v;
    uint64_t m = 1ull << (bits - 1);
    return (int64_t)((mask(v, bits) ^ m) - m);
}

/* The candidate value of the parameter a HOLDS/FAILS category is being
 * solved for: what BCW_C_PARAM nodes evaluate to. */
static uint64_t solving_x;

/* a pred b (LLVMIntPredicate) on bits-wide values. */
static uint64_t compare(unsigned pred, uint64_t a, uint64_t b, unsigned bits)
{
    uint64_t ua = mask(a, bits), ub = mask(b, bits);
    int64_t sa = sext(a, bits), sb = sext(b, bits);
    switch (pred) {
    case 32:
        return ua == ub;
    case 33:
        return ua != ub;
    case 34:
        return ua > ub;
    case 35:
        return ua >= ub;
    case 36:
        return ua < ub;
    case 37:
        return ua <= ub;
    case 38:
        return sa > sb;
    case 39:
        return sa >= sb;
    case 40:
        return sa < sb;
    case 41:
        return sa <= sb;
    default:
        return 0;
    }
}

/* The value of expression node i of the pool on the unit's object.
 * Operands always come before their node (the model loader checks), and
 * the depth is bounded besides. */
static uint64_t eval(uint32_t i, int depth)
{
    if (depth > 64 || i >= shm->npool)
        return 0;
    const bcw_cnode *n = &shm->pool[i];
    uint64_t a = 0, b = 0, v = 0;
    if (n->op > BCW_C_FIELD)
        a = eval(n->a, depth + 1);
    if (n->op >= BCW_C_ADD && n->op <= BCW_C_ASHR)
        b = eval(n->b, depth + 1);
    unsigned abits =
        n->op > BCW_C_FIELD && n->a < shm->npool ? shm->pool[n->a].bits : 64;
    if (n->op == BCW_C_ICMP)
        b = eval(n->b, depth + 1);
    switch ((enum bcw_cop)n->op) {
    case BCW_C_PARAM:
        v = solving_x; /* the candidate being tried */
        break;
    case BCW_C_ICMP:
        v = compare(n->pred, a, b, abits);
        break;
    case BCW_C_CONST:
        v = (uint64_t)n->value;
        break;
    case BCW_C_FIELD:
        /* a field of the object: target's memory, the unit's size */
        if (target != NULL && n->value >= 0 &&
            (uint64_t)n->value + (n->bits + 7) / 8 <= 4096)
            memcpy(&v, (const char *)target + n->value, (n->bits + 7) / 8);
        break;
    case BCW_C_ADD:
        v = a + b;
        break;
    case BCW_C_SUB:
        v = a - b;
        break;
    case BCW_C_MUL:
        v = a * b;
        break;
    case BCW_C_SDIV:
        v = sext(b, n->bits) ? (uint64_t)(sext(a, n->bits) / sext(b, n->bits))
                             : 0;
        break;
    case BCW_C_UDIV:
        v = b ? a / b : 0;
        break;
    case BCW_C_SREM:
        v = sext(b, n->bits) ? (uint64_t)(sext(a, n->bits) % sext(b, n->bits))
                             : 0;
        break;
    case BCW_C_UREM:
        v = b ? a % b : 0;
        break;
    case BCW_C_AND:
        v = a & b;
        break;
    case BCW_C_OR:
        v = a | b;
        break;
    case BCW_C_XOR:
        v = a ^ b;
        break;
    case BCW_C_SHL:
        v = b < 64 ? a << b : 0;
        break;
    case BCW_C_LSHR:
        v = b < 64 ? a >> b : 0;
        break;
    case BCW_C_ASHR:
        v = (uint64_t)(sext(a, n->bits) >> (b < 64 ? b : 63));
        break;
    case BCW_C_SEXT:
        v = (uint64_t)sext(a, abits);
        break;
    case BCW_C_ZEXT:
        v = mask(a, abits);
        break;
    default: /* TRUNC: the mask below */
        v = a;
        break;
    }
    return mask(v, n->bits);
}

/* A category bounded by the object's fields: the boundary value of its
 * first bound (the relative one the report shows), read from the object
 * as it is now, and kept within the category's other bounds (as signed
 * 64-bit numbers) when the object allows. */
/* Does candidate x meet every HOLDS/FAILS literal of p's category? */
static int meets(const bcw_wire_param *p, uint64_t x)
{
    solving_x = x;
    for (uint32_t i = 0; i < p->nbounds; i++) {
        uint32_t at = p->bounds + i;
        if (at >= shm->npool)
            return 0;
        const bcw_cnode *lit = &shm->pool[at];
        if ((eval(lit->a, 0) != 0) != (lit->op == BCW_C_HOLDS))
            return 0;
    }
    return 1;
}

/* Where literal `lit` changes its truth between lo and hi (it differs
 * at the two ends), assuming it changes once: the first x at which it
 * has hi's truth, by bisection on the signed or unsigned order. */
static uint64_t threshold(const bcw_cnode *lit, uint64_t lo, uint64_t hi,
                          int is_signed, unsigned bits)
{
    solving_x = hi;
    uint64_t want = eval(lit->a, 0) != 0;
    for (int step = 0; step < 70; step++) {
        uint64_t mid;
        if (is_signed) {
            int64_t l = sext(lo, bits), h = sext(hi, bits);
            if (h - l <= 1)
                break;
            mid = (uint64_t)(l + (h - l) / 2);
        } else {
            if (mask(hi, bits) - mask(lo, bits) <= 1)
                break;
            mid = mask(lo, bits) + (mask(hi, bits) - mask(lo, bits)) / 2;
        }
        solving_x = mid;
        if ((eval(lit->a, 0) != 0) == want)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

/* A category whose conditions mix the parameter with the object's fields
 * (len + b->len >= b->cap): the value nearest 1 that meets them on the
 * object as it is now, among 1, 0, -1 and the points where each
 * condition changes (found by bisection over the non-negative and, for
 * signed parameters, the negative half); 1 when none does. */
static uint64_t solve(const bcw_wire_param *p)
{
    unsigned bits = bcw_abi_bits((enum bcw_abi)p->abi);
    int is_signed = bcw_abi_signed((enum bcw_abi)p->abi);
    uint64_t cand[3 + 6 * BCW_MAX_TERM_NODES];
    unsigned n = 0;
    cand[n++] = 1;
    cand[n++] = 0;
    cand[n++] = mask((uint64_t)-1, bits);
    uint64_t top = is_signed ? mask(~0ull, bits) >> 1 : mask(~0ull, bits) >> 2;
    uint64_t bottom = is_signed ? mask(~top, bits) : 0;
    for (uint32_t i = 0; i < p->nbounds && n + 6 <= sizeof cand / sizeof *cand;
         i++) {
        const bcw_cnode *lit = &shm->pool[p->bounds + i];
        uint64_t ends[2][2] = {{0, top}, {bottom, mask((uint64_t)-1, bits)}};
        for (int h = 0; h < (is_signed ? 2 : 1); h++) {
            uint64_t lo = ends[h][0], hi = ends[h][1];
            solving_x = lo;
            uint64_t at_lo = eval(lit->a, 0) != 0;
            solving_x = hi;
            if ((eval(lit->a, 0) != 0) == at_lo)
                continue;
            uint64_t t = threshold(lit, lo, hi, is_signed, bits);
            cand[n++] = t;
            cand[n++] = mask(t - 1, bits);
            cand[n++] = mask(t + 1, bits);
        }
    }
    uint64_t best = 1, dist = UINT64_MAX;
    for (unsigned i = 0; i < n; i++) {
        int64_t v = is_signed ? sext(cand[i], bits) : (int64_t)cand[i];
        uint64_t d = is_signed ? (uint64_t)(v >= 1 ? v - 1 : 1 - v)
                               : (cand[i] >= 1 ? cand[i] - 1 : 1);
        if (d < dist && meets(p, cand[i])) {
            best = cand[i];
            dist = d;
        }
    }
    return best;
}

static uint64_t within_bounds(const bcw_wire_param *p)
{
    if (p->nbounds > 0 && p->bounds < shm->npool &&
        (shm->pool[p->bounds].op == BCW_C_HOLDS ||
         shm->pool[p->bounds].op == BCW_C_FAILS))
        return solve(p);
    int64_t lo = INT64_MIN, hi = INT64_MAX, v = 0;
    int64_t avoid[BCW_MAX_TERM_NODES];
    unsigned navoid = 0;
    for (uint32_t i = 0; i < p->nbounds; i++) {
        uint32_t at = p->bounds + i;
        if (at >= shm->npool)
            break;
        const bcw_cnode *b = &shm->pool[at];
        unsigned bits = b->a < shm->npool ? shm->pool[b->a].bits : 64;
        int64_t x =
            (int64_t)((uint64_t)sext(eval(b->a, 0), bits) + (uint64_t)b->value);
        if (i == 0) /* x != t: the boundary is just past t */
            v = b->op == BCW_C_UNEQUAL ? x + 1 : x;
        if (b->op == BCW_C_LOWER && x > lo)
            lo = x;
        else if (b->op == BCW_C_UPPER && x < hi)
            hi = x;
        else if (b->op == BCW_C_EQUAL)
            lo = hi = x;
        else if (b->op == BCW_C_UNEQUAL && navoid < BCW_MAX_TERM_NODES)
            avoid[navoid++] = x;
    }
    if (lo <= hi)
        v = v < lo ? lo : v > hi ? hi : v;
    /* step off the values x must not take, upwards, then downwards,
     * within the bounds */
    for (int dir = 1; dir >= -1 && navoid > 0; dir -= 2) {
        int64_t w = v;
        for (unsigned tries = 0; tries <= navoid; tries++) {
            unsigned k = 0;
            while (k < navoid && avoid[k] != w)
                k++;
            if (k == navoid)
                return (uint64_t)w;
            if ((dir > 0 && w == hi) || (dir < 0 && w == lo))
                break;
            w += dir;
        }
    }
    return (uint64_t)v;
}

/* What an element argument stands for: cell k holds k (Obj#k); other
 * pointers stand for themselves. */
static uint64_t cell_key(const void *p)
{
    uintptr_t c = (uintptr_t)p, base = (uintptr_t)cells;
    if (c >= base && c < base + sizeof cells)
        return (c - base) / CELL_SIZE;
    return (uint64_t)c;
}

/* A built-in callback (abi.h's bcw_callback): a libffi closure of the
 * callback's signature that counts its calls. */
static void on_closure(ffi_cif *cif, void *ret, void **args, void *data)
{
    closure *c = data;
    c->calls++;
    int64_t v = 0;
    uint64_t a = cif->nargs > 0 && c->sig[1] == BCW_ABI_PTR
                     ? cell_key(*(void **)args[0])
                     : 0;
    uint64_t b = cif->nargs > 1 && c->sig[2] == BCW_ABI_PTR
                     ? cell_key(*(void **)args[1])
                     : 0;
    switch (c->kind) {
    case BCW_CB_COMPARE:
        v = a < b ? -1 : a > b;
        break;
    case BCW_CB_EQUAL:
        v = a == b;
        break;
    case BCW_CB_HASH:
        v = (int64_t)((a * 0x9e3779b97f4a7c15ull) >> 40);
        break;
    default:
        break;
    }
    switch ((enum bcw_abi)c->sig[0]) {
    case BCW_ABI_VOID:
        break;
    case BCW_ABI_FLOAT:
        *(float *)ret = (float)v;
        break;
    case BCW_ABI_DOUBLE:
        *(double *)ret = (double)v;
        break;
    case BCW_ABI_PTR:
        *(void **)ret = NULL;
        break;
    default:
        *(ffi_sarg *)ret = (ffi_sarg)v;
        break;
    }
}

/* The closure for parameter k of plan entry fi, made at setup. */
static int make_closure(unsigned fi, unsigned k)
{
    const bcw_wire_param *p = &shm->funcs[fi].params[k];
    if (p->nsig == 0 || p->nsig > BCW_MAX_PARAMS + 1 || p->value < 1 ||
        p->value > BCW_CB_LAST)
        return -1;
    closure *c = calloc(1, sizeof *c);
    if (c == NULL)
        return -1;
    c->kind = (uint8_t)p->value;
    memcpy(c->sig, p->sig, sizeof c->sig);
    for (unsigned i = 1; i < p->nsig; i++)
        c->args[i - 1] = ffi_of((enum bcw_abi)p->sig[i]);
    c->fc = ffi_closure_alloc(sizeof(ffi_closure), &c->code);
    if (c->fc == NULL ||
        ffi_prep_cif(&c->cif, FFI_DEFAULT_ABI, p->nsig - 1u,
                     ffi_of((enum bcw_abi)p->sig[0]), c->args) != FFI_OK ||
        ffi_prep_closure_loc(c->fc, &c->cif, on_closure, c, c->code) != FFI_OK)
        return -1;
    closures[fi][k] = c;
    return 0;
}

/* A string category's value, copied so the code may write it. */
static char *plan_string(int64_t off)
{
    if (off < 0 || (uint64_t)off >= shm->nstrings)
        return arena_alloc(1);
    const char *s = shm->strings + off;
    size_t len = strnlen(s, shm->nstrings - (size_t)off) + 1;
    char *d = arena_alloc(len);
    memcpy(d, s, len - 1);
    return d;
}

/* The handle argument `p` takes (BCW_FIXED_HANDLE*): the one given out
 * last.  Halts the sequence when there is none (rejected: a meaningless
 * call) or when it points into a block freed since (a crash: the use
 * after free the call would make). */
static uint64_t pass_handle(const bcw_wire_param *p)
{
    void *h = handles[p->value];
    if (h == NULL && p->fixed == BCW_FIXED_HANDLE)
        bcw_rt_halt(BCW_RUN_REJECTED, BCW_SIG_NO_ARG);
    if (bcw_rt_alloc_freed(h))
        bcw_rt_halt(BCW_RUN_CRASH, BCW_SIG_FREED);
    return (uint64_t)(uintptr_t)h;
}

static uint64_t invoke(unsigned fi, bcw_gen *g, void **outs, uint64_t *report);

/* Another unit's instance for a BCW_FIXED_UNIT_CTOR argument: made by
 * that unit's constructor, plan entry `fi`; the runtime frees it with the
 * sequence's other leftovers. */
static uint64_t make_instance(unsigned fi, bcw_gen *g)
{
    void *outs[BCW_MAX_PARAMS] = {0};
    uint64_t raw = invoke(fi, g, outs, NULL);
    if (raw == 0)
        bcw_rt_halt(BCW_RUN_REJECTED, BCW_SIG_NO_ARG);
    return raw;
}

/* Makes the arguments of plan entry `fi` and calls it; its raw result.
 * outs[k] gets the storage passed to out-parameter k; report[k], unless
 * report is NULL, the value passed for a parameter computed from the
 * object and a buffer's length, written before the call so a call that
 * halts still shows them. */
static uint64_t invoke(unsigned fi, bcw_gen *g, void **outs, uint64_t *report)
{
    const bcw_wire_func *f = &shm->funcs[fi];
    uint64_t vals[BCW_MAX_PARAMS];
    void *avalues[BCW_MAX_PARAMS];
    /* values first: a buffer's size is its length parameter's value */
    const char *strs[BCW_MAX_PARAMS] = {0};
    for (unsigned k = 0; k < f->nparams; k++) {
        const bcw_wire_param *p = &f->params[k];
        vals[k] = p->fixed == BCW_FIXED_BOUNDS ? within_bounds(p)
                  : p->fixed == BCW_FIXED_CUSTOM
                      ? bcw_rt_custom_next(fi, k, p, g, &strs[k])
                  : p->fixed == BCW_FIXED_HANDLE ||
                          p->fixed == BCW_FIXED_HANDLE_OR_NULL
                      ? pass_handle(p)
                  : p->fixed == BCW_FIXED_UNIT_CTOR
                      ? make_instance((unsigned)p->value, g)
                  : p->fixed ? (uint64_t)p->value
                             : bcw_gen_next(g, p->kind, p->abi);
    }
    for (unsigned k = 0; k < f->nparams; k++) {
        const bcw_wire_param *p = &f->params[k];
        uint64_t raw = vals[k];
        switch (p->fixed) {
        case BCW_FIXED_STRING:
            if (p->kind != BCW_PK_BUFFER)
                raw = (uint64_t)(uintptr_t)plan_string(p->value);
            break;
        case BCW_FIXED_SYMBOL:
            raw = (uint64_t)(uintptr_t)bcw_unit_symtab[p->value];
            break;
        case BCW_FIXED_CLOSURE:
            closures[fi][k]->calls = 0;
            raw = (uint64_t)(uintptr_t)closures[fi][k]->code;
            break;
        case BCW_FIXED_CUSTOM:
            if (p->kind == BCW_PK_STRING) {
                /* the generator's string, or its NULL */
                size_t len = strs[k] ? strlen(strs[k]) + 1 : 0;
                raw = strs[k] ? (uint64_t)(uintptr_t)memcpy(arena_alloc(len),
                                                            strs[k], len)
                              : 0;
            }
            break;
        default:
            break;
        }
        bool made =
            (p->fixed == BCW_FIXED_STRING && p->kind != BCW_PK_BUFFER) ||
            p->fixed == BCW_FIXED_SYMBOL || p->fixed == BCW_FIXED_CLOSURE ||
            p->fixed == BCW_FIXED_UNIT_CTOR ||
            (p->fixed == BCW_FIXED_CUSTOM && p->kind == BCW_PK_STRING);
        switch (made ? BCW_PK_NONE : p->kind) {
        case BCW_PK_UNIT:
            raw = (uint64_t)(uintptr_t)target;
            break;
        case BCW_PK_UNIT_DEREF:
            raw = (uint64_t)(uintptr_t) * (void **)target;
            break;
        case BCW_PK_STRING: {
            const char *s = bcw_gen_strings[raw];
            size_t len = strlen(s) + 1;
            raw = (uint64_t)(uintptr_t)memcpy(arena_alloc(len), s, len);
            break;
        }
        case BCW_PK_ELEMENT: {
            char *cell = cells[raw % CELLS];
            memcpy(cell, &raw, sizeof raw);
            raw = (uint64_t)(uintptr_t)cell;
            break;
        }
        case BCW_PK_OUT:
        case BCW_PK_SCRATCH:
        case BCW_PK_UNIT_REF:
        case BCW_PK_UNIT_OUT:
            outs[k] = arena_alloc(p->size ? p->size : 8);
            raw = (uint64_t)(uintptr_t)outs[k];
            break;
        case BCW_PK_BUFFER: {
            /* as long as its length says, up to MAX_BUFFER; distinct
             * printable bytes, so reads of them are observable */
            uint64_t n = p->size;
            if (p->pair >= 0 && p->pair < f->nparams && vals[p->pair] > n)
                n = vals[p->pair] < MAX_BUFFER ? vals[p->pair] : MAX_BUFFER;
            /* a permutation's content (--permute) first */
            const char *content = "";
            size_t clen = 0;
            if (p->fixed == BCW_FIXED_STRING && p->value >= 0 &&
                (uint64_t)p->value < shm->nstrings) {
                content = shm->strings + p->value;
                clen = strnlen(content, shm->nstrings - (size_t)p->value);
            }
            if (clen > n)
                n = clen;
            char *b = arena_alloc(n);
            for (uint64_t j = 0; j < n; j++)
                b[j] = j < clen ? content[j] : (char)('a' + j % 26);
            if (report != NULL)
                report[k] = n;
            raw = (uint64_t)(uintptr_t)b;
            break;
        }
        default:
            break;
        }
        vals[k] = raw;
        avalues[k] = &vals[k];
        /* a value computed from the object is reported as passed */
        if (report != NULL && p->fixed == BCW_FIXED_BOUNDS)
            report[k] = raw;
    }
    uint64_t raw = 0;
    shm->cur_call = cur_call;
    shm->heartbeat++;
    seq_calls++;
    if (shm->use_ffi)
        raw = call_ffi(fi, f, avalues);
    else
        bcw_unit_stubs[f->sym](vals, &raw);
    return raw;
}

/* Plan entries whose arguments are only the object and generated or
 * fixed scalars, whose result is no handle and no new object: the common
 * call, made by run_simple without invoke's general machinery. */
static uint8_t simple[BCW_MAX_FUNCS];

static int is_simple(const bcw_wire_func *f)
{
    if (f->role == BCW_ROLE_CONSTRUCTOR || (f->flags & BCW_WIRE_REBINDS) ||
        f->ret.fixed != 0)
        return 0;
    for (unsigned k = 0; k < f->nparams; k++) {
        const bcw_wire_param *p = &f->params[k];
        int scalar = p->kind == BCW_PK_INT || p->kind == BCW_PK_ENUM ||
                     p->kind == BCW_PK_BOOL || p->kind == BCW_PK_CHAR ||
                     p->kind == BCW_PK_FLOAT || p->kind == BCW_PK_LENGTH;
        if (!(p->kind == BCW_PK_UNIT && p->fixed == 0) &&
            !(scalar && (p->fixed == 0 || p->fixed == BCW_FIXED_VALUE)))
            return 0;
    }
    return 1;
}

/* run_call for a simple entry. */
static void run_simple(unsigned fi, bcw_gen *g, bcw_wire_result *r, int last)
{
    const bcw_wire_func *f = &shm->funcs[fi];
    uint64_t vals[BCW_MAX_PARAMS];
    for (unsigned k = 0; k < f->nparams; k++) {
        const bcw_wire_param *p = &f->params[k];
        vals[k] = p->kind == BCW_PK_UNIT ? (uint64_t)(uintptr_t)target
                  : p->fixed             ? (uint64_t)p->value
                                         : bcw_gen_next(g, p->kind, p->abi);
    }
    uint64_t raw = 0;
    shm->cur_call = cur_call;
    shm->heartbeat++;
    seq_calls++;
    if (shm->use_ffi) {
        void *avalues[BCW_MAX_PARAMS];
        for (unsigned k = 0; k < f->nparams; k++)
            avalues[k] = &vals[k];
        raw = call_ffi(fi, f, avalues);
    } else {
        bcw_unit_stubs[f->sym](vals, &raw);
    }
    /* pointer results are numbered on every call (see run_call) */
    uint64_t ret =
        f->ret.abi == BCW_ABI_PTR ? canon_pointer((void *)(uintptr_t)raw) : raw;
    if (last)
        r->ret = ret;
}

/* Makes one call of plan entry `fi`, recording into `r` if `last`. */
static void run_call(unsigned fi, bcw_gen *g, bcw_wire_result *r, int last)
{
    if (simple[fi]) {
        run_simple(fi, g, r, last);
        return;
    }
    const bcw_wire_func *f = &shm->funcs[fi];
    void *outs[BCW_MAX_PARAMS] = {0};
    uint64_t raw = invoke(fi, g, outs, last ? r->out : NULL);
    if (f->ret.fixed == BCW_FIXED_HANDLE)
        handles[f->ret.value] = (void *)(uintptr_t)raw;
    if (f->role == BCW_ROLE_CONSTRUCTOR) {
        target = (void *)(uintptr_t)raw;
        /* int t_open(..., T **out): the unit comes back in the cell */
        for (unsigned k = 0; k < f->nparams; k++)
            if (f->params[k].kind == BCW_PK_UNIT_OUT)
                target = *(void **)outs[k];
    }
    if ((f->flags & BCW_WIRE_REBINDS) && raw != 0)
        target = (void *)(uintptr_t)raw;
    /* every call's pointers are numbered, not only the reported last
     * call's: ptr#k then names the same pointer in a sequence and in its
     * extensions, which show it as a handle argument */
    uint64_t ret =
        f->ret.abi == BCW_ABI_PTR ? canon_pointer((void *)(uintptr_t)raw) : raw;
    for (unsigned k = 0; k < f->nparams; k++) {
        uint64_t out = 0;
        if (f->params[k].fixed == BCW_FIXED_CLOSURE)
            out = closures[fi][k]->calls;
        else if (f->params[k].kind == BCW_PK_OUT)
            out = f->params[k].pointee == BCW_ABI_PTR
                      ? canon_pointer(*(void **)outs[k])
                      : read_scalar(outs[k], f->params[k].pointee);
        else
            continue; /* invoke reported it, or nothing to report */
        if (last)
            r->out[k] = out;
    }
    if (last)
        r->ret = ret;
}

/* Reads a term of a bitcode predicate from the object; 0 when it is
 * behind a pointer that does not lead into a live block. */
static int read_term(const bcw_wire_term *t, int64_t *out)
{
    if (t->kind != BCW_TERM_FIELD) {
        *out = t->kind == BCW_TERM_CONST ? t->value : 0;
        return 1;
    }
    const char *base = target;
    size_t n = (t->bits + 7u) / 8u;
    if (n == 0 || n > 8 || t->offset > (1u << 16))
        return 0;
    if (t->via >= 0) {
        const char *p;
        memcpy(&p, base + t->via, sizeof p);
        if (p == NULL || !bcw_rt_alloc_live(p + t->offset, n))
            return 0;
        base = p;
    }
    uint64_t v = 0;
    memcpy(&v, base + t->offset, n);
    *out = sext(v, t->bits);
    return 1;
}

/* The design-state predicates on the object the sequence left, into r
 * (preds, known).  Interface predicates are calls of the observer. */
static void eval_pred(bcw_wire_result *r, uint32_t i);

static void eval_preds(bcw_wire_result *r)
{
    int alive = (char *)target >= unit_storage &&
                (char *)target < unit_storage + sizeof unit_storage;
    if (!alive && !bcw_rt_alloc_live(target, 1))
        return; /* the sequence freed its object: no state */
    for (uint32_t i = 0; i < shm->npreds && i < BCW_MAX_PREDS; i++)
        eval_pred(r, i);
}

/* Predicate i into r; its own function, so a halt in an interface
 * predicate (siglongjmp back here) clobbers nothing of the caller's. */
static void eval_pred(bcw_wire_result *r, uint32_t i)
{
    const bcw_wire_pred *p = &shm->preds[i];
    volatile int value = 0, known = 0;
    if (p->interface) {
        const bcw_wire_func *f = &shm->funcs[p->func];
        uint64_t args[BCW_MAX_PARAMS] = {(uint64_t)(uintptr_t)target};
        uint64_t raw = 0;
        if (sigsetjmp(bcw_rt_land.pred_env, 0) == 0) {
            bcw_rt_land.in_pred = 1;
            bcw_unit_stubs[f->sym](args, &raw);
            bcw_rt_land.in_pred = 0;
            value = (raw & 0xff) != 0;
            known = 1;
        }
    } else {
        int64_t l, rr;
        if (read_term(&p->l, &l) && read_term(&p->r, &rr)) {
            known = 1;
            switch ((enum bcw_cmp)p->op) {
            case BCW_CMP_EQ:
                value = l == rr;
                break;
            case BCW_CMP_SLT:
                value = l < rr;
                break;
            case BCW_CMP_SLE:
                value = l <= rr;
                break;
            case BCW_CMP_ULT:
                value = (uint64_t)l < (uint64_t)rr;
                break;
            case BCW_CMP_ULE:
                value = (uint64_t)l <= (uint64_t)rr;
                break;
            }
        }
    }
    r->preds |= (uint32_t)value << i;
    r->known |= (uint32_t)known << i;
}

/* The concrete state's hash now (rt_state.c), or 0. */
static uint64_t state_now(void)
{
    if (arena_spans_lost)
        return 0; /* pointers into the arena could not be followed */
    bcw_rt_roots roots = {.target = target,
                          .unit = unit_storage,
                          .unit_size = shm->unit_size,
                          .globals = __start_bcw_globals,
                          .globals_size = globals_size,
                          .cells = &cells[0][0],
                          .cells_size = sizeof cells,
                          .cell_size = CELL_SIZE,
                          .arena = arena_spans,
                          .narena = narena_spans,
                          .handles = handles,
                          .nhandles = nhandle_types};
    return bcw_rt_state_hash(&roots);
}

/* Fills r's state and key after a normal sequence's last call.  (The
 * state before the last call is its prefix's, which the parent has from
 * the prefix's own run: it checks observers with it.) */
static void record_state(bcw_wire_result *r, const bcw_gen *g)
{
    uint64_t h = state_now();
    if (h == 0)
        return;
    r->state = h;
    /* what the master generator draws next decides the next arguments */
    uint64_t k = bcw_rt_state_mix(h, g->ints | (uint64_t)g->chars << 32);
    k = bcw_rt_state_mix(k, g->bools | (uint64_t)g->floats << 32);
    k = bcw_rt_state_mix(k, g->strings | (uint64_t)g->objs << 32);
    r->key = k != 0 ? k : 1;
}

/* Runs sequence `i` of the batch from scratch. */
static void run_seq(uint32_t i)
{
    const uint16_t *w = &shm->seqs[shm->off[i]];
    static uint32_t len;
    static int check;
    len = w[0] & BCW_SEQ_LEN_MASK;
    check = (w[0] & BCW_SEQ_CHECK_OBSERVER) != 0;
    bcw_wire_result *r = &shm->results[i];
    memset(r, 0, sizeof *r);
    shm->cur = i;
    target = NULL;
    nothers = 0;
    memset(handles, 0, sizeof handles);
    arena_used = 0;
    narena_spans = 0;
    arena_spans_lost = 0;
    seq_calls = 0;
    cur_call = 0;
    if (globals_size > 0)
        memcpy(__start_bcw_globals, globals_copy, globals_size);
    static bcw_gen g;
    memset(&g, 0, sizeof g);
    bcw_rt_custom_reset();
    if (sigsetjmp(bcw_rt_land.seq_env, 0) != 0) {
        r->outcome = (uint8_t)bcw_rt_land.outcome;
        r->signo = (uint8_t)bcw_rt_land.signo;
        r->halted_at = (uint16_t)cur_call;
        r->calls = seq_calls;
        bcw_rt_alloc_reset();
        return;
    }
    bcw_rt_land.in_seq = 1;
    unsigned ctor = w[1];
    if (shm->funcs[ctor].role == BCW_ROLE_INIT_CONSTRUCTOR ||
        shm->funcs[ctor].role == BCW_ROLE_EMPTY) {
        memset(unit_storage, 0, shm->unit_size);
        target = unit_storage;
    }
    /* an empty cell is made by no call: it is NULL */
    if (shm->funcs[ctor].role != BCW_ROLE_EMPTY)
        run_call(ctor, &g, r, len == 0);
    if (target == NULL) {
        /* a constructor that gives no object rejects its arguments */
        bcw_rt_land.in_seq = 0;
        r->outcome = BCW_RUN_REJECTED;
        r->calls = seq_calls;
        bcw_rt_alloc_reset();
        return;
    }
    static uint64_t before;
    before = 0;
    for (cur_call = 1; cur_call <= len; cur_call++) {
        unsigned fi = w[1 + cur_call];
        /* an observer last: the state before it, hashed in this run (a
         * prefix's own run may differ: time, randomness) */
        if (cur_call == len && check &&
            (shm->funcs[fi].flags & BCW_WIRE_OBSERVER) &&
            (shm->state_flags & BCW_STATE_HASH))
            before = state_now();
        run_call(fi, &g, r, cur_call == len);
    }
    /* the state the sequence left, before predicates call anything */
    if (shm->state_flags & BCW_STATE_HASH) {
        record_state(r, &g);
        if (before != 0 && r->state != 0 && before != r->state)
            r->flags |= BCW_RESULT_OBSERVER_CHANGED;
    }
    if (shm->state_flags & BCW_STATE_PREDS)
        eval_preds(r);
    if (shm->destructor >= 0) {
        static bcw_wire_result scratch;
        run_call((unsigned)shm->destructor, &g, &scratch, 0);
    }
    bcw_rt_land.in_seq = 0;
    r->calls = seq_calls;
    bcw_rt_alloc_reset();
}

static int setup(void)
{
    shm = mmap(NULL, sizeof *shm, PROT_READ | PROT_WRITE, MAP_SHARED,
               BCW_FD_SHM, 0);
    if (shm == MAP_FAILED || shm->magic != BCW_SHM_MAGIC ||
        shm->version != BCW_PROTO_VERSION || shm->nfuncs > BCW_MAX_FUNCS ||
        shm->unit_size > sizeof unit_storage ||
        shm->npool > BCW_MAX_PLAN_NODES || shm->npreds > BCW_MAX_PREDS)
        return -1;
    for (uint32_t i = 0; i < shm->npreds; i++)
        if (shm->preds[i].interface &&
            (shm->preds[i].func >= shm->nfuncs ||
             shm->funcs[shm->preds[i].func].sym >= bcw_unit_nsyms))
            return -1;
    for (uint32_t i = 0; i < shm->nfuncs; i++) {
        const bcw_wire_func *f = &shm->funcs[i];
        if ((f->role != BCW_ROLE_EMPTY && f->sym >= bcw_unit_nsyms) ||
            f->nparams > BCW_MAX_PARAMS)
            return -1;
        for (unsigned k = 0; k < f->nparams; k++) {
            const bcw_wire_param *p = &f->params[k];
            argtypes[i][k] = ffi_of((enum bcw_abi)p->abi);
            bool handle = p->fixed == BCW_FIXED_HANDLE ||
                          p->fixed == BCW_FIXED_HANDLE_OR_NULL;
            /* another unit's constructor, itself made of generated
             * values only */
            bool ctor = p->fixed == BCW_FIXED_UNIT_CTOR;
            if (ctor && (p->value < 0 || p->value >= shm->nfuncs ||
                         shm->funcs[p->value].role != BCW_ROLE_CONSTRUCTOR))
                return -1;
            for (unsigned j = 0; ctor && j < shm->funcs[p->value].nparams; j++)
                if (shm->funcs[p->value].params[j].fixed != 0)
                    return -1;
            if ((handle && (p->value < 0 || p->value >= BCW_MAX_HANDLES)) ||
                (p->fixed == BCW_FIXED_SYMBOL &&
                 (p->value < 0 || p->value >= bcw_unit_nsyms)) ||
                (p->fixed == BCW_FIXED_CLOSURE && make_closure(i, k) < 0))
                return -1;
        }
        if (f->ret.fixed == BCW_FIXED_HANDLE &&
            (f->ret.value < 0 || f->ret.value >= BCW_MAX_HANDLES))
            return -1;
        if (f->ret.fixed == BCW_FIXED_HANDLE &&
            (unsigned)f->ret.value + 1 > nhandle_types)
            nhandle_types = (unsigned)f->ret.value + 1;
        simple[i] = (uint8_t)is_simple(f);
        if (ffi_prep_cif(&cifs[i], FFI_DEFAULT_ABI, f->nparams,
                         ffi_of((enum bcw_abi)f->ret.abi),
                         argtypes[i]) != FFI_OK)
            return -1;
    }
    uintptr_t gstart = (uintptr_t)__start_bcw_globals;
    uintptr_t gstop = (uintptr_t)__stop_bcw_globals;
    if (gstart != 0 && gstop > gstart) {
        globals_size = (size_t)(gstop - gstart);
        globals_copy = malloc(globals_size);
        if (globals_copy == NULL)
            return -1;
        memcpy(globals_copy, __start_bcw_globals, globals_size);
    }
    if (bcw_rt_custom_setup(shm) < 0)
        return -1;
    /* fatal signals run on their own stack: a stack overflow in the code
     * under test must still be recorded */
    static char altstack[1 << 16];
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal;
    sa.sa_flags = SA_ONSTACK | SA_NODEFER;
    int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS};
    for (size_t k = 0; k < sizeof fatal / sizeof fatal[0]; k++)
        sigaction(fatal[k], &sa, NULL);
    return 0;
}

int main(void)
{
    if (setup() < 0)
        return BCW_EXIT_SETUP;
    put32(BCW_MSG_HELLO | BCW_PROTO_VERSION);
    for (;;) {
        uint32_t cmd;
        ssize_t n = read(BCW_FD_CMD, &cmd, sizeof cmd);
        if (n < 0 && errno == EINTR)
            continue;
        if (n != sizeof cmd || cmd == BCW_CMD_QUIT)
            return 0;
        if (cmd != BCW_CMD_RUN || shm->nseq > BCW_MAX_BATCH)
            return BCW_EXIT_SETUP;
        for (uint32_t i = shm->first; i < shm->nseq; i++)
            run_seq(i);
        put32(BCW_MSG_DONE);
    }
}
