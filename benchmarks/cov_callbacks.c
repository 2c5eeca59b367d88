/* cov_callbacks.c - the SanitizerCoverage callbacks a program built with
 * -fsanitize-coverage needs when no sanitizer runtime is linked: the
 * flag and PC tables are only noted, and trace-pc-guard sets a flag per
 * guard, as a fuzzer's bitmap would.  bench_coverage.py links them into
 * its instrumented builds of native_bstack. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void __sanitizer_cov_bool_flag_init(bool *start, bool *stop);
void __sanitizer_cov_pcs_init(const uintptr_t *start, const uintptr_t *stop);
void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop);
void __sanitizer_cov_trace_pc_guard(uint32_t *guard);

static bool *flags_start, *flags_stop;
static uint8_t bitmap[1 << 16];

void __sanitizer_cov_bool_flag_init(bool *start, bool *stop)
{
    flags_start = start;
    flags_stop = stop;
}

void __sanitizer_cov_pcs_init(const uintptr_t *start, const uintptr_t *stop)
{
    (void)start;
    (void)stop;
}

void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop)
{
    static uint32_t n;
    for (uint32_t *g = start; g < stop; g++)
        *g = ++n % (sizeof bitmap);
}

void __sanitizer_cov_trace_pc_guard(uint32_t *guard)
{
    bitmap[*guard] = 1;
}
