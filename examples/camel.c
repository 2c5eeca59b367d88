/* camel.c - constructors named in camelCase, as zlib's and lz4's are:
 * czInit_(&stream, level) fills a caller's stream (zlib's deflateInit_,
 * its trailing underscore and all) and czEnd releases what it holds;
 * CZ_createContext(&ctx, version) makes a context through its out
 * parameter (LZ4F_createCompressionContext) and CZ_freeContext frees it.
 * A name's last word is its last '_'-separated word's last camelCase
 * part, or, for a verb that makes or ends an object, its first
 * (tests/e2e/roles.py). */
#include <stdlib.h>

typedef struct cz_stream {
    unsigned char *window;
    unsigned long total;
    int level;
} cz_stream;

/* 0, -2 for a level outside 0..9, -4 without memory */
int czInit_(cz_stream *s, int level)
{
    if (level < 0 || level > 9)
        return -2;
    if ((s->window = calloc(1, 64)) == NULL)
        return -4;
    s->total = 0;
    s->level = level;
    return 0;
}

int czFeed(cz_stream *s, const unsigned char *in, unsigned len)
{
    for (unsigned i = 0; i < len; i++)
        s->window[i % 64] ^= in[i];
    s->total += len;
    return 0;
}

unsigned long czTotal(const cz_stream *s)
{
    return s->total;
}

int czEnd(cz_stream *s)
{
    free(s->window);
    s->window = NULL;
    return 0;
}

typedef struct cz_ctx {
    int version;
    unsigned long frames;
} cz_ctx;

/* 0, or -1 for another version or no memory */
int CZ_createContext(cz_ctx **out, int version)
{
    if (version != 100)
        return -1;
    cz_ctx *c = calloc(1, sizeof *c);
    if (c == NULL)
        return -1;
    c->version = version;
    *out = c;
    return 0;
}

unsigned long CZ_frame(cz_ctx *c)
{
    return ++c->frames;
}

int CZ_freeContext(cz_ctx *c)
{
    free(c);
    return 0;
}
