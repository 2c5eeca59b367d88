/* common.h - internal helpers every module uses: errors, allocation,
 * growable buffers and hashing. */
#ifndef BCW_COMMON_H
#define BCW_COMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bcwalk/error.h"

#if defined(__GNUC__)
#define BCW_INTERNAL __attribute__((visibility("hidden")))
#define BCW_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define BCW_INTERNAL
#define BCW_PRINTF(a, b)
#endif

/* Records a failure message and returns `code`, so callers can write
 * `return bcw__error(BCW_EINPUT, "...")`. */
BCW_INTERNAL int bcw__error(int code, const char *fmt, ...) BCW_PRINTF(2, 3);
BCW_INTERNAL void bcw__error_clear(void);

/* Broken invariants abort with the expression and where it failed. */
#define BCW_ASSERT(e) ((e) ? (void)0 : bcw__assert_fail(#e, __FILE__, __LINE__))
BCW_INTERNAL void bcw__assert_fail(const char *expr, const char *file, int line)
    __attribute__((noreturn));

/* The one allocation wrapper: tests can make the Nth call fail.  NULL
 * returns record an out-of-memory error. */
BCW_INTERNAL void *bcw__malloc(size_t n);
BCW_INTERNAL void *bcw__calloc(size_t n, size_t size);
BCW_INTERNAL void *bcw__realloc(void *p, size_t n);
BCW_INTERNAL char *bcw__strdup(const char *s);
BCW_INTERNAL char *bcw__strndup(const char *s, size_t n);
BCW_INTERNAL char *bcw__sprintf(const char *fmt, ...) BCW_PRINTF(1, 2);
/* Fail the nth allocation from now on (1 = the next one); 0 turns it off. */
BCW_INTERNAL void bcw__alloc_fail_at(unsigned long nth);

/* Grows a dynamic array `*p` of `*cap` elements of `size` bytes so that it
 * holds at least `need`; 0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__grow(void *p, size_t *cap, size_t need, size_t size);

/* A growable byte buffer with a limit (curl's dynbuf). */
typedef struct bcw_buf {
    char *data;
    size_t len, cap, limit;
} bcw_buf;
BCW_INTERNAL void bcw__buf_init(bcw_buf *b, size_t limit);
BCW_INTERNAL int bcw__buf_put(bcw_buf *b, const void *data, size_t n);
BCW_INTERNAL int bcw__buf_printf(bcw_buf *b, const char *fmt, ...)
    BCW_PRINTF(2, 3);
BCW_INTERNAL void bcw__buf_free(bcw_buf *b);

/* 64-bit hash of a byte string (xxhash-style mixing, one pass), and the
 * same continued from an earlier value. */
BCW_INTERNAL uint64_t bcw__hash(const void *data, size_t n, uint64_t seed);

/* Writes `n` bytes to `path` atomically: a temporary file in the same
 * folder, fsync, rename.  0 or BCW_ERROR with the failing call named. */
BCW_INTERNAL int bcw__write_file_atomic(const char *path, const void *data,
                                        size_t n);
/* Reads a whole file; *out is the caller's (free()). */
BCW_INTERNAL int bcw__read_file(char **out, size_t *len, const char *path,
                                size_t limit);

/* mkdir -p; 0 or BCW_ERROR naming the folder. */
BCW_INTERNAL int bcw__mkdir_p(const char *path);
/* The cache folder: `dir` if given, else $XDG_CACHE_HOME/bcwalk, else
 * ~/.cache/bcwalk.  The caller's (free()); NULL if out of memory. */
BCW_INTERNAL char *bcw__cache_root(const char *dir);
/* Continues hash *h over the contents of a file. */
BCW_INTERNAL int bcw__hash_file(uint64_t *h, const char *path);

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
 * returns non-zero; returns that value, or UINT32_MAX. */
BCW_INTERNAL uint32_t bcw__index_get(const bcw_index *ix, uint64_t hash,
                                     int (*match)(uint32_t value,
                                                  const void *payload),
                                     const void *payload);
BCW_INTERNAL void bcw__index_free(bcw_index *ix);
/* Hashes of a C string and of a pointer, for the index. */
BCW_INTERNAL uint64_t bcw__hash_str(const char *s);
BCW_INTERNAL uint64_t bcw__hash_ptr(const void *p);

/* Writes `s` as a JSON string literal, quotes included. */
BCW_INTERNAL void bcw__json_str(FILE *f, const char *s);

/* `s` as a C literal in `quote`s ('"' or '\''), escaped; the caller's,
 * NULL when out of memory. */
BCW_INTERNAL char *bcw__c_quote(const char *s, char quote);

#endif
