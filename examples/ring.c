/* ring.c - a ring buffer made the way container libraries make theirs:
 * through a `T **out` constructor, or from a configuration struct its
 * init function fills (`ring_conf_init(&conf)` then
 * `ring_new_conf(&conf, &out)`), with an iterator over a ring.
 *
 * Arguments of another unit come from constructors the walk can call:
 * ring_new_conf's configuration from ring_conf_init (a zeroed conf would
 * have no allocator).  The iterators ring_iter_init (memset, then
 * fields) and ring_cursor_init (through ring_iter_init) fill are handles
 * of the ring, steps of its walk over the ring it fills. */
#include <stdlib.h>
#include <string.h>

typedef struct ring_conf {
    size_t capacity;
    void *(*mem_alloc)(size_t size);
    void (*mem_free)(void *block);
} ring_conf;

typedef struct ring {
    void **buf;
    size_t cap, head, len;
    void (*mem_free)(void *block);
} ring;

typedef struct ring_iter {
    const ring *r;
    size_t at;
} ring_iter;

/* An iterator counting its steps, filled through ring_iter_init. */
typedef struct ring_cursor {
    ring_iter it;
    int steps;
} ring_cursor;

void ring_conf_init(ring_conf *conf)
{
    conf->capacity = 4;
    conf->mem_alloc = malloc;
    conf->mem_free = free;
}

int ring_new_conf(const ring_conf *conf, ring **out)
{
    ring *r = conf->mem_alloc(sizeof *r);
    if (r == NULL)
        return -1;
    r->buf = conf->mem_alloc(conf->capacity * sizeof *r->buf);
    if (r->buf == NULL) {
        conf->mem_free(r);
        return -1;
    }
    r->cap = conf->capacity;
    r->head = r->len = 0;
    r->mem_free = conf->mem_free;
    *out = r;
    return 0;
}

int ring_new(ring **out)
{
    ring_conf conf;
    ring_conf_init(&conf);
    return ring_new_conf(&conf, out);
}

/* Adds x at the back; -1 when full. */
int ring_push(ring *r, void *x)
{
    if (r->len == r->cap)
        return -1;
    r->buf[(r->head + r->len++) % r->cap] = x;
    return 0;
}

/* Takes the front element into *out; -1 when empty. */
int ring_pop(ring *r, void **out)
{
    if (r->len == 0)
        return -1;
    *out = r->buf[r->head];
    r->head = (r->head + 1) % r->cap;
    r->len--;
    return 0;
}

size_t ring_size(const ring *r)
{
    return r->len;
}

void ring_destroy(ring *r)
{
    r->mem_free(r->buf);
    r->mem_free(r);
}

void ring_iter_init(ring_iter *it, const ring *r)
{
    memset(it, 0, sizeof *it);
    it->r = r;
}

/* The next element into *out; -1 at the end. */
int ring_iter_next(ring_iter *it, void **out)
{
    const ring *r = it->r;
    if (it->at == r->len)
        return -1;
    *out = r->buf[(r->head + it->at++) % r->cap];
    return 0;
}

void ring_cursor_init(ring_cursor *c, const ring *r)
{
    ring_iter_init(&c->it, r);
    c->steps = 0;
}

/* The next element into *out, counting the step; -1 at the end. */
int ring_cursor_next(ring_cursor *c, void **out)
{
    c->steps++;
    return ring_iter_next(&c->it, out);
}
