/* zone.c - an allocation zone in two forms, as msgpack-c's is: made on
 * the heap by zone_new and ended by zone_free, or filled in the caller's
 * storage by zone_init and ended by zone_destroy, which releases the
 * chunks but not the storage.  Each object is torn down by the
 * destructor made for it: zone_free of an object in storage would free
 * memory no allocator gave out, and zone_destroy of a heap object would
 * leak its block; neither is the library's fault.  zone_destroy frees
 * what the zone holds and stores nothing but constants back: a
 * destructor by what it does, though the zone has another.  zone_grow
 * is hidden: the library's, not its users' (tests/e2e/lifetimes.py). */
#include <stdlib.h>

typedef struct zone {
    void **chunks;
    unsigned used, cap;
} zone;

/* An empty zone for cap chunks in z; -1 when out of memory. */
int zone_init(zone *z, unsigned cap)
{
    z->cap = cap ? cap : 1;
    z->used = 0;
    z->chunks = calloc(z->cap, sizeof *z->chunks);
    return z->chunks != NULL ? 0 : -1;
}

zone *zone_new(unsigned cap)
{
    zone *z = malloc(sizeof *z);
    if (z != NULL && zone_init(z, cap) < 0) {
        free(z);
        return NULL;
    }
    return z;
}

/* Doubles the room for chunks: the library's own helper, hidden from
 * its users as zlib's ZLIB_INTERNAL functions are, so no walk calls it
 * (alone it would grow a zone past any use). */
__attribute__((visibility("hidden"))) int zone_grow(zone *z)
{
    void **more = realloc(z->chunks, 2 * z->cap * sizeof *more);
    if (more == NULL)
        return -1;
    z->chunks = more;
    z->cap *= 2;
    return 0;
}

/* n bytes that live as long as the zone; NULL when out of memory. */
void *zone_alloc(zone *z, size_t n)
{
    if (z->used == z->cap && zone_grow(z) < 0)
        return NULL;
    void *p = malloc(n ? n : 1);
    if (p != NULL)
        z->chunks[z->used++] = p;
    return p;
}

unsigned zone_used(const zone *z)
{
    return z->used;
}

/* Releases what z holds; the storage is the caller's. */
void zone_destroy(zone *z)
{
    for (unsigned i = 0; i < z->used; i++)
        free(z->chunks[i]);
    free(z->chunks);
    z->chunks = NULL;
    z->used = z->cap = 0;
}

void zone_free(zone *z)
{
    if (z == NULL)
        return;
    zone_destroy(z);
    free(z);
}
