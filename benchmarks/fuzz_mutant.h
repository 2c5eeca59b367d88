/* fuzz_mutant.h - what the mutation benchmark's libFuzzer harnesses
 * (fuzz_mutant_<unit>.c) share: FUZZ_TRACE=1 prints each operation (the
 * lines after "| ", which bench_mutants.py shows as a call sequence),
 * and the first result the mutant gives otherwise than the reference
 * traps. */
#ifndef FUZZ_MUTANT_H
#define FUZZ_MUTANT_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

static bool tracing;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    tracing = getenv("FUZZ_TRACE") != NULL;
    return 0;
}

/* Traps when the mutant's result differs from the reference's. */
static void same(const char *call, long mutant, long ref)
{
    if (tracing)
        fprintf(stderr, "| %s -> %ld (reference %ld)\n", call, mutant, ref);
    if (mutant != ref)
        __builtin_trap();
}

/* An operation with no result to compare, traced. */
static inline void trace(const char *call, int x)
{
    if (tracing)
        fprintf(stderr, "| %s(%d)\n", call, x);
}

#endif
