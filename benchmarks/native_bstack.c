/* native_bstack.c - native C baseline for bcwalk's protocol walk of bstack.
 * With --ffi every call goes through libffi's ffi_call (its call
 * interfaces prepared once), as `bcwalk explore --calls ffi` calls: the
 * most a walk through libffi can reach on this machine. */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ffi.h>

/* examples/bstack.c has no header; declare its API here.  It is linked in as
 * a separate translation unit, so nothing gets inlined into the walk - the
 * same situation bcwalk is in when it calls the unit. */
typedef struct bstack bstack;
bstack *bstack_new(void);
void bstack_free(bstack *s);
void bstack_push(bstack *s, int x);
void bstack_pop(bstack *s);
int bstack_top(const bstack *s);
int bstack_size(const bstack *s);
bool bstack_is_empty(const bstack *s);
bool bstack_is_full(const bstack *s);

/* The method alphabet, in bcwalk's order. */
enum { OP_PUSH, OP_POP, OP_TOP, OP_SIZE, OP_IS_EMPTY, OP_IS_FULL, N_OPS };

/* 6^16 sequences is far beyond any feasible run; the cap only sizes arrays. */
#define MAX_DEPTH 16

enum { OUTCOME_NORMAL = 0, OUTCOME_ABORT = 1 };

/* One recorded call.  16 bytes, so a 64 KiB buffer holds 4096 of them. */
typedef struct {
    uint32_t seq;     /* executed-sequence id */
    uint32_t call;    /* 0 = constructor, 1..L = methods, L+1 = destructor */
    int32_t result;   /* return value, 0 for void calls */
    uint32_t outcome; /* OUTCOME_NORMAL or OUTCOME_ABORT */
} record;

#define RECORD_BUF_BYTES (64 * 1024)
#define RECORD_CAP (RECORD_BUF_BYTES / sizeof(record))

/* A tool that records every result has to pay for storing it and for
 * eventually consuming it; folding the full buffer into a checksum stands in
 * for the consumer and keeps the compiler from discarding the results. */
static record records[RECORD_CAP];
static size_t n_records;
static uint64_t checksum = 0xcbf29ce484222325u; /* FNV-1a offset basis */

static void fold_records(void)
{
    const uint64_t *w = (const uint64_t *)(const void *)records;
    for (size_t i = 0; i < n_records * (sizeof(record) / sizeof *w); i++)
        checksum = (checksum ^ w[i]) * 0x100000001b3u; /* FNV-1a prime */
    n_records = 0;
}

static inline void record_call(uint32_t seq, uint32_t call, int32_t result,
                               uint32_t outcome)
{
    if (n_records == RECORD_CAP)
        fold_records();
    records[n_records++] = (record){seq, call, result, outcome};
}

/* abort() raises SIGABRT; the handler jumps back into run_sequence.
 * SA_NODEFER leaves SIGABRT unblocked inside the handler, so jumping out
 * with a mask-less siglongjmp leaves the mask as it was - which is what
 * lets sigsetjmp(env, 0) skip the sigprocmask syscall per sequence. */
static sigjmp_buf abort_env;

static void on_sigabrt(int sig)
{
    (void)sig;
    siglongjmp(abort_env, 1);
}

/* --ffi: the calls through ffi_call, each function's interface prepared
 * once (cif_ptr: one pointer argument; cif_push: a pointer and an int;
 * cif_new: none). */
static bool use_ffi;
static ffi_cif cif_new, cif_ptr, cif_push;
static ffi_type *ptr_args[] = {&ffi_type_pointer, &ffi_type_sint};

static void prepare_ffi(void)
{
    if (ffi_prep_cif(&cif_new, FFI_DEFAULT_ABI, 0, &ffi_type_pointer, NULL) !=
            FFI_OK ||
        ffi_prep_cif(&cif_ptr, FFI_DEFAULT_ABI, 1, &ffi_type_sint, ptr_args) !=
            FFI_OK ||
        ffi_prep_cif(&cif_push, FFI_DEFAULT_ABI, 2, &ffi_type_void, ptr_args) !=
            FFI_OK) {
        fputs("native_bstack: ffi_prep_cif failed\n", stderr);
        exit(1);
    }
}

/* Method `op` on s through ffi_call (push given x); its int result. */
static int32_t call_ffi(int op, bstack *s, int x)
{
    static void (*const fns[N_OPS])(void) = {
        FFI_FN(bstack_push), FFI_FN(bstack_pop),      FFI_FN(bstack_top),
        FFI_FN(bstack_size), FFI_FN(bstack_is_empty), FFI_FN(bstack_is_full)};
    void *args[] = {&s, &x};
    ffi_arg r = 0;
    ffi_call(op == OP_PUSH ? &cif_push : &cif_ptr, fns[op], &r, args);
    /* push and pop are void; bool results come back widened, their low
     * byte the value */
    return op == OP_PUSH || op == OP_POP           ? 0
           : op == OP_IS_EMPTY || op == OP_IS_FULL ? (int32_t)(r & 0xff)
                                                   : (int32_t)r;
}

/* The constructor and the destructor, directly or through ffi_call. */
static bstack *make(void)
{
    if (!use_ffi)
        return bstack_new();
    void *r = NULL;
    ffi_call(&cif_new, FFI_FN(bstack_new), &r, NULL);
    return r;
}

static void destroy(bstack *s)
{
    if (!use_ffi) {
        bstack_free(s);
        return;
    }
    void *args[] = {&s};
    ffi_arg r;
    ffi_call(&cif_ptr, FFI_FN(bstack_free), &r, args);
}

/* Which call is in flight.  A static rather than an automatic variable so
 * that its value is well defined after siglongjmp without making the
 * per-call loop variable volatile. */
static uint32_t current_call;

struct stats {
    uint64_t normal, terminated, discarded, calls;
};
static struct stats stats;
static uint32_t next_seq_id;

/* Replay one sequence from scratch: new object, every call, free.
 * Returns true if it completed normally, false if its last call aborted. */
static bool run_sequence(const unsigned char *ops, int len)
{
    uint32_t id = next_seq_id++;
    /* volatile: s is read after siglongjmp, so it must live in memory. */
    bstack *volatile s = make();
    if (s == NULL) {
        fputs("native_bstack: bstack_new returned NULL (out of memory)\n",
              stderr);
        exit(1);
    }
    record_call(id, 0, 1, OUTCOME_NORMAL);

    if (sigsetjmp(abort_env, 0) != 0) {
        record_call(id, current_call, 0, OUTCOME_ABORT);
        /* The constructor plus every method up to and including the abort. */
        stats.calls += 1 + current_call;
        /* Safe here: pop and top abort before touching the stack. */
        destroy(s);
        return false;
    }

    int32_t arg = 0; /* per-sequence int-argument counter: 1, 2, ... */
    for (int i = 0; i < len; i++) {
        int32_t r = 0;
        current_call = (uint32_t)i + 1;
        if (use_ffi) {
            r = call_ffi(ops[i], s, ops[i] == OP_PUSH ? ++arg : 0);
            record_call(id, (uint32_t)i + 1, r, OUTCOME_NORMAL);
            continue;
        }
        /* A switch of direct calls, not a table of function pointers:
         * the cheapest dispatch a hand-written harness could use. */
        switch (ops[i]) {
        case OP_PUSH:
            bstack_push(s, ++arg);
            break;
        case OP_POP:
            bstack_pop(s);
            break;
        case OP_TOP:
            r = bstack_top(s);
            break;
        case OP_SIZE:
            r = bstack_size(s);
            break;
        case OP_IS_EMPTY:
            r = bstack_is_empty(s);
            break;
        case OP_IS_FULL:
            r = bstack_is_full(s);
            break;
        }
        record_call(id, (uint32_t)i + 1, r, OUTCOME_NORMAL);
    }

    destroy(s);
    record_call(id, (uint32_t)len + 1, 0, OUTCOME_NORMAL);
    stats.calls += (uint64_t)len + 2; /* constructor + methods + destructor */
    if (len == 0) {
        /* as bcwalk does: a destructor that checks its object for NULL
         * is given NULL once, after the constructor's sequence */
        destroy(NULL);
        stats.calls++;
    }
    return true;
}

/* extensions[r] = 6 + 6^2 + ... + 6^r: how many longer sequences (up to the
 * walk depth) start with a given sequence that sits r below the depth.  When
 * a sequence aborts, all of them are discarded without being run. */
static uint64_t extensions[MAX_DEPTH + 1];

/* Depth-first: run ops[0..len), then, if it completed, every one-call
 * extension.  Visits the same set of sequences as a breadth-first walk. */
static void walk(unsigned char *ops, int len, int depth)
{
    if (!run_sequence(ops, len)) {
        stats.terminated++;
        stats.discarded += extensions[depth - len];
        return;
    }
    stats.normal++;
    if (len == depth)
        return;
    for (int op = 0; op < N_OPS; op++) {
        ops[len] = (unsigned char)op;
        walk(ops, len + 1, depth);
    }
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    char *end;
    use_ffi = argc == 3 && strcmp(argv[2], "--ffi") == 0;
    long depth = argc == 2 || use_ffi ? strtol(argv[1], &end, 10) : -1;
    if (depth < 0 || *argv[1] == '\0' || *end != '\0' || depth > MAX_DEPTH) {
        fprintf(stderr, "usage: %s DEPTH [--ffi]   (0..%d)\n", argv[0],
                MAX_DEPTH);
        return 2;
    }
    if (use_ffi)
        prepare_ffi();

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigabrt;
    sa.sa_flags = SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGABRT, &sa, NULL) != 0) {
        perror("native_bstack: sigaction");
        return 1;
    }

    for (int r = 1; r <= MAX_DEPTH; r++) {
        uint64_t p = 1;
        for (int j = 0; j < r; j++)
            p *= N_OPS;
        extensions[r] = extensions[r - 1] + p;
    }

    unsigned char ops[MAX_DEPTH];
    double t0 = now_s();
    walk(ops, 0, (int)depth);
    fold_records(); /* the tail of the buffer is part of the recording cost */
    double elapsed = now_s() - t0;

    uint64_t executed = stats.normal + stats.terminated;
    printf("{\"tool\":\"%s\",\"depth\":%ld,"
           "\"sequences\":{\"normal\":%" PRIu64 ",\"terminated\":%" PRIu64
           ",\"discarded\":%" PRIu64 "},"
           "\"calls\":%" PRIu64 ",\"elapsed_s\":%.6f,"
           "\"calls_per_s\":%.1f,\"sequences_per_s\":%.1f,"
           "\"checksum\":\"%016" PRIx64 "\"}\n",
           use_ffi ? "native-ffi" : "native", depth, stats.normal,
           stats.terminated, stats.discarded, stats.calls, elapsed,
           elapsed > 0 ? (double)stats.calls / elapsed : 0.0,
           elapsed > 0 ? (double)executed / elapsed : 0.0, checksum);
    return 0;
}
