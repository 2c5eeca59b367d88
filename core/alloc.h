/* alloc.h - the one allocation wrapper, growable arrays and buffers. */
#ifndef BCW_ALLOC_H
#define BCW_ALLOC_H

#include <stddef.h>

#include "errors.h"

/* The one allocation wrapper: tests can make the Nth call fail.  NULL
 * returns record an out-of-memory error. */
BCW_INTERNAL void *bcw__malloc(size_t n);
BCW_INTERNAL void *bcw__calloc(size_t n, size_t size);
BCW_INTERNAL void *bcw__realloc(void *p, size_t n);
BCW_INTERNAL char *bcw__strdup(const char *s);
BCW_INTERNAL char *bcw__strndup(const char *s, size_t n);
BCW_INTERNAL char *bcw__sprintf(const char *fmt, ...) BCW_PRINTF(1, 2);
/* Fail the nth allocation from now on (1 = the next one); 0 turns it off.
 * Returns how many allocations the failure set before was still away (0:
 * it happened, or none was set), so a test can tell whether a run
 * reached its nth allocation, or count a run's allocations. */
BCW_INTERNAL unsigned long bcw__alloc_fail_at(unsigned long nth);

/* Grows a dynamic array `*p` of `*cap` elements of `size` bytes so that it
 * holds at least `need`; 0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__grow(void *p, size_t *cap, size_t need, size_t size);

/* A growable byte buffer with a limit (curl's dynbuf), NUL-terminated.
 * Its first failure sticks: the buffer is freed (data NULL, len 0), and
 * every later put and printf does nothing and returns that error, so a
 * builder may check once, at the end, with data or err. */
typedef struct bcw_buf {
    char *data;
    size_t len, cap, limit;
    int err;
} bcw_buf;
BCW_INTERNAL void bcw__buf_init(bcw_buf *b, size_t limit);
BCW_INTERNAL int bcw__buf_put(bcw_buf *b, const void *data, size_t n);
BCW_INTERNAL int bcw__buf_printf(bcw_buf *b, const char *fmt, ...)
    BCW_PRINTF(2, 3);
BCW_INTERNAL void bcw__buf_free(bcw_buf *b);

/* A growable list of strings it owns: a report's warnings and notes. */
typedef struct bcw_strlist {
    char **v;
    unsigned n;
    size_t cap;
} bcw_strlist;
/* Appends s, which the list takes: freed on failure, and a NULL s (an
 * allocation that failed) gives BCW_ENOMEM. */
BCW_INTERNAL int bcw__strlist_add(bcw_strlist *l, char *s);
/* Frees the strings from index n on. */
BCW_INTERNAL void bcw__strlist_truncate(bcw_strlist *l, unsigned n);
BCW_INTERNAL void bcw__strlist_free(bcw_strlist *l);

/* Frees an array of n strings; NULL is accepted. */
BCW_INTERNAL void bcw__strv_free(char **v, unsigned n);

#endif
