/* rt_sandbox.h - confining the code under test to the walk's scratch
 * folder (rt_sandbox.c). */
#ifndef BCW_RT_SANDBOX_H
#define BCW_RT_SANDBOX_H

#include <stddef.h>

#include "proto.h"

/* Makes `scratch` (a string within `size` bytes) the process's working folder
 * and, with Landlock, the only place it and its children may write; no TCP, and
 * no signals or abstract sockets beyond them, where the kernel's Landlock can
 * say so. Returns the BCW_SANDBOX_* bits of what holds (0: nothing, not even
 * the folder).  Called once, by the fork server, before any worker. */
unsigned bcw_rt_sandbox(const char *scratch, size_t size);

/* The seccomp filter bcw_rt_sandbox installs (its BCW_SANDBOX_UNIX): no
 * unix socket, io_uring, ptrace, nor system call of another ABI, for
 * the process and every process it starts.  0 or -1. */
int bcw_rt_refuse_syscalls(void);

/* Caps the address space of the process and the workers it forks at
 * what is mapped now plus twice `mb` MiB and some room: memory the code
 * under test maps itself, beyond the allocator's count (--worker-memory),
 * ends in a failed allocation, not in the machine's swap.  Not for a
 * worker with AddressSanitizer, whose shadow memory is reserved up
 * front.  0 or -1. */
int bcw_rt_limit_memory(size_t mb);

#endif
