/* sketch.c - a count sketch in its caller's storage, in the shape of
 * barrust's count-min-sketch: sk_init checks its sizes and leaves the
 * rest to a setup helper, whose status it returns; the hash function
 * may be NULL, for which the helper puts its default; sk_save writes the
 * sketch to a file and sk_load reads one into fresh storage, allocating
 * the cells anew, so that it is another initialiser, not a method (on a
 * live sketch it would leak the cells), while sk_merge, adding a file's
 * counts to the live sketch, is a method.  bcwalk empties the worker's
 * folder between sequences: a file one saved is there for its own merge,
 * never for another's (tests/e2e/lifetimes.py). */
#include <stdio.h>
#include <stdlib.h>

typedef unsigned (*sk_hash)(const char *key, unsigned seed);

typedef struct sketch {
    unsigned width, depth;
    long total;
    sk_hash hash;
    int *cells;
} sketch;

static unsigned sk_default_hash(const char *key, unsigned seed)
{
    unsigned h = 2166136261u ^ seed;
    for (; *key != '\0'; key++)
        h = (h ^ (unsigned char)*key) * 16777619u;
    return h;
}

static int sk_setup(sketch *s, unsigned width, unsigned depth, sk_hash hash)
{
    s->width = width;
    s->depth = depth;
    s->total = 0;
    s->hash = hash == NULL ? sk_default_hash : hash;
    s->cells = calloc((size_t)width * depth, sizeof *s->cells);
    return s->cells == NULL ? -1 : 0;
}

/* 0, or -1 for a size of 0 or no memory */
int sk_init(sketch *s, unsigned width, unsigned depth, sk_hash hash)
{
    if (width == 0 || depth == 0 || width > 4096 || depth > 16)
        return -1;
    return sk_setup(s, width, depth, hash);
}

void sk_free(sketch *s)
{
    free(s->cells);
    s->cells = NULL;
}

void sk_add(sketch *s, const char *key)
{
    for (unsigned d = 0; d < s->depth; d++)
        s->cells[d * s->width + s->hash(key, d) % s->width]++;
    s->total++;
}

int sk_count(const sketch *s, const char *key)
{
    int least = -1;
    for (unsigned d = 0; d < s->depth; d++) {
        int c = s->cells[d * s->width + s->hash(key, d) % s->width];
        if (least < 0 || c < least)
            least = c;
    }
    return least;
}

/* 0, or -1 when the file cannot be written */
int sk_save(const sketch *s, const char *path)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return -1;
    size_t n = (size_t)s->width * s->depth;
    int ok = fwrite(&s->width, sizeof s->width, 1, f) == 1 &&
             fwrite(&s->depth, sizeof s->depth, 1, f) == 1 &&
             fwrite(&s->total, sizeof s->total, 1, f) == 1 &&
             fwrite(s->cells, sizeof *s->cells, n, f) == n;
    return fclose(f) == 0 && ok ? 0 : -1;
}

/* Adds the counts of a file sk_save wrote of a sketch of the same shape:
 * 0, or -1 when there is none.  It reads the sketch first: a method. */
int sk_merge(sketch *s, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return -1;
    unsigned width, depth;
    long total;
    int ok = fread(&width, sizeof width, 1, f) == 1 &&
             fread(&depth, sizeof depth, 1, f) == 1 &&
             fread(&total, sizeof total, 1, f) == 1 && width == s->width &&
             depth == s->depth;
    for (size_t i = 0; ok && i < (size_t)width * depth; i++) {
        int c;
        ok = fread(&c, sizeof c, 1, f) == 1;
        if (ok)
            s->cells[i] += c;
    }
    if (ok)
        s->total += total;
    fclose(f);
    return ok ? 0 : -1;
}

/* A sketch read from a file sk_save wrote into fresh storage: 0, or -1
 * when there is none. */
int sk_load(sketch *s, const char *path, sk_hash hash)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return -1;
    if (fread(&s->width, sizeof s->width, 1, f) != 1 ||
        fread(&s->depth, sizeof s->depth, 1, f) != 1 ||
        fread(&s->total, sizeof s->total, 1, f) != 1 || s->width == 0 ||
        s->width > 4096 || s->depth == 0 || s->depth > 16) {
        fclose(f);
        return -1;
    }
    size_t n = (size_t)s->width * s->depth;
    s->cells = malloc(n * sizeof *s->cells);
    s->hash = hash == NULL ? sk_default_hash : hash;
    if (s->cells == NULL || fread(s->cells, sizeof *s->cells, n, f) != n) {
        free(s->cells);
        fclose(f);
        return -1;
    }
    fclose(f);
    return 0;
}
