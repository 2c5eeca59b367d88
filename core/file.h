/* file.h - whole-file reads, atomic writes, folders and the cache root. */
#ifndef BCW_FILE_H
#define BCW_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "errors.h"

/* Where an output named `path` is written, into *out (the caller's):
 * `path`, or the file a symbolic link there names (the link stays; a
 * link to nothing is refused); an existing path that is no regular file
 * (a device, a folder, a FIFO) is refused.  0, BCW_EINPUT or
 * BCW_ENOMEM. */
BCW_INTERNAL int bcw__output_target(const char *path, char **out);

/* Do paths `a` and `b` name one file: the same string, the same inode,
 * or (not there yet) the same name in the same real folder?  1 or 0, or
 * BCW_ENOMEM. */
BCW_INTERNAL int bcw__same_file(const char *a, const char *b);

/* A new temporary file beside `path` (its folder: a rename replaces
 * `path` atomically), made by this call, never an existing file nor a
 * link planted at its name (O_EXCL | O_NOFOLLOW).  Its descriptor
 * (close-on-exec) and its name in *tmp (the caller's), or an error:
 * BCW_EINPUT when the folder cannot take it. */
BCW_INTERNAL int bcw__tmp_open(const char *path, char **tmp);

/* Writes `n` bytes to `path` atomically: a temporary file beside its
 * target (bcw__output_target), fsync, rename.  0, or BCW_EINPUT when
 * the path cannot take it, else BCW_ERROR, with the failing call
 * named. */
/* Closes f, a memory stream (open_memstream) over *data and *len, and
 * writes what it holds to `path` atomically; frees *data.  0,
 * BCW_ENOMEM when the stream failed, or bcw__write_file_atomic's error. */
BCW_INTERNAL int bcw__write_stream_atomic(FILE *f, char **data, size_t *len,
                                          const char *path);
BCW_INTERNAL int bcw__write_file_atomic(const char *path, const void *data,
                                        size_t n);
/* Reads a whole file; *out is the caller's (free()). */
BCW_INTERNAL int bcw__read_file(char **out, size_t *len, const char *path,
                                size_t limit);
/* The same, mapped read-only rather than read (*out NULL for an empty
 * file): undone with bcw__unmap_file. */
BCW_INTERNAL int bcw__map_file(const char **out, size_t *len, const char *path,
                               size_t limit);
BCW_INTERNAL void bcw__unmap_file(const char *data, size_t len);

/* mkdir -p; 0 or BCW_ERROR naming the folder. */
BCW_INTERNAL int bcw__mkdir_p(const char *path);

/* Removes folder `dir` and everything in it (symbolic links themselves,
 * never what they name), as far as it can. */
BCW_INTERNAL void bcw__remove_tree(const char *dir);
/* The cache folder: `dir` if given, else $XDG_CACHE_HOME/bcwalk, else
 * $HOME/.cache/bcwalk when $HOME is a folder that is there and
 * writable, else $TMPDIR/bcwalk-cache-UID.  The caller's (free());
 * NULL if out of memory. */
BCW_INTERNAL char *bcw__cache_root(const char *dir);
/* Where bcwalk is installed: $BCWALK_PREFIX if set, else the folder above
 * the running executable's (prefix/bin/bcwalk; in the build tree
 * build/bin/bcwalk, whose build/lib and build/include mirror an
 * install).  Nothing of the build tree is compiled in.  *out is
 * "<prefix>/<rel>", the caller's (free()); BCW_ERROR when it does not
 * exist, naming where it was looked for. */
BCW_INTERNAL int bcw__install_path(char **out, const char *rel);
/* A temporary file that an interrupted run (SIGINT, SIGTERM, SIGHUP)
 * removes: held from creation until renamed or removed, at most 8 at a
 * time (more are not removed on a signal).  `path` must outlive the
 * hold. */
BCW_INTERNAL void bcw__tmp_hold(const char *path);
BCW_INTERNAL void bcw__tmp_release(const char *path);

/* The folder for temporary files: $TMPDIR when it is an absolute path,
 * else /tmp. */
BCW_INTERNAL const char *bcw__tmp_dir(void);

/* Continues hash *h over the contents of a file. */
BCW_INTERNAL int bcw__hash_file(uint64_t *h, const char *path);

/* A cache entry's checksum file: bcw__hash of the bytes of files[0..n-1]
 * in turn (those that exist), as 16 hex digits and a newline, written
 * atomically to `sum`; 0 or an error. */
BCW_INTERNAL int bcw__sum_write(const char *sum, const char *const *files,
                                size_t n);
/* Does `sum` hold the checksum of files[0..n-1]?  1 or 0 (a missing,
 * damaged or unreadable file is 0), or BCW_ENOMEM. */
BCW_INTERNAL int bcw__sum_check(const char *sum, const char *const *files,
                                size_t n);

#endif
