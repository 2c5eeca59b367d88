/* rt_files.h - the files the code under test makes (rt_files.c): each
 * worker works in a folder of its own, emptied before a sequence when an
 * earlier one created anything there. */
#ifndef BCW_RT_FILES_H
#define BCW_RT_FILES_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

/* A new worker's own folder, made inside the walk's scratch folder and
 * made its working folder. */
void bcw_rt_files_enter(const char *scratch);

/* Before a sequence: the worker's folder emptied if a call since the
 * last time may have created a file in it. */
void bcw_rt_files_reset(void);

/* The fork server, once worker `pid` has ended however it ended: that
 * worker's folder emptied and removed. */
void bcw_rt_files_gone(const char *scratch, pid_t pid);

/* The streams FILE * arguments are given: at most BCW_RT_MAX_STREAMS
 * in a sequence, each noted by bcw_rt_files_stream (false when full)
 * and closed by bcw_rt_files_close_streams at the sequence's end, unless
 * the code under test closed it first (bcw_rt_fclose): a stream is
 * never closed twice by the runtime. */
#define BCW_RT_MAX_STREAMS 16
bool bcw_rt_files_stream(FILE *f);
void bcw_rt_files_close_streams(void);

/* What the unit's calls are renamed to (native.c's table): libc's,
 * noting that a file or folder may have been created, or that a stream
 * the runtime gave was closed. */
int bcw_rt_fclose(FILE *f);
FILE *bcw_rt_fopen(const char *path, const char *mode);
FILE *bcw_rt_freopen(const char *path, const char *mode, FILE *stream);
int bcw_rt_open(const char *path, int flags, ...);
int bcw_rt_openat(int dir, const char *path, int flags, ...);
int bcw_rt_creat(const char *path, mode_t mode);
int bcw_rt_mkdir(const char *path, mode_t mode);
int bcw_rt_mkdirat(int dir, const char *path, mode_t mode);
int bcw_rt_mkstemp(char *tmpl);
int bcw_rt_mkostemp(char *tmpl, int flags);
int bcw_rt_mkstemps(char *tmpl, int suffix);
char *bcw_rt_mkdtemp(char *tmpl);
int bcw_rt_link(const char *from, const char *to);
int bcw_rt_symlink(const char *from, const char *to);
int bcw_rt_mkfifo(const char *path, mode_t mode);
int bcw_rt_mknod(const char *path, mode_t mode, dev_t dev);

#endif
