/* bitcode.c - LLVM C API wrappers: load with a diagnostic handler,
 * simplify for analysis, small accessors.  LLVMBool means failure when
 * non-zero; this file converts it to our error codes. */
#define _POSIX_C_SOURCE 200809L
#include "bitcode.h"

#include <errno.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Support.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "alloc.h"
#include "diinfo.h"
#include "file.h"
#include "text.h"

#define BITCODE_LIMIT ((size_t)1 << 32)

/* AddressSanitizer's shadow memory is data too, mapped at start: with it
 * no data limit leaves room for anything (its allocator has its own) */
#if defined(__SANITIZE_ADDRESS__)
#define BCW_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BCW_ASAN 1
#endif
#endif

/* The context's diagnostic handler: LLVM's first error into payload (512
 * bytes), or nothing when it is NULL (a handler stays set: without one
 * LLVM exits the process on an error). */
static void diagnostic(LLVMDiagnosticInfoRef info, void *payload)
{
    char *msg = payload;
    if (msg == NULL || LLVMGetDiagInfoSeverity(info) != LLVMDSError ||
        msg[0] != '\0')
        return;
    char *text = LLVMGetDiagInfoDescription(info);
    snprintf(msg, 512, "%s", text);
    LLVMDisposeMessage(text);
}

/* A raw bitcode file starts with 'BC' 0xC0DE; the wrapper format used on
 * Darwin with 0x0B17C0DE. */
static int has_bitcode_magic(const unsigned char *p, size_t n)
{
    if (n >= 4 && p[0] == 'B' && p[1] == 'C' && p[2] == 0xC0 && p[3] == 0xDE)
        return 1;
    return n >= 4 && p[0] == 0xDE && p[1] == 0xC0 && p[2] == 0x17 &&
           p[3] == 0x0B;
}

/* The LLVM major version that wrote the bitcode, from the "(Producer:
 * 'LLVM19.1.7' Reader: 'LLVM 14.0.6')" part of LLVM's parse error, or 0.
 * The producer string itself is char6-encoded in the file. */
static int producer_major(const char *msg)
{
    const char *p = strstr(msg, "Producer: 'LLVM");
    if (p == NULL)
        return 0;
    p += strlen("Producer: 'LLVM");
    int major = 0;
    while (*p >= '0' && *p <= '9')
        major = major * 10 + (*p++ - '0');
    return major;
}

/* One code path for typed and opaque pointers: LLVM 14 reads typed
 * bitcode as opaque when told so once, before any context exists.  From
 * LLVM 15 opaque pointers are the default (and from 17 the only kind). */
static void opaque_pointers_once(void)
{
#if BCW_LLVM_MAJOR < 15
    static int done;
    if (done)
        return;
    done = 1;
    const char *argv[] = {"bcwalk", "-opaque-pointers"};
    LLVMParseCommandLineOptions(2, argv, NULL);
#endif
}

/* Parses the len bytes at data into *mod in context *ctx (a new one when
 * it is NULL), LLVM's error into msg (512 bytes); non-zero when it
 * failed. */
static LLVMBool parse(const char *data, size_t len, const char *path, char *msg,
                      LLVMContextRef *ctx, LLVMModuleRef *mod)
{
    if (*ctx == NULL)
        *ctx = LLVMContextCreate();
    LLVMContextSetDiagnosticHandler(*ctx, diagnostic, msg);
    LLVMMemoryBufferRef buf =
        LLVMCreateMemoryBufferWithMemoryRangeCopy(data, len, path);
    *mod = NULL;
    LLVMBool failed = LLVMParseBitcodeInContext2(*ctx, buf, mod);
    LLVMDisposeMemoryBuffer(buf);
    /* msg lives no longer than the caller's call */
    LLVMContextSetDiagnosticHandler(*ctx, diagnostic, NULL);
    return failed;
}

/* The child's exit codes: read and verified, or not readable (LLVM's
 * parse error, handled in process), or read but not a valid module.
 * None is 0 or 1, which an exit in LLVM or a sanitizer's report in the
 * child gives: any other ending is the reader's failure. */
enum {
    CHECK_OK = 100,
    CHECK_UNREADABLE = 101,
    CHECK_INVALID = 103,
    CHECK_FAILED = 104, /* the use's error -code: 105 .. 108 */
    CHECK_UNSENT = 110  /* the use's bytes could not be written */
};

static int clean_names(LLVMModuleRef mod);

/* Writes the n bytes at p to fd whole; false when it cannot. */
static bool write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        p += k;
        n -= (size_t)k;
    }
    return true;
}

/* The child's use of the module it read and verified: its bytes into
 * out_fd and exit CHECK_OK, or its error's message there and exit
 * CHECK_FAILED - error. */
static void use_child(LLVMContextRef ctx, LLVMModuleRef mod, const char *path,
                      bcw_bitcode_use use, int out_fd)
{
    bcw_bitcode bc = {ctx, mod};
    char *bytes = NULL;
    size_t n = 0;
    int err = clean_names(mod);
    if (err == 0)
        err = use(&bc, path, &bytes, &n);
    if (err < 0) {
        const char *msg = bcw_error_last()[0] ? bcw_error_last()
                          : err == BCW_ENOMEM ? "out of memory"
                                              : "analysis failed";
        write_all(out_fd, msg, strlen(msg));
        _exit(CHECK_FAILED - (err < -4 ? -1 : err));
    }
    if (write_all(out_fd, bytes, n))
        _exit(CHECK_OK);
    dprintf(2, "%s", strerror(errno));
    _exit(CHECK_UNSENT);
}

/* In a child process (LLVM's reader may abort or crash on malformed
 * input): parses the len bytes at data and verifies the module, writing
 * LLVM's complaint to fd; then, with `use`, hands the module to it
 * (use_child). */
static void check_child(const char *data, size_t len, const char *path, int fd,
                        bcw_bitcode_use use, int out_fd)
{
    /* a fault in LLVM's reader ends the child as a fault, whatever the
     * process that forked it handles (a fuzzer's, a sanitizer's) */
    static const int fatal[] = {SIGSEGV, SIGBUS,  SIGFPE, SIGILL,
                                SIGABRT, SIGTRAP, SIGSYS};
    for (size_t k = 0; k < sizeof fatal / sizeof *fatal; k++)
        signal(fatal[k], SIG_DFL);
        /* LLVM's reader sizes tables by counts in the file: what a damaged
         * count asks for fails in the child (LLVM gives up), never takes the
         * machine's memory.  A reader needs far less than this.  Not with
         * AddressSanitizer (BCW_ASAN). */
#ifndef BCW_ASAN
    rlim_t data_max = ((rlim_t)4 << 30) + (rlim_t)len * 64;
    struct rlimit lim = {data_max, data_max};
    setrlimit(RLIMIT_DATA, &lim);
#endif
    dup2(fd, 2); /* "LLVM ERROR: ..." before an abort */
    char msg[512] = "";
    LLVMContextRef ctx = NULL;
    LLVMModuleRef mod;
    if (parse(data, len, path, msg, &ctx, &mod)) {
        dprintf(fd, "%s", msg[0] ? msg : "parse failed");
        _exit(CHECK_UNREADABLE);
    }
    char *why = NULL;
    if (LLVMVerifyModule(mod, LLVMReturnStatusAction, &why)) {
        dprintf(fd, "%s", why ? why : "");
        _exit(CHECK_INVALID);
    }
    /* verified: what fails from here on is the use's */
    if (use != NULL && write_all(out_fd, "V", 1))
        use_child(ctx, mod, path, use, out_fd);
    _exit(CHECK_OK);
}

/* LLVM's parse error `msg` on the bitcode at path, as one line. */
static int unreadable(const char *path, const char *msg)
{
    int major = producer_major(msg);
    if (major > BCW_LLVM_MAJOR)
        return bcw__error(BCW_EINPUT,
                          "%s: bitcode from LLVM %d cannot be read by "
                          "bcwalk built with LLVM %d: build bcwalk with "
                          "cmake -DBCW_LLVM_VERSION=%d, or compile the "
                          "library with clang-%d",
                          path, major, BCW_LLVM_MAJOR, major, BCW_LLVM_MAJOR);
    return bcw__error(BCW_EINPUT, "%s: invalid or truncated bitcode (%s)", path,
                      msg[0] ? msg : "parse failed");
}

/* The bytes of file fd from offset `from` on, NUL-terminated, into
 * *out (the caller frees it) and *n. */
static int read_from(int fd, off_t from, char **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    off_t end = lseek(fd, 0, SEEK_END);
    if (end < from)
        return bcw__error(BCW_ERROR, "reading the analysis: %s",
                          end < 0 ? strerror(errno) : "nothing written");
    size_t len = (size_t)(end - from);
    if ((*out = bcw__malloc(len + 1)) == NULL)
        return BCW_ENOMEM;
    if (len > 0 && pread(fd, *out, len, from) != (ssize_t)len) {
        free(*out);
        *out = NULL;
        return bcw__error(BCW_ERROR, "reading the analysis: %s",
                          strerror(errno));
    }
    (*out)[len] = '\0';
    *n = len;
    return 0;
}

/* Did the child verify the module and hand it to its use (its mark at
 * the start of fd)? */
static bool child_used(int fd)
{
    char mark = 0;
    return pread(fd, &mark, 1, 0) == 1 && mark == 'V';
}

/* The error of a child whose use of the module failed (status): the
 * use's own, its message in fd; its bytes unwritten, `why`; or the use
 * ended otherwise. */
static int use_failed(int fd, int status, const char *path, const char *why)
{
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
    if (code > CHECK_FAILED && code <= CHECK_FAILED + 4) {
        char *msg;
        size_t n;
        int err = read_from(fd, 1, &msg, &n);
        if (err < 0)
            return err;
        bcw__error(CHECK_FAILED - code, "%s", msg);
        free(msg);
        return CHECK_FAILED - code;
    }
    if (code == CHECK_UNSENT)
        return bcw__error(BCW_ERROR,
                          "%s: the analysis could not hand its model back "
                          "through a file in %s: %s",
                          path, bcw__tmp_dir(), why);
    return bcw__error(BCW_ERROR,
                      "%s: bcwalk's analysis of it ended with %s%d: a bug "
                      "of bcwalk's, not of the file",
                      path, WIFSIGNALED(status) ? "signal " : "exit status ",
                      WIFSIGNALED(status) ? WTERMSIG(status) : code);
}

/* Reads untrusted bitcode in a child first: 0 when bcwalk may read it
 * itself (LLVM read it and its verifier accepts it), else an error
 * saying what the child found (one line).  bcwalk's own process never
 * parses what the child could not (LLVM's reader leaks, and may do
 * worse, on what it gives up on).  With `use`, the child hands it the
 * module, and what it makes goes into file out_fd (its error, the
 * use's). */
static int check_bitcode(const char *data, size_t len, const char *path,
                         bcw_bitcode_use use, int out_fd)
{
    int fds[2];
    if (pipe(fds) < 0)
        return bcw__error(BCW_ERROR, "pipe: %s", strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return bcw__error(BCW_ERROR, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        close(fds[0]);
        check_child(data, len, path, fds[1], use, out_fd);
    }
    close(fds[1]);
    char text[512];
    size_t n = 0;
    ssize_t got;
    while (n < sizeof text - 1 &&
           ((got = read(fds[0], text + n, sizeof text - 1 - n)) > 0 ||
            (got < 0 && errno == EINTR)))
        n += got > 0 ? (size_t)got : 0;
    close(fds[0]);
    text[n] = '\0';
    /* its first line, without LLVM's prefix */
    text[strcspn(text, "\n")] = '\0';
    const char *why = strncmp(text, "LLVM ERROR: ", 12) == 0 ? text + 12 : text;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(status) && WEXITSTATUS(status) == CHECK_OK &&
        (use == NULL || child_used(out_fd)))
        return 0;
    if (WIFEXITED(status) && WEXITSTATUS(status) == CHECK_UNREADABLE)
        return unreadable(path, text);
    if (WIFEXITED(status) && WEXITSTATUS(status) == CHECK_INVALID)
        return bcw__error(BCW_EINPUT, "%s: invalid module (%s)", path,
                          why[0] ? why : "LLVM's verifier refused it");
    if (use != NULL && child_used(out_fd))
        return use_failed(out_fd, status, path, why);
    return bcw__error(BCW_EINPUT,
                      "%s: invalid or truncated bitcode (LLVM's reader %s "
                      "on it%s%s)",
                      path,
                      WIFSIGNALED(status) && WTERMSIG(status) != SIGABRT
                          ? "crashed"
                          : "gave up",
                      why[0] ? ": " : "", why);
}

/* Renames each function and global whose name is not valid UTF-8 (no C
 * identifier is: a damaged or foreign module), so that every name the
 * model and its reports print is text.  The worker is built from the
 * module read the same way, so its symbols agree. */
static int clean_names(LLVMModuleRef mod)
{
    LLVMValueRef first[] = {LLVMGetFirstFunction(mod), LLVMGetFirstGlobal(mod)};
    for (int k = 0; k < 2; k++)
        for (LLVMValueRef v = first[k]; v != NULL;
             v = k ? LLVMGetNextGlobal(v) : LLVMGetNextFunction(v)) {
            size_t len;
            const char *name = LLVMGetValueName2(v, &len);
            if (bcw__utf8_valid(name, len) && memchr(name, 0, len) == NULL)
                continue;
            char *clean = bcw__malloc(len + 1);
            if (clean == NULL)
                return BCW_ENOMEM;
            memcpy(clean, name, len);
            clean[len] = '\0';
            bcw__utf8_clean(clean);
            LLVMSetValueName2(v, clean, strlen(clean));
            free(clean);
        }
    return 0;
}

/* The bitcode file at path into *data (the caller frees it), *len;
 * BCW_EINPUT when it is not bitcode. */
static int read_bitcode(const char *path, char **data, size_t *len)
{
    opaque_pointers_once();
    int err = bcw__read_file(data, len, path, BITCODE_LIMIT);
    if (err < 0)
        return err;
    if (!has_bitcode_magic((const unsigned char *)*data, *len)) {
        free(*data);
        *data = NULL;
        return bcw__error(BCW_EINPUT,
                          "%s: not LLVM bitcode (make it with clang -c "
                          "-emit-llvm)",
                          path);
    }
    return 0;
}

int bcw__bitcode_in_child(const char *path, bcw_bitcode_use use, char **out,
                          size_t *nout)
{
    *out = NULL;
    *nout = 0;
    char *data = NULL;
    size_t len = 0;
    int err = read_bitcode(path, &data, &len);
    if (err < 0)
        return err;
    /* the child's bytes, in a file read once it ended (no pipe to keep
     * drained beside its messages'), unlinked at once */
    char *name = bcw__sprintf("%s/bcwalk-analysis.XXXXXX", bcw__tmp_dir());
    int fd = name != NULL ? mkstemp(name) : -1;
    if (fd < 0) {
        err = name == NULL ? BCW_ENOMEM
                           : bcw__error(BCW_ERROR, "mkstemp %s: %s", name,
                                        strerror(errno));
        free(name);
        free(data);
        return err;
    }
    unlink(name);
    free(name);
    err = check_bitcode(data, len, path, use, fd);
    free(data);
    if (err == 0)
        err = read_from(fd, 1, out, nout);
    close(fd);
    return err;
}

int bcw__bitcode_load_in(bcw_bitcode *out, const char *path, LLVMContextRef ctx)
{
    memset(out, 0, sizeof *out);
    char *data = NULL;
    size_t len = 0;
    int err = read_bitcode(path, &data, &len);
    if (err < 0)
        return err;
    if ((err = check_bitcode(data, len, path, NULL, -1)) < 0) {
        free(data);
        return err;
    }
    char msg[512] = "";
    LLVMContextRef own = ctx;
    LLVMModuleRef mod;
    if (parse(data, len, path, msg, &ctx, &mod)) {
        err = unreadable(path, msg);
        if (own == NULL)
            LLVMContextDispose(ctx);
        free(data);
        return err;
    }
    free(data);
    out->ctx = own == NULL ? ctx : NULL; /* a context given stays its owner's */
    out->mod = mod;
    if (clean_names(mod) < 0) {
        bcw__bitcode_dispose(out);
        return BCW_ENOMEM;
    }
    return 0;
}

int bcw__bitcode_load(bcw_bitcode *out, const char *path)
{
    return bcw__bitcode_load_in(out, path, NULL);
}

/* Lists every function `mod` defines in its named metadata BCW_OWN_MD:
 * what is the library's own once other modules are linked into it. */
static void mark_own(LLVMModuleRef mod)
{
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn;
         fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn))
            continue;
        size_t len;
        const char *name = LLVMGetValueName2(fn, &len);
        LLVMMetadataRef str = LLVMMDStringInContext2(ctx, name, len);
        LLVMValueRef node =
            LLVMMetadataAsValue(ctx, LLVMMDNodeInContext2(ctx, &str, 1));
        LLVMAddNamedMetadataOperand(mod, BCW_OWN_MD, node);
    }
}

int bcw__bitcode_link(const char *out, const char *path,
                      const char *const *with, size_t n)
{
    bcw_bitcode main;
    int err = bcw__bitcode_load(&main, path);
    if (err < 0)
        return err;
    mark_own(main.mod);
    for (size_t i = 0; err == 0 && i < n; i++) {
        bcw_bitcode other;
        if ((err = bcw__bitcode_load_in(&other, with[i], main.ctx)) < 0)
            break;
        err = bcw__bitcode_link_into(main.mod, other.mod, with[i], path);
    }
    if (err == 0)
        err = bcw__bitcode_write(main.mod, out);
    bcw__bitcode_dispose(&main);
    return err;
}

int bcw__bitcode_link_into(LLVMModuleRef dst, LLVMModuleRef src,
                           const char *src_path, const char *dst_path)
{
    char msg[512] = "";
    /* the linker reports through the context's handler: this one, whose
     * buffer lives as long as the call */
    LLVMContextRef ctx = LLVMGetModuleContext(dst);
    LLVMContextSetDiagnosticHandler(ctx, diagnostic, msg);
    LLVMBool failed = LLVMLinkModules2(dst, src);
    LLVMContextSetDiagnosticHandler(ctx, diagnostic, NULL);
    return failed
               ? bcw__error(BCW_EINPUT, "%s: cannot be linked with %s (%s)",
                            src_path, dst_path, msg[0] ? msg : "LLVM's linker")
               : 0;
}

int bcw__bitcode_write(LLVMModuleRef mod, const char *out)
{
    /* the debug records of variables whose size LLVM would look for
     * forever (a typedef of itself): clang compiling the module would
     * hang on them as sroa does */
    bcw__di_drop_unsized(mod);
    /* through memory: LLVM's own file stream ends the process on a
     * failed write (a full disk, `ulimit -f`), ours says it */
    LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(mod);
    if (buf == NULL)
        return BCW_ENOMEM;
    int err = bcw__write_file_atomic(out, LLVMGetBufferStart(buf),
                                     LLVMGetBufferSize(buf));
    LLVMDisposeMemoryBuffer(buf);
    return err;
}

void bcw__bitcode_dispose(bcw_bitcode *bc)
{
    if (bc->mod != NULL)
        LLVMDisposeModule(bc->mod);
    if (bc->ctx != NULL)
        LLVMContextDispose(bc->ctx);
    bc->mod = NULL;
    bc->ctx = NULL;
}

int bcw__bitcode_simplify(bcw_bitcode *bc)
{
    unsigned optnone = LLVMGetEnumAttributeKindForName("optnone", 7);
    unsigned noinline = LLVMGetEnumAttributeKindForName("noinline", 8);
    for (LLVMValueRef fn = LLVMGetFirstFunction(bc->mod); fn != NULL;
         fn = LLVMGetNextFunction(fn)) {
        LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, optnone);
        LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                                       noinline);
    }
    bcw__di_drop_unsized(bc->mod);
    LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
    LLVMErrorRef e = LLVMRunPasses(bc->mod, "function(sroa)", NULL, opts);
    LLVMDisposePassBuilderOptions(opts);
    if (e != NULL) {
        char *msg = LLVMGetErrorMessage(e);
        int err = bcw__error(BCW_ERROR, "LLVM passes failed: %s", msg);
        LLVMDisposeErrorMessage(msg);
        return err;
    }
    return 0;
}

static bool null_or(LLVMValueRef v, bcw_leaf_fn *leaf, void *ctx, int hops)
{
    while (LLVMIsABitCastInst(v))
        v = LLVMGetOperand(v, 0);
    if (LLVMIsAConstantPointerNull(v))
        return true;
    if (hops < 8 && LLVMIsAPHINode(v)) {
        for (unsigned k = 0; k < LLVMCountIncoming(v); k++)
            if (!null_or(LLVMGetIncomingValue(v, k), leaf, ctx, hops + 1))
                return false;
        return true;
    }
    if (hops < 8 && LLVMIsASelectInst(v))
        return null_or(LLVMGetOperand(v, 1), leaf, ctx, hops + 1) &&
               null_or(LLVMGetOperand(v, 2), leaf, ctx, hops + 1);
    return leaf(v, ctx);
}

bool bcw__returns_only(LLVMValueRef fn, bcw_leaf_fn *leaf, void *ctx)
{
    bool any = false;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
         bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        if (t == NULL || !LLVMIsAReturnInst(t) || LLVMGetNumOperands(t) != 1)
            continue;
        if (!null_or(LLVMGetOperand(t, 0), leaf, ctx, 0))
            return false;
        any = true;
    }
    return any;
}

/* The argument of `call` that its callee, a module function, returns
 * on every path (a cast helper: JC_OBJECT_C(jso) returning jso as
 * another type), or NULL. */
static LLVMValueRef passed_through(LLVMValueRef call)
{
    LLVMValueRef callee = LLVMGetCalledValue(call);
    if (!LLVMIsAFunction(callee) || LLVMIsDeclaration(callee))
        return NULL;
    LLVMValueRef arg = NULL;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(callee); bb;
         bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        if (t == NULL || !LLVMIsAReturnInst(t))
            continue;
        if (LLVMGetNumOperands(t) != 1)
            return NULL;
        LLVMValueRef v = LLVMGetOperand(t, 0);
        while (LLVMIsABitCastInst(v))
            v = LLVMGetOperand(v, 0);
        if (!LLVMIsAArgument(v) || (arg != NULL && v != arg))
            return NULL;
        arg = v;
    }
    for (unsigned k = 0; arg != NULL && k < LLVMCountParams(callee); k++)
        if (LLVMGetParam(callee, k) == arg)
            return LLVMGetOperand(call, k);
    return NULL;
}

/* Is `v` an address inside the block `base` points to? */
static bool derived_from(LLVMValueRef v, LLVMValueRef base, int hops)
{
    if (v == base)
        return true;
    if (hops > 8 || v == NULL)
        return false;
    if (LLVMIsAGetElementPtrInst(v) || LLVMIsABitCastInst(v))
        return derived_from(LLVMGetOperand(v, 0), base, hops + 1);
    if (LLVMIsALoadInst(v)) /* through the unit's pointer fields */
        return derived_from(LLVMGetOperand(v, 0), base, hops + 1);
    if (LLVMIsASelectInst(v))
        return derived_from(LLVMGetOperand(v, 1), base, hops + 1) ||
               derived_from(LLVMGetOperand(v, 2), base, hops + 1);
    if (LLVMIsACallInst(v))
        return derived_from(passed_through(v), base, hops + 1);
    if (LLVMIsAPHINode(v)) {
        for (unsigned k = 0; k < LLVMCountIncoming(v); k++)
            if (derived_from(LLVMGetIncomingValue(v, k), base, hops + 1))
                return true;
    }
    return false;
}

bool bcw__external_definition(LLVMValueRef fn)
{
    LLVMLinkage l = LLVMGetLinkage(fn);
    return !LLVMIsDeclaration(fn) && l != LLVMInternalLinkage &&
           l != LLVMPrivateLinkage;
}

bool bcw__derived_from(LLVMValueRef v, LLVMValueRef base)
{
    return derived_from(v, base, 0);
}

LLVMValueRef bcw__called_function(LLVMValueRef call)
{
    LLVMValueRef callee = LLVMGetCalledValue(call);
    while (callee != NULL && LLVMIsAConstantExpr(callee) &&
           LLVMGetConstOpcode(callee) == LLVMBitCast)
        callee = LLVMGetOperand(callee, 0);
    return callee != NULL && LLVMIsAFunction(callee) ? callee : NULL;
}

LLVMValueRef bcw__uncast(LLVMValueRef v)
{
    for (int hops = 0; hops < 4 && LLVMIsABitCastInst(v); hops++)
        v = LLVMGetOperand(v, 0);
    return v;
}

bool bcw__same_field(LLVMValueRef a, LLVMValueRef b)
{
    unsigned n = (unsigned)LLVMGetNumOperands(a);
    if (!LLVMIsAGetElementPtrInst(a) || !LLVMIsAGetElementPtrInst(b) ||
        LLVMGetGEPSourceElementType(a) != LLVMGetGEPSourceElementType(b) ||
        n != (unsigned)LLVMGetNumOperands(b))
        return false;
    for (unsigned k = 1; k < n; k++) {
        LLVMValueRef x = LLVMGetOperand(a, k), y = LLVMGetOperand(b, k);
        if (!LLVMIsAConstantInt(x) || !LLVMIsAConstantInt(y) ||
            LLVMConstIntGetSExtValue(x) != LLVMConstIntGetSExtValue(y))
            return false;
    }
    return true;
}

LLVMValueRef bcw__passed_to(LLVMValueRef call, LLVMValueRef v, unsigned *k)
{
    LLVMValueRef callee =
        LLVMIsACallInst(call) ? bcw__called_function(call) : NULL;
    if (callee == NULL || LLVMIsDeclaration(callee))
        return NULL;
    unsigned n = (unsigned)LLVMGetNumArgOperands(call);
    for (; *k < n && *k < LLVMCountParams(callee); (*k)++) {
        if (bcw__uncast(LLVMGetOperand(call, *k)) == v)
            return LLVMGetParam(callee, *k);
    }
    return NULL;
}

static LLVMValueRef first_from(LLVMBasicBlockRef bb)
{
    for (; bb != NULL; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef in = LLVMGetFirstInstruction(bb);
        if (in != NULL)
            return in;
    }
    return NULL;
}

LLVMValueRef bcw__first_instruction(LLVMValueRef fn)
{
    return first_from(LLVMGetFirstBasicBlock(fn));
}

LLVMValueRef bcw__next_instruction(LLVMValueRef in)
{
    LLVMValueRef next = LLVMGetNextInstruction(in);
    return next ? next
                : first_from(
                      LLVMGetNextBasicBlock(LLVMGetInstructionParent(in)));
}

const char *bcw__value_name(LLVMValueRef v)
{
    size_t len;
    return LLVMGetValueName2(v, &len);
}

const char *bcw__function_file(LLVMValueRef fn, unsigned *len)
{
    LLVMMetadataRef sp = LLVMGetSubprogram(fn);
    if (sp == NULL)
        return NULL;
    LLVMMetadataRef file = LLVMDIScopeGetFile(sp);
    return file ? LLVMDIFileGetFilename(file, len) : NULL;
}

int bcw__debug_path(LLVMValueRef v, char **path)
{
    unsigned nd = 0, nn = 0;
    const char *name = LLVMGetDebugLocFilename(v, &nn);
    const char *dir = LLVMGetDebugLocDirectory(v, &nd);
    *path = NULL;
    if (name == NULL || nn == 0)
        return 0;
    *path = name[0] != '/' && dir != NULL && nd > 0
                ? bcw__sprintf("%.*s/%.*s", (int)nd, dir, (int)nn, name)
                : bcw__strndup(name, nn);
    return *path != NULL ? 0 : BCW_ENOMEM;
}
