/* hash.c - the 64-bit hash and the hash index from keys to positions. */
#define _POSIX_C_SOURCE 200809L
#include "hash.h"

#include <stdlib.h>
#include <string.h>

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

uint64_t bcw__hash_wide(const void *data, size_t n, uint64_t seed)
{
    const unsigned char *p = data;
    uint64_t v[4] = {seed + P1 + P2, seed + P2, seed, seed - P1};
    for (size_t left = n; left >= 32; left -= 32, p += 32)
        for (unsigned k = 0; k < 4; k++) {
            uint64_t w;
            memcpy(&w, p + 8 * k, 8);
            v[k] = rotl(v[k] + w * P2, 31) * P1;
        }
    uint64_t h =
        rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18);
    return bcw__hash(p, n % 32, h ^ (uint64_t)n);
}

int bcw__hasher_init(bcw_hasher *hs)
{
    hs->h = 0;
    hs->n = 0;
    hs->buf = bcw__malloc(BCW_HASH_BLOCK);
    return hs->buf != NULL ? 0 : BCW_ENOMEM;
}

void bcw__hasher_add(bcw_hasher *hs, const void *data, size_t len)
{
    const unsigned char *p = data;
    /* whole blocks hashed where they are */
    for (; hs->buf != NULL && hs->n == 0 && len >= BCW_HASH_BLOCK;
         p += BCW_HASH_BLOCK, len -= BCW_HASH_BLOCK)
        hs->h = bcw__hash_wide(p, BCW_HASH_BLOCK, hs->h);
    while (len > 0 && hs->buf != NULL) {
        size_t take =
            BCW_HASH_BLOCK - hs->n < len ? BCW_HASH_BLOCK - hs->n : len;
        memcpy(hs->buf + hs->n, p, take);
        hs->n += take;
        p += take;
        len -= take;
        if (hs->n == BCW_HASH_BLOCK) {
            hs->h = bcw__hash_wide(hs->buf, hs->n, hs->h);
            hs->n = 0;
        }
    }
}

uint64_t bcw__hasher_end(bcw_hasher *hs)
{
    if (hs->buf != NULL && hs->n > 0)
        hs->h = bcw__hash_wide(hs->buf, hs->n, hs->h);
    free(hs->buf);
    hs->buf = NULL;
    return hs->h;
}

uint64_t bcw__hash_blocks(const void *data, size_t len)
{
    const unsigned char *p = data;
    uint64_t h = 0;
    for (size_t at = 0; at < len; at += BCW_HASH_BLOCK)
        h = bcw__hash_wide(
            p + at, len - at < BCW_HASH_BLOCK ? len - at : BCW_HASH_BLOCK, h);
    return h;
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
