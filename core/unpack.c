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

const msgpack_object *bcw__rd_root(bcw_rd *r, msgpack_unpacked *up,
                                   const char *data, size_t len,
                                   const char *format, uint64_t version,
                                   const char *older)
{
    size_t off = 0;
    if (msgpack_unpack_next(up, data, len, &off) != MSGPACK_UNPACK_SUCCESS ||
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
