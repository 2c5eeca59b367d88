/* recio.c - a record read from and written to C library streams, as
 * genann_read(FILE *) and genann_write(ann, FILE *) do: a FILE *
 * argument is a stream a caller opens, never zeroed storage.  bcwalk
 * gives each an open stream in memory holding a line of words and
 * numbers ("bcwalk 1 2 3"), read from its start, then writable
 * (tests/e2e/inputs.py). */
#include <stdio.h>
#include <stdlib.h>

typedef struct rec {
    char name[16];
    int a, b, c;
} rec;

/* a record from a line "name a b c", or NULL */
rec *rec_load(FILE *in)
{
    rec *r = malloc(sizeof *r);
    if (r != NULL &&
        fscanf(in, "%15s %d %d %d", r->name, &r->a, &r->b, &r->c) != 4) {
        free(r);
        r = NULL;
    }
    return r;
}

/* A record from a line, the stream closed: it takes the stream over,
 * as a library's load-and-close does; the stream bcwalk gave is then
 * not closed again. */
rec *rec_take(FILE *in)
{
    rec *r = rec_load(in);
    fclose(in);
    return r;
}

int rec_sum(const rec *r)
{
    return r->a + r->b + r->c;
}

/* the characters written, or a negative value on error */
int rec_dump(const rec *r, FILE *out)
{
    return fprintf(out, "%s %d %d %d\n", r->name, r->a, r->b, r->c);
}

void rec_free(rec *r)
{
    free(r);
}
