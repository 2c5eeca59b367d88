/* hazard.c - faults a plain walk cannot see, for `explore --sanitize`:
 * nothing crashes, the code only reads what is not its own or does what
 * C leaves undefined.
 *   address:   hz_last reads one element past its array (an over-read);
 *              hz_first reads the array hz_reset freed (use after free)
 *   undefined: hz_double overflows a signed int on its third call;
 *              hz_shift shifts by 40 on its second; hz_copy passes
 *              memcpy a NULL source with a length of 0 */
#include <stdlib.h>
#include <string.h>

typedef struct hz {
    int *data; /* n elements */
    int n;
    int sum;
    int k;
    int *extra; /* never set: NULL */
    size_t nextra;
} hz;

hz *hz_new(void)
{
    hz *h = calloc(1, sizeof *h);
    if (h == NULL)
        return NULL;
    h->n = 2;
    h->data = calloc((size_t)h->n, sizeof *h->data);
    h->sum = 1 << 29;
    return h;
}

int hz_last(const hz *h)
{
    return h->data[h->n]; /* one past the end */
}

void hz_reset(hz *h)
{
    free(h->data); /* left dangling */
}

int hz_first(const hz *h)
{
    return h->data[0];
}

int hz_double(hz *h)
{
    h->sum = h->sum * 2 + 1;
    return h->sum;
}

int hz_shift(hz *h)
{
    h->k += 20;
    return 1 << h->k;
}

int hz_copy(const hz *h)
{
    int out[4] = {0};
    memcpy(out, h->extra, h->nextra * sizeof *out);
    return out[0];
}

void hz_free(hz *h)
{
    free(h);
}
