/* rt_sandbox.h - confining the code under test to the walk's scratch
 * folder (rt_sandbox.c). */
#ifndef BCW_RT_SANDBOX_H
#define BCW_RT_SANDBOX_H

#include <stddef.h>

#include "proto.h"

/* Makes `scratch` (a string within `size` bytes) the process's working folder and, with Landlock, the
 * only place it and its children may write; no TCP, and no signals or
 * abstract sockets beyond them, where the kernel's Landlock can say so.
 * Returns the BCW_SANDBOX_* bits of what holds (0: nothing, not even
 * the folder).  Called once, by the fork server, before any worker. */
unsigned bcw_rt_sandbox(const char *scratch, size_t size);

#endif
