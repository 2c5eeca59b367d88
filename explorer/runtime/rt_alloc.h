/* rt_alloc.h - the allocator the code under test calls (rt_alloc.c):
 * bcwalk renames the unit's malloc, free and their kin to the
 * bcw_rt_malloc family below, so every block the unit owns is known. */
#ifndef BCW_RT_ALLOC_H
#define BCW_RT_ALLOC_H

#include <stddef.h>
#include <stdint.h>

#include "proto.h"

/* What new memory the unit gets holds before it writes: its blocks, and
 * the storage an init function is given (rt_seq.c).  Reads of it stand
 * out (0xa5a5a5a5), and are the same in every worker. */
#define BCW_RT_FILL_BYTE 0xa5

/* Is p, a pointer the code under test returned, eight bytes of the
 * runtime's guard bytes (read past the end of a block) or of its fill
 * (read before anything wrote them)?  Neither is an address x86-64 can
 * map, so no call could have made it. */
static inline int bcw_rt_alloc_junk(const void *p)
{
    uint64_t v = (uint64_t)(uintptr_t)p;
    return v == BCW_GUARD_WORD || v == 0x0101010101010101ull * BCW_RT_FILL_BYTE;
}

/* A span of memory the state hash (rt_state.c) may follow pointers into:
 * a block of the code under test, an arena allocation, the unit's static
 * storage, its globals.  `kind` and `visit` belong to rt_state.c. */
typedef struct bcw_rt_span {
    uintptr_t start;
    size_t size;
    uint32_t kind;
    uint32_t visit; /* 0: not reached yet; else the visit number + 1 */
} bcw_rt_span;

/* Keeps every block the code under test holds now (what its setup
 * function allocated) for the worker's life: no sequence's leftover,
 * and a free() of one is ignored, so the next sequence finds it again. */
void bcw_rt_alloc_keep(void);

/* The most the code under test may hold allocated at once: a request
 * past it halts the sequence as an abort, cause BCW_CAUSE_MEMORY (a
 * runaway allocation).  1 GiB until set. */
void bcw_rt_alloc_limit(size_t bytes);

/* Marks the n bytes at p as memory bcwalk passes as arguments (element
 * cells, the sequence's arena): a free() inside it is the code under
 * test taking ownership of an argument, which a caller would have
 * allocated (an element-freeing remove_all_free), and is ignored.  Up
 * to BCW_RT_GIVEN ranges. */
#define BCW_RT_GIVEN 4
void bcw_rt_alloc_given(const void *p, size_t n);

/* Set while bcwalk makes another unit's instance for an argument: the
 * blocks allocated are the walk's, never a leak of the sequence's. */
extern int bcw_rt_alloc_walks;

/* Does the heap block holding `root` (or, when no block holds it, the
 * word at root: a cell) reach, through pointer words of live blocks,
 * the block holding p?  1 when it cannot tell (too many blocks, p in no
 * block of ours). */
int bcw_rt_alloc_reaches(const void *root, const void *p);

/* Frees p when it is the start of a live block of the code under test's
 * (a free hook's built-in given the library's own buffer); anything
 * else (an element cell, the arena, a block of the setup's) is left. */
void bcw_rt_alloc_release(void *p);

/* Blocks freed so far: a call that leaves it as it found it freed
 * nothing (realloc frees the block it moves). */
extern uint64_t bcw_rt_alloc_nfrees;

/* Is p in a block freed during the call in flight (bcw_rt_halt_call)? */
int bcw_rt_alloc_freed_now(const void *p);

/* Does the memory reachable from the n bytes at root (the heap block
 * holding root, else those bytes: an object in static storage, a cell)
 * hold a pointer into a block freed during the call in flight: is the
 * object left holding what the call freed? */
int bcw_rt_alloc_holds_freed(const void *root, size_t n);

/* After the destructor: are there live blocks that nothing reaches,
 * neither the walk's own blocks nor any pointer-aligned word in the
 * `n` root spans (what bcwalk holds: results, arguments, the unit's
 * globals) nor, through their words, the blocks those reach?  If so,
 * they are the sequence's leak: recorded as the cause (BCW_CAUSE_LEAK:
 * how many, their bytes, the call and site that allocated the first)
 * and 1 is returned.  A pointer into a block reaches it, as LSan's
 * does: a leak only a stale pointer refers to is missed, never one
 * made up. */
int bcw_rt_alloc_leaks(const bcw_rt_span *roots, size_t n);

/* Frees every block the code under test still holds (its leaks) so the
 * next sequence starts clean; returns how many there were. */
size_t bcw_rt_alloc_reset(void);

/* Did a write go past the end of a block, live or freed during this
 * sequence (its guard bytes changed)?  If so the block (its size, the
 * calls that allocated and freed it) is recorded as the halt's cause. */
int bcw_rt_alloc_overflowed(void);

/* Is `p` inside a block the code under test freed during this sequence
 * (and not inside a live one)?  Freed blocks stay out of libc's hands
 * until the sequence ends (up to a bound), so a handle to one is told
 * from a handle to memory reused since. */
int bcw_rt_alloc_freed(const void *p);

/* Where faulting address a is (proto.h's bcw_where), into c: its
 * where, addr and the block's size and calls; words that do not depend
 * on where the heap happens to be. */
void bcw_rt_alloc_where(uintptr_t a, bcw_wire_cause *c);

/* Are the n bytes at p inside one live block of the code under test? */
int bcw_rt_alloc_live(const void *p, size_t n);

/* Writes the blocks of the code under test into out[0..cap-1], in no
 * particular order: the live ones (kind 0) and those it freed during
 * this sequence (kind 1, still quarantined); returns how many there are
 * (more than cap when out was too small). */
size_t bcw_rt_alloc_spans(bcw_rt_span *out, size_t cap);

/* The functions the unit's calls are renamed to: as libc's, but the
 * blocks are the runtime's (new ones filled with 0xa5, freed ones kept
 * until the sequence ends; a double free halts the sequence as an
 * abort).  A pointer libc allocated itself (getline, asprintf) is handed
 * back to libc. */
void *bcw_rt_malloc(size_t n);
void *bcw_rt_calloc(size_t n, size_t size);
void *bcw_rt_realloc(void *p, size_t n);
void *bcw_rt_reallocarray(void *p, size_t n, size_t size);
void bcw_rt_free(void *p);
int bcw_rt_posix_memalign(void **out, size_t align, size_t n);
void *bcw_rt_aligned_alloc(size_t align, size_t n);
void *bcw_rt_memalign(size_t align, size_t n);
void *bcw_rt_valloc(size_t n);
size_t bcw_rt_malloc_usable_size(void *p);
char *bcw_rt_strdup(const char *s);
char *bcw_rt_strndup(const char *s, size_t n);

#endif
