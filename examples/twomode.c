/* twomode.c - a stream opened for reading or for writing, as zlib's
 * gzFile is, with a close for each mode: tm_close_r refuses a stream
 * open for writing (it returns -1 and frees nothing) and tm_close_w one
 * open for reading.  bcwalk ends each sequence with one destructor in
 * turn; when it refuses the object, the next one made for heap objects
 * tears it down, so no leak is the walk's making (a destructor that says
 * it succeeded and frees nothing is not retried: its leak stays one). */
#include <stdlib.h>

typedef struct tm {
    int writing;
    unsigned n;
} tm;

static tm *tm_open(int writing)
{
    tm *s = malloc(sizeof *s);
    if (s != NULL) {
        s->writing = writing;
        s->n = 0;
    }
    return s;
}

tm *tm_open_r(void)
{
    return tm_open(0);
}

tm *tm_open_w(void)
{
    return tm_open(1);
}

/* Writes one byte; -1 on a stream open for reading. */
int tm_put(tm *s)
{
    if (!s->writing)
        return -1;
    s->n++;
    return 0;
}

unsigned tm_count(const tm *s)
{
    return s->n;
}

int tm_close_r(tm *s)
{
    if (s->writing)
        return -1;
    free(s);
    return 0;
}

int tm_close_w(tm *s)
{
    if (!s->writing)
        return -1;
    free(s);
    return 0;
}
