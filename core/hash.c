/* hash.c - the 64-bit hash, the results file's checksum, and the hash
 * index from keys to positions. */
#define _POSIX_C_SOURCE 200809L
#include "hash.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "alloc.h"

#define P1 0x9E3779B185EBCA87ULL
#define P2 0xC2B2AE3D27D4EB4FULL
#define P3 0x165667B19E3779F9ULL

static uint64_t rotl(uint64_t x, int r)
{
    return (x << r) | (x >> (64 - r));
}

uint64_t bcw__hash(const void *data, size_t n, uint64_t seed)
{
    const unsigned char *p = data;
    uint64_t h = seed ^ (P3 + n);
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h ^= rotl(w * P2, 31) * P1;
        h = rotl(h, 27) * P1 + P3;
        p += 8;
        n -= 8;
    }
    while (n--) {
        h ^= *p++ * P3;
        h = rotl(h, 11) * P1;
    }
    h ^= h >> 33;
    h *= P2;
    h ^= h >> 29;
    h *= P3;
    h ^= h >> 32;
    return h;
}

int bcw__hasher_init(bcw_hasher *hs)
{
    hs->state = XXH3_createState();
    if (hs->state != NULL && XXH3_64bits_reset(hs->state) != XXH_OK) {
        XXH3_freeState(hs->state);
        hs->state = NULL;
    }
    return hs->state != NULL ? 0 : BCW_ENOMEM;
}

void bcw__hasher_add(bcw_hasher *hs, const void *data, size_t len)
{
    if (hs->state != NULL && len > 0)
        XXH3_64bits_update(hs->state, data, len);
}

uint64_t bcw__hasher_end(bcw_hasher *hs)
{
    uint64_t h = hs->state != NULL ? XXH3_64bits_digest(hs->state) : 0;
    XXH3_freeState(hs->state);
    hs->state = NULL;
    return h;
}

uint64_t bcw__checksum(const void *data, size_t len)
{
    return XXH3_64bits(data, len);
}

uint64_t bcw__hash_str(const char *s)
{
    return bcw__hash(s, strlen(s), 0);
}

uint64_t bcw__hash_ptr(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15ULL;
    return x ^ (x >> 29);
}

static void index_insert(bcw_index_slot *slots, size_t cap, uint64_t hash,
                         uint32_t value)
{
    size_t j = (size_t)hash & (cap - 1);
    while (slots[j].value != UINT32_MAX)
        j = (j + 1) & (cap - 1);
    slots[j].hash = hash;
    slots[j].value = value;
}

int bcw__index_reserve(bcw_index *ix, size_t want)
{
    if (want * 2 <= ix->cap)
        return 0;
    size_t ncap = ix->cap ? ix->cap : 64;
    while (want * 2 > ncap)
        ncap *= 2;
    bcw_index_slot *n = bcw__malloc(ncap * sizeof *n);
    if (n == NULL)
        return BCW_ENOMEM;
    for (size_t i = 0; i < ncap; i++)
        n[i].value = UINT32_MAX;
    for (size_t i = 0; i < ix->cap; i++)
        if (ix->slots[i].value != UINT32_MAX)
            index_insert(n, ncap, ix->slots[i].hash, ix->slots[i].value);
    free(ix->slots);
    ix->slots = n;
    ix->cap = ncap;
    return 0;
}

int bcw__index_put(bcw_index *ix, uint64_t hash, uint32_t value)
{
    if (bcw__index_reserve(ix, ix->len + 1) < 0)
        return BCW_ENOMEM;
    index_insert(ix->slots, ix->cap, hash, value);
    ix->len++;
    return 0;
}

uint32_t bcw__index_get(const bcw_index *ix, uint64_t hash,
                        int (*match)(uint32_t value, const void *payload),
                        const void *payload)
{
    if (ix->cap == 0)
        return UINT32_MAX;
    for (size_t j = (size_t)hash & (ix->cap - 1);
         ix->slots[j].value != UINT32_MAX; j = (j + 1) & (ix->cap - 1))
        if (ix->slots[j].hash == hash &&
            (match == NULL || match(ix->slots[j].value, payload)))
            return ix->slots[j].value;
    return UINT32_MAX;
}

void bcw__index_free(bcw_index *ix)
{
    free(ix->slots);
    ix->slots = NULL;
    ix->cap = ix->len = 0;
}
