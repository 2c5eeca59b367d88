/* smudge.c - a unit one of whose calls writes over the results of the
 * sequences its worker ran before it, in bcwalk's shared memory, and
 * returns as if nothing happened (tests/e2e/hostile.py).  It does so
 * once in a walk: in smudge_wipe after exactly SMUDGE_AT smudge_add
 * calls, a sequence of length SMUDGE_AT + 1, whose length has more
 * sequences than one batch holds.  Its worker has the next batch on
 * its way by then; the results written over are found out as the
 * parent reads them, the worker is replaced, the next batch sent again
 * and the sequences whose results were lost run again, alone: the
 * report is the same as with two workers.
 *
 * It writes over every shared writable mapping of at least 1 MiB (the
 * worker's batch) but its first and last 64 KiB, where bcwalk keeps the
 * batch's header and trailer, which it would see changed. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SMUDGE_AT 12
#define KEEP ((uintptr_t)64 << 10)

typedef struct smudge {
    int n;
} smudge;

smudge *smudge_new(void)
{
    return calloc(1, sizeof(smudge));
}

void smudge_free(smudge *s)
{
    free(s);
}

void smudge_add(smudge *s)
{
    s->n++;
}

/* Writes over the middle of each large shared writable mapping, read
 * from /proc/self/maps with no allocation. */
static void wipe(void)
{
    char maps[65536];
    int fd = open("/proc/self/maps", O_RDONLY);
    if (fd < 0)
        return;
    size_t len = 0;
    ssize_t got;
    while (len < sizeof maps - 1 &&
           (got = read(fd, maps + len, sizeof maps - 1 - len)) > 0)
        len += (size_t)got;
    close(fd);
    maps[len] = '\0';
    for (char *line = maps; *line != '\0';) {
        char *end = strchr(line, '\n');
        if (end != NULL)
            *end = '\0';
        unsigned long lo, hi;
        char perms[5];
        if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) == 3 &&
            perms[0] == 'r' && perms[1] == 'w' && perms[3] == 's' &&
            hi - lo >= ((uintptr_t)1 << 20))
            memset((void *)(lo + KEEP), 0x5a, hi - lo - 2 * KEEP);
        if (end == NULL)
            break;
        line = end + 1;
    }
}

int smudge_wipe(smudge *s)
{
    if (s->n == SMUDGE_AT)
        wipe();
    return s->n;
}
