/* pointee.c - pointee inference (pointee.h): debug info first, then the
 * pointer's uses (GEP source types, loads, stores, calls) and, for
 * results, the definitions that flow into `ret`. */
#define _POSIX_C_SOURCE 200809L
#include "pointee.h"

#include <stdio.h>
#include <string.h>

#include "bitcode.h"
#include "text.h"

#define MAX_HOPS 3

const char *bcw__struct_name(LLVMTypeRef t)
{
    if (LLVMGetTypeKind(t) != LLVMStructTypeKind || LLVMIsLiteralStruct(t))
        return NULL;
    const char *name = LLVMGetStructName(t);
    return name && strncmp(name, "struct.", 7) == 0 ? name + 7 : NULL;
}

static void set_struct(bcw_pointee *out, LLVMTypeRef t, const char *name)
{
    out->kind = BCW_PT_STRUCT;
    out->type = t;
    snprintf(out->name, sizeof out->name, "%s", name);
    bcw__utf8_clean(out->name);
}

static void from_type(bcw_pointee *out, LLVMTypeRef t)
{
    const char *sn = bcw__struct_name(t);
    switch (LLVMGetTypeKind(t)) {
    case LLVMStructTypeKind:
        if (sn != NULL)
            set_struct(out, t, sn);
        break;
    case LLVMIntegerTypeKind:
        out->kind = LLVMGetIntTypeWidth(t) == 8 ? BCW_PT_CHAR : BCW_PT_SCALAR;
        out->type = t;
        out->bits = LLVMGetIntTypeWidth(t);
        break;
    case LLVMFloatTypeKind:
    case LLVMDoubleTypeKind:
        out->kind = BCW_PT_SCALAR;
        out->type = t;
        out->bits = LLVMGetTypeKind(t) == LLVMFloatTypeKind ? 32 : 64;
        break;
    case LLVMPointerTypeKind:
        out->kind = BCW_PT_POINTER;
        break;
    default:
        break;
    }
}

/* libc functions whose pointer arguments are C strings */
static int takes_strings(const char *name)
{
    static const char *const names[] = {
        "strlen",  "strnlen", "strcmp",  "strncmp", "strcasecmp", "strcpy",
        "strncpy", "strcat",  "strncat", "strdup",  "strndup",    "strchr",
        "strrchr", "strstr",  "strspn",  "strcspn", "strtol",     "strtoul",
        "strtod",  "atoi",    "atol",    "puts",    "fputs",      NULL};
    for (const char *const *n = names; *n; n++)
        if (strcmp(*n, name) == 0)
            return 1;
    return 0;
}

/* Evidence from one use of pointer `v`; struct evidence wins. */
static void from_uses(LLVMValueRef v, bcw_pointee *out, int hops)
{
    for (LLVMUseRef u = LLVMGetFirstUse(v); u != NULL; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsAInstruction(user))
            continue;
        bcw_pointee seen = {0};
        switch (LLVMGetInstructionOpcode(user)) {
        case LLVMGetElementPtr:
            if (LLVMGetOperand(user, 0) == v)
                from_type(&seen, LLVMGetGEPSourceElementType(user));
            break;
        case LLVMLoad:
            from_type(&seen, LLVMTypeOf(user));
            break;
        case LLVMStore:
            if (LLVMGetOperand(user, 1) == v)
                from_type(&seen, LLVMTypeOf(LLVMGetOperand(user, 0)));
            break;
        case LLVMBitCast:
        case LLVMAddrSpaceCast:
            if (hops < MAX_HOPS)
                from_uses(user, &seen, hops + 1);
            break;
        case LLVMCall: {
            LLVMValueRef callee = bcw__called_function(user);
            if (callee != NULL && LLVMIsDeclaration(callee) &&
                takes_strings(bcw__value_name(callee))) {
                seen.kind = BCW_PT_CHAR;
                seen.type =
                    LLVMInt8TypeInContext(LLVMGetTypeContext(LLVMTypeOf(v)));
                seen.bits = 8;
                break;
            }
            if (callee == NULL || LLVMIsDeclaration(callee) || hops >= MAX_HOPS)
                break;
            unsigned n = (unsigned)LLVMGetNumArgOperands(user);
            for (unsigned a = 0; a < n && a < LLVMCountParams(callee); a++)
                if (LLVMGetOperand(user, a) == v)
                    from_uses(LLVMGetParam(callee, a), &seen, hops + 1);
            break;
        }
        default:
            break;
        }
        if (seen.kind == BCW_PT_STRUCT) {
            *out = seen;
            return;
        }
        if (out->kind == BCW_PT_UNKNOWN)
            *out = seen;
    }
}

/* What flows into a returned pointer: follow phis, selects and calls of
 * module functions, then look at how the value is used. */
static void from_value(LLVMValueRef v, bcw_pointee *out, int hops)
{
    if (hops > MAX_HOPS || v == NULL)
        return;
    if (LLVMIsABitCastInst(v) || LLVMIsAAddrSpaceCastInst(v)) {
        from_value(LLVMGetOperand(v, 0), out, hops + 1);
        return;
    }
    if (LLVMIsAPHINode(v)) {
        for (unsigned i = 0; i < LLVMCountIncoming(v); i++) {
            from_value(LLVMGetIncomingValue(v, i), out, hops + 1);
            if (out->kind == BCW_PT_STRUCT)
                return;
        }
        return;
    }
    if (LLVMIsASelectInst(v)) {
        from_value(LLVMGetOperand(v, 1), out, hops + 1);
        if (out->kind != BCW_PT_STRUCT)
            from_value(LLVMGetOperand(v, 2), out, hops + 1);
        return;
    }
    if (LLVMIsAArgument(v)) {
        from_uses(v, out, hops);
        return;
    }
    if (LLVMIsACallInst(v)) {
        LLVMValueRef callee = bcw__called_function(v);
        const char *name = callee ? bcw__value_name(callee) : "";
        unsigned nargs = (unsigned)LLVMGetNumArgOperands(v);
        /* the size a constructor allocates is its unit's size */
        if ((strcmp(name, "malloc") == 0 && nargs == 1) ||
            (strcmp(name, "calloc") == 0 && nargs == 2)) {
            uint64_t bytes = 1;
            for (unsigned a = 0; a < nargs; a++) {
                LLVMValueRef arg = LLVMGetOperand(v, a);
                bytes = LLVMIsAConstantInt(arg)
                            ? bytes * LLVMConstIntGetZExtValue(arg)
                            : 0;
            }
            out->alloc_bytes = bytes;
        }
        if (callee != NULL && !LLVMIsDeclaration(callee)) {
            bcw_pointee inner = {0};
            for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(callee); bb;
                 bb = LLVMGetNextBasicBlock(bb)) {
                LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
                if (term && LLVMGetInstructionOpcode(term) == LLVMRet &&
                    LLVMGetNumOperands(term) == 1)
                    from_value(LLVMGetOperand(term, 0), &inner, hops + 1);
                if (inner.kind == BCW_PT_STRUCT)
                    break;
            }
            if (inner.kind != BCW_PT_UNKNOWN) {
                *out = inner;
                return;
            }
        }
    }
    if (LLVMIsAInstruction(v)) {
        uint64_t bytes = out->alloc_bytes;
        from_uses(v, out, hops);
        if (out->alloc_bytes == 0)
            out->alloc_bytes = bytes;
    }
}

static LLVMTypeRef scalar_type(LLVMContextRef ctx, const bcw_di_type *di)
{
    if (di->pointee_float)
        return di->pointee_bits == 32 ? LLVMFloatTypeInContext(ctx)
                                      : LLVMDoubleTypeInContext(ctx);
    if (di->pointee_bool)
        return LLVMInt8TypeInContext(ctx);
    return di->pointee_bits ? LLVMIntTypeInContext(ctx, di->pointee_bits)
                            : NULL;
}

void bcw__pointee(LLVMValueRef fn, unsigned index, const bcw_di_type *di,
                  bcw_pointee *out)
{
    memset(out, 0, sizeof *out);
    LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(fn));
    if (di->known && di->is_pointer) {
        out->from_debug_info = 1;
        out->bits = di->pointee_bits;
        out->is_unsigned = di->pointee_unsigned;
        if (di->is_funcptr) {
            out->kind = BCW_PT_FUNCTION;
        } else if (di->handle[0]) {
            out->kind = BCW_PT_HANDLE;
            snprintf(out->name, sizeof out->name, "%s", di->handle);
        } else if (di->pointee_void) {
            out->kind = BCW_PT_VOID;
        } else if (di->pointee_char) {
            out->kind = BCW_PT_CHAR;
            out->type = LLVMInt8TypeInContext(ctx);
        } else if (di->pointee_struct && di->pointee_name[0]) {
            char llname[80];
            snprintf(llname, sizeof llname, "struct.%s", di->pointee_name);
            set_struct(out, LLVMGetTypeByName2(ctx, llname), di->pointee_name);
            out->bits = di->pointee_bits;
        } else if (di->pointee_pointer) {
            out->kind = BCW_PT_POINTER; /* name: T of a T ** */
            snprintf(out->name, sizeof out->name, "%s", di->pointee_name);
        } else if ((out->type = scalar_type(ctx, di)) != NULL) {
            out->kind = BCW_PT_SCALAR;
        }
        if (out->kind != BCW_PT_UNKNOWN)
            return;
    }
    if (index > 0) {
        from_uses(LLVMGetParam(fn, index - 1), out, 0);
        return;
    }
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb != NULL;
         bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        if (term && LLVMGetInstructionOpcode(term) == LLVMRet &&
            LLVMGetNumOperands(term) == 1)
            from_value(LLVMGetOperand(term, 0), out, 0);
        if (out->kind == BCW_PT_STRUCT)
            return;
    }
}
