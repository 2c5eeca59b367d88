/* digest.c - a running checksum in xxhash's shape: dg_update(state,
 * input, len) keeps a tail of fewer than 16 bytes and folds whole
 * blocks, reading them through an always-inline helper whose own
 * parameters (p, shift) are inlined into it even at -O0; dg_copy(dst,
 * src) copies one state over another without comparing the two.
 *
 * What a caller can make, and only that (tests/e2e/instances.py):
 * - dg_update's parameters are named as its own debug information names
 *   them (state, input, len), not as the inlined helper's;
 * - `len` is paired with `input`: a category that only a length past
 *   any buffer a walk makes meets (tail + len wrapping around, so that
 *   `len >= 16` and `tail + len < 16` hold together) is rejected, never
 *   passed with a shorter buffer, and no halt is a made-up argument's;
 * - dg_copy is never given the target as its source: it does not tell
 *   the two apart, so copying a state onto itself is no case of its own
 *   (memcpy of overlapping memory, a caller's mistake).
 * Its halt is the library's own: dg_update before dg_reset writes its
 * tail through the NULL pointer dg_new leaves (xxhash's documented
 * "reset first"), which the walk reports as it is. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct dg_state {
    uint64_t total;
    unsigned char *tail; /* 16 bytes from dg_reset */
    size_t ntail;
    uint32_t acc;
} dg_state;

dg_state *dg_new(void)
{
    return calloc(1, sizeof(dg_state));
}

void dg_free(dg_state *s)
{
    if (s != NULL)
        free(s->tail);
    free(s);
}

/* 0, or -1 without memory */
int dg_reset(dg_state *s, uint32_t seed)
{
    if (s->tail == NULL && (s->tail = malloc(16)) == NULL)
        return -1;
    s->total = 0;
    s->ntail = 0;
    s->acc = seed;
    return 0;
}

static inline __attribute__((always_inline)) uint32_t
read_block(const unsigned char *p, unsigned shift)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < 4; i++)
        v |= (uint32_t)p[i] << (8 * ((i + shift) % 4));
    return v;
}

/* 0, or -1 for no input */
int dg_update(dg_state *state, const void *input, size_t len)
{
    const unsigned char *p = input;
    if (input == NULL)
        return -1;
    state->total += len;
    if (state->ntail + len < 16) {
        memcpy(state->tail + state->ntail, p, len);
        state->ntail += len;
        return 0;
    }
    /* whole blocks first when there are some, the rest as a new tail */
    size_t i = 0;
    if (len >= 16)
        for (; i + 16 <= len; i += 4)
            state->acc = state->acc * 31 + read_block(p + i, 1);
    state->ntail = (len - i) % 16;
    memcpy(state->tail, p + i, state->ntail);
    return 0;
}

uint32_t dg_value(const dg_state *s)
{
    return s->acc ^ (uint32_t)s->total;
}

void dg_copy(dg_state *dst, const dg_state *src)
{
    unsigned char *tail = dst->tail;
    memcpy(dst, src, sizeof *dst);
    dst->tail = tail;
    if (tail != NULL && src->tail != NULL)
        memcpy(tail, src->tail, 16);
}
