/* tq.h - the public header of a text queue (examples/privhdr): the
 * library keeps it in a folder of its own, as yajl keeps src/api/. */
#ifndef TQ_H
#define TQ_H

#include <stddef.h>

typedef struct tq tq;

tq *tq_new(void);
/* Appends the bytes of s: 0, or -1 without memory. */
int tq_push(tq *q, const char *s);
size_t tq_len(const tq *q);
void tq_free(tq *q);

#endif
