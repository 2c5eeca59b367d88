/* native_restarts.c - the physical limits of a walk in which every
 * sequence crashes (examples/brittle.c: its destructor always faults):
 *
 *   native_restarts fork N   N times: fork a child that runs
 *                            brittle_new, brittle_add, brittle_free and
 *                            dies of SIGSEGV; wait for it
 *   native_restarts spawn N  the same, each child a new process image
 *                            (posix_spawn of this program with "one")
 *   native_restarts one      one such sequence in this process
 *
 * Prints {"crashes": N, "elapsed_s": T} for bench_restarts.py, which
 * compares bcwalk's walk of brittle with them: its workers come from a
 * fork server, so a crash should cost about what `fork` costs here, not
 * what `spawn` does. */
#define _GNU_SOURCE

#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* examples/brittle.c, linked in as its own translation unit */
typedef struct brittle brittle;
brittle *brittle_new(void);
void brittle_add(brittle *b, int x);
void brittle_free(brittle *b);

static void one(void)
{
    brittle *b = brittle_new();
    brittle_add(b, 1);
    brittle_free(b); /* faults */
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Waits for child pid, which must have died of SIGSEGV. */
static void reap(pid_t pid)
{
    int st;
    if (waitpid(pid, &st, 0) != pid || !WIFSIGNALED(st) ||
        WTERMSIG(st) != SIGSEGV) {
        fprintf(stderr, "native_restarts: child did not crash\n");
        exit(1);
    }
}

int main(int argc, char **argv)
{
    /* crashes write no core files */
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    if (argc == 2 && strcmp(argv[1], "one") == 0) {
        one();
        return 0;
    }
    if (argc != 3 || (strcmp(argv[1], "fork") && strcmp(argv[1], "spawn"))) {
        fprintf(stderr, "usage: native_restarts fork|spawn N | one\n");
        return 2;
    }
    long n = atol(argv[2]);
    double t0 = now_s();
    for (long i = 0; i < n; i++) {
        pid_t pid;
        if (argv[1][0] == 'f') {
            if ((pid = fork()) == 0) {
                one();
                _exit(0);
            }
        } else {
            char *args[] = {argv[0], "one", NULL};
            if (posix_spawn(&pid, "/proc/self/exe", NULL, NULL, args,
                            environ) != 0)
                pid = -1;
        }
        if (pid < 0) {
            perror("native_restarts");
            return 1;
        }
        reap(pid);
    }
    printf("{\"crashes\": %ld, \"elapsed_s\": %.6f}\n", n, now_s() - t0);
    return 0;
}
