/* rt_state.c - the hash of a sequence's concrete state: the memory
 * reachable from the unit's object, the derived handles given out and
 * the unit's globals, with pointers canonicalised by visit order.
 *
 * Memory is a set of spans: the live blocks of the code under test
 * (rt_alloc.c), this sequence's arena allocations (strings, buffers,
 * out-parameters), the static storage of an init constructor's object
 * and the bcw_globals section.  The traversal starts at the span holding
 * the target (visit 0), then the handles, then the globals, and goes on
 * breadth first: each span's size and kind, then its bytes as 8-byte
 * words.  A word pointing into a span (one past its end included)
 * becomes MARK, the span's visit number and the offset, and queues the
 * span if it was not reached yet; a word pointing into the element cells
 * becomes CELL and its offset (Obj#k is the same in every worker); one
 * into a block freed during the sequence (a dangling pointer) becomes
 * FREED and its offset, the block not followed; any other word is
 * hashed as it is.  So two states are equal when their
 * reachable memory has the same shape and the same bytes, wherever libc
 * put the blocks.  docs/worker-protocol.md says where that is
 * conservative and where it is blind. */
#include "rt_state.h"

#include <stdlib.h>
#include <string.h>

enum { SPAN_HEAP = 1, SPAN_FREED, SPAN_ARENA, SPAN_UNIT, SPAN_GLOBALS };

/* precede a canonical pointer, so it cannot be read as two data words */
#define MARK 0x6263772d70747221ull  /* "bcw-ptr!" */
#define CELL 0x6263772d63656c6cull  /* "bcw-cell" */
#define FREED 0x6263772d66726565ull /* "bcw-free" */
#define SEED 0x6263772d73746174ull  /* "bcw-stat" */

static bcw_rt_span *spans;
static size_t nspans, capspans;
static uint32_t *queue;
static size_t nqueue;
static uintptr_t lo, hi; /* the spans' extent: a quick "not a pointer" */

static inline uint64_t mix(uint64_t h, uint64_t w)
{
    h = (h ^ w) * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 29);
}

uint64_t bcw_rt_state_mix(uint64_t h, uint64_t word)
{
    return mix(h, word);
}

/* splitmix64's finaliser: every input bit reaches every output bit */
static uint64_t finish(uint64_t h)
{
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebull;
    h ^= h >> 31;
    return h != 0 ? h : 1; /* 0 means "not computed" */
}

static int grow(size_t n)
{
    if (n <= capspans)
        return 0;
    size_t cap = capspans ? capspans : 64;
    while (cap < n)
        cap *= 2;
    bcw_rt_span *s = realloc(spans, cap * sizeof *s);
    if (s == NULL)
        return -1;
    spans = s;
    uint32_t *q = realloc(queue, cap * sizeof *q);
    if (q == NULL)
        return -1;
    queue = q;
    capspans = cap;
    return 0;
}

static int add(uintptr_t start, size_t size, uint32_t kind)
{
    if (grow(nspans + 1) < 0)
        return -1;
    spans[nspans++] = (bcw_rt_span){start, size, kind, 0};
    return 0;
}

static int by_start(const void *a, const void *b)
{
    uintptr_t x = ((const bcw_rt_span *)a)->start;
    uintptr_t y = ((const bcw_rt_span *)b)->start;
    return x < y ? -1 : x > y;
}

/* Collects and sorts the spans; -1 when out of memory. */
static int gather(const bcw_rt_roots *r)
{
    nspans = 0;
    for (;;) {
        size_t n = bcw_rt_alloc_spans(spans, capspans);
        if (n <= capspans) {
            nspans = n;
            break;
        }
        if (grow(n) < 0)
            return -1;
    }
    for (size_t i = 0; i < nspans; i++)
        spans[i].kind = spans[i].kind ? SPAN_FREED : SPAN_HEAP;
    for (size_t i = 0; i < r->narena; i++)
        if (add(r->arena[i].start, r->arena[i].size, SPAN_ARENA) < 0)
            return -1;
    const char *t = r->target;
    if (r->unit != NULL && t >= r->unit && t < r->unit + r->unit_size &&
        add((uintptr_t)r->unit, r->unit_size, SPAN_UNIT) < 0)
        return -1;
    if (r->globals_size > 0 &&
        add((uintptr_t)r->globals, r->globals_size, SPAN_GLOBALS) < 0)
        return -1;
    /* blocks come newest first: small sets are nearly reversed */
    if (nspans <= 32) {
        for (size_t i = 1; i < nspans; i++) {
            bcw_rt_span s = spans[i];
            size_t j = i;
            for (; j > 0 && spans[j - 1].start > s.start; j--)
                spans[j] = spans[j - 1];
            spans[j] = s;
        }
    } else {
        qsort(spans, nspans, sizeof *spans, by_start);
    }
    lo = nspans ? spans[0].start : 1;
    hi = nspans ? spans[nspans - 1].start + spans[nspans - 1].size : 0;
    return 0;
}

/* The span holding address v (one past its end included), or -1: the
 * last span starting at or before v. */
static long find(uintptr_t v)
{
    if (v < lo || v > hi)
        return -1;
    size_t a = 0, b = nspans; /* the answer is below b */
    while (b - a > 1) {
        size_t m = a + (b - a) / 2;
        if (spans[m].start <= v)
            a = m;
        else
            b = m;
    }
    if (spans[a].start > v || v - spans[a].start > spans[a].size)
        return -1;
    return (long)a;
}

static uint32_t visit(size_t i)
{
    if (spans[i].visit == 0) {
        spans[i].visit = (uint32_t)nqueue + 1;
        queue[nqueue++] = (uint32_t)i;
    }
    return spans[i].visit - 1;
}

/* Mixes word w, canonical if it points into a span or a cell. */
static inline uint64_t word(uint64_t h, uint64_t w, const bcw_rt_roots *r)
{
    uintptr_t c = (uintptr_t)r->cells;
    /* most words are data: small numbers, fill bytes */
    if ((w < lo || w > hi) && (w < c || w - c >= r->cells_size))
        return mix(h, w);
    long i = find((uintptr_t)w);
    if (i >= 0 && spans[i].kind == SPAN_FREED) {
        h = mix(h, FREED);
        return mix(h, w - spans[i].start);
    }
    if (i >= 0) {
        h = mix(h, MARK);
        h = mix(h, visit((size_t)i));
        return mix(h, w - spans[i].start);
    }
    if (w >= c && w - c < r->cells_size) {
        h = mix(h, CELL);
        return mix(h, w - c);
    }
    return mix(h, w);
}

/* Mixes the n bytes at p as a partial word (never a pointer). */
static uint64_t bytes(uint64_t h, const char *p, size_t n)
{
    uint64_t w = 0;
    memcpy(&w, p, n);
    return mix(h, w ^ ((uint64_t)n << 56));
}

static uint64_t span_hash(uint64_t h, const bcw_rt_span *s,
                          const bcw_rt_roots *r)
{
    const char *p = (const char *)s->start;
    size_t n = s->size;
    h = mix(h, ((uint64_t)s->kind << 56) ^ n);
    /* pointers sit at 8-byte aligned addresses */
    size_t lead = (size_t)(-(uintptr_t)p & 7u);
    if (lead > n)
        lead = n;
    if (lead > 0)
        h = bytes(h, p, lead);
    size_t i = lead;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, sizeof w);
        h = word(h, w, r);
    }
    if (i < n)
        h = bytes(h, p + i, n - i);
    return h;
}

uint64_t bcw_rt_state_hash(const bcw_rt_roots *r)
{
    if (r->target == NULL || gather(r) < 0)
        return 0;
    nqueue = 0;
    long root = find((uintptr_t)r->target);
    /* the object must be memory we know: not freed, not libc's */
    if (root < 0 || spans[root].kind == SPAN_ARENA ||
        spans[root].kind == SPAN_FREED ||
        (uintptr_t)r->target == spans[root].start + spans[root].size)
        return 0;
    uint64_t h = SEED;
    visit((size_t)root);
    h = mix(h, (uintptr_t)r->target - spans[root].start);
    for (unsigned k = 0; k < r->nhandles; k++)
        h = word(h, (uint64_t)(uintptr_t)r->handles[k], r);
    long g = r->globals_size > 0 ? find((uintptr_t)r->globals) : -1;
    if (g >= 0)
        visit((size_t)g);
    for (size_t q = 0; q < nqueue; q++)
        h = span_hash(h, &spans[queue[q]], r);
    return finish(h);
}
