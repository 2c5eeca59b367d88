/* note.c - a note whose text libc allocates (asprintf), and which the
 * unit frees itself: memory the runtime's allocator did not hand out
 * reaches its free, which must give it back to libc (and, under ASan,
 * not read libc's chunk header to tell). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

typedef struct note {
    char *text;
    int writes;
} note;

note *note_new(void)
{
    return calloc(1, sizeof(note));
}

void note_free(note *n)
{
    free(n->text);
    free(n);
}

/* Replaces the text by x in decimal; how many writes so far, or -1. */
int note_write(note *n, int x)
{
    free(n->text);
    n->writes++;
    if (asprintf(&n->text, "%d", x) < 0) {
        n->text = NULL;
        return -1;
    }
    return n->writes;
}

int note_writes(const note *n)
{
    return n->writes;
}
