/* rt_alloc.c - the allocator the code under test calls: bcwalk renames
 * its malloc, calloc, realloc, free, strdup ... to these when it builds
 * the worker, so every block the unit owns is on one list.  After each
 * sequence the leftovers are freed: the next sequence starts from the
 * same heap, and leaks can be counted.  Blocks freed during a sequence
 * are kept (quarantined, up to QUARANTINE_BYTES) until it ends, so a
 * double free is always seen and a dangling handle can be told apart.
 * New blocks are filled with BCW_RT_FILL_BYTE, not left as libc hands them
 * over: what the code under test reads before it writes, and the bytes
 * it never writes (padding, unused slots), are then the same in every
 * worker, which the state hash (rt_state.c) depends on.  GUARD_BYTES
 * after every block, and the header's last word before it, are checked
 * after each call: a call writing past its block, or before it, is
 * recorded as a heap overflow or underflow, on that call, and the worker
 * restarted before the damage reaches a later sequence. */
#define _GNU_SOURCE
#include "rt_alloc.h"

#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_halt.h"
#include "rt_sanitize.h"

#ifdef BCW_RT_ASAN
#include <sanitizer/asan_interface.h>
#endif

#define LIVE_MAGIC 0x6263772d6c697665ull /* "bcw-live" */
#define DEAD_MAGIC 0x6263772d64656164ull /* "bcw-dead" */
#define KEPT_MAGIC 0x6263772d6b657074ull /* "bcw-kept" */

/* Sits right before every block we hand out, the magic number last; 64
 * bytes keep the block 16-byte aligned as malloc's is.  The calls are
 * the sequence's (0 the constructor) that allocated and freed it, the
 * sites the addresses in the code under test that called the allocator
 * (a halt's cause names them). */
typedef struct block {
    struct block *prev, *next;
    size_t size;
    uint32_t alloc_call, free_call;
    uint64_t alloc_site, free_site;
    void *base; /* what libc's malloc returned: the header, unless the
                   block was aligned further (bcw_rt_posix_memalign) */
    uint64_t magic;
} block;

/* The address the allocator was called from, one byte back so that it
 * names the call. */
#define SITE() ((uint64_t)(uintptr_t)__builtin_return_address(0) - 1)

_Static_assert(sizeof(block) % 16 == 0, "block header must keep alignment");

int bcw_rt_alloc_walks;
uint64_t bcw_rt_alloc_nfrees;
/* a live block's free_call while bcw_rt_alloc_walks was set */
#define WALKS_OWN UINT32_MAX

static block *live;
static size_t live_bytes;              /* the sizes of the live blocks */
static size_t limit = (size_t)1 << 30; /* bcw_rt_alloc_limit */
/* freed during this sequence, newest first; returned to libc at the end
 * or when they exceed QUARANTINE_BYTES */
static block *dead;
static size_t dead_bytes;
#define QUARANTINE_BYTES (16u << 20)
#define GUARD_BYTES 16
#define GUARD_BYTE 0xfb

static block *header_of(void *p)
{
    return (block *)p - 1;
}

/* The magic number of the block at p, to tell ours (live or freed) from
 * memory libc handed out itself (getline, asprintf).  It is the 8 bytes
 * before p: in a block of libc's, malloc's size word, readable and never
 * equal to ours.  Under ASan they are its allocator's poisoned chunk
 * header instead, and reading them would be reported: ask first. */
static uint64_t magic_of(void *p)
{
#ifdef BCW_RT_ASAN
    if (__asan_region_is_poisoned((char *)p - sizeof(uint64_t),
                                  sizeof(uint64_t)) != NULL)
        return 0;
#endif
    return header_of(p)->magic;
}

/* A new block on the live list, its bytes as libc left them, allocated
 * from `site`. */
static void *alloc_block(size_t n, size_t align, uint64_t site)
{
    if (n > SIZE_MAX - sizeof(block) - GUARD_BYTES - align) {
        errno = ENOMEM;
        return NULL;
    }
    if (n > limit - live_bytes) {
        bcw_wire_cause *c = bcw_rt_cause(BCW_CAUSE_MEMORY);
        c->size = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
        c->pc = site;
        bcw_rt_halt(BCW_RUN_ABORT, 0);
    }
    /* past malloc's 16 bytes: the block where its start is aligned, the
     * header right before it */
    size_t extra = align > 16 ? align : 0;
    char *base = malloc(sizeof(block) + n + GUARD_BYTES + extra);
    if (base == NULL)
        return NULL;
    block *b = (block *)base;
    if (extra) {
        uintptr_t start = ((uintptr_t)base + sizeof(block) + align - 1) &
                          ~(uintptr_t)(align - 1);
        b = (block *)start - 1;
    }
    b->base = base;
    memset((char *)(b + 1) + n, GUARD_BYTE, GUARD_BYTES);
    bcw_rt_poison((char *)(b + 1) + n, GUARD_BYTES);
    b->size = n;
    live_bytes += n;
    b->alloc_call = bcw_rt_halt_call();
    b->free_call = bcw_rt_alloc_walks ? WALKS_OWN : 0;
    b->alloc_site = site;
    b->free_site = 0;
    b->magic = LIVE_MAGIC;
    b->prev = NULL;
    b->next = live;
    if (live != NULL)
        live->prev = b;
    live = b;
    return b + 1;
}

static void *malloc_at(size_t n, uint64_t site)
{
    void *p = alloc_block(n, 0, site);
    if (p != NULL)
        memset(p, BCW_RT_FILL_BYTE, n);
    return p;
}

void *bcw_rt_malloc(size_t n)
{
    return malloc_at(n, SITE());
}

/* An 8-byte word at any address, read as it is */
typedef uint64_t __attribute__((may_alias, aligned(1))) unaligned_word;
#define GUARD_WORD (0x0101010101010101ull * GUARD_BYTE)
_Static_assert(GUARD_WORD == BCW_GUARD_WORD, "the report reads guard words");
_Static_assert(GUARD_BYTES == 16, "guard_ok reads two words");

/* Are the guard bytes after block b as alloc_block wrote them?  Checked
 * after every call, so two word loads, not a loop: the check was a sixth
 * of a walk's time byte by byte.  Not instrumented: under ASan the guard
 * bytes are poisoned (bcw_rt_poison), and reading them is this check's
 * job. */
__attribute__((no_sanitize_address)) static int guard_ok(const block *b)
{
    const unsigned char *g = (const unsigned char *)(b + 1) + b->size;
    return (*(const unaligned_word *)g == GUARD_WORD) &
           (*(const unaligned_word *)(g + 8) == GUARD_WORD);
}

/* Block b in cause c: its size, and the calls and sites that allocated
 * and (a freed one) freed it; a live one's free_call is UINT32_MAX. */
static void describe(const block *b, bool freed, bcw_wire_cause *c)
{
    c->size = b->size > UINT32_MAX ? UINT32_MAX : (uint32_t)b->size;
    c->alloc_call = b->alloc_call;
    c->free_call = freed ? b->free_call : UINT32_MAX;
    c->alloc_site = b->alloc_site;
    c->free_site = freed ? b->free_site : 0;
}

/* Records a write past (BCW_CAUSE_OVERFLOW) or before
 * (BCW_CAUSE_UNDERFLOW) block b, freed or not, as the cause of the halt
 * under way.  A write before b that went on past its magic number may
 * have changed the whole header: when `base` (the word before the magic)
 * no longer points at or just below it, b is no longer described (size
 * 0, alloc_call UINT32_MAX). */
static int written_over(const block *b, bool freed, enum bcw_cause_kind kind)
{
    bcw_wire_cause *c = bcw_rt_cause(kind);
    uintptr_t at = (uintptr_t)b, base = (uintptr_t)b->base;
    if (kind == BCW_CAUSE_OVERFLOW || (base <= at && at - base < (1u << 20)))
        describe(b, freed, c);
    else
        c->alloc_call = c->free_call = UINT32_MAX;
    return 1;
}

/* A block's header ends with its magic number, right before the block:
 * a write of the bytes before the block (an index of -1, a bounds check
 * that wrapped) changes it first, so it is checked with the guard bytes
 * after, before the list goes on through the header's links. */
static int list_written_over(const block *list, uint64_t magic, bool freed)
{
    for (const block *b = list; b != NULL; b = b->next)
        if (b->magic != magic)
            return written_over(b, freed, BCW_CAUSE_UNDERFLOW);
        else if (!guard_ok(b))
            return written_over(b, freed, BCW_CAUSE_OVERFLOW);
    return 0;
}

int bcw_rt_alloc_overflowed(void)
{
    return list_written_over(live, LIVE_MAGIC, false) ||
           list_written_over(dead, DEAD_MAGIC, true);
}

/* Returns the quarantined blocks to libc. */
static void release_dead(void)
{
    while (dead != NULL) {
        block *b = dead;
        dead = b->next;
        free(b->base);
    }
    dead_bytes = 0;
}

static void unlink_block(block *b)
{
    if (b->prev != NULL)
        b->prev->next = b->next;
    else
        live = b->next;
    if (b->next != NULL)
        b->next->prev = b->prev;
}

/* bcw_rt_alloc_given's ranges */
static struct {
    uintptr_t lo, hi;
} given[BCW_RT_GIVEN];
static unsigned ngiven;

void bcw_rt_alloc_limit(size_t bytes)
{
    limit = bytes;
}

void bcw_rt_alloc_given(const void *p, size_t n)
{
    if (ngiven == BCW_RT_GIVEN)
        return;
    given[ngiven].lo = (uintptr_t)p;
    given[ngiven].hi = (uintptr_t)p + n;
    ngiven++;
}

static int is_given(const void *p)
{
    for (unsigned i = 0; i < ngiven; i++)
        if ((uintptr_t)p >= given[i].lo && (uintptr_t)p < given[i].hi)
            return 1;
    return 0;
}

/* p has no magic number of ours: if it is a live block all the same, a
 * write before it changed that number, and the call halts on the
 * underflow, not on libc's abort for a pointer it never gave out. */
static void ours_written_over(void *p)
{
    for (const block *b = live; b != NULL; b = b->next)
        if (b == header_of(p)) {
            written_over(b, false, BCW_CAUSE_UNDERFLOW);
            bcw_rt_halt_fatal(BCW_RUN_CRASH, BCW_SIG_OVERFLOW);
        }
}

static void free_at(void *p, uint64_t site)
{
    if (p == NULL || is_given(p))
        return;
    uint64_t magic = magic_of(p);
    if (magic == DEAD_MAGIC) {
        const block *d = header_of(p);
        bcw_wire_cause *c = bcw_rt_cause(BCW_CAUSE_DOUBLE_FREE);
        describe(d, true, c);
        c->pc = site;
        bcw_rt_halt(BCW_RUN_ABORT, SIGABRT);
    }
    if (magic == KEPT_MAGIC)
        return; /* the setup's: every sequence starts with it */
    if (magic != LIVE_MAGIC) {
        ours_written_over(p);
        free(p); /* memory from libc itself (getline, asprintf) */
        return;
    }
    block *b = header_of(p);
    unlink_block(b);
    live_bytes -= b->size;
    bcw_rt_alloc_nfrees++;
    b->magic = DEAD_MAGIC;
    b->free_call = bcw_rt_halt_call();
    b->free_site = site;
    if (dead_bytes + b->size > QUARANTINE_BYTES)
        release_dead();
    b->prev = NULL;
    b->next = dead;
    dead = b;
    dead_bytes += b->size;
    bcw_rt_poison(p, b->size);
}

void bcw_rt_free(void *p)
{
    free_at(p, SITE());
}

/* Is address a within block b or its guard bytes: then into *c its
 * place (enum bcw_where) and the block. */
static int place(const block *b, uintptr_t a, bcw_wire_cause *c)
{
    uintptr_t start = (uintptr_t)(b + 1);
    if (a < start || a >= start + b->size + GUARD_BYTES)
        return 0;
    describe(b, b->magic == DEAD_MAGIC, c);
    c->where = b->magic == DEAD_MAGIC ? BCW_WHERE_FREED
               : a >= start + b->size ? BCW_WHERE_PAST
                                      : BCW_WHERE_BLOCK;
    c->addr = c->where == BCW_WHERE_PAST ? a - (start + b->size) : a - start;
    return 1;
}

void bcw_rt_alloc_where(uintptr_t a, bcw_wire_cause *c)
{
    c->where = a < BCW_LOW_ADDRESS ? BCW_WHERE_LOW : BCW_WHERE_WILD;
    if (c->where == BCW_WHERE_LOW)
        return;
    for (const block *b = live; b != NULL; b = b->next)
        if (place(b, a, c))
            return;
    for (const block *b = dead; b != NULL; b = b->next)
        if (place(b, a, c))
            return;
    c->addr = 0;
}

static int inside(const block *list, const void *p)
{
    uintptr_t a = (uintptr_t)p;
    for (const block *b = list; b != NULL; b = b->next) {
        uintptr_t start = (uintptr_t)(b + 1);
        if (a >= start && (a < start + b->size || a == start))
            return 1;
    }
    return 0;
}

int bcw_rt_alloc_live(const void *p, size_t n)
{
    uintptr_t a = (uintptr_t)p;
    for (const block *b = live; b != NULL; b = b->next) {
        uintptr_t start = (uintptr_t)(b + 1);
        if (a >= start && n <= b->size && a - start <= b->size - n)
            return 1;
    }
    return 0;
}

void bcw_rt_alloc_release(void *p)
{
    for (const block *b = live; b != NULL; b = b->next)
        if ((void *)(b + 1) == p) {
            free_at(p, SITE());
            return;
        }
}

int bcw_rt_alloc_freed(const void *p)
{
    return p != NULL && inside(dead, p) && !inside(live, p);
}

/* The block freed during the call in flight that holds address a, or
 * NULL: the dead list is newest first, so only the call's are looked
 * at (quarantined blocks are not reused, so no live block holds a). */
static const block *freed_now(uintptr_t a)
{
    uint32_t call = bcw_rt_halt_call();
    for (const block *b = dead; b != NULL && b->free_call == call;
         b = b->next) {
        uintptr_t start = (uintptr_t)(b + 1);
        if (a >= start && (a < start + b->size || a == start))
            return b;
    }
    return NULL;
}

int bcw_rt_alloc_freed_now(const void *p)
{
    return p != NULL && freed_now((uintptr_t)p) != NULL;
}

void *bcw_rt_calloc(size_t n, size_t size)
{
    if (size != 0 && n > SIZE_MAX / size) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = alloc_block(n * size, 0, SITE());
    if (p != NULL)
        memset(p, 0, n * size);
    return p;
}

/* A block of n bytes whose start is a multiple of align (a power of
 * two), filled as malloc's; NULL with errno EINVAL for another align. */
static void *aligned_at(size_t n, size_t align, uint64_t site)
{
    if (align == 0 || (align & (align - 1)) != 0) {
        errno = EINVAL;
        return NULL;
    }
    void *p = alloc_block(n, align, site);
    if (p != NULL)
        memset(p, BCW_RT_FILL_BYTE, n);
    return p;
}

int bcw_rt_posix_memalign(void **out, size_t align, size_t n)
{
    if (align < sizeof(void *))
        return EINVAL;
    void *p = aligned_at(n, align, SITE());
    if (p == NULL)
        return errno == EINVAL ? EINVAL : ENOMEM;
    *out = p;
    return 0;
}

void *bcw_rt_aligned_alloc(size_t align, size_t n)
{
    return aligned_at(n, align, SITE());
}

void *bcw_rt_memalign(size_t align, size_t n)
{
    return aligned_at(n, align, SITE());
}

void *bcw_rt_valloc(size_t n)
{
    return aligned_at(n, (size_t)sysconf(_SC_PAGESIZE), SITE());
}

size_t bcw_rt_malloc_usable_size(void *p)
{
    if (p == NULL)
        return 0;
    uint64_t magic = magic_of(p);
    if (magic == LIVE_MAGIC || magic == KEPT_MAGIC)
        return header_of(p)->size;
    return malloc_usable_size(p); /* libc's own */
}

static void *realloc_at(void *p, size_t n, uint64_t site)
{
    if (p == NULL)
        return malloc_at(n, site);
    uint64_t magic = magic_of(p);
    if (magic != LIVE_MAGIC && magic != KEPT_MAGIC) {
        ours_written_over(p);
        return realloc(p, n);
    }
    block *b = header_of(p);
    void *q = alloc_block(n, 0, site);
    if (q == NULL)
        return NULL;
    memcpy(q, p, b->size < n ? b->size : n);
    if (n > b->size)
        memset((char *)q + b->size, BCW_RT_FILL_BYTE, n - b->size);
    free_at(p, site);
    return q;
}

void *bcw_rt_realloc(void *p, size_t n)
{
    return realloc_at(p, n, SITE());
}

void *bcw_rt_reallocarray(void *p, size_t n, size_t size)
{
    if (size != 0 && n > SIZE_MAX / size) {
        errno = ENOMEM;
        return NULL;
    }
    return realloc_at(p, n * size, SITE());
}

static char *strndup_at(const char *s, size_t n, uint64_t site)
{
    size_t len = strnlen(s, n);
    char *p = malloc_at(len + 1, site);
    if (p != NULL) {
        memcpy(p, s, len);
        p[len] = '\0';
    }
    return p;
}

char *bcw_rt_strndup(const char *s, size_t n)
{
    return strndup_at(s, n, SITE());
}

char *bcw_rt_strdup(const char *s)
{
    return strndup_at(s, SIZE_MAX, SITE());
}

size_t bcw_rt_alloc_spans(bcw_rt_span *out, size_t cap)
{
    size_t n = 0;
    for (const block *b = live; b != NULL; b = b->next, n++)
        if (n < cap)
            out[n] = (bcw_rt_span){(uintptr_t)(b + 1), b->size, 0, 0};
    for (const block *b = dead; b != NULL; b = b->next, n++)
        if (n < cap)
            out[n] = (bcw_rt_span){(uintptr_t)(b + 1), b->size, 1, 0};
    return n;
}

void bcw_rt_alloc_keep(void)
{
    while (live != NULL) {
        block *b = live;
        live = b->next;
        b->magic = KEPT_MAGIC;
    }
    live_bytes = 0;
}

size_t bcw_rt_alloc_reset(void)
{
    size_t n = 0;
    while (live != NULL) {
        block *b = live;
        live = b->next;
        b->magic = DEAD_MAGIC;
        free(b->base);
        n++;
    }
    live_bytes = 0;
    release_dead();
    return n;
}

/* bcw_rt_alloc_leaks' live blocks, by address, and which are reached */
#define LEAK_MAX_BLOCKS 4096
static const block *by_addr[LEAK_MAX_BLOCKS];
static unsigned char reached[LEAK_MAX_BLOCKS];
static uint32_t to_scan[LEAK_MAX_BLOCKS];
static size_t nblocks, nto_scan;

static int by_start(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t) * (const block *const *)a,
              y = (uintptr_t) * (const block *const *)b;
    return (x > y) - (x < y);
}

/* The index in by_addr of the block holding address a, or -1. */
static long holding(uintptr_t a)
{
    size_t lo = 0, hi = nblocks;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((uintptr_t)(by_addr[mid] + 1) <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return -1;
    uintptr_t start = (uintptr_t)(by_addr[lo - 1] + 1);
    return a < start + by_addr[lo - 1]->size || a == start ? (long)lo - 1 : -1;
}

/* Marks the live block holding address a (its start or any byte in it)
 * reached, to be scanned. */
static void reach(uintptr_t a)
{
    long i = holding(a);
    if (i >= 0 && !reached[i]) {
        reached[i] = 1;
        to_scan[nto_scan++] = (uint32_t)i;
    }
}

/* Every pointer-aligned word in [lo, hi) as a possible pointer. */
static void scan(uintptr_t lo, uintptr_t hi)
{
    for (uintptr_t p = (lo + 7) & ~(uintptr_t)7; p + 8 <= hi; p += 8)
        reach(*(const uintptr_t *)p);
}

/* The live blocks into by_addr, by address, none reached: 0, or -1 when
 * there are too many to tell. */
static int graph(void)
{
    nblocks = nto_scan = 0;
    for (const block *b = live; b != NULL; b = b->next) {
        if (nblocks == LEAK_MAX_BLOCKS)
            return -1;
        by_addr[nblocks++] = b;
    }
    if (nblocks > 0) { /* most sequences leave none */
        qsort(by_addr, nblocks, sizeof *by_addr, by_start);
        memset(reached, 0, nblocks);
    }
    return 0;
}

/* Scans the reached blocks until none is left to scan. */
static void scan_reached(void)
{
    while (nto_scan > 0) {
        const block *b = by_addr[to_scan[--nto_scan]];
        scan((uintptr_t)(b + 1), (uintptr_t)(b + 1) + b->size);
    }
}

int bcw_rt_alloc_reaches(const void *root, const void *p)
{
    if (graph() < 0)
        return 1;
    long at = holding((uintptr_t)p);
    if (at < 0)
        return 1;
    if (holding((uintptr_t)root) >= 0)
        reach((uintptr_t)root);
    else
        scan((uintptr_t)root, (uintptr_t)root + sizeof(void *));
    scan_reached();
    return reached[at];
}

/* Does any pointer-aligned word in [lo, hi) point into a block freed
 * during the call in flight? */
static int holds_now(uintptr_t lo, uintptr_t hi)
{
    for (uintptr_t p = (lo + 7) & ~(uintptr_t)7; p + 8 <= hi; p += 8)
        if (freed_now(*(const uintptr_t *)p) != NULL)
            return 1;
    return 0;
}

int bcw_rt_alloc_holds_freed(const void *root, size_t n)
{
    uint32_t call = bcw_rt_halt_call();
    if (dead == NULL || dead->free_call != call || graph() < 0)
        return 0;
    uintptr_t lo = (uintptr_t)root;
    long at = holding(lo);
    if (at >= 0)
        reach(lo);
    else
        scan(lo, lo + n);
    scan_reached();
    if (at < 0 && holds_now(lo, lo + n))
        return 1;
    for (size_t i = 0; i < nblocks; i++)
        if (reached[i] &&
            holds_now((uintptr_t)(by_addr[i] + 1),
                      (uintptr_t)(by_addr[i] + 1) + by_addr[i]->size))
            return 1;
    return 0;
}

int bcw_rt_alloc_leaks(const bcw_rt_span *roots, size_t nroots)
{
    if (graph() < 0)
        return 0; /* too many to tell: none said */
    if (nblocks == 0)
        return 0;
    for (size_t i = 0; i < nblocks; i++)
        if (by_addr[i]->free_call == WALKS_OWN)
            reach((uintptr_t)(by_addr[i] + 1));
    for (size_t i = 0; i < nroots; i++)
        scan(roots[i].start, roots[i].start + roots[i].size);
    scan_reached();
    const block *first = NULL;
    uint64_t bytes = 0;
    uint32_t count = 0;
    for (size_t i = 0; i < nblocks; i++) {
        const block *b = by_addr[i];
        if (reached[i])
            continue;
        count++;
        bytes += b->size;
        if (first == NULL || b->alloc_call < first->alloc_call ||
            (b->alloc_call == first->alloc_call &&
             b->alloc_site < first->alloc_site))
            first = b;
    }
    if (count == 0)
        return 0;
    bcw_wire_cause *c = bcw_rt_cause(BCW_CAUSE_LEAK);
    c->addr = count;
    c->size = bytes > UINT32_MAX ? UINT32_MAX : (uint32_t)bytes;
    c->alloc_call = first->alloc_call;
    c->alloc_site = first->alloc_site;
    return 1;
}
