/* unpack.c - reading bcwalk's msgpack files (unpack.h). */
#include "unpack.h"

#include <string.h>

#include "alloc.h"
#include "hash.h"
#include "pack.h"

int bcw__rd_bad(bcw_rd *r, const char *what)
{
    if (r->err == 0)
        r->err = bcw__error(BCW_EINPUT, "%s: corrupt %s file (%s)", r->path,
                            r->kind, what);
    return r->err;
}

const msgpack_object *bcw__rd_arr(bcw_rd *r, const msgpack_object *o,
                                  uint32_t n, const char *what)
{
    if (o == NULL || o->type != MSGPACK_OBJECT_ARRAY ||
        (n && o->via.array.size != n)) {
        bcw__rd_bad(r, what);
        return NULL;
    }
    return o->via.array.ptr;
}

uint64_t bcw__rd_u64(bcw_rd *r, const msgpack_object *o, uint64_t max,
                     const char *what)
{
    if (o == NULL || o->type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
        o->via.u64 > max) {
        bcw__rd_bad(r, what);
        return 0;
    }
    return o->via.u64;
}

int64_t bcw__rd_i64(bcw_rd *r, const msgpack_object *o, const char *what)
{
    if (o != NULL && o->type == MSGPACK_OBJECT_POSITIVE_INTEGER &&
        o->via.u64 <= INT64_MAX)
        return (int64_t)o->via.u64;
    if (o != NULL && o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER)
        return o->via.i64;
    bcw__rd_bad(r, what);
    return 0;
}

bool bcw__rd_bool(bcw_rd *r, const msgpack_object *o, const char *what)
{
    if (o == NULL || o->type != MSGPACK_OBJECT_BOOLEAN) {
        bcw__rd_bad(r, what);
        return false;
    }
    return o->via.boolean;
}

char *bcw__rd_str(bcw_rd *r, const msgpack_object *o, bool nullable,
                  const char *what)
{
    if (o != NULL && o->type == MSGPACK_OBJECT_NIL && nullable)
        return NULL;
    if (o == NULL ||
        (o->type != MSGPACK_OBJECT_STR && o->type != MSGPACK_OBJECT_BIN)) {
        bcw__rd_bad(r, what);
        return NULL;
    }
    /* bin: a string that is not UTF-8 (bcw__pack_str) */
    char *s = o->type == MSGPACK_OBJECT_STR
                  ? bcw__strndup(o->via.str.ptr, o->via.str.size)
                  : bcw__strndup(o->via.bin.ptr, o->via.bin.size);
    if (s == NULL && r->err == 0)
        r->err = BCW_ENOMEM;
    return s;
}

char **bcw__rd_strv(bcw_rd *r, const msgpack_object *o, unsigned *n,
                    const char *what)
{
    *n = 0;
    const msgpack_object *a = bcw__rd_arr(r, o, 0, what);
    if (a == NULL || o->via.array.size == 0)
        return NULL;
    char **v = bcw__calloc(o->via.array.size, sizeof *v);
    if (v == NULL) {
        r->err = r->err ? r->err : BCW_ENOMEM;
        return NULL;
    }
    for (uint32_t i = 0; i < o->via.array.size && r->err == 0; i++) {
        v[i] = bcw__rd_str(r, &a[i], false, what);
        *n += v[i] != NULL;
    }
    return v;
}

const msgpack_object *bcw__rd_items(bcw_rd *r, const msgpack_object *o,
                                    size_t size, void *out, uint32_t *n,
                                    const char *what)
{
    void **p = out;
    *p = NULL;
    *n = 0;
    const msgpack_object *a = bcw__rd_arr(r, o, 0, what);
    if (a == NULL || o->via.array.size == 0)
        return NULL;
    if ((*p = bcw__calloc(o->via.array.size, size)) == NULL) {
        r->err = r->err ? r->err : BCW_ENOMEM;
        return NULL;
    }
    *n = o->via.array.size;
    return a;
}

const msgpack_object *bcw__rd_field(const msgpack_object *o, const char *key)
{
    size_t n = strlen(key);
    if (o == NULL || o->type != MSGPACK_OBJECT_MAP)
        return NULL;
    for (uint32_t i = 0; i < o->via.map.size; i++) {
        const msgpack_object_kv *kv = &o->via.map.ptr[i];
        if (kv->key.type == MSGPACK_OBJECT_STR && kv->key.via.str.size == n &&
            memcmp(kv->key.via.str.ptr, key, n) == 0)
            return &kv->val;
    }
    return NULL;
}

/* The n-byte big-endian length at p. */
static uint64_t be(const unsigned char *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

size_t bcw__msgpack_fits(const char *data, size_t len)
{
    const unsigned char *p = (const unsigned char *)data;
    size_t at = 0;
    /* objects still to read: each takes a byte at least, so a count
     * claiming more than the bytes left is a corrupt one */
    uint64_t pending = 1;
    while (pending > 0) {
        if (at >= len)
            return 0;
        unsigned char t = p[at++];
        pending--;
        uint64_t skip = 0, items = 0;
        unsigned size = 0; /* bytes of the length after the type byte */
        if (t <= 0x7f || t >= 0xe0 || t == 0xc0 || t == 0xc2 || t == 0xc3)
            continue;
        if (t >= 0x80 && t <= 0x8f)
            items = 2u * (t & 0x0fu);
        else if (t >= 0x90 && t <= 0x9f)
            items = t & 0x0fu;
        else if (t >= 0xa0 && t <= 0xbf)
            skip = t & 0x1fu;
        else if (t >= 0xcc && t <= 0xd3)
            skip = 1u << ((t - 0xcc) & 3);
        else if (t == 0xca || t == 0xcb)
            skip = t == 0xca ? 4 : 8;
        else if (t >= 0xd4 && t <= 0xd8)
            skip = 1 + (1u << (t - 0xd4));
        else if (t == 0xc4 || t == 0xd9 || t == 0xc7)
            size = 1;
        else if (t == 0xc5 || t == 0xda || t == 0xc8 || t == 0xdc || t == 0xde)
            size = 2;
        else if (t == 0xc6 || t == 0xdb || t == 0xc9 || t == 0xdd || t == 0xdf)
            size = 4;
        else
            return 0; /* 0xc1: never used */
        if (size > 0) {
            if (len - at < size)
                return 0;
            uint64_t n = be(p + at, size);
            at += size;
            if (t == 0xdc || t == 0xdd)
                items = n;
            else if (t == 0xde || t == 0xdf)
                items = 2 * n;
            else
                skip = n + (t >= 0xc7 && t <= 0xc9); /* ext: its type */
        }
        if (skip > len - at)
            return 0;
        at += skip;
        pending += items;
        if (pending > len - at)
            return 0;
    }
    return at;
}

const msgpack_object *bcw__rd_root(bcw_rd *r, msgpack_unpacked *up,
                                   const char *data, size_t len,
                                   const char *format, uint64_t version,
                                   const char *older)
{
    size_t off = 0;
    /* checked before msgpack-c allocates what its lengths claim */
    if (bcw__msgpack_fits(data, len) != len ||
        msgpack_unpack_next(up, data, len, &off) != MSGPACK_UNPACK_SUCCESS ||
        off != len || up->data.type != MSGPACK_OBJECT_MAP) {
        bcw__rd_bad(r, "not a msgpack map, or truncated");
        return NULL;
    }
    const msgpack_object *root = &up->data;
    const msgpack_object *fmt = bcw__rd_field(root, "format");
    const msgpack_object *ver = bcw__rd_field(root, "version");
    if (fmt == NULL || fmt->type != MSGPACK_OBJECT_STR ||
        fmt->via.str.size != strlen(format) ||
        memcmp(fmt->via.str.ptr, format, fmt->via.str.size) != 0) {
        r->err = bcw__error(BCW_EINPUT, "%s: not a bcwalk %s file", r->path,
                            r->kind);
        return NULL;
    }
    if (ver == NULL || ver->type != MSGPACK_OBJECT_POSITIVE_INTEGER ||
        ver->via.u64 != version) {
        r->err = bcw__error(BCW_EINPUT,
                            "%s: %s version %llu, this bcwalk "
                            "reads %llu: %s",
                            r->path, r->kind,
                            ver && ver->type == MSGPACK_OBJECT_POSITIVE_INTEGER
                                ? (unsigned long long)ver->via.u64
                                : 0ull,
                            (unsigned long long)version, older);
        return NULL;
    }
    /* after the version: a file of another version gets `older` */
    if (!bcw__pack_sealed(data, len)) {
        bcw__rd_bad(r, "its checksum does not match its bytes");
        return NULL;
    }
    return root;
}
