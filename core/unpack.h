/* unpack.h - reading bcwalk's msgpack files (the model, the oracle):
 * a reader that keeps the first problem, typed accessors that return a
 * harmless value after it, and the sealed file's header: format,
 * version, and the checksum its writer ends it with (bcw__pack_seal). */
#ifndef BCW_UNPACK_H
#define BCW_UNPACK_H

#include <msgpack.h>
#include <stdbool.h>
#include <stdint.h>

#include "errors.h"

typedef struct bcw_rd {
    const char *path;
    const char *kind; /* "model", "oracle": named in the messages */
    int err;          /* the first problem, 0 while there is none */
} bcw_rd;

/* The bytes of the msgpack object at data (len bytes), its encoding
 * checked without unpacking it: 0 when it is cut short, uses a type
 * byte msgpack does not, or a string, array or map claims more than the
 * bytes left (what msgpack-c would allocate for before finding out). */
BCW_INTERNAL size_t bcw__msgpack_fits(const char *data, size_t len);

/* Records "PATH: corrupt KIND file (WHAT)" as the reader's problem
 * (BCW_EINPUT), unless it has one; returns the reader's error. */
BCW_INTERNAL int bcw__rd_bad(bcw_rd *r, const char *what);

/* The elements of array o, which must have n of them (0: any number). */
BCW_INTERNAL const msgpack_object *
bcw__rd_arr(bcw_rd *r, const msgpack_object *o, uint32_t n, const char *what);
BCW_INTERNAL uint64_t bcw__rd_u64(bcw_rd *r, const msgpack_object *o,
                                  uint64_t max, const char *what);
BCW_INTERNAL int64_t bcw__rd_i64(bcw_rd *r, const msgpack_object *o,
                                 const char *what);
BCW_INTERNAL bool bcw__rd_bool(bcw_rd *r, const msgpack_object *o,
                               const char *what);
/* A string (str, or bin for bytes that are not UTF-8), the caller's; NULL
 * for nil when `nullable`. */
BCW_INTERNAL char *bcw__rd_str(bcw_rd *r, const msgpack_object *o,
                               bool nullable, const char *what);
/* An array of strings, *n of them, the caller's. */
BCW_INTERNAL char **bcw__rd_strv(bcw_rd *r, const msgpack_object *o,
                                 unsigned *n, const char *what);
/* The elements of array o and *out, a zeroed array of as many
 * `size`-byte items (NULL for none); 0 elements on error. */
BCW_INTERNAL const msgpack_object *bcw__rd_items(bcw_rd *r,
                                                 const msgpack_object *o,
                                                 size_t size, void *out,
                                                 uint32_t *n, const char *what);
/* The value of `key` in map o, or NULL (o NULL or not a map too).  The
 * readers above take a NULL o as a value of the wrong type. */
BCW_INTERNAL const msgpack_object *bcw__rd_field(const msgpack_object *o,
                                                 const char *key);

/* The root map of the file's bytes, unpacked into *up: it must be one
 * map whose "format" is `format` (else "not a bcwalk KIND file"), whose
 * "version" is `version` (else the message ends in `older`, what to do
 * with a file of another version), ending in a checksum that matches.
 * NULL, with the reader's error, otherwise. */
BCW_INTERNAL const msgpack_object *
bcw__rd_root(bcw_rd *r, msgpack_unpacked *up, const char *data, size_t len,
             const char *format, uint64_t version, const char *older);

#endif
