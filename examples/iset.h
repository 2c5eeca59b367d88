/* iset.h - a small set of ints split over two files (iset_core.c,
 * iset_query.c), linked into one bitcode file with llvm-link. */
#ifndef ISET_H
#define ISET_H

#include <stdbool.h>

typedef struct iset iset; /* opaque to users: defined in iset_core.c */

iset *iset_new(void);
void iset_free(iset *s);
bool iset_add(iset *s, int x);
bool iset_remove(iset *s, int x);
bool iset_contains(const iset *s, int x);
int iset_size(const iset *s);

#endif
