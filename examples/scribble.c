/* scribble.c - a unit that writes over the memory of the process it
 * runs in, as a wild pointer or a stray thread would, bcwalk's shared
 * memory included.  Each call gets its own outcome, the other sequences'
 * results stay right (the same with --jobs 1 and 2), bcwalk exits
 * normally (tests/e2e/hostile.py):
 *   - scribble_shared fills every shared writable mapping with a byte
 *     and returns: a crash of that call, "wrote over bcwalk's shared
 *     memory"; the results it wrote over are those of sequences run
 *     before it in the same worker, which run again;
 *   - scribble_all fills every writable mapping but the stack: the
 *     worker dies some way, the sequence's outcome;
 *   - scribble_forge leaves a thread adding 1 to every word of the
 *     shared writable mappings, forever, while the call spins: a forged
 *     heartbeat, which keeps nothing alive: a hang;
 *   - scribble_add and scribble_count are ordinary calls. */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct scribble {
    int n;
} scribble;

scribble *scribble_new(void)
{
    return calloc(1, sizeof(scribble));
}

void scribble_free(scribble *s)
{
    free(s);
}

void scribble_add(scribble *s)
{
    s->n++;
}

int scribble_count(const scribble *s)
{
    return s->n;
}

#define MAX_RANGES 256

typedef struct range {
    uintptr_t lo, hi;
} range;

/* The writable mappings of the process, shared ones only if `shared`,
 * into out[] (at most MAX_RANGES), the stack left out; read with no
 * allocation, into the caller's stack. */
static int writable(range *out, int shared)
{
    char maps[65536];
    int fd = open("/proc/self/maps", O_RDONLY);
    if (fd < 0)
        return 0;
    size_t len = 0;
    ssize_t got;
    while (len < sizeof maps - 1 &&
           (got = read(fd, maps + len, sizeof maps - 1 - len)) > 0)
        len += (size_t)got;
    close(fd);
    maps[len] = '\0';
    int n = 0;
    for (char *line = maps; *line != '\0' && n < MAX_RANGES;) {
        char *end = strchr(line, '\n');
        if (end != NULL)
            *end = '\0';
        unsigned long lo, hi;
        char perms[5];
        if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) == 3 &&
            perms[0] == 'r' && perms[1] == 'w' &&
            (!shared || perms[3] == 's') && strstr(line, "[stack]") == NULL)
            out[n++] = (range){lo, hi};
        if (end == NULL)
            break;
        line = end + 1;
    }
    return n;
}

void scribble_shared(scribble *s)
{
    range r[MAX_RANGES];
    int n = writable(r, 1);
    for (int i = 0; i < n; i++)
        memset((void *)r[i].lo, 0x5a, r[i].hi - r[i].lo);
    s->n++;
}

void scribble_all(scribble *s)
{
    range r[MAX_RANGES];
    int n = writable(r, 0);
    s->n++;
    for (int i = 0; i < n; i++)
        memset((void *)r[i].lo, 0x5a, r[i].hi - r[i].lo);
}

static range forged[MAX_RANGES];
static int nforged;

static void *forge(void *arg)
{
    (void)arg;
    for (;;)
        for (int i = 0; i < nforged; i++)
            for (volatile uint32_t *p = (uint32_t *)forged[i].lo;
                 (uintptr_t)p < forged[i].hi; p++)
                *p += 1;
    return NULL;
}

void scribble_forge(scribble *s)
{
    pthread_t t;
    nforged = writable(forged, 1);
    s->n++;
    if (pthread_create(&t, NULL, forge, NULL) != 0)
        return;
    for (volatile int spin = 1; spin;)
        ;
}
