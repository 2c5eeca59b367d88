/* rt_files.c - the files the code under test makes (rt_files.h).  A
 * sequence must not find what an earlier one wrote: an export to "a" in
 * one and an import of "a" in the next would make the second depend on
 * the order the walk ran them in, and two workers would share the file.
 * Each worker works in a folder of its own inside the walk's scratch
 * folder (the only place the sandbox lets it write), and the calls that
 * create a name there (a file opened for writing, a folder, a link)
 * note it; the next sequence starts by emptying the folder.  Reading
 * costs nothing: only a sequence that created something pays for the
 * emptying. */
#define _GNU_SOURCE
#include "rt_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char home[4096]; /* the worker's folder, absolute; "" for none */
static int dirty;       /* a name may have been created since emptied */
static FILE *streams[BCW_RT_MAX_STREAMS]; /* given as FILE * arguments */
static unsigned nstreams;

/* The folder of worker `pid` in `scratch` into buf. */
static void folder_of(char *buf, size_t n, const char *scratch, pid_t pid)
{
    if (scratch[0] == '\0' ||
        snprintf(buf, n, "%s/w%ld", scratch, (long)pid) >= (int)n)
        buf[0] = '\0';
}

void bcw_rt_files_enter(const char *scratch)
{
    folder_of(home, sizeof home, scratch, getpid());
    if (home[0] == '\0' || mkdir(home, 0700) != 0 || chdir(home) != 0)
        home[0] = '\0';
}

/* Removes what folder `dir` (open, taken over) holds, `depth` folders
 * down so far. */
static void empty(int dir, int depth)
{
    DIR *d = fdopendir(dir);
    if (d == NULL) {
        close(dir);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (unlinkat(dirfd(d), e->d_name, 0) == 0 || depth >= 16)
            continue;
        int sub = openat(dirfd(d), e->d_name,
                         O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub >= 0)
            empty(sub, depth + 1);
        unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR);
    }
    closedir(d);
}

static void empty_folder(const char *path)
{
    int dir = path[0] != '\0'
                  ? open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                  : -1;
    if (dir >= 0)
        empty(dir, 0);
}

void bcw_rt_files_reset(void)
{
    if (dirty)
        empty_folder(home);
    dirty = 0;
}

void bcw_rt_files_gone(const char *scratch, pid_t pid)
{
    char path[sizeof home];
    folder_of(path, sizeof path, scratch, pid);
    empty_folder(path);
    if (path[0] != '\0')
        rmdir(path);
}

bool bcw_rt_files_stream(FILE *f)
{
    if (nstreams == BCW_RT_MAX_STREAMS)
        return false;
    streams[nstreams++] = f;
    return true;
}

void bcw_rt_files_close_streams(void)
{
    while (nstreams > 0)
        fclose(streams[--nstreams]);
}

int bcw_rt_fclose(FILE *f)
{
    for (unsigned i = 0; i < nstreams; i++)
        if (streams[i] == f) {
            streams[i] = streams[--nstreams];
            break;
        }
    return fclose(f);
}

static int creating_mode(const char *mode)
{
    return mode == NULL || mode[0] != 'r';
}

FILE *bcw_rt_fopen(const char *path, const char *mode)
{
    dirty |= creating_mode(mode);
    return fopen(path, mode);
}

FILE *bcw_rt_freopen(const char *path, const char *mode, FILE *stream)
{
    dirty |= creating_mode(mode);
    return freopen(path, mode, stream);
}

/* open's and openat's mode, there only with O_CREAT or O_TMPFILE */
#define MODE_ARG(flags, last, mode)                                           \
    do {                                                                      \
        if ((flags) & (O_CREAT | O_TMPFILE)) {                                \
            va_list ap;                                                       \
            va_start(ap, last);                                               \
            mode = (mode_t)va_arg(ap, unsigned);                              \
            va_end(ap);                                                       \
            dirty = 1;                                                        \
        }                                                                     \
    } while (0)

int bcw_rt_open(const char *path, int flags, ...)
{
    mode_t mode = 0;
    MODE_ARG(flags, flags, mode);
    return open(path, flags, mode);
}

int bcw_rt_openat(int dir, const char *path, int flags, ...)
{
    mode_t mode = 0;
    MODE_ARG(flags, flags, mode);
    return openat(dir, path, flags, mode);
}

int bcw_rt_creat(const char *path, mode_t mode)
{
    dirty = 1;
    return creat(path, mode);
}

int bcw_rt_mkdir(const char *path, mode_t mode)
{
    dirty = 1;
    return mkdir(path, mode);
}

int bcw_rt_mkdirat(int dir, const char *path, mode_t mode)
{
    dirty = 1;
    return mkdirat(dir, path, mode);
}

int bcw_rt_mkstemp(char *tmpl)
{
    dirty = 1;
    return mkstemp(tmpl);
}

int bcw_rt_mkostemp(char *tmpl, int flags)
{
    dirty = 1;
    return mkostemp(tmpl, flags);
}

int bcw_rt_mkstemps(char *tmpl, int suffix)
{
    dirty = 1;
    return mkstemps(tmpl, suffix);
}

char *bcw_rt_mkdtemp(char *tmpl)
{
    dirty = 1;
    return mkdtemp(tmpl);
}

int bcw_rt_link(const char *from, const char *to)
{
    dirty = 1;
    return link(from, to);
}

int bcw_rt_symlink(const char *from, const char *to)
{
    dirty = 1;
    return symlink(from, to);
}

int bcw_rt_mkfifo(const char *path, mode_t mode)
{
    dirty = 1;
    return mkfifo(path, mode);
}

int bcw_rt_mknod(const char *path, mode_t mode, dev_t dev)
{
    dirty = 1;
    return mknod(path, mode, dev);
}
