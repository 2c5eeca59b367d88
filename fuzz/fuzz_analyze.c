/* fuzz_analyze.c - libFuzzer harness of the analysis: bitcode through
 * bcw__model_analyze_here (the analyzer in the harness's own process,
 * where the sanitizers watch it; bcwalk itself analyses in the child
 * that reads the bitcode) and bcw_model_partition (the solver), then the
 * model saved and loaded again.  Any input is a model or a one-line BCW_EINPUT,
 * never a crash, a hang or a leak.
 *
 * An input is bitcode when it starts with bitcode's magic: it goes
 * through bcwalk's whole reading, the child that parses and verifies it
 * first included.  Any other input is LLVM's textual IR, parsed,
 * verified and written as bitcode in a child of the harness's own (LLVM's
 * parser may abort too: on a bad data layout, for one): what it lets
 * through is a module LLVM's verifier accepts, as from bcwalk's child.
 * Mutations of the text make modules far more often than mutations of
 * bitcode's bitstream, so they reach the analysis. */
#include <errno.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze.h"
#include "bcwalk/error.h"
#include "bcwalk/model.h"
#include "bcwalk/solver.h"
#include "fuzz_file.h"

/* In the child: the textual IR at data written as bitcode to path; exit
 * 0 when it was, 1 when LLVM's parser or verifier refused it. */
static void ir_child(const uint8_t *data, size_t n, const char *path)
{
    static const int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t k = 0; k < sizeof fatal / sizeof *fatal; k++)
        signal(fatal[k], SIG_DFL);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(
        (const char *)data, n, "fuzz.ll");
    LLVMModuleRef mod = NULL;
    char *msg = NULL;
    /* the parser takes the buffer */
    _exit(LLVMParseIRInContext(ctx, buf, &mod, &msg) == 0 &&
                  LLVMVerifyModule(mod, LLVMReturnStatusAction, NULL) == 0 &&
                  LLVMWriteBitcodeToFile(mod, path) == 0
              ? 0
              : 1);
}

/* The textual IR at data as bitcode in fuzz_path("ir.bc"), or NULL when
 * LLVM refuses it. */
static const char *ir_to_bitcode(const uint8_t *data, size_t n)
{
    const char *path = fuzz_path("ir.bc");
    pid_t pid = fork();
    if (pid < 0)
        abort();
    if (pid == 0)
        ir_child(data, n, path);
    int status;
    pid_t got;
    while ((got = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    if (got != pid)
        abort();
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? path : NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    const char *path = n >= 4 && memcmp(data, "BC\xc0\xde", 4) == 0
                           ? fuzz_file(data, n)
                           : ir_to_bitcode(data, n);
    if (path == NULL)
        return 0;
    bcw_model *m = NULL;
    int err = bcw__model_analyze_here(&m, path);
    if (err == 0)
        err = bcw_model_partition(m);
    if (err != 0 && err != BCW_EINPUT)
        abort(); /* refused: only for the input's fault */
    if (err == 0) {
        bcw_model *again = NULL;
        if (bcw_model_save(m, fuzz_path("model")) != 0 ||
            bcw_model_load(&again, fuzz_path("model")) != 0 ||
            bcw_model_unit_count(again) != bcw_model_unit_count(m))
            abort();
        bcw_model_free(again);
    }
    bcw_model_free(m);
    return 0;
}
