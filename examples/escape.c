/* escape.c - a unit whose calls use CPU time where bcwalk's clock of a
 * call does not see it: each worker, and each process it starts, has a
 * CPU time limit (explore --worker-cpu; tests/e2e/hostile.py):
 *   - escape_burn spins in three threads and its own: the limit passes
 *     long before the call's time-out, a hang whose cause says so;
 *   - escape_fork forks through the raw system call, past the fork
 *     bcwalk interposes, and returns; the child leaves the worker's
 *     session and spins, and the limit ends it, even after bcwalk has
 *     exited;
 *   - escape_count is an ordinary call. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef struct escape {
    int calls;
} escape;

escape *escape_new(void)
{
    return calloc(1, sizeof(escape));
}

void escape_free(escape *e)
{
    free(e);
}

int escape_count(const escape *e)
{
    return e->calls;
}

static void *spin(void *arg)
{
    (void)arg;
    for (volatile int on = 1; on;)
        ;
    return NULL;
}

void escape_burn(escape *e)
{
    e->calls++;
    for (int i = 0; i < 3; i++) {
        pthread_t t;
        pthread_create(&t, NULL, spin, NULL);
    }
    spin(NULL);
}

int escape_fork(escape *e)
{
    e->calls++;
    long pid = syscall(SYS_fork);
    if (pid == 0) {
        syscall(SYS_setsid);
        spin(NULL);
    }
    return pid > 0;
}
