/* forks.c - a runner that runs each test in a child process of its own,
 * as Check and Criterion do: a test that crashes ends its child, and the
 * runner goes on with the next (tests/e2e/learn.py). */
#include <stddef.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct fifo fifo;
fifo *fifo_new(void);
void fifo_free(fifo *q);
int fifo_push(fifo *q, void *item);
void *fifo_pop(fifo *q);

static int one;

static void test_first(void)
{
    fifo *q = fifo_new();
    fifo_push(q, &one);
    fifo_free(q);
}

static void test_crashes(void)
{
    fifo *q = fifo_new();
    fifo_push(q, &one);
    fifo_push(NULL, &one);
}

static void test_last(void)
{
    fifo *q = fifo_new();
    fifo_pop(q);
    fifo_free(q);
}

static void (*const tests[])(void) = {test_first, test_crashes, test_last,
                                      NULL};

int main(void)
{
    int failed = 0;
    for (size_t i = 0; tests[i] != NULL; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            tests[i]();
            _exit(0);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        failed += !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    }
    return failed;
}
