/* rt_bounds.c - values computed from the live object (rt_bounds.h): the
 * plan's expression nodes evaluated on the object, the boundary value of
 * a category bounded by its fields, and the value a category mixing the
 * parameter with fields is solved for. */
#include "rt_bounds.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

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

int64_t bcw_rt_bounds_sext(uint64_t v, unsigned bits)
{
    return sext(v, bits);
}

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

/* Does a node of this op read its operand a, its operand b? */
static bool reads_a(unsigned op)
{
    return op > BCW_C_ARG;
}

static bool reads_b(unsigned op)
{
    return (op >= BCW_C_ADD && op <= BCW_C_ASHR) || op == BCW_C_ICMP;
}

/* The value of leaf n, a BCW_C_FIELD or BCW_C_ARG node, unmasked. */
static inline uint64_t leaf(const bcw_rt_worker *w, const bcw_cnode *n)
{
    uint64_t v = 0;
    if (n->op == BCW_C_ARG) {
        /* an earlier parameter: the value this call passes it */
        if (n->value >= 0 && (uint64_t)n->value < w->nsolving_args)
            v = w->solving_args[n->value];
    } else if (w->target != NULL && n->value >= 0 &&
               (uint64_t)n->value + (n->bits + 7) / 8 <= 4096) {
        /* a field of the object: target's memory, the unit's size; the
         * usual widths loaded as such (bytes stored one by one into v
         * and read back as a word stall the CPU) */
        const char *at = (const char *)w->target + n->value;
        unsigned size = (n->bits + 7) / 8;
        if (size == 8) {
            memcpy(&v, at, 8);
        } else if (size == 4) {
            uint32_t x;
            memcpy(&x, at, 4);
            v = x;
        } else if (size == 2) {
            uint16_t x;
            memcpy(&x, at, 2);
            v = x;
        } else {
            memcpy(&v, at, size);
        }
    }
    return v;
}

/* The value of expression node i of the pool on the unit's object.
 * Operands always come before their node (the model loader checks), and
 * the depth is bounded besides. */
static uint64_t eval(const bcw_rt_worker *w, uint32_t i, int depth)
{
    const bcw_shm *shm = w->shm;
    if (depth > 64 || i >= shm->npool)
        return 0;
    const bcw_cnode *n = &shm->pool[i];
    uint64_t a = 0, b = 0, v = 0;
    if (reads_a(n->op))
        a = eval(w, n->a, depth + 1);
    if (reads_b(n->op))
        b = eval(w, n->b, depth + 1);
    unsigned abits =
        reads_a(n->op) && n->a < shm->npool ? shm->pool[n->a].bits : 64;
    switch ((enum bcw_cop)n->op) {
    case BCW_C_PARAM:
        v = w->solving_x; /* the candidate being tried */
        break;
    case BCW_C_ARG:
    case BCW_C_FIELD:
        v = leaf(w, n);
        break;
    case BCW_C_ICMP:
        v = compare(n->pred, a, b, abits);
        break;
    case BCW_C_CONST:
        v = (uint64_t)n->value;
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
    case BCW_C_SREM: {
        int64_t sa = sext(a, n->bits), sb = sext(b, n->bits);
        /* by -1: x / -1 is -x, wrapping as LLVM's sdiv does, for the CPU
         * traps on INT64_MIN / -1 (and INT64_MIN % -1) */
        if (sb == 0)
            v = 0;
        else if (sb == -1)
            v = n->op == BCW_C_SDIV ? -(uint64_t)sa : 0;
        else
            v = n->op == BCW_C_SDIV ? (uint64_t)(sa / sb) : (uint64_t)(sa % sb);
        break;
    }
    case BCW_C_UDIV:
        v = b ? a / b : 0;
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

/* Node i's value as a signed number that does not wrap: a bound over a
 * signed parameter (amount <= balance + limit) means the sum, not what
 * 64 bits make of it.  Sums, differences, products and sign extensions
 * are computed wide; the rest as eval() does. */
static __int128 wide(const bcw_rt_worker *w, uint32_t i, int depth)
{
    const bcw_shm *shm = w->shm;
    if (depth > 64 || i >= shm->npool)
        return 0;
    const bcw_cnode *n = &shm->pool[i];
    const __int128 big = (__int128)1 << 63;
    switch ((enum bcw_cop)n->op) {
    case BCW_C_ADD:
        return wide(w, n->a, depth + 1) + wide(w, n->b, depth + 1);
    case BCW_C_SUB:
        return wide(w, n->a, depth + 1) - wide(w, n->b, depth + 1);
    case BCW_C_MUL: {
        /* within +-2^63 each, the product fits */
        __int128 a = wide(w, n->a, depth + 1), b = wide(w, n->b, depth + 1);
        a = a > big ? big : a < -big ? -big : a;
        b = b > big ? big : b < -big ? -big : b;
        return a * b;
    }
    case BCW_C_SEXT:
        return wide(w, n->a, depth + 1);
    default:
        return sext(eval(w, i, depth), n->bits);
    }
}

/* An ordinary value of [lo, hi], not an extreme: its middle, but no
 * further from zero than 100 when the range reaches that far (the
 * middle of a range up to INT64_MAX is no ordinary amount), else at most
 * 100 in from its end nearer zero; a wide range holding 0, 0. */
static int64_t ordinary(int64_t lo, int64_t hi)
{
    uint64_t half = ((uint64_t)hi - (uint64_t)lo) / 2;
    uint64_t in = half < 100 ? half : 100;
    if (lo >= 0)
        return lo <= 100 ? (int64_t)((uint64_t)lo + half) < 100
                               ? (int64_t)((uint64_t)lo + half)
                               : 100
                         : (int64_t)((uint64_t)lo + in);
    if (hi <= 0)
        return hi >= -100 ? (int64_t)((uint64_t)hi - half) > -100
                                ? (int64_t)((uint64_t)hi - half)
                                : -100
                          : (int64_t)((uint64_t)hi - in);
    return half <= 100 ? (int64_t)((uint64_t)lo + half) : 0;
}

/* Does candidate x meet every HOLDS/FAILS literal of p's category? */
static int meets(bcw_rt_worker *w, const bcw_wire_param *p, uint64_t x)
{
    const bcw_shm *shm = w->shm;
    w->solving_x = x;
    for (uint32_t i = 0; i < p->nbounds; i++) {
        uint32_t at = p->bounds + i;
        if (at >= shm->npool)
            return 0;
        const bcw_cnode *lit = &shm->pool[at];
        if ((eval(w, lit->a, 0) != 0) != (lit->op == BCW_C_HOLDS))
            return 0;
    }
    return 1;
}

/* Where literal `lit` changes its truth between lo and hi (it differs
 * at the two ends), assuming it changes once: the first x at which it
 * has hi's truth, by bisection on the signed or unsigned order. */
static uint64_t threshold(bcw_rt_worker *w, const bcw_cnode *lit, uint64_t lo,
                          uint64_t hi, int is_signed, unsigned bits)
{
    w->solving_x = hi;
    uint64_t want = eval(w, lit->a, 0) != 0;
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
        w->solving_x = mid;
        if ((eval(w, lit->a, 0) != 0) == want)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

/* Adds to cand the points in [lo, hi] where a condition of `p` changes
 * (found by bisection), each with its neighbours. */
static unsigned thresholds(bcw_rt_worker *w, const bcw_wire_param *p,
                           uint64_t lo, uint64_t hi, uint64_t *cand, unsigned n,
                           unsigned max)
{
    unsigned bits = bcw_abi_bits((enum bcw_abi)p->abi);
    int is_signed = bcw_abi_signed((enum bcw_abi)p->abi);
    for (uint32_t i = 0; i < p->nbounds && n + 3 <= max; i++) {
        const bcw_cnode *lit = &w->shm->pool[p->bounds + i];
        w->solving_x = lo;
        uint64_t at_lo = eval(w, lit->a, 0) != 0;
        w->solving_x = hi;
        if ((eval(w, lit->a, 0) != 0) == at_lo)
            continue;
        uint64_t t = threshold(w, lit, lo, hi, is_signed, bits);
        cand[n++] = t;
        cand[n++] = mask(t - 1, bits);
        cand[n++] = mask(t + 1, bits);
    }
    return n;
}

/* The candidate nearest 1 that meets p's conditions, or 1 (*found
 * false). */
static uint64_t nearest(bcw_rt_worker *w, const bcw_wire_param *p,
                        const uint64_t *cand, unsigned n, bool *found)
{
    unsigned bits = bcw_abi_bits((enum bcw_abi)p->abi);
    int is_signed = bcw_abi_signed((enum bcw_abi)p->abi);
    uint64_t best = 1, dist = UINT64_MAX;
    for (unsigned i = 0; i < n; i++) {
        /* |v - 1|, in unsigned arithmetic: 1 - INT64_MIN overflows */
        int64_t v = is_signed ? sext(cand[i], bits) : (int64_t)cand[i];
        uint64_t d = is_signed ? (v >= 1 ? (uint64_t)v - 1 : 1 - (uint64_t)v)
                               : (cand[i] >= 1 ? cand[i] - 1 : 1);
        if (d < dist && meets(w, p, cand[i])) {
            best = cand[i];
            dist = d;
        }
    }
    *found = dist != UINT64_MAX;
    return best;
}

/* A category whose conditions mix the parameter with the object's fields
 * or earlier parameters (len + b->len >= b->cap): the value nearest 1
 * that meets them on the object as it is now, among 1, 0, -1 and the
 * points where each condition changes (found by bisection over the
 * small values and the rest: for signed parameters the non-negative and
 * the negative half, for unsigned ones the lowest quarter and, only when
 * nothing there meets them, above it, where `index + length` wraps); 1
 * when none does. */
static uint64_t solve(bcw_rt_worker *w, const bcw_wire_param *p, bool *met)
{
    unsigned bits = bcw_abi_bits((enum bcw_abi)p->abi);
    int is_signed = bcw_abi_signed((enum bcw_abi)p->abi);
    uint64_t cand[3 + 6 * BCW_MAX_TERM_NODES];
    const unsigned max = sizeof cand / sizeof *cand;
    unsigned n = 0;
    uint64_t all = mask((uint64_t)-1, bits);
    cand[n++] = 1;
    cand[n++] = 0;
    if (is_signed)
        cand[n++] = all; /* -1 */
    uint64_t top = is_signed ? mask(~0ull, bits) >> 1 : mask(~0ull, bits) >> 2;
    uint64_t bottom = is_signed ? mask(~top, bits) : 0;
    n = thresholds(w, p, 0, top, cand, n, max);
    if (is_signed)
        n = thresholds(w, p, bottom, all, cand, n, max);
    bool found;
    uint64_t best = nearest(w, p, cand, n, &found);
    *met = found;
    if (found || is_signed)
        return best;
    /* every small value fails: the large ones (a sum that wraps) */
    n = 0;
    cand[n++] = all;
    n = thresholds(w, p, top + 1, all, cand, n, max);
    best = nearest(w, p, cand, n, &found);
    *met = found;
    return found ? best : 1;
}

uint64_t bcw_rt_bounds_value(bcw_rt_worker *w, const bcw_wire_param *p,
                             bool *met)
{
    const bcw_shm *shm = w->shm;
    *met = true;
    if (p->nbounds > 0 && p->bounds < shm->npool &&
        (shm->pool[p->bounds].op == BCW_C_HOLDS ||
         shm->pool[p->bounds].op == BCW_C_FAILS))
        return solve(w, p, met);
    int64_t lo = INT64_MIN, hi = INT64_MAX, v = 0;
    int64_t avoid[BCW_MAX_TERM_NODES];
    unsigned navoid = 0;
    /* an integer parameter's bounds do not wrap: one past its type's
     * range leaves no value (a lower bound above its maximum, an upper
     * one below its minimum: `index < size` on an empty array), or bounds
     * nothing (an upper bound above the maximum); an unsigned one's
     * values from 0, up to INT64_MAX at most */
    enum bcw_abi abi = (enum bcw_abi)p->abi;
    bool is_signed = bcw_abi_signed(abi);
    bool is_int = is_signed || abi == BCW_ABI_U8 || abi == BCW_ABI_U16 ||
                  abi == BCW_ABI_U32 || abi == BCW_ABI_U64;
    unsigned pbits = bcw_abi_bits(abi);
    const __int128 pmax = is_signed || pbits == 64
                              ? ((__int128)1 << 63 >> (64 - pbits)) - 1
                              : ((__int128)1 << pbits) - 1;
    const __int128 pmin = is_signed ? -pmax - 1 : 0;
    if (is_int) {
        lo = (int64_t)pmin;
        hi = (int64_t)pmax;
    }
    for (uint32_t i = 0; i < p->nbounds; i++) {
        uint32_t at = p->bounds + i;
        if (at >= shm->npool)
            break;
        const bcw_cnode *b = &shm->pool[at];
        unsigned bits = b->a < shm->npool ? shm->pool[b->a].bits : 64;
        int64_t x = (int64_t)((uint64_t)sext(eval(w, b->a, 0), bits) +
                              (uint64_t)b->value);
        if (is_int && b->op != BCW_C_UNEQUAL) {
            __int128 wx = wide(w, b->a, 0) + b->value;
            if ((wx > pmax && b->op != BCW_C_UPPER) ||
                (wx < pmin && b->op != BCW_C_LOWER)) {
                *met = false;
                return 0;
            }
            x = (int64_t)(wx > pmax ? pmax : wx < pmin ? pmin : wx);
        }
        if (i == 0) /* x != t: the boundary is just past t (wrapping) */
            v = b->op == BCW_C_UNEQUAL ? (int64_t)((uint64_t)x + 1) : x;
        if (b->op == BCW_C_LOWER && x > lo)
            lo = x;
        else if (b->op == BCW_C_UPPER && x < hi)
            hi = x;
        else if (b->op == BCW_C_EQUAL)
            lo = hi = x;
        else if (b->op == BCW_C_UNEQUAL && navoid < BCW_MAX_TERM_NODES)
            avoid[navoid++] = x;
    }
    if (lo > hi) {
        /* no value of the category on this object */
        *met = false;
        return (uint64_t)v;
    }
    v = p->value == BCW_BOUNDS_ORDINARY ? ordinary(lo, hi)
        : v < lo                        ? lo
        : v > hi                        ? hi
                                        : v;
    /* step off the values x must not take, upwards, then downwards,
     * within the bounds */
    for (int dir = 1; dir >= -1 && navoid > 0; dir -= 2) {
        int64_t x = v;
        for (unsigned tries = 0; tries <= navoid; tries++) {
            unsigned k = 0;
            while (k < navoid && avoid[k] != x)
                k++;
            if (k == navoid)
                return (uint64_t)x;
            if ((dir > 0 && x == hi) || (dir < 0 && x == lo))
                break;
            x += dir;
        }
    }
    *met = navoid == 0;
    return (uint64_t)v;
}

void bcw_rt_bounds_setup(bcw_rt_worker *w, unsigned fi, unsigned k)
{
    const bcw_shm *shm = w->shm;
    const bcw_wire_param *p = &shm->funcs[fi].params[k];
    bcw_rt_leaves *l = &w->leaves[fi][k];
    /* BCW_BOUNDS_MEMO=0: every value solved on its call, as the memo's
     * benchmark compares (benchmarks/bench_bounds.py) */
    const char *memo = getenv("BCW_BOUNDS_MEMO");
    if (memo != NULL && strcmp(memo, "0") == 0) {
        l->n = BCW_RT_BOUNDS_LEAVES + 1;
        return;
    }
    /* every node the bounds reach, depth first, each once */
    uint64_t seen[BCW_MAX_PLAN_NODES / 64] = {0};
    uint32_t stack[BCW_MAX_PLAN_NODES];
    unsigned top = 0;
    l->n = 0;
    for (uint32_t i = 0; i < p->nbounds; i++)
        if (p->bounds + i < shm->npool) {
            stack[top++] = p->bounds + i;
            seen[(p->bounds + i) / 64] |= 1ull << (p->bounds + i) % 64;
        }
    while (top > 0) {
        const bcw_cnode *n = &shm->pool[stack[--top]];
        if (n->op == BCW_C_FIELD || n->op == BCW_C_ARG) {
            if (l->n < BCW_RT_BOUNDS_LEAVES)
                l->node[l->n] = (uint16_t)(n - shm->pool);
            if (l->n <= BCW_RT_BOUNDS_LEAVES)
                l->n++;
        }
        uint32_t next[2] = {reads_a(n->op) ? n->a : UINT32_MAX,
                            reads_b(n->op) ? n->b : UINT32_MAX};
        for (int j = 0; j < 2; j++)
            if (next[j] < shm->npool &&
                !(seen[next[j] / 64] & 1ull << next[j] % 64)) {
                seen[next[j] / 64] |= 1ull << next[j] % 64;
                stack[top++] = next[j];
            }
    }
}

uint64_t bcw_rt_bounds_memo(bcw_rt_worker *w, unsigned fi, unsigned k,
                            bool *met)
{
    const bcw_wire_param *p = &w->shm->funcs[fi].params[k];
    const bcw_rt_leaves *l = &w->leaves[fi][k];
    if (l->n > BCW_RT_BOUNDS_LEAVES)
        return bcw_rt_bounds_value(w, p, met);
    uint16_t id = (uint16_t)(fi * BCW_MAX_PARAMS + k + 1);
    uint64_t key[BCW_RT_BOUNDS_LEAVES];
    uint64_t h = id * 0x9e3779b97f4a7c15ull;
    for (unsigned i = 0; i < l->n; i++) {
        key[i] = leaf(w, &w->shm->pool[l->node[i]]);
        h = (h ^ key[i]) * 0xff51afd7ed558ccdull;
    }
    bcw_rt_memo *e = &w->memo[(h ^ h >> 29) % BCW_RT_BOUNDS_MEMO];
    unsigned same = e->id == id ? 0 : l->n + 1;
    while (same < l->n && e->key[same] == key[same])
        same++;
    if (same == l->n) {
        *met = e->met;
        return e->value;
    }
    uint64_t v = bcw_rt_bounds_value(w, p, met);
    e->id = id;
    e->met = *met;
    e->value = v;
    memcpy(e->key, key, l->n * sizeof *key);
    return v;
}
