/* file.c - whole-file reads and maps, atomic writes, folders and the cache
 * root. */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700 /* realpath */
#define _DEFAULT_SOURCE   /* MAP_POPULATE */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "alloc.h"
#include "hash.h"

int bcw__output_target(const char *path, char **out)
{
    *out = NULL;
    struct stat st;
    if (lstat(path, &st) < 0) {
        if (errno != ENOENT)
            return bcw__error(BCW_EINPUT, "%s: %s", path, strerror(errno));
        return (*out = bcw__strdup(path)) != NULL ? 0 : BCW_ENOMEM;
    }
    char *target = NULL;
    if (S_ISLNK(st.st_mode)) {
        /* the file the link names, written in place of the link */
        if ((target = realpath(path, NULL)) == NULL)
            return bcw__error(BCW_EINPUT,
                              "%s: a symbolic link to nothing (%s): bcwalk "
                              "writes to the file a link names, which must "
                              "be there",
                              path, strerror(errno));
        if (stat(target, &st) < 0)
            st.st_mode = S_IFREG;
    }
    if (!S_ISREG(st.st_mode)) {
        free(target);
        return bcw__error(BCW_EINPUT,
                          "%s: not a regular file: bcwalk replaces only files",
                          path);
    }
    *out = target != NULL ? target : bcw__strdup(path);
    return *out != NULL ? 0 : BCW_ENOMEM;
}

/* `path` made absolute where it can be: its folder's real path and its
 * name; the caller's, or NULL. */
static char *resolved(const char *path)
{
    char *real = realpath(path, NULL);
    if (real != NULL)
        return real;
    const char *slash = strrchr(path, '/');
    char *dir = slash == NULL ? bcw__strdup(".")
                : slash == path
                    ? bcw__strdup("/")
                    : bcw__sprintf("%.*s", (int)(slash - path), path);
    if (dir == NULL)
        return NULL;
    char *rdir = realpath(dir, NULL);
    char *out = rdir != NULL
                    ? bcw__sprintf("%s/%s", rdir, slash ? slash + 1 : path)
                    : bcw__strdup(path);
    free(dir);
    free(rdir);
    return out;
}

int bcw__same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (strcmp(a, b) == 0)
        return 1;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char *ra = resolved(a), *rb = resolved(b);
    int same = ra == NULL || rb == NULL ? BCW_ENOMEM : strcmp(ra, rb) == 0;
    free(ra);
    free(rb);
    return same;
}

int bcw__tmp_open(const char *path, char **tmp)
{
    static unsigned serial;
    *tmp = NULL;
    for (int tries = 0; tries < 64; tries++) {
        char *name =
            bcw__sprintf("%s.tmp.%ld.%u", path, (long)getpid(), serial++);
        if (name == NULL)
            return BCW_ENOMEM;
        int fd = open(
            name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd >= 0) {
            *tmp = name;
            return fd;
        }
        int e = errno;
        free(name);
        /* no such folder, or not the user's to write: the path's fault */
        if (e != EEXIST)
            return bcw__error(BCW_EINPUT, "cannot write %s: %s", path,
                              strerror(e));
    }
    return bcw__error(
        BCW_EINPUT, "cannot write %s: its temporary names are all taken", path);
}

int bcw__write_file_atomic(const char *path, const void *data, size_t n)
{
    char *target, *tmp = NULL;
    int err = bcw__output_target(path, &target);
    if (err < 0)
        return err;
    int fd = bcw__tmp_open(target, &tmp);
    if (fd < 0) {
        free(target);
        return fd;
    }
    const char *p = data;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0) {
            err = bcw__error(BCW_ERROR, "write %s: %s", path, strerror(errno));
            goto done;
        }
        p += w;
        n -= (size_t)w;
    }
    if (fsync(fd) < 0) {
        err = bcw__error(BCW_ERROR, "fsync %s: %s", path, strerror(errno));
        goto done;
    }
    if (close(fd) < 0) {
        fd = -1;
        err = bcw__error(BCW_ERROR, "close %s: %s", path, strerror(errno));
        goto done;
    }
    fd = -1;
    if (rename(tmp, target) < 0)
        err = bcw__error(BCW_ERROR, "rename %s to %s: %s", tmp, target,
                         strerror(errno));
done:
    if (fd >= 0)
        close(fd);
    if (err < 0)
        unlink(tmp);
    free(tmp);
    free(target);
    return err;
}

/* The file at path opened to read, into *fd, its size into *size: a
 * regular file of at most `limit` bytes.  0 or BCW_EINPUT naming it. */
static int open_regular(const char *path, size_t limit, int *fd, size_t *size)
{
    /* not blocking: a FIFO or a device is refused, never waited on */
    *fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (*fd < 0)
        return bcw__error(BCW_EINPUT, "%s: %s", path, strerror(errno));
    struct stat st;
    int err = 0;
    if (fstat(*fd, &st) < 0)
        err = bcw__error(BCW_EINPUT, "%s: %s", path, strerror(errno));
    else if (!S_ISREG(st.st_mode))
        err = bcw__error(BCW_EINPUT, "%s: not a regular file", path);
    else if ((size_t)st.st_size > limit)
        err = bcw__error(BCW_EINPUT, "%s: larger than %zu bytes", path, limit);
    if (err != 0) {
        close(*fd);
        *fd = -1;
    }
    *size = err == 0 ? (size_t)st.st_size : 0;
    return err;
}

int bcw__read_file(char **out, size_t *len, const char *path, size_t limit)
{
    *out = NULL;
    *len = 0;
    int fd;
    size_t size;
    int err = open_regular(path, limit, &fd, &size);
    if (err < 0)
        return err;
    char *data = bcw__malloc(size + 1);
    size_t got = 0;
    for (ssize_t n = 1; data != NULL && got < size && n > 0; got += (size_t)n)
        if ((n = read(fd, data + got, size - got)) <= 0)
            break;
    if (data == NULL)
        err = BCW_ENOMEM;
    else if (got != size)
        err = bcw__error(BCW_EINPUT, "%s: read failed", path);
    close(fd);
    if (err < 0) {
        free(data);
        return err;
    }
    data[got] = '\0';
    *out = data;
    *len = got;
    return 0;
}

int bcw__map_file(const char **out, size_t *len, const char *path, size_t limit)
{
    *out = NULL;
    *len = 0;
    int fd;
    size_t size;
    int err = open_regular(path, limit, &fd, &size);
    if (err < 0 || size == 0) {
        if (fd >= 0)
            close(fd);
        return err;
    }
    void *m = mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED)
        return bcw__error(BCW_ERROR, "mmap %s: %s", path, strerror(errno));
    *out = m;
    *len = size;
    return 0;
}

void bcw__unmap_file(const char *data, size_t len)
{
    if (data != NULL)
        munmap((void *)data, len);
}

static int remove_one(const char *path, const struct stat *st, int flag,
                      struct FTW *ftw)
{
    (void)st, (void)ftw;
    if (flag == FTW_DP)
        rmdir(path);
    else
        unlink(path);
    return 0;
}

void bcw__remove_tree(const char *dir)
{
    nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

int bcw__mkdir_p(const char *path)
{
    char *p = bcw__strdup(path);
    if (p == NULL)
        return BCW_ENOMEM;
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0755) < 0 && errno != EEXIST) {
            int err = bcw__error(BCW_ERROR, "mkdir %s: %s", p, strerror(errno));
            free(p);
            return err;
        }
        *s = '/';
    }
    int err = 0;
    if (mkdir(p, 0755) < 0 && errno != EEXIST)
        err = bcw__error(BCW_ERROR, "mkdir %s: %s", p, strerror(errno));
    free(p);
    return err;
}

/* Is `path` an absolute path to a folder that is there and writable? */
static bool writable_dir(const char *path)
{
    struct stat st;
    return path != NULL && path[0] == '/' && stat(path, &st) == 0 &&
           S_ISDIR(st.st_mode) && access(path, W_OK | X_OK) == 0;
}

char *bcw__cache_root(const char *dir)
{
    if (dir != NULL)
        return bcw__strdup(dir);
    /* $XDG_CACHE_HOME as the user says; a home only when it is there
     * and the user's to write: one pointing nowhere is not made */
    const char *xdg = getenv("XDG_CACHE_HOME");
    if (xdg != NULL && xdg[0] == '/')
        return bcw__sprintf("%s/bcwalk", xdg);
    const char *home = getenv("HOME");
    if (writable_dir(home))
        return bcw__sprintf("%s/.cache/bcwalk", home);
    return bcw__sprintf("%s/bcwalk-cache-%ld", bcw__tmp_dir(), (long)getuid());
}

int bcw__hash_file(uint64_t *h, const char *path)
{
    char *data;
    size_t len;
    int err = bcw__read_file(&data, &len, path, (size_t)1 << 32);
    if (err < 0)
        return err;
    *h = bcw__hash(data, len, *h);
    free(data);
    return 0;
}

/* The checksum text of files[0..n-1] (bcw__sum_write). */
static int sum_text(char text[18], const char *const *files, size_t n)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        int err =
            access(files[i], F_OK) == 0 ? bcw__hash_file(&sum, files[i]) : 0;
        if (err < 0)
            return err;
    }
    snprintf(text, 18, "%016llx\n", (unsigned long long)sum);
    return 0;
}

int bcw__sum_write(const char *sum, const char *const *files, size_t n)
{
    char text[18];
    int err = sum_text(text, files, n);
    return err < 0 ? err : bcw__write_file_atomic(sum, text, strlen(text));
}

int bcw__sum_check(const char *sum, const char *const *files, size_t n)
{
    char *saved = NULL, text[18];
    size_t len = 0;
    int err = bcw__read_file(&saved, &len, sum, sizeof text);
    if (err == 0)
        err = sum_text(text, files, n);
    int same = err == 0 && len == strlen(text) && strcmp(saved, text) == 0;
    free(saved);
    if (err == BCW_ENOMEM)
        return err;
    bcw__error_clear(); /* an unreadable file is a damaged one */
    return same;
}

int bcw__install_path(char **out, const char *rel)
{
    *out = NULL;
    char exe[4096];
    const char *env = getenv("BCWALK_PREFIX");
    char *prefix = NULL;
    if (env != NULL && env[0] != '\0') {
        prefix = bcw__strdup(env);
    } else {
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n < 0)
            return bcw__error(BCW_ERROR, "readlink /proc/self/exe: %s",
                              strerror(errno));
        exe[n] = '\0';
        /* prefix/bin/bcwalk: two levels up */
        for (int up = 0; up < 2; up++) {
            char *slash = strrchr(exe, '/');
            if (slash == NULL)
                return bcw__error(BCW_ERROR,
                                  "cannot tell where bcwalk is "
                                  "installed from %s (set BCWALK_PREFIX)",
                                  exe);
            *slash = '\0';
        }
        prefix = bcw__strdup(exe[0] ? exe : "/");
    }
    char *path = prefix ? bcw__sprintf("%s/%s", prefix, rel) : NULL;
    free(prefix);
    if (path == NULL)
        return BCW_ENOMEM;
    if (access(path, R_OK) != 0) {
        int err = bcw__error(BCW_ERROR,
                             "%s: %s (bcwalk's installation is incomplete; "
                             "BCWALK_PREFIX names another prefix)",
                             path, strerror(errno));
        free(path);
        return err;
    }
    *out = path;
    return 0;
}

/* bcw__tmp_hold's files, and the handler that removes them */
#define MAX_HELD 8
static const char *volatile held[MAX_HELD];

static void remove_held(int signo)
{
    for (size_t i = 0; i < MAX_HELD; i++)
        if (held[i] != NULL)
            unlink(held[i]);
    signal(signo, SIG_DFL);
    raise(signo);
}

void bcw__tmp_hold(const char *path)
{
    static int installed;
    if (!installed) {
        installed = 1;
        int sigs[] = {SIGINT, SIGTERM, SIGHUP};
        for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
            struct sigaction sa;
            memset(&sa, 0, sizeof sa);
            sa.sa_handler = remove_held;
            sigaction(sigs[i], &sa, NULL);
        }
    }
    for (size_t i = 0; i < MAX_HELD; i++)
        if (held[i] == NULL) {
            held[i] = path;
            return;
        }
}

void bcw__tmp_release(const char *path)
{
    for (size_t i = 0; i < MAX_HELD; i++)
        if (held[i] == path)
            held[i] = NULL;
}

const char *bcw__tmp_dir(void)
{
    const char *tmp = getenv("TMPDIR");
    return tmp != NULL && tmp[0] == '/' ? tmp : "/tmp";
}

int bcw__write_stream_atomic(FILE *f, char **data, size_t *len,
                             const char *path)
{
    int bad = ferror(f);
    if (fclose(f) != 0 || bad || *data == NULL) {
        free(*data);
        *data = NULL;
        return BCW_ENOMEM;
    }
    int err = bcw__write_file_atomic(path, *data, *len);
    free(*data);
    *data = NULL;
    return err;
}
