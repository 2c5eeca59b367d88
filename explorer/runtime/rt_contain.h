/* rt_contain.h - keeping the worker the worker (rt_contain.c): the libc
 * functions that end, replace, fork or change the process, as the code
 * under test calls them. */
#ifndef BCW_RT_CONTAIN_H
#define BCW_RT_CONTAIN_H

#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <time.h>

/* The sequence changed the process's state: the worker is replaced
 * after it (BCW_EXIT_RESTART). */
extern int bcw_rt_tainted;

/* Ends the sequence's containment: kills the children it forked, with
 * their process groups, and reaps them.  Called after every sequence
 * (free when there are none). */
void bcw_rt_contain_end(void);

/* Kills and reaps every child of the process until none is left: those
 * the code under test forked past bcwalk's fork (the raw system call),
 * and the processes orphaned below them, which a subreaper
 * (PR_SET_CHILD_SUBREAPER: the worker, the fork server) is given. */
void bcw_rt_reap_strays(void);

/* What the unit's calls are renamed to (native.c's table). */
int bcw_rt_exec(const char *path) __attribute__((noreturn));
pid_t bcw_rt_fork(void);
int bcw_rt_kill(pid_t pid, int signo);
int bcw_rt_close(int fd);
int bcw_rt_dup2(int fd, int to);
int bcw_rt_dup3(int fd, int to, int flags);
typedef void (*bcw_rt_sighandler)(int);
bcw_rt_sighandler bcw_rt_signal(int signo, bcw_rt_sighandler handler);
int bcw_rt_sigaction(int signo, const struct sigaction *act,
                     struct sigaction *old);
int bcw_rt_sigprocmask(int how, const sigset_t *set, sigset_t *old);
int bcw_rt_pthread_sigmask(int how, const sigset_t *set, sigset_t *old);
unsigned bcw_rt_alarm(unsigned seconds);
int bcw_rt_setitimer(int which, const struct itimerval *value,
                     struct itimerval *old);
int bcw_rt_timer_create(clockid_t clock, struct sigevent *ev, timer_t *t);
int bcw_rt_setrlimit(int resource, const struct rlimit *limit);
int bcw_rt_prlimit(pid_t pid, int resource, const struct rlimit *limit,
                   struct rlimit *old);
int bcw_rt_pthread_create(pthread_t *t, const pthread_attr_t *attr,
                          void *(*fn)(void *), void *arg);
int bcw_rt_chdir(const char *path);
int bcw_rt_fchdir(int fd);
mode_t bcw_rt_umask(mode_t mask);
int bcw_rt_setenv(const char *name, const char *value, int overwrite);
int bcw_rt_unsetenv(const char *name);
int bcw_rt_putenv(char *string);

#endif
