/* bitcode.c - LLVM C API wrappers: load with a diagnostic handler,
 * simplify for analysis, small accessors.  LLVMBool means failure when
 * non-zero; this file converts it to our error codes. */
#define _POSIX_C_SOURCE 200809L
#include "bitcode.h"

#include <llvm-c/BitReader.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Support.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"

#define BITCODE_LIMIT ((size_t)1 << 32)

static void diagnostic(LLVMDiagnosticInfoRef info, void *payload)
{
    char *msg = payload;
    if (LLVMGetDiagInfoSeverity(info) != LLVMDSError || msg[0] != '\0')
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

int bcw__bitcode_load(bcw_bitcode *out, const char *path)
{
    opaque_pointers_once();
    memset(out, 0, sizeof *out);
    char *data = NULL;
    size_t len = 0;
    int err = bcw__read_file(&data, &len, path, BITCODE_LIMIT);
    if (err < 0)
        return err;
    if (!has_bitcode_magic((const unsigned char *)data, len)) {
        free(data);
        return bcw__error(BCW_EINPUT,
                          "%s: not LLVM bitcode (make it with clang -c "
                          "-emit-llvm)",
                          path);
    }
    char msg[512] = "";
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMContextSetDiagnosticHandler(ctx, diagnostic, msg);
    LLVMMemoryBufferRef buf =
        LLVMCreateMemoryBufferWithMemoryRangeCopy(data, len, path);
    LLVMModuleRef mod = NULL;
    if (LLVMParseBitcodeInContext2(ctx, buf, &mod)) {
        int major = producer_major(msg);
        if (major > BCW_LLVM_MAJOR)
            err =
                bcw__error(BCW_EINPUT,
                           "%s: bitcode from LLVM %d cannot be read by "
                           "bcwalk built with LLVM %d: build bcwalk with "
                           "cmake -DBCW_LLVM_VERSION=%d, or compile the "
                           "library with clang-%d",
                           path, major, BCW_LLVM_MAJOR, major, BCW_LLVM_MAJOR);
        else
            err =
                bcw__error(BCW_EINPUT, "%s: invalid or truncated bitcode (%s)",
                           path, msg[0] ? msg : "parse failed");
        LLVMDisposeMemoryBuffer(buf);
        LLVMContextDispose(ctx);
        free(data);
        return err;
    }
    LLVMDisposeMemoryBuffer(buf);
    free(data);
    out->ctx = ctx;
    out->mod = mod;
    return 0;
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

LLVMValueRef bcw__called_function(LLVMValueRef call)
{
    LLVMValueRef callee = LLVMGetCalledValue(call);
    while (callee != NULL && LLVMIsAConstantExpr(callee) &&
           LLVMGetConstOpcode(callee) == LLVMBitCast)
        callee = LLVMGetOperand(callee, 0);
    return callee != NULL && LLVMIsAFunction(callee) ? callee : NULL;
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
