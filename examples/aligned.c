/* aligned.c - memory from the aligned allocators and asked its usable
 * size: posix_memalign, aligned_alloc and malloc_usable_size go to the
 * runtime's allocator like malloc, so the blocks are aligned as asked,
 * their size is what was asked, and abuf_fill's write past its 32-byte
 * buffer (a seeded fault, n > 32) is caught on that call. */
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct abuf {
    char *data;
    int used;
} abuf;

abuf *abuf_new(void)
{
    void *p = NULL;
    if (posix_memalign(&p, 64, sizeof(abuf)) != 0)
        return NULL;
    abuf *b = p;
    b->data = aligned_alloc(32, 32);
    b->used = 0;
    return b;
}

/* 1 when both blocks are aligned as asked */
int abuf_aligned(const abuf *b)
{
    return (uintptr_t)b % 64 == 0 && (uintptr_t)b->data % 32 == 0;
}

size_t abuf_room(const abuf *b)
{
    return malloc_usable_size(b->data);
}

/* writes n bytes: past the buffer when n > 32 */
void abuf_fill(abuf *b, int n)
{
    if (n < 0 || n > 40)
        return;
    memset(b->data, 'x', (size_t)n);
    b->used = n;
}

void abuf_free(abuf *b)
{
    free(b->data);
    free(b);
}
