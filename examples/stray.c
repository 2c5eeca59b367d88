/* stray.c - a unit whose call leaves a process sleeping where bcwalk's
 * fork does not see it, then one that hangs: bcwalk killed while the
 * second runs must leave nothing behind (tests/e2e/hostile.py):
 *   - stray_fork forks through the raw system call; the child leaves the
 *     worker's session and sleeps, using no CPU time, for ever;
 *   - stray_wait, once stray_fork has run on the object, sleeps (a hang
 *     to the walk); before, it returns at once. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

typedef struct stray {
    int forked;
} stray;

stray *stray_new(void)
{
    return calloc(1, sizeof(stray));
}

void stray_free(stray *s)
{
    free(s);
}

int stray_fork(stray *s)
{
    long pid = syscall(SYS_fork);
    if (pid == 0) {
        syscall(SYS_setsid);
        for (;;)
            pause();
    }
    s->forked = pid > 0;
    return s->forked;
}

int stray_wait(const stray *s)
{
    struct timespec minute = {60, 0};
    if (s->forked)
        nanosleep(&minute, NULL);
    return s->forked;
}
