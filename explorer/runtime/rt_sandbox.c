/* rt_sandbox.c - what the code under test may touch outside the worker
 * (rt_sandbox.h): its working folder is the walk's scratch folder, the
 * only place it may write, and it may not make TCP connections, bind
 * TCP ports, reach abstract unix sockets or signal processes outside
 * the worker's own.  Landlock (Linux 5.13 and later) does it without
 * privileges, for the fork server and every worker it forks; what the
 * kernel's Landlock cannot do (network rules before ABI 4, scopes
 * before ABI 6) is left undone, and no Landlock at all is said in the
 * plan for the parent's report.  A seccomp filter denies unix sockets,
 * which a path in the file system reaches whatever Landlock says. */
#define _GNU_SOURCE
#include "rt_sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The kernel's ABI (linux/landlock.h) as of Landlock ABI 6: Debian 12's
 * headers stop at ABI 2, the running kernel may know more. */
struct ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net; /* ABI 4 */
    uint64_t scoped;             /* ABI 6 */
};
#define ACCESS_FS_TRUNCATE (1ull << 14)        /* ABI 3 */
#define ACCESS_NET_BIND_TCP (1ull << 0)        /* ABI 4 */
#define ACCESS_NET_CONNECT_TCP (1ull << 1)     /* ABI 4 */
#define SCOPE_ABSTRACT_UNIX_SOCKET (1ull << 0) /* ABI 6 */
#define SCOPE_SIGNAL (1ull << 1)               /* ABI 6 */

/* Every right that changes the file system, by the ABI that brought it */
static uint64_t write_rights(long abi)
{
    uint64_t rights =
        LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |
        LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_CHAR |
        LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
        LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO |
        LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM;
    if (abi >= 2)
        rights |= LANDLOCK_ACCESS_FS_REFER;
    if (abi >= 3)
        rights |= ACCESS_FS_TRUNCATE;
    return rights;
}

/* The ruleset's attribute as this ABI knows it: its size grew with the
 * network rights (ABI 4) and scopes (ABI 6). */
static size_t attr_size(long abi)
{
    if (abi >= 6)
        return sizeof(struct ruleset_attr);
    return abi >= 4 ? offsetof(struct ruleset_attr, scoped)
                    : offsetof(struct ruleset_attr, handled_access_net);
}

/* Allows every write right beneath `path` in ruleset rs: 0 or -1. */
static int allow(int rs, const char *path, uint64_t rights)
{
    struct landlock_path_beneath_attr beneath = {
        .allowed_access = rights,
        .parent_fd = open(path, O_PATH | O_CLOEXEC),
    };
    if (beneath.parent_fd < 0)
        return -1;
    int rc = (int)syscall(SYS_landlock_add_rule, rs, LANDLOCK_RULE_PATH_BENEATH,
                          &beneath, 0);
    close(beneath.parent_fd);
    return rc;
}

/* Writes `text` to the file `path`: 0 or -1. */
static int put_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, text, strlen(text));
    close(fd);
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* A network namespace of its own, with no interface up: no UDP, TCP or
 * unix socket by address reaches anything outside.  Unprivileged, it
 * needs a user namespace, in which the process keeps its own uid and
 * gid.  0 or -1 (the kernel allows no user namespace: left as it is). */
static int no_network(void)
{
    uid_t uid = getuid();
    gid_t gid = getgid();
    if (unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0)
        return -1;
    char map[64];
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
    if (put_file("/proc/self/uid_map", map) != 0)
        return -1;
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
    put_file("/proc/self/setgroups", "deny");
    return put_file("/proc/self/gid_map", map);
}

#if defined(__x86_64__)
#define OWN_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define OWN_ARCH AUDIT_ARCH_AARCH64
#endif

/* No unix socket and no io_uring (whose operations pass by the
 * filter): a socket by a path in the file system reaches any local
 * daemon whatever the network namespace and Landlock say, so socket()
 * for AF_UNIX fails with EACCES (socketpair, which reaches no one, is
 * left).  No ptrace (EPERM): PTRACE_TRACEME would make the fork server
 * the worker's tracer, stopping it on its next signal.  System calls of another
 * ABI (int 0x80, x32), whose numbers the filter does not know, fail with
 * ENOSYS.  A seccomp filter, inherited by every process the worker starts; it
 * needs no_new_privs.  0 or -1. */
int bcw_rt_refuse_syscalls(void)
{
#ifdef OWN_ARCH
    struct sock_filter code[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, OWN_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 6, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_ptrace, 6, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_io_uring_setup, 4, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_socket, 0, 2),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                 offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
    };
    struct sock_fprog prog = {sizeof code / sizeof *code, code};
    return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
                   prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0
               ? 0
               : -1;
#else
    return -1;
#endif
}

unsigned bcw_rt_sandbox(const char *scratch, size_t size)
{
    unsigned held = no_network() == 0 ? BCW_SANDBOX_NET : 0;
    held |= bcw_rt_refuse_syscalls() == 0 ? BCW_SANDBOX_UNIX : 0;
    if (scratch[0] == '\0' || strnlen(scratch, size) == size ||
        chdir(scratch) != 0)
        return held;
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0,
                       LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 1)
        return held;
    struct ruleset_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.handled_access_fs = write_rights(abi);
    if (abi >= 4)
        attr.handled_access_net = ACCESS_NET_BIND_TCP | ACCESS_NET_CONNECT_TCP;
    if (abi >= 6)
        attr.scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL;
    int rs =
        (int)syscall(SYS_landlock_create_ruleset, &attr, attr_size(abi), 0);
    if (rs < 0)
        return held;
    int ok = allow(rs, scratch, attr.handled_access_fs) == 0 &&
#ifdef BCW_SANITIZER_LOG
             /* a sanitizer build's reports (rt_main.c) */
             allow(rs, BCW_SANITIZER_DIR, attr.handled_access_fs) == 0 &&
#endif
             prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
             syscall(SYS_landlock_restrict_self, rs, 0) == 0;
    close(rs);
    if (!ok)
        return held;
    return held | BCW_SANDBOX_FILES | (abi >= 4 ? BCW_SANDBOX_TCP : 0) |
           (abi >= 6 ? BCW_SANDBOX_SCOPED : 0);
}

int bcw_rt_limit_memory(size_t mb)
{
    /* what is mapped now, the code and the plan, in pages */
    FILE *f = fopen("/proc/self/statm", "re");
    unsigned long pages = 0;
    int ok = f != NULL && fscanf(f, "%lu", &pages) == 1;
    if (f != NULL)
        fclose(f);
    if (!ok)
        return -1;
    /* room for the limit's blocks twice over (headers, fragmentation,
     * the quarantine) and for libc's own arenas */
    rlim_t bytes = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) +
                   ((rlim_t)mb << 21) + ((rlim_t)256 << 20);
    struct rlimit lim = {bytes, bytes};
    return setrlimit(RLIMIT_AS, &lim);
}
