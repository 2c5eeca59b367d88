/* params.c - parameter kinds: integers, Booleans, characters, enums,
 * strings, out-parameters, callbacks, scratch structs, references to
 * other units and the unit itself, from LLVM types, attributes, debug
 * info and how the function uses each pointer; byte buffers paired with
 * their length. */
#define _POSIX_C_SOURCE 200809L
#include "params.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "diinfo.h"
#include "fields.h"
#include "inout.h"

enum bcw_abi bcw__scalar_abi(LLVMTypeRef t, bool is_unsigned)
{
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind:
        return bcw_abi_int(LLVMGetIntTypeWidth(t), is_unsigned);
    case LLVMFloatTypeKind:
        return BCW_ABI_FLOAT;
    case LLVMDoubleTypeKind:
        return BCW_ABI_DOUBLE;
    case LLVMPointerTypeKind:
        return BCW_ABI_PTR;
    default:
        return BCW_ABI_VOID;
    }
}

static const char *abi_spelling(enum bcw_abi abi)
{
    static const char *const names[] = {
        "void",   "bool",           "signed char", "unsigned char",
        "short",  "unsigned short", "int",         "unsigned int",
        "long",   "unsigned long",  "float",       "double",
        "void *", "struct"};
    return names[abi];
}

/* Does the function test pointer `p` against NULL? */

/* bcw__params_null_checked, `depth` levels down so far, `max` at most
 * (0: the parameter's own uses only). */
static bool null_checked(LLVMValueRef p, int depth, int max)
{
    for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsAICmpInst(user) &&
            (LLVMIsAConstantPointerNull(LLVMGetOperand(user, 0)) ||
             LLVMIsAConstantPointerNull(LLVMGetOperand(user, 1))))
            return true;
        if (depth >= max)
            continue;
        if ((LLVMIsAPHINode(user) || LLVMIsASelectInst(user) ||
             LLVMIsABitCastInst(user)) &&
            null_checked(user, depth + 1, max))
            return true;
        LLVMValueRef callee =
            LLVMIsACallInst(user) ? bcw__called_function(user) : NULL;
        if (callee == NULL || LLVMIsDeclaration(callee))
            continue;
        unsigned n = (unsigned)LLVMGetNumArgOperands(user);
        for (unsigned k = 0; k < n && k < LLVMCountParams(callee); k++)
            if (LLVMGetOperand(user, k) == p &&
                null_checked(LLVMGetParam(callee, k), depth + 1, max))
                return true;
    }
    return false;
}

bool bcw__params_null_checked(LLVMValueRef p)
{
    return null_checked(p, 0, 4);
}

/* Does a use of `a` (or a cast of it) compare it with `b`, or pass both
 * to a module function that compares them, `depth` levels down so far? */
static bool compared(LLVMValueRef a, LLVMValueRef b, int depth)
{
    for (LLVMUseRef u = LLVMGetFirstUse(a); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsABitCastInst(user) && compared(user, b, depth))
            return true;
        if (LLVMIsAICmpInst(user) &&
            (bcw__uncast(LLVMGetOperand(user, 0)) == b ||
             bcw__uncast(LLVMGetOperand(user, 1)) == b))
            return true;
        LLVMValueRef qa, qb;
        for (unsigned i = 0; depth < 3 && (qa = bcw__passed_to(user, a, &i));
             i++)
            for (unsigned k = 0; (qb = bcw__passed_to(user, b, &k)); k++)
                if (i != k && compared(qa, qb, depth + 1))
                    return true;
    }
    return false;
}

bool bcw__params_compared(LLVMValueRef a, LLVMValueRef b)
{
    return compared(a, b, 0);
}

static bool written_only(LLVMValueRef p, bool calls, bool *stored, int hops);

/* Does call `call` only store into what `p`, one of its arguments,
 * points to: memset or memcpy to it, a module function filling it (an
 * iterator's init filling a field through another init: it_init(
 * &it->inner, c))? */
static bool callee_writes_only(LLVMValueRef call, LLVMValueRef p, bool *stored,
                               int hops)
{
    LLVMValueRef callee = bcw__called_function(call);
    if (callee == NULL || hops >= 8)
        return false;
    unsigned n = (unsigned)LLVMGetNumArgOperands(call);
    /* memset(p, ...), memcpy(p, src, n): stores; p as a source is read */
    const char *name = bcw__value_name(callee);
    if (strncmp(name, "llvm.memset", 11) == 0 ||
        strncmp(name, "llvm.memcpy", 11) == 0 ||
        strncmp(name, "llvm.memmove", 12) == 0) {
        for (unsigned k = 1; k < n; k++)
            if (LLVMGetOperand(call, k) == p)
                return false;
        *stored = true;
        return true;
    }
    if (LLVMIsDeclaration(callee))
        return false;
    if (n != LLVMCountParams(callee))
        return false;
    for (unsigned k = 0; k < n; k++)
        if (LLVMGetOperand(call, k) == p &&
            !written_only(LLVMGetParam(callee, k), true, stored, hops + 1))
            return false;
    return true;
}

/* The pointer v is an address in: v without its field offsets and
 * casts. */
static LLVMValueRef base_of(LLVMValueRef v)
{
    for (int hops = 0;
         hops < 8 && (LLVMIsAGetElementPtrInst(v) || LLVMIsABitCastInst(v));
         hops++)
        v = LLVMGetOperand(v, 0);
    return v;
}

/* Is v a null pointer or a zero integer? */
static bool is_zero(LLVMValueRef v)
{
    return LLVMIsAConstantPointerNull(v) ||
           (LLVMIsAConstantInt(v) && LLVMConstIntGetZExtValue(v) == 0);
}

/* Are a and b the same address: the same value, or the same field of
 * the same base? */
static bool same_address(LLVMValueRef a, LLVMValueRef b)
{
    a = bcw__uncast(a);
    b = bcw__uncast(b);
    return a == b || (bcw__same_field(a, b) &&
                      LLVMGetOperand(a, 0) == LLVMGetOperand(b, 0));
}

/* Did fn store to `addr`, or give it to a call (fread(&s->width, ...)),
 * before instruction `at`, in layout order? */
static bool stored_before(LLVMValueRef fn, LLVMValueRef addr, LLVMValueRef at)
{
    for (LLVMValueRef in = bcw__first_instruction(fn); in != NULL && in != at;
         in = bcw__next_instruction(in)) {
        if (LLVMIsAStoreInst(in) && same_address(LLVMGetOperand(in, 1), addr))
            return true;
        for (unsigned k = 0; LLVMIsACallInst(in) && !LLVMIsADbgInfoIntrinsic(in) &&
                             k < (unsigned)LLVMGetNumArgOperands(in);
             k++)
            if (same_address(LLVMGetOperand(in, k), addr))
                return true;
    }
    return false;
}

/* Does fn (p its parameter) compare a field it loads from p with 0 or
 * NULL before it stored into it (cms->bins == NULL after the calloc
 * stored there tests nothing the caller gave), or pass p to a module
 * function that does, `depth` calls down so far? */
static bool field_tested(LLVMValueRef fn, LLVMValueRef p, int depth)
{
    for (LLVMValueRef in = bcw__first_instruction(fn); in != NULL;
         in = bcw__next_instruction(in)) {
        for (unsigned side = 0; LLVMIsAICmpInst(in) && side < 2; side++) {
            LLVMValueRef v = LLVMGetOperand(in, side);
            if (is_zero(LLVMGetOperand(in, 1 - side)) && LLVMIsALoadInst(v) &&
                base_of(LLVMGetOperand(v, 0)) == p &&
                !stored_before(fn, LLVMGetOperand(v, 0), v))
                return true;
        }
        LLVMValueRef q;
        for (unsigned k = 0; depth < 3 && (q = bcw__passed_to(in, p, &k)); k++)
            if (field_tested(LLVMGetParamParent(q), q, depth + 1))
                return true;
    }
    return false;
}

bool bcw__params_fields_tested(LLVMValueRef fn, unsigned k)
{
    return k < LLVMCountParams(fn) && field_tested(fn, LLVMGetParam(fn, k), 0);
}

/* Is the memory at `p` only stored into (through field addresses, casts
 * and the values that may stand for it, and with `calls` by calls
 * filling it), never read or passed on?  An address inside it stored
 * into it (raxStart's it->key = it->key_static_string) is a store too.
 * *stored says whether it is. */
static bool written_only(LLVMValueRef p, bool calls, bool *stored, int hops)
{
    for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsAStoreInst(user) &&
            (LLVMGetOperand(user, 1) == p ||
             base_of(LLVMGetOperand(user, 1)) == base_of(p)))
            *stored = true;
        else if ((LLVMIsAGetElementPtrInst(user) || LLVMIsABitCastInst(user)) &&
                 LLVMGetOperand(user, 0) == p && hops < 8) {
            if (!written_only(user, calls, stored, hops + 1))
                return false;
        } else if ((LLVMIsAPHINode(user) || (LLVMIsASelectInst(user) &&
                                             LLVMGetOperand(user, 0) != p)) &&
                   hops < 8) {
            /* the pointer or another one in its place (`if (!err) err =
             * &placeholder;`): what is done through either */
            if (!written_only(user, calls, stored, hops + 1))
                return false;
        } else if (calls && LLVMIsACallInst(user)) {
            if (!callee_writes_only(user, p, stored, hops))
                return false;
        } else if (!(LLVMIsAICmpInst(user) || LLVMIsADbgInfoIntrinsic(user))) {
            return false;
        }
    }
    return true;
}

/* Is `a`, an address, in the function's own frame (an alloca, or a
 * field of one): gone when it returns? */
static bool in_frame(LLVMValueRef a)
{
    while (LLVMIsAGetElementPtrInst(a) || LLVMIsABitCastInst(a))
        a = LLVMGetOperand(a, 0);
    return LLVMIsAAllocaInst(a) != NULL;
}

bool bcw__params_kept(LLVMValueRef p, int depth)
{
    for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if ((LLVMIsAStoreInst(user) && LLVMGetOperand(user, 0) == p &&
             !in_frame(LLVMGetOperand(user, 1))) ||
            (LLVMIsABitCastInst(user) && bcw__params_kept(user, depth)))
            return true;
        LLVMValueRef callee =
            LLVMIsACallInst(user) ? bcw__called_function(user) : NULL;
        unsigned n = callee != NULL && depth > 0 && !LLVMIsDeclaration(callee)
                         ? LLVMCountParams(callee)
                         : 0;
        for (unsigned k = 0; k < n && k < (unsigned)LLVMGetNumArgOperands(user);
             k++)
            if (LLVMGetOperand(user, k) == p &&
                bcw__params_kept(LLVMGetParam(callee, k), depth - 1))
                return true;
    }
    return false;
}

bool bcw__params_stored(LLVMValueRef p)
{
    for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if ((LLVMIsAStoreInst(user) && LLVMGetOperand(user, 0) == p) ||
            (LLVMIsABitCastInst(user) && bcw__params_stored(user)))
            return true;
    }
    return false;
}

bool bcw__params_only_written(LLVMValueRef p)
{
    bool stored = false;
    return written_only(p, false, &stored, 0) && stored;
}

bool bcw__params_filled(LLVMValueRef p)
{
    bool stored = false;
    return written_only(p, true, &stored, 0) && stored;
}

bool bcw__params_points_into(LLVMValueRef fn, LLVMValueRef base)
{
    if (base == NULL ||
        LLVMGetTypeKind(LLVMTypeOf(base)) != LLVMPointerTypeKind)
        return false;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
         bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        if (t == NULL || !LLVMIsAReturnInst(t) || LLVMGetNumOperands(t) != 1)
            continue;
        LLVMValueRef v = LLVMGetOperand(t, 0);
        if (v != base && bcw__derived_from(v, base))
            return true;
    }
    return false;
}

#define MAX_MEMBERS 64

/* out's members where the struct slot i of s points to is a table of
 * callbacks: each member a function pointer a built-in fills. */
static int members_of(const bcw_sig *s, unsigned i, bcw_param *out)
{
    bcw_di_field *di = bcw__calloc(MAX_MEMBERS, sizeof *di);
    if (di == NULL)
        return BCW_ENOMEM;
    int n = bcw__di_fields(s->fn, i, di, MAX_MEMBERS);
    int err = 0;
    bool all = n > 0 && n < MAX_MEMBERS;
    for (int k = 0; k < n && err == 0; k++) {
        bcw_field m = {.name = (char *)di[k].name,
                       .offset = di[k].offset_bits / 8,
                       .bits = di[k].size_bits};
        bcw__fields_callback(&m, &di[k]);
        all = all && m.callback != 0;
        if (m.callback == 0 || m.bits != 64 || m.offset % 8 != 0)
            continue;
        size_t cap = out->nmembers;
        if ((m.name = bcw__strdup(di[k].name)) == NULL ||
            bcw__grow(&out->members, &cap, out->nmembers + 1,
                      sizeof *out->members) < 0) {
            free(m.name);
            err = BCW_ENOMEM;
            break;
        }
        out->members[out->nmembers++] = m;
    }
    /* a struct with other members (state, an optional hook) is no table
     * of callbacks: left zeroed */
    out->members_all = all && err == 0;
    if (!out->members_all) {
        for (unsigned k = 0; k < out->nmembers; k++)
            free(out->members[k].name);
        free(out->members);
        out->members = NULL;
        out->nmembers = 0;
    }
    free(di);
    return err;
}

/* The size of the largest struct the byte pointer p is itself indexed
 * as (a GEP's source type: pointers are opaque, bitcode.c), 0 when none:
 * a `uint8_t *pool_alloc` the function makes its struct in is storage
 * of that size, not a string. */
static uint64_t used_as_struct(LLVMValueRef p, LLVMTargetDataRef td, int hops)
{
    uint64_t size = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsABitCastInst(user) && hops < 4) {
            /* typed bitcode read as opaque keeps its casts, ptr to ptr */
            uint64_t inner = used_as_struct(user, td, hops + 1);
            size = inner > size ? inner : size;
            continue;
        }
        if (!LLVMIsAGetElementPtrInst(user) || LLVMGetOperand(user, 0) != p)
            continue;
        LLVMTypeRef t = LLVMGetGEPSourceElementType(user);
        if (LLVMGetTypeKind(t) == LLVMStructTypeKind && LLVMTypeIsSized(t) &&
            LLVMABISizeOfType(td, t) > size)
            size = LLVMABISizeOfType(td, t);
    }
    return size;
}

/* Classifies a pointer slot that is not the unit itself. */
static int classify_pointer(const bcw_finder *f, const bcw_sig *s, unsigned i,
                            bcw_param *out, const char **why)
{
    const bcw_pointee *pt = &s->pt[i];
    out->abi = BCW_ABI_PTR;
    if (i == 0) {
        /* returned pointers are symbolic, but for a `char *`: a C string,
         * observed by its content */
        out->kind = pt->kind == BCW_PT_CHAR && !pt->is_unsigned
                        ? BCW_PK_STRING
                        : BCW_PK_ELEMENT;
        return 0;
    }
    /* a char or byte pointer only ever stored through is an out-parameter
     * (`char *out`), not a string */
    if (pt->kind == BCW_PT_CHAR &&
        bcw__params_only_written(LLVMGetParam(s->fn, i - 1))) {
        out->kind = BCW_PK_OUT;
        out->pointee = pt->is_unsigned ? BCW_ABI_U8 : BCW_ABI_S8;
        out->pointee_size = 1;
        return 0;
    }
    uint64_t as_struct =
        pt->kind == BCW_PT_CHAR
            ? used_as_struct(LLVMGetParam(s->fn, i - 1), f->td, 0)
            : 0;
    if (as_struct > 1) {
        out->kind = BCW_PK_SCRATCH;
        out->pointee_size = (uint32_t)(as_struct > 4096 ? 4096 : as_struct);
        return 0;
    }
    switch (pt->kind) {
    case BCW_PT_FUNCTION:
        out->kind = BCW_PK_CALLBACK;
        out->detail =
            bcw__strdup(s->di[i].known && s->di[i].detail[0] ? s->di[i].detail
                                                             : "void (*)()");
        out->nsig = (uint8_t)s->di[i].nsig;
        memcpy(out->sig, s->di[i].sig, s->di[i].nsig);
        return out->detail ? 0 : BCW_ENOMEM;
    case BCW_PT_CHAR:
        out->kind = BCW_PK_STRING;
        break;
    case BCW_PT_SCALAR:
        out->kind = BCW_PK_OUT;
        out->pointee = bcw__scalar_abi(pt->type, pt->is_unsigned);
        out->pointee_size = (uint32_t)LLVMABISizeOfType(f->td, pt->type);
        if (out->pointee == BCW_ABI_VOID)
            *why = "pointer to an unsupported scalar";
        break;
    case BCW_PT_POINTER:
        out->kind = BCW_PK_OUT; /* a handle written back: T **out */
        out->pointee = BCW_ABI_PTR;
        out->pointee_size = 8;
        break;
    case BCW_PT_HANDLE: /* another unit's string handle, or characters */
        out->kind = BCW_PK_STRING;
        if (bcw__finder_unit(f, pt->name) >= 0) {
            out->kind = BCW_PK_UNIT_REF;
            if ((out->detail = bcw__strdup(pt->name)) == NULL)
                return BCW_ENOMEM;
        }
        break;
    case BCW_PT_STRUCT: {
        /* the C library's stream: one a caller opens */
        if (strcmp(pt->name, "_IO_FILE") == 0) {
            out->kind = BCW_PK_FILE;
            return 0;
        }
        uint64_t size = pt->bits / 8;
        int other = bcw__finder_unit(f, pt->name);
        if (size == 0 && pt->type != NULL && LLVMTypeIsSized(pt->type))
            size = LLVMABISizeOfType(f->td, pt->type);
        if (size == 0 && other >= 0)
            size = f->model->units[other].size;
        out->kind = BCW_PK_SCRATCH;
        if (other >= 0) {
            out->kind = BCW_PK_UNIT_REF;
            if ((out->detail = bcw__strdup(pt->name)) == NULL)
                return BCW_ENOMEM;
        }
        out->pointee_size = (uint32_t)(size == 0     ? 64
                                       : size > 4096 ? 4096
                                                     : size);
        /* a table of callbacks: each member a built-in */
        if (out->kind == BCW_PK_SCRATCH)
            return members_of(s, i, out);
        break;
    }
    default:
        out->kind = BCW_PK_ELEMENT;
        break;
    }
    return 0;
}

/* Is slot i of fn a struct passed by value through a hidden pointer: a
 * byval argument, or the sret result storage? */
static bool passed_by_value(LLVMValueRef fn, unsigned i)
{
    static const char *const attrs[] = {"byval", "sret"};
    for (size_t a = 0; a < 2; a++) {
        unsigned kind =
            LLVMGetEnumAttributeKindForName(attrs[a], strlen(attrs[a]));
        if (i > 0 && LLVMGetEnumAttributeAtIndex(fn, i, kind) != NULL)
            return true;
    }
    return false;
}

/* A struct result of LLVM type t returned in registers, as clang lowers
 * a small one ({ i8*, i8* }): up to BCW_MAX_STRUCT_WORDS scalar elements,
 * their ABI classes into out's sig. */
static bool struct_result(LLVMTypeRef t, bcw_param *out)
{
    unsigned n = LLVMCountStructElementTypes(t);
    if (n == 0 || n > BCW_MAX_STRUCT_WORDS)
        return false;
    LLVMTypeRef elems[BCW_MAX_STRUCT_WORDS];
    LLVMGetStructElementTypes(t, elems);
    for (unsigned k = 0; k < n; k++) {
        enum bcw_abi abi = bcw__scalar_abi(elems[k], false);
        if (abi == BCW_ABI_VOID || abi == BCW_ABI_BOOL)
            return false;
        out->sig[k] = (uint8_t)abi;
    }
    out->nsig = (uint8_t)n;
    out->kind = BCW_PK_STRUCT;
    out->abi = BCW_ABI_STRUCT;
    return true;
}

int bcw__params_classify(const bcw_finder *f, const bcw_sig *s, unsigned i,
                         const char *unit, bool is_unit, bcw_param *out,
                         const char **why)
{
    memset(out, 0, sizeof *out);
    out->pair = -1;
    *why = NULL;
    const bcw_di_type *di = &s->di[i];
    LLVMTypeRef t = s->types[i];
    out->kind = BCW_PK_INT;
    int err;
    switch (LLVMGetTypeKind(t)) {
    case LLVMVoidTypeKind:
        out->kind = BCW_PK_NONE;
        out->abi = BCW_ABI_VOID;
        break;
    case LLVMIntegerTypeKind: {
        unsigned bits = LLVMGetIntTypeWidth(t);
        unsigned zext = LLVMGetEnumAttributeKindForName("zeroext", 7);
        bool is_unsigned =
            di->known ? di->is_unsigned
                      : LLVMGetEnumAttributeAtIndex(s->fn, i, zext) != NULL;
        out->abi = bcw_abi_int(bits, is_unsigned);
        if (out->abi == BCW_ABI_VOID) {
            *why = "integer width not supported";
            return 0;
        }
        if (bits == 1 || (di->known && di->is_bool)) {
            out->kind = BCW_PK_BOOL;
        } else if (bits == 8 && (!di->known || di->is_char)) {
            out->kind = BCW_PK_CHAR;
        } else if (di->known && di->is_enum) {
            out->kind = BCW_PK_ENUM;
            if ((out->detail = bcw__strdup(di->detail)) == NULL)
                return BCW_ENOMEM;
        }
        break;
    }
    case LLVMFloatTypeKind:
    case LLVMDoubleTypeKind:
        out->kind = BCW_PK_FLOAT;
        out->abi = bcw__scalar_abi(t, false);
        break;
    case LLVMStructTypeKind:
        if (i > 0 || !struct_result(t, out)) {
            *why = "aggregate passed by value is not supported yet";
            return 0;
        }
        break;
    case LLVMPointerTypeKind:
        if (passed_by_value(s->fn, i)) {
            *why = "a struct passed by value (byval or sret) is not "
                   "supported yet";
            return 0;
        }
        if (is_unit) {
            out->kind = BCW_PK_UNIT;
            out->abi = BCW_ABI_PTR;
        } else if ((err = classify_pointer(f, s, i, out, why)) < 0 ||
                   *why != NULL) {
            return err;
        }
        /* a callback is checked where it is used or stored, often in a
         * helper setting the default (setup(c, ..., fn) storing
         * fn == NULL ? default_fn : fn) */
        out->nullable = i > 0 && null_checked(LLVMGetParam(s->fn, i - 1), 0,
                                              out->kind == BCW_PK_CALLBACK ? 4 : 0);
        out->into_unit =
            i == 0 && bcw__params_points_into(s->fn, LLVMGetParam(s->fn, 0));
        out->filled = i > 0 && out->kind == BCW_PK_SCRATCH &&
                      bcw__params_filled(LLVMGetParam(s->fn, i - 1));
        out->taken = i > 0 && out->kind == BCW_PK_STRING && di->known &&
                     !di->pointee_const &&
                     bcw__params_kept(LLVMGetParam(s->fn, i - 1), 2);
        break;
    default:
        *why = "aggregate passed by value is not supported yet";
        return 0;
    }
    if (out->kind == BCW_PK_CALLBACK)
        /* as written: its typedef (ArrayListEqualFunc), whose name tells
         * the callback's kind, else its signature */
        out->ctype = bcw__strdup(
            di->known && strcmp(di->spelling, "function pointer") != 0
                ? di->spelling
                : out->detail);
    else if (di->known)
        out->ctype = bcw__strdup(di->spelling);
    else if (out->kind == BCW_PK_UNIT)
        out->ctype = bcw__sprintf("struct %s *", unit);
    else if (out->kind == BCW_PK_STRING)
        out->ctype = bcw__strdup("char *");
    else if (out->kind == BCW_PK_OUT && out->pointee == BCW_ABI_PTR)
        out->ctype = bcw__strdup("void **");
    else if (out->kind == BCW_PK_OUT)
        out->ctype = bcw__sprintf("%s *", abi_spelling(out->pointee));
    else
        out->ctype = bcw__strdup(abi_spelling(out->abi));
    out->name = di->known && di->name[0] ? bcw__strdup(di->name)
                : i == 0                 ? bcw__strdup("result")
                                         : bcw__sprintf("p%u", i);
    if (out->ctype == NULL || out->name == NULL)
        return BCW_ENOMEM;
    /* a scalar read before it is written: the caller's value */
    return i > 0 && out->kind == BCW_PK_OUT && out->pointee != BCW_ABI_PTR
               ? bcw__inout_categories(LLVMGetParam(s->fn, i - 1), out)
               : 0;
}

/* A length parameter by its name or its type: len, size, n, count, cap,
 * nbytes, or a size_t. */
static bool is_length(const bcw_param *p)
{
    static const char *const words[] = {"len",    "length",   "size",
                                        "n",      "count",    "cap",
                                        "nbytes", "capacity", NULL};
    if (p->kind != BCW_PK_INT || p->abi == BCW_ABI_BOOL)
        return false;
    if (strstr(p->ctype, "size_t") != NULL)
        return true;
    for (const char *const *w = words; *w; w++)
        if (strcmp(p->name, *w) == 0 ||
            (strlen(*w) > 2 && strstr(p->name, *w) != NULL))
            return true;
    return false;
}

/* Is integer v only tested against constants (stream_size != 112),
 * itself, through casts, and in the module functions it is passed to,
 * `depth` calls down so far: never a bound of anything? */
static bool only_tested(LLVMValueRef v, int depth)
{
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsADbgInfoIntrinsic(user))
            continue;
        if (LLVMIsAICmpInst(user) &&
            (LLVMIsAConstantInt(LLVMGetOperand(user, 0)) ||
             LLVMIsAConstantInt(LLVMGetOperand(user, 1))))
            continue;
        if ((LLVMIsASExtInst(user) || LLVMIsAZExtInst(user) ||
             LLVMIsATruncInst(user)) &&
            only_tested(user, depth))
            continue;
        unsigned k = 0;
        LLVMValueRef q = depth < 3 ? bcw__passed_to(user, v, &k) : NULL;
        if (q == NULL)
            return false;
        for (; q != NULL; k++, q = bcw__passed_to(user, v, &k))
            if (!only_tested(q, depth + 1))
                return false;
    }
    return true;
}

void bcw__params_pair_buffers(bcw_func *f, LLVMValueRef fn)
{
    for (unsigned i = 0; i + 1 < f->nparams; i++) {
        bcw_param *p = &f->params[i], *n = &f->params[i + 1];
        /* a string's length bounds something: zlib's (version,
         * stream_size) is a string and a size checked against sizeof
         * (z_stream); an output's capacity checked against a constant
         * (LZ4F_compressBegin's dstCapacity) still bounds what it gets */
        if ((p->kind == BCW_PK_STRING || p->kind == BCW_PK_ELEMENT) &&
            is_length(n) &&
            !(p->kind == BCW_PK_STRING &&
              only_tested(LLVMGetParam(fn, i + 1), 0))) {
            p->kind = BCW_PK_BUFFER;
            n->kind = BCW_PK_LENGTH;
            p->pointee_size = BCW_BUFFER_BYTES;
            p->pair = (int)i + 1;
            n->pair = (int)i;
        }
    }
}
