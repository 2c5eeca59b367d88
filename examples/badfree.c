/* badfree.c - frees of addresses no allocation gave, which bcwalk's
 * allocator sees first: bf_trim frees the middle of its block (libc's
 * free refuses it and aborts), bf_forget frees its length as if it were
 * a pointer (as a function given an object of another type would).  A
 * halt's cause names the unit's function and line that called free,
 * never bcwalk's runtime. */
#include <stdint.h>
#include <stdlib.h>

typedef struct bf {
    char *data;
    size_t len;
} bf;

bf *bf_new(void)
{
    bf *b = malloc(sizeof *b);
    if (b == NULL)
        return NULL;
    b->len = 16;
    b->data = malloc(b->len);
    return b;
}

/* drops the first half of the buffer: frees where the second starts */
void bf_trim(bf *b)
{
    free(b->data + b->len / 2);
    b->data = NULL;
}

/* frees the length, taken for the buffer */
void bf_forget(bf *b)
{
    free((void *)(uintptr_t)b->len);
    b->len = 0;
}

size_t bf_len(const bf *b)
{
    return b->len;
}

void bf_free(bf *b)
{
    free(b->data);
    free(b);
}
