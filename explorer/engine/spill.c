/* spill.c - arrays in memory, then in a file (spill.h). */
#define _GNU_SOURCE
#include "spill.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "alloc.h"
#include "file.h"

/* An unlinked file for an array, its blocks for `bytes` reserved. */
static int open_file(size_t bytes, int *fd)
{
    char *path = bcw__sprintf("%s/bcwalk-walk.XXXXXX", bcw__tmp_dir());
    if (path == NULL)
        return BCW_ENOMEM;
    *fd = mkostemp(path, O_CLOEXEC);
    if (*fd >= 0)
        unlink(path);
    int err = *fd < 0 ? bcw__error(BCW_ERROR, "the walk's spill file %s: %s",
                                   path, strerror(errno))
                      : 0;
    free(path);
    if (err == 0 && posix_fallocate(*fd, 0, (off_t)bytes) != 0)
        err = BCW_SPILL_FULL;
    return err;
}

int bcw__sarr_grow(bcw_spill *sp, bcw_sarr *a, size_t need, size_t size)
{
    if (need <= a->cap)
        return 0;
    size_t cap = a->cap < 64 ? 64 : a->cap;
    while (cap < need)
        cap *= 2;
    size_t old = a->cap * size, bytes = cap * size;
    if (!a->in_file &&
        (sp->budget == 0 || sp->held - old + bytes <= sp->budget)) {
        void *p = bcw__realloc(a->p, bytes);
        if (p == NULL)
            return BCW_ENOMEM;
        a->p = p;
        a->cap = cap;
        sp->held += bytes - old;
        return 0;
    }
    if (!a->in_file) {
        int fd = -1, err = open_file(bytes, &fd);
        void *p = err == 0 ? mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                                  MAP_SHARED, fd, 0)
                           : MAP_FAILED;
        if (err == 0 && p == MAP_FAILED)
            err = BCW_ENOMEM;
        if (err < 0) {
            if (fd >= 0)
                close(fd);
            return err;
        }
        if (old > 0)
            memcpy(p, a->p, old);
        free(a->p);
        sp->held -= old;
        *a = (bcw_sarr){p, cap, fd, true};
        sp->spilled = true;
        sp->on_disk += bytes;
        return 0;
    }
    if (posix_fallocate(a->fd, 0, (off_t)bytes) != 0)
        return BCW_SPILL_FULL;
    void *p = mremap(a->p, old, bytes, MREMAP_MAYMOVE);
    if (p == MAP_FAILED)
        return BCW_ENOMEM;
    a->p = p;
    a->cap = cap;
    sp->on_disk += bytes - old;
    return 0;
}

void bcw__sarr_free(bcw_spill *sp, bcw_sarr *a, size_t size)
{
    if (a->in_file) {
        munmap(a->p, a->cap * size);
        close(a->fd);
        sp->on_disk -= a->cap * size;
    } else {
        free(a->p);
        sp->held -= a->cap * size;
    }
    *a = (bcw_sarr){0};
}
