/* rt_sanitize.h - what the checks of `explore --sanitize` report
 * (rt_sanitize.c). */
#ifndef BCW_RT_SANITIZE_H
#define BCW_RT_SANITIZE_H

#include <stddef.h>
#include <stdint.h>

/* The runtime itself built with AddressSanitizer (CMake's BCW_SANITIZE) */
#if defined(__SANITIZE_ADDRESS__)
#define BCW_RT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BCW_RT_ASAN 1
#endif
#endif

#include "proto.h"
#include "rt_halt.h"

/* Called by a check in the unit's code when undefined behaviour `kind`
 * is about to happen, with its operands a and b of `bits` bits: records
 * it, with the call site, as the sequence's cause and halts it. */
void bcw_rt_ub(uint32_t kind, uint64_t a, uint64_t b, uint32_t bits)
    __attribute__((noreturn));

/* In a worker built with --sanitize address: tells ASan that the n bytes
 * at p are not the unit's to touch (a heap block's guard bytes, a freed
 * block, the gap after an argument), or are again.  Nothing otherwise,
 * nor in a runtime built with ASan itself, whose own reads they would
 * be. */
void bcw_rt_poison(const void *p, size_t n);
void bcw_rt_unpoison(const void *p, size_t n);

/* Does the worker carry AddressSanitizer (built with --sanitize address,
 * or a runtime built with ASan)? */
int bcw_rt_asan(void);

/* Has AddressSanitizer, when the worker carries it, hand its reports to
 * the runtime, which records them as the sequence's crash; an address in
 * the `size` bytes at `arena` is an argument's, `place` says where any
 * other is.  Called once, at set-up. */
void bcw_rt_sanitize_setup(const void *arena, size_t size,
                           bcw_rt_placer place);

#endif
