/* hash.h - the 64-bit hash and the hash index from keys to positions. */
#ifndef BCW_HASH_H
#define BCW_HASH_H

#include <stddef.h>
#include <stdint.h>

#include "errors.h"

/* 64-bit hash of a byte string (xxhash-style mixing, one pass), and the
 * same continued from an earlier value. */
BCW_INTERNAL uint64_t bcw__hash(const void *data, size_t n, uint64_t seed);

/* A results file's checksum (docs/results.md): XXH3's 64-bit hash
 * (libxxhash) of its bytes, taken piece by piece as a writer adds them
 * (bcw_hasher) or of the whole (bcw__checksum). */
typedef struct bcw_hasher {
    void *state; /* XXH3_state_t, NULL when it could not be made */
} bcw_hasher;
/* 0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__hasher_init(bcw_hasher *hs);
BCW_INTERNAL void bcw__hasher_add(bcw_hasher *hs, const void *data, size_t len);
/* The hash of what was added; frees the hasher (which may be one whose
 * init failed). */
BCW_INTERNAL uint64_t bcw__hasher_end(bcw_hasher *hs);
BCW_INTERNAL uint64_t bcw__checksum(const void *data, size_t len);

/* A hash index from keys to small integers (array positions): the
 * caller hashes its key and confirms candidates, so one index type serves
 * strings and pointers alike. */
typedef struct bcw_index_slot {
    uint64_t hash;
    uint32_t value; /* UINT32_MAX: empty */
} bcw_index_slot;
typedef struct bcw_index {
    bcw_index_slot *slots;
    size_t cap, len;
} bcw_index;

/* Adds value under hash; 0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__index_put(bcw_index *ix, uint64_t hash, uint32_t value);
/* Calls match(value, payload) for each value stored under `hash` until it
 * returns non-zero; returns that value, or UINT32_MAX.  A NULL match takes
 * the first value under `hash`: for keys that are their own hash, which
 * it saves a look at the value's record (a cache miss in a big table). */
BCW_INTERNAL uint32_t bcw__index_get(const bcw_index *ix, uint64_t hash,
                                     int (*match)(uint32_t value,
                                                  const void *payload),
                                     const void *payload);
/* Makes room for n values in all without growing again; 0 or
 * BCW_ENOMEM. */
BCW_INTERNAL int bcw__index_reserve(bcw_index *ix, size_t n);
/* Starts loading the slot `hash` is looked up at: a lookup some
 * iterations later finds it in the cache (a big table's lookups are
 * cache misses). */
static inline void bcw__index_prefetch(const bcw_index *ix, uint64_t hash)
{
    if (ix->cap > 0)
        __builtin_prefetch(&ix->slots[(size_t)hash & (ix->cap - 1)]);
}
BCW_INTERNAL void bcw__index_free(bcw_index *ix);
/* Hashes of a C string and of a pointer, for the index. */
BCW_INTERNAL uint64_t bcw__hash_str(const char *s);
BCW_INTERNAL uint64_t bcw__hash_ptr(const void *p);

#endif
