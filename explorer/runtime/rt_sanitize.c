/* rt_sanitize.c - what the checks of `explore --sanitize` report
 * (rt_sanitize.h): undefined behaviour the unit was about to do, and
 * AddressSanitizer's reports.
 *
 * bcw_rt_ub is called by the checks bcwalk compiled into the unit
 * (explorer/build/sanitize.cpp) before the operation: nothing has happened
 * yet, so it halts only the sequence and the worker goes on.  An
 * AddressSanitizer report comes after the bad access, from inside its
 * runtime, which then ends the process: the report's words and address
 * are recorded as the halt's cause, placed by the allocator as a fatal
 * signal's address is, and the worker exits (BCW_EXIT_FAULT) for the
 * fork server to replace.  The ASan runtime is linked only into workers
 * built with --sanitize address; its functions are weak here. */
#define _GNU_SOURCE
#include "rt_sanitize.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_halt.h"

void __asan_set_error_report_callback(void (*callback)(const char *))
    __attribute__((weak));
void __asan_poison_memory_region(void const volatile *addr, size_t size)
    __attribute__((weak));
void __asan_unpoison_memory_region(void const volatile *addr, size_t size)
    __attribute__((weak));
void __sanitizer_set_death_callback(void (*callback)(void))
    __attribute__((weak));

extern char __executable_start[], etext[];
/* the unit's functions, which sanitize.cpp put in a section of their own */
extern char __start_bcw_unit_text[] __attribute__((weak));
extern char __stop_bcw_unit_text[] __attribute__((weak));

static const char *const ub_words[] = {
    [BCW_UB_ADD_OVERFLOW] =
        "signed integer overflow: %" PRId64 " + %" PRId64 " in %u bits",
    [BCW_UB_SUB_OVERFLOW] =
        "signed integer overflow: %" PRId64 " - %" PRId64 " in %u bits",
    [BCW_UB_MUL_OVERFLOW] =
        "signed integer overflow: %" PRId64 " * %" PRId64 " in %u bits",
    [BCW_UB_DIV_OVERFLOW] =
        "signed integer overflow: %" PRId64 " / %" PRId64 " in %u bits",
    [BCW_UB_DIV_ZERO] = "%" PRId64 " divided by %" PRId64 " (%u bits)",
    [BCW_UB_SHIFT] =
        "shift of %" PRId64 " by %" PRId64 ", not less than its %u bits",
};

void bcw_rt_ub(uint32_t kind, uint64_t a, uint64_t b, uint32_t bits)
{
    bcw_wire_cause *c = bcw_rt_cause(BCW_CAUSE_UNDEFINED);
    uintptr_t ret = (uintptr_t)__builtin_return_address(0);
    if (ret >= (uintptr_t)__executable_start && ret < (uintptr_t)etext)
        c->pc = ret - 1;
    if (kind == BCW_UB_MISALIGNED)
        /* the address itself differs from run to run: its alignment */
        snprintf(c->text, sizeof c->text,
                 "misaligned access: %" PRIu64 "-byte alignment, the "
                 "address is %" PRIu64 " past it",
                 b, a & (b - 1));
    else if (kind == BCW_UB_NULL_ARG)
        snprintf(c->text, sizeof c->text,
                 "NULL passed as argument %" PRIu64
                 " of memcpy, memmove, memset or memcmp",
                 b + 1);
    else if (kind < sizeof ub_words / sizeof *ub_words)
        snprintf(c->text, sizeof c->text, ub_words[kind], (int64_t)a,
                 (int64_t)b, bits);
    bcw_rt_halt(BCW_RUN_CRASH, BCW_SIG_UNDEFINED);
}

int bcw_rt_asan(void)
{
#ifdef BCW_RT_ASAN
    return 1;
#else
    return __asan_poison_memory_region != NULL;
#endif
}

/* Has ASan's `mark` (poison or unpoison) the n bytes at p, when the
 * worker carries ASan and this runtime is not built with it. */
static void asan_mark(void (*mark)(void const volatile *, size_t),
                      const void *p, size_t n)
{
#ifndef BCW_RT_ASAN
    if (mark != NULL)
        mark(p, n);
#else
    (void)mark, (void)p, (void)n;
#endif
}

void bcw_rt_poison(const void *p, size_t n)
{
    asan_mark(__asan_poison_memory_region, p, n);
}

void bcw_rt_unpoison(const void *p, size_t n)
{
    asan_mark(__asan_unpoison_memory_region, p, n);
}

/* The last report ASan made, as it handed it over */
static char report[4096];
/* the arguments' arena (rt_args.c) */
static uintptr_t arena_lo, arena_hi;
static bcw_rt_placer placer; /* where any other address is */

static void on_report(const char *text)
{
    snprintf(report, sizeof report, "%s", text);
}

/* The hex number after `key` in the report, 0 if none. */
static uint64_t hex_after(const char *key)
{
    const char *p = strstr(report, key);
    return p != NULL ? strtoull(p + strlen(key), NULL, 16) : 0;
}

/* The first frame of the report's stack in the unit's code ("    #1
 * 0x4c2d3e  (/path/worker+0x4c2d3e)"), not in ASan's interceptor of a
 * libc function it called; 0 if none. */
static uint64_t unit_frame(void)
{
    uintptr_t lo = (uintptr_t)__start_bcw_unit_text,
              hi = (uintptr_t)__stop_bcw_unit_text;
    for (const char *p = strstr(report, "    #"); p != NULL;
         p = strstr(p + 1, "    #")) {
        const char *x = strstr(p, " 0x");
        uintptr_t pc = x ? (uintptr_t)strtoull(x + 3, NULL, 16) : 0;
        if (pc >= lo && pc < hi)
            /* a return address but for frame #0: one byte back names
             * the call */
            return strncmp(p, "    #0 ", 7) == 0 ? pc : pc - 1;
    }
    return 0;
}

/* ASan ends the process after its report: record it first. */
static void on_death(void)
{
    bcw_wire_cause *c = bcw_rt_cause(BCW_CAUSE_SANITIZER);
    /* "ERROR: AddressSanitizer: heap-buffer-overflow on address 0x... at
     * pc 0x... bp ..." then "READ of size 4 at 0x..." */
    const char *kind = strstr(report, "AddressSanitizer: ");
    if (kind != NULL) {
        kind += strlen("AddressSanitizer: ");
        size_t n = strcspn(kind, " \n");
        snprintf(c->text, sizeof c->text, "%.*s", (int)n, kind);
    }
    c->pc = unit_frame();
    const char *read = strstr(report, "READ of size");
    const char *write = strstr(report, "WRITE of size");
    c->access = read    ? BCW_ACCESS_READ
                : write ? BCW_ACCESS_WRITE
                        : BCW_ACCESS_UNKNOWN;
    uintptr_t addr = (uintptr_t)hex_after("on address 0x");
    if (addr >= arena_lo && addr < arena_hi) {
        /* the gap after a buffer bcwalk passed with its length */
        snprintf(c->text, sizeof c->text,
                 "%s past the end of a buffer argument",
                 c->access == BCW_ACCESS_WRITE ? "a write" : "a read");
        c->access = BCW_ACCESS_UNKNOWN;
        bcw_rt_halt_fatal(BCW_RUN_CRASH, BCW_SIG_SANITIZER);
    }
    placer(addr, c);
    /* what the allocator poisoned (rt_alloc.c) ASan calls
     * use-after-poison: the allocator knows which it was */
    if (strcmp(c->text, "use-after-poison") == 0)
        snprintf(c->text, sizeof c->text, "%s",
                 c->where == BCW_WHERE_FREED  ? "heap-use-after-free"
                 : c->where == BCW_WHERE_PAST ? "heap-buffer-overflow"
                                              : "use-after-poison");
    bcw_rt_halt_fatal(BCW_RUN_CRASH, BCW_SIG_SANITIZER);
}

void bcw_rt_sanitize_setup(const void *arena, size_t size, bcw_rt_placer place)
{
    placer = place;
    arena_lo = (uintptr_t)arena;
    arena_hi = arena_lo + size;
    if (__asan_set_error_report_callback != NULL)
        __asan_set_error_report_callback(on_report);
    if (__sanitizer_set_death_callback != NULL)
        __sanitizer_set_death_callback(on_death);
}
