/* pack.h - a msgpack-c packer into a buffer grown through the allocation
 * wrapper, with a sticky error (Redis rio): after the first failure
 * every write is a no-op, and the writer checks the error once, before
 * anything it packed reaches a file. */
#ifndef BCW_PACK_H
#define BCW_PACK_H

#include <msgpack.h>
#include <stdbool.h>

#include "alloc.h"

typedef struct bcw_pack {
    msgpack_packer pk;
    bcw_buf buf;
    const char *what; /* names the output in the error: "the model" */
    int err;          /* the first failure, 0 while there is none */
} bcw_pack;

/* Starts packing into an empty buffer of at most `limit` bytes. */
BCW_INTERNAL void bcw__pack_init(bcw_pack *p, const char *what, size_t limit);

/* Packs s as a string (bin when it is not UTF-8), NULL as nil. */
BCW_INTERNAL void bcw__pack_str(msgpack_packer *pk, const char *s);

/* Empties the buffer (after its bytes were written out); the error
 * stays. */
BCW_INTERNAL void bcw__pack_clear(bcw_pack *p);

BCW_INTERNAL void bcw__pack_free(bcw_pack *p);

/* Ends a map's packing with the key "checksum" and, in its fixed 9-byte
 * form, bcw__hash of every byte before its 8 (docs/model.md): the last
 * entry of the file's one map, whose size counted it. */
BCW_INTERNAL void bcw__pack_seal(bcw_pack *p);

/* Do the bytes end in such a checksum, matching them? */
BCW_INTERNAL bool bcw__pack_sealed(const char *data, size_t len);

#endif
