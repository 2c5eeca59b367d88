/* hostile.c - a unit whose methods do to the process what code under
 * test must not do to bcwalk's worker, one behaviour each.  Every call
 * gets its outcome, the other sequences' results stay right, bcwalk
 * exits normally and leaves nothing running (tests/e2e/hostile.py):
 *   - hostile_exit (_exit) and hostile_exec (execl) halt the sequence
 *     with their cause, and the process is neither ended nor replaced;
 *   - hostile_fork_spin leaves a child spinning, killed when the
 *     sequence ends; hostile_fork_return's child would return into the
 *     runtime and exits instead;
 *   - hostile_kill_parent cannot signal bcwalk (EPERM); hostile_kill_group
 *     signals only the worker's own session;
 *   - hostile_handlers, hostile_alarm, hostile_limit and hostile_thread
 *     change the process, and the next sequence runs in a fresh worker
 *     (the handler of SIGSEGV stays bcwalk's: hostile_recurse's stack
 *     overflow after it is still a crash);
 *   - hostile_close_fds closes every descriptor but bcwalk's;
 *   - hostile_hog allocates without end: a runaway allocation;
 *     hostile_map maps memory itself, past the allocator, and gets only
 *     what the worker's address space allows;
 *   - hostile_fds counts the descriptors it could write to: none;
 *   - hostile_write_here writes a file in its working folder, the walk's
 *     scratch folder; hostile_write_away one where $BCW_HOSTILE_FILE
 *     says, outside it, and cannot; hostile_connect cannot connect to
 *     the TCP port $BCW_HOSTILE_PORT on 127.0.0.1, nor hostile_udp send
 *     it a datagram (the worker has a network of its own, with nothing
 *     up), nor hostile_unix connect to the unix socket at the path
 *     $BCW_HOSTILE_SOCKET (no unix sockets: seccomp);
 *   - hostile_proc_fd cannot open the fork server's nor bcwalk's
 *     descriptors through /proc/<pid>/fd (they are not dumpable);
 *   - hostile_traceme asks to be traced by its parent, the fork server
 *     (ptrace is refused), then crashes: a crash like any other;
 *   - hostile_fork_sleep forks through the raw system call, past the
 *     fork bcwalk interposes, and its child leaves the session and
 *     sleeps, using no CPU time: ended with its batch. */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

typedef struct hostile {
    int calls;
} hostile;

hostile *hostile_new(void)
{
    return calloc(1, sizeof(hostile));
}

void hostile_free(hostile *h)
{
    free(h);
}

int hostile_calls(const hostile *h)
{
    return h->calls;
}

void hostile_exit(hostile *h)
{
    h->calls++;
    _exit(3);
}

int hostile_exec(hostile *h)
{
    h->calls++;
    return execl("/bin/true", "true", (char *)NULL);
}

void hostile_fork_spin(hostile *h)
{
    h->calls++;
    if (fork() == 0)
        for (;;)
            ;
}

/* 1 in the child, which never sees its result: it ends on return */
int hostile_fork_return(hostile *h)
{
    h->calls++;
    return fork() == 0;
}

int hostile_kill_parent(hostile *h)
{
    h->calls++;
    return kill(getppid(), SIGTERM);
}

int hostile_kill_group(hostile *h)
{
    h->calls++;
    return kill(0, SIGTERM);
}

static void ignore(int signo)
{
    (void)signo;
}

void hostile_handlers(hostile *h)
{
    h->calls++;
    signal(SIGSEGV, ignore);
    signal(SIGALRM, ignore);
}

void hostile_alarm(hostile *h)
{
    h->calls++;
    alarm(1);
}

int hostile_limit(hostile *h)
{
    struct rlimit r = {8, 8};
    h->calls++;
    return setrlimit(RLIMIT_NOFILE, &r);
}

static void *spin(void *arg)
{
    (void)arg;
    for (;;)
        ;
    return NULL;
}

int hostile_thread(hostile *h)
{
    pthread_t t;
    h->calls++;
    return pthread_create(&t, NULL, spin, NULL);
}

void hostile_close_fds(hostile *h)
{
    h->calls++;
    for (int fd = 0; fd < 1024; fd++)
        close(fd);
}

/* How many descriptors it can reach besides the standard three and
 * bcwalk's two pipes (198, 199; the worker closes its shared memory's
 * once mapped): none of bcwalk's files, -o's included. */
int hostile_fds(hostile *h)
{
    int n = 0;
    h->calls++;
    for (int fd = 3; fd < 1024; fd++)
        if (fd < 197 || fd > 199)
            n += fcntl(fd, F_GETFD) != -1;
    return n;
}

/* Takes memory until there is none: a runaway allocation, the
 * sequence's outcome once it passes --worker-memory. */
int hostile_hog(hostile *h)
{
    int blocks = 0;
    h->calls++;
    for (char *p; (p = malloc(1 << 20)) != NULL; blocks++)
        p[0] = 1;
    return blocks;
}

int hostile_recurse(hostile *h)
{
    volatile char frame[256];
    frame[0] = (char)h->calls;
    return hostile_recurse(h) + frame[0];
}

/* 1 if it could write `path`, 0 if not */
static int write_file(const char *path)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return 0;
    int ok = fputs("hostile\n", f) >= 0;
    return fclose(f) == 0 && ok;
}

int hostile_write_here(hostile *h)
{
    h->calls++;
    return write_file("hostile.txt");
}

/* -1 without $BCW_HOSTILE_FILE */
int hostile_write_away(hostile *h)
{
    const char *path = getenv("BCW_HOSTILE_FILE");
    h->calls++;
    return path != NULL ? write_file(path) : -1;
}

/* 1 if a socket of `type` could reach the port $BCW_HOSTILE_PORT on
 * 127.0.0.1 (connect, and for a datagram socket send one byte), 0 if
 * not, -1 without it */
static int reach_port(int type)
{
    const char *port = getenv("BCW_HOSTILE_PORT");
    if (port == NULL)
        return -1;
    struct sockaddr_in to = {.sin_family = AF_INET,
                             .sin_port = htons((uint16_t)atoi(port)),
                             .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    int fd = socket(AF_INET, type, 0);
    if (fd < 0)
        return 0;
    int ok = connect(fd, (struct sockaddr *)&to, sizeof to) == 0 &&
             (type != SOCK_DGRAM || send(fd, "x", 1, 0) == 1);
    close(fd);
    return ok;
}

int hostile_connect(hostile *h)
{
    h->calls++;
    return reach_port(SOCK_STREAM);
}

/* 1 if it connected to the unix socket at $BCW_HOSTILE_SOCKET (and said
 * so through it), 0 if not, -1 without it. */
int hostile_unix(hostile *h)
{
    h->calls++;
    const char *path = getenv("BCW_HOSTILE_SOCKET");
    if (path == NULL)
        return -1;
    struct sockaddr_un to = {.sun_family = AF_UNIX};
    snprintf(to.sun_path, sizeof to.sun_path, "%s", path);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0)
        return 0;
    int ok = connect(fd, (struct sockaddr *)&to, sizeof to) == 0 &&
             write(fd, "x", 1) == 1;
    close(fd);
    return ok;
}

/* The parent of process `pid` as /proc says, or -1. */
static int parent_of(int pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    int ppid = -1;
    if (f != NULL && fscanf(f, "%*d (%*[^)]) %*c %d", &ppid) != 1)
        ppid = -1;
    if (f != NULL)
        fclose(f);
    return ppid;
}

/* How many of the fork server's and bcwalk's descriptors 0-255 it
 * could open through /proc/<pid>/fd for writing (writing into each):
 * none. */
int hostile_proc_fd(hostile *h)
{
    h->calls++;
    int server = getppid(), pids[] = {server, parent_of(server)}, n = 0;
    for (int i = 0; i < 2; i++)
        for (int fd = 0; fd < 256 && pids[i] > 1; fd++) {
            char path[64];
            snprintf(path, sizeof path, "/proc/%d/fd/%d", pids[i], fd);
            int got = open(path, O_WRONLY | O_NONBLOCK);
            if (got >= 0) {
                n++;
                if (write(got, "\xff\xff\xff\xff", 4) < 0)
                    n += 0;
                close(got);
            }
        }
    return n;
}

/* Asks to be traced, then writes through NULL: -1 if it could not be
 * traced (it never returns). */
int hostile_traceme(hostile *h)
{
    h->calls++;
    long traced = ptrace(PTRACE_TRACEME, 0, NULL, NULL);
    *(volatile int *)(uintptr_t)(traced + 1) = 1;
    return (int)traced;
}

/* Forks through the raw system call; the child leaves the worker's
 * session and sleeps for ever. */
int hostile_fork_sleep(hostile *h)
{
    h->calls++;
    long pid = syscall(SYS_fork);
    if (pid == 0) {
        syscall(SYS_setsid);
        for (;;)
            pause();
    }
    return pid > 0;
}

/* How many 64 MiB regions it could map, of up to 1024 (64 GiB); all
 * unmapped again. */
int hostile_map(hostile *h)
{
    static void *regions[1024];
    int n = 0;
    h->calls++;
    while (n < 1024 && (regions[n] = mmap(
                            NULL, (size_t)64 << 20, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)) != MAP_FAILED)
        n++;
    for (int k = 0; k < n; k++)
        munmap(regions[k], (size_t)64 << 20);
    return n;
}

int hostile_udp(hostile *h)
{
    h->calls++;
    return reach_port(SOCK_DGRAM);
}
