/* pool.c - a test program for examples/sbuf.c's pool, whose calls take
 * buffers another unit's constructor makes: those calls are kept, as
 * what the pool's calls need (tests/e2e/learn.py). */
#include <assert.h>
#include <stddef.h>

typedef struct sbuf sbuf;
typedef struct sbuf_pool sbuf_pool;
sbuf *sbuf_new(void);
int sbuf_append(sbuf *b, const char *data, size_t len);
size_t sbuf_copy_to(const sbuf *b, char *dst);
sbuf_pool *sbuf_pool_new(void);
void sbuf_pool_free(sbuf_pool *p);
int sbuf_pool_size(const sbuf_pool *p);
int sbuf_pool_put(sbuf_pool *p, sbuf *b);

void test_put(void)
{
    sbuf_pool *p = sbuf_pool_new();
    sbuf *b = sbuf_new();
    sbuf_append(b, "ab", 2);
    assert(sbuf_pool_put(p, b) == 0);
    assert(sbuf_pool_size(p) == 1);
    sbuf_pool_free(p);
}

int main(void)
{
    test_put();
    return 0;
}
