/* zstream.c - a stream in zlib's shape: one caller-storage struct that
 * a packer and an unpacker both use, each keeping a state of its own
 * behind the same `state` field (deflate's internal_state, inflate's
 * inflate_state).  What bcwalk reads from the code (tests/e2e/roles.py):
 * - zsPackInit_ returns zsPackInit2_'s status, which returns
 *   zsPackReset's: each succeeds with 0, any other result is no object;
 * - the init functions test zalloc and zfree for NULL before they set
 *   them (their callers' `zs_stream s = {0}`): the storage is zeroed;
 * - `version` is a string whose first character must be my_version's,
 *   and `stream_size`, tested only against sizeof (zs_stream), is no
 *   length of it;
 * - the packer's functions index `state` as a zs_internal, the
 *   unpacker's cast it to a zs_unpack: two families, each method called
 *   only on objects of its own, each object ended by its family's
 *   destructor;
 * - zsUnpackEnd refuses a stream zsUnpackBackInit_ made (its state is
 *   in back mode): it returns a failure and frees nothing, and the
 *   walk ends the object with zsUnpackBackEnd, which has no family.
 * No sequence halts but for init failures and calls of the other
 * family, and none leaks. */
#include <stdlib.h>

typedef struct zs_stream {
    void *(*zalloc)(void *opaque, unsigned n, unsigned size);
    void (*zfree)(void *opaque, void *p);
    void *opaque;
    struct zs_internal *state;
    unsigned long total;
} zs_stream;

struct zs_internal {
    zs_stream *strm;
    int level;
    unsigned long fill;
    unsigned char *window;
};

struct zs_unpack {
    zs_stream *strm;
    int mode; /* 1 normal, 2 back (the caller's window) */
    unsigned char *window;
    unsigned long got;
};

static const char my_version[] = "1.0";

static void *default_alloc(void *opaque, unsigned n, unsigned size)
{
    (void)opaque;
    return calloc(n, size);
}

static void default_free(void *opaque, void *p)
{
    (void)opaque;
    free(p);
}

/* 0, or -6 for another version or layout */
static int check_version(zs_stream *s, const char *version, int stream_size)
{
    if (version == NULL || version[0] != my_version[0] ||
        stream_size != (int)sizeof(zs_stream))
        return -6;
    if (s->zalloc == NULL) {
        s->zalloc = default_alloc;
        s->opaque = NULL;
    }
    if (s->zfree == NULL)
        s->zfree = default_free;
    return 0;
}

static int pack_check(const zs_stream *s)
{
    return s->state == NULL || s->state->strm != s;
}

int zsPackReset(zs_stream *s)
{
    if (pack_check(s))
        return -2;
    s->state->fill = 0;
    s->total = 0;
    return 0;
}

/* 0, -2 for a level outside 0..9, -4 without memory, -6 */
int zsPackInit2_(zs_stream *s, int level, const char *version,
                 int stream_size)
{
    int err = check_version(s, version, stream_size);
    if (err != 0)
        return err;
    if (level < 0 || level > 9)
        return -2;
    struct zs_internal *st = s->zalloc(s->opaque, 1, sizeof *st);
    if (st == NULL)
        return -4;
    st->window = s->zalloc(s->opaque, 1, 256);
    if (st->window == NULL) {
        s->zfree(s->opaque, st);
        return -4;
    }
    st->strm = s;
    st->level = level;
    s->state = st;
    return zsPackReset(s);
}

int zsPackInit_(zs_stream *s, int level, const char *version, int stream_size)
{
    return zsPackInit2_(s, level, version, stream_size);
}

int zsPack(zs_stream *s, const unsigned char *in, unsigned len)
{
    if (pack_check(s) || in == NULL)
        return -2;
    for (unsigned i = 0; i < len; i++)
        s->state->window[(s->state->fill + i) % 256] ^= in[i];
    s->state->fill += len;
    s->total += len;
    return 0;
}

int zsPackEnd(zs_stream *s)
{
    if (pack_check(s))
        return -2;
    s->zfree(s->opaque, s->state->window);
    s->zfree(s->opaque, s->state);
    s->state = NULL;
    return 0;
}

/* the unpacker's state, or NULL for a stream that is not in `mode` */
static struct zs_unpack *unpack_state(zs_stream *s, int mode)
{
    struct zs_unpack *st = (struct zs_unpack *)s->state;
    return st != NULL && st->strm == s && st->mode == mode ? st : NULL;
}

static int unpack_init(zs_stream *s, int mode, unsigned char *window)
{
    struct zs_unpack *st = s->zalloc(s->opaque, 1, sizeof *st);
    if (st == NULL)
        return -4;
    st->strm = s;
    st->mode = mode;
    st->window = window;
    s->state = (struct zs_internal *)st;
    s->total = 0;
    return 0;
}

int zsUnpackInit_(zs_stream *s, const char *version, int stream_size)
{
    int err = check_version(s, version, stream_size);
    return err != 0 ? err : unpack_init(s, 1, NULL);
}

/* the caller's window of 256 bytes */
int zsUnpackBackInit_(zs_stream *s, unsigned char *window,
                      const char *version, int stream_size)
{
    int err = check_version(s, version, stream_size);
    if (err == 0 && window == NULL)
        err = -2;
    return err != 0 ? err : unpack_init(s, 2, window);
}

/* the bytes unpacked so far, len more asked for; -2 not unpacking */
long zsUnpack(zs_stream *s, unsigned len)
{
    struct zs_unpack *st = unpack_state(s, 1);
    if (st == NULL)
        return -2;
    if (st->window == NULL &&
        (st->window = s->zalloc(s->opaque, 1, 256)) == NULL)
        return -4;
    st->got += len;
    s->total += len;
    return (long)st->got;
}

int zsUnpackEnd(zs_stream *s)
{
    if (unpack_state(s, 1) == NULL)
        return -2;
    struct zs_unpack *st = (struct zs_unpack *)s->state;
    if (st->window != NULL)
        s->zfree(s->opaque, st->window);
    s->zfree(s->opaque, st);
    s->state = NULL;
    return 0;
}

int zsUnpackBackEnd(zs_stream *s)
{
    if (s->state == NULL || s->zfree == NULL)
        return -2;
    s->zfree(s->opaque, s->state);
    s->state = NULL;
    return 0;
}

unsigned long zsTotal(const zs_stream *s)
{
    return s->total;
}
