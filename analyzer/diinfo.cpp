// diinfo.cpp - the thin C++ bridge over DISubprogram/DIType: the only C++
// in bcwalk, because LLVM-C 14 cannot read names of parameters or walk
// derived types.
#include "diinfo.h"

extern "C" {
#include "text.h"
}

#include "abi.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/BinaryFormat/Dwarf.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#if LLVM_VERSION_MAJOR >= 19
#include <llvm/IR/DebugProgramInstruction.h>
#endif

#include <cstring>
#include <string>

using namespace llvm;

/* The most base types a walk follows from a type: far more than any C
 * type names (`const char *const *` is five), and the end of a cycle,
 * which LLVM's verifier lets through (a pointer or typedef that is its
 * own base type, directly or through others). */
enum { MAX_HOPS = 64 };

/* Whether t's chain of base types ends within MAX_HOPS.  Every walk
 * down a chain asks first, so that none follows a cycle forever. */
static bool ends(const DIType *t)
{
    for (unsigned hops = 0; hops < MAX_HOPS; hops++) {
        auto *d = dyn_cast_or_null<DIDerivedType>(t);
        if (d == nullptr)
            return true;
        t = d->getBaseType();
    }
    return false;
}

static void copy(char *dst, size_t n, const std::string &s)
{
    std::strncpy(dst, s.c_str(), n - 1);
    dst[n - 1] = '\0';
    bcw__utf8_clean(dst);
}

/* t without its typedefs and qualifiers; t itself when its chain does
 * not end. */
static const DIType *strip(const DIType *t, bool *is_const)
{
    if (!ends(t))
        return t;
    while (auto *d = dyn_cast_or_null<DIDerivedType>(t)) {
        unsigned tag = d->getTag();
        if (tag == dwarf::DW_TAG_const_type && is_const)
            *is_const = true;
        if (tag != dwarf::DW_TAG_typedef && tag != dwarf::DW_TAG_const_type &&
            tag != dwarf::DW_TAG_volatile_type &&
            tag != dwarf::DW_TAG_restrict_type &&
            tag != dwarf::DW_TAG_atomic_type)
            break;
        t = d->getBaseType();
    }
    return t;
}

/* How C writes type t: typedefs by name, or, when `canonical`, by what
 * they stand for (but for an anonymous struct, which only its typedef
 * names); "?" when its chain does not end. */
static std::string spell(const DIType *t, bool canonical = false)
{
    if (t == nullptr)
        return "void";
    if (!ends(t))
        return "?";
    if (auto *b = dyn_cast<DIBasicType>(t))
        return b->getName() == "_Bool" ? "bool" : b->getName().str();
    if (auto *c = dyn_cast<DICompositeType>(t)) {
        const char *kw = c->getTag() == dwarf::DW_TAG_union_type ? "union "
                         : c->getTag() == dwarf::DW_TAG_enumeration_type
                             ? "enum "
                             : "struct ";
        return c->getName().empty() ? std::string(kw) + "<anonymous>"
                                    : kw + c->getName().str();
    }
    if (isa<DISubroutineType>(t))
        return "function";
    auto *d = cast<DIDerivedType>(t);
    switch (d->getTag()) {
    case dwarf::DW_TAG_typedef: {
        auto *c = dyn_cast_or_null<DICompositeType>(d->getBaseType());
        return canonical && (c == nullptr || !c->getName().empty())
                   ? spell(d->getBaseType(), true)
                   : d->getName().str();
    }
    case dwarf::DW_TAG_const_type: {
        /* a const pointer is "T *const", not "const T *" */
        auto *p = dyn_cast_or_null<DIDerivedType>(d->getBaseType());
        if (p != nullptr && p->getTag() == dwarf::DW_TAG_pointer_type &&
            !isa_and_nonnull<DISubroutineType>(p->getBaseType()))
            return spell(p, canonical) + "const";
        return "const " + spell(d->getBaseType(), canonical);
    }
    case dwarf::DW_TAG_volatile_type:
        return "volatile " + spell(d->getBaseType(), canonical);
    case dwarf::DW_TAG_pointer_type: {
        if (isa_and_nonnull<DISubroutineType>(d->getBaseType()))
            return "function pointer";
        std::string base = spell(d->getBaseType(), canonical);
        return base.back() == '*' ? base + "*" : base + " *";
    }
    default:
        return spell(d->getBaseType(), canonical);
    }
}

/* A struct's name; clang names an anonymous struct after its typedef,
 * which `named` (the type as written) may hold. */
static std::string struct_name(const DICompositeType *c, const DIType *named)
{
    std::string name = c->getName().str();
    if (!ends(named))
        return name;
    for (const DIType *t = named; name.empty() && t != nullptr;) {
        auto *td = dyn_cast<DIDerivedType>(t);
        if (td == nullptr)
            break;
        if (td->getTag() == dwarf::DW_TAG_typedef)
            name = td->getName().str();
        t = td->getBaseType();
    }
    return name;
}

/* "int (*)(const void *, const void *)" */
static std::string signature(const DISubroutineType *st, bool canonical = false)
{
    DITypeRefArray types = st->getTypeArray();
    std::string s = types.size() ? spell(types[0], canonical) : "void";
    s += " (*)(";
    for (unsigned i = 1; i < types.size(); i++)
        s += (i > 1 ? ", " : "") +
             (types[i] ? spell(types[i], canonical) : "...");
    return s + (types.size() <= 1 ? "void)" : ")");
}

/* The ABI class (abi.h) a value of type `t` is passed as; -1 if it is
 * not a scalar bcwalk passes. */
static int abi_of(const DIType *t)
{
    t = strip(t, nullptr);
    if (t == nullptr)
        return BCW_ABI_VOID;
    uint64_t bits = t->getSizeInBits();
    if (auto *b = dyn_cast<DIBasicType>(t)) {
        unsigned e = b->getEncoding();
        if (e == dwarf::DW_ATE_float)
            return bits == 32   ? BCW_ABI_FLOAT
                   : bits == 64 ? BCW_ABI_DOUBLE
                                : -1;
        if (e == dwarf::DW_ATE_boolean)
            return BCW_ABI_BOOL;
        bool u =
            e == dwarf::DW_ATE_unsigned || e == dwarf::DW_ATE_unsigned_char;
        enum bcw_abi abi =
            bits == 1 ? BCW_ABI_VOID : bcw_abi_int((unsigned)bits, u);
        return abi == BCW_ABI_VOID ? -1 : abi;
    }
    if (auto *c = dyn_cast<DICompositeType>(t))
        return c->getTag() == dwarf::DW_TAG_enumeration_type
                   ? (bits == 64 ? BCW_ABI_S64 : BCW_ABI_S32)
                   : -1;
    if (auto *d = dyn_cast<DIDerivedType>(t))
        return d->getTag() == dwarf::DW_TAG_pointer_type ? BCW_ABI_PTR : -1;
    return -1;
}

/* A callback's ABI: result then parameters, into out->sig. */
static void callback_abi(const DISubroutineType *st, bcw_di_type *out)
{
    DITypeRefArray types = st->getTypeArray();
    out->nsig = 0;
    if (types.size() == 0 || types.size() > sizeof out->sig)
        return;
    for (unsigned i = 0; i < types.size(); i++) {
        int abi = abi_of(types[i]);
        if ((i > 0 && types[i] == nullptr) || abi < 0 ||
            (i > 0 && abi == BCW_ABI_VOID))
            return; /* variadic, aggregate or unsupported */
        out->sig[i] = (unsigned char)abi;
    }
    out->nsig = (unsigned)types.size();
}

/* The name of `t` if it is a typedef of a char pointer (`typedef char
 * *sds`, also as `const sds`): a handle to characters, "" otherwise. */
static std::string handle_name(const DIType *t)
{
    if (!ends(t))
        return "";
    auto *d = dyn_cast_or_null<DIDerivedType>(t);
    while (d != nullptr && (d->getTag() == dwarf::DW_TAG_const_type ||
                            d->getTag() == dwarf::DW_TAG_volatile_type))
        d = dyn_cast_or_null<DIDerivedType>(d->getBaseType());
    if (d == nullptr || d->getTag() != dwarf::DW_TAG_typedef)
        return "";
    auto *p = dyn_cast_or_null<DIDerivedType>(strip(d, nullptr));
    if (p == nullptr || p->getTag() != dwarf::DW_TAG_pointer_type)
        return "";
    auto *c = dyn_cast_or_null<DIBasicType>(strip(p->getBaseType(), nullptr));
    unsigned e = c ? c->getEncoding() : 0;
    return e == dwarf::DW_ATE_signed_char || e == dwarf::DW_ATE_unsigned_char
               ? d->getName().str()
               : "";
}

/* What debug info says of type t into out; nothing, as for a slot
 * without debug info, when t's chain does not end: the IR's type then
 * stands. */
static void classify(const DIType *t, bcw_di_type *out)
{
    if (!ends(t))
        return;
    out->known = 1;
    copy(out->spelling, sizeof out->spelling, spell(t));
    copy(out->handle, sizeof out->handle, handle_name(t));
    const DIType *as_named = t;
    t = strip(t, nullptr);
    if (auto *b = dyn_cast_or_null<DIBasicType>(t)) {
        unsigned e = b->getEncoding();
        out->is_bool = e == dwarf::DW_ATE_boolean;
        out->is_char =
            e == dwarf::DW_ATE_signed_char || e == dwarf::DW_ATE_unsigned_char;
        out->is_unsigned = e == dwarf::DW_ATE_unsigned ||
                           e == dwarf::DW_ATE_unsigned_char ||
                           e == dwarf::DW_ATE_boolean;
        out->is_float = e == dwarf::DW_ATE_float;
        return;
    }
    if (auto *c = dyn_cast_or_null<DICompositeType>(t)) {
        out->is_enum = c->getTag() == dwarf::DW_TAG_enumeration_type;
        if (c->getTag() == dwarf::DW_TAG_structure_type) {
            copy(out->value_struct, sizeof out->value_struct,
                 struct_name(c, as_named));
            out->value_bits = (unsigned)c->getSizeInBits();
        }
        /* whole entries only, "..." for those that do not fit: the
         * solver makes a category of each entry */
        std::string list;
        for (const DINode *e : c->getElements()) {
            auto *en = dyn_cast_or_null<DIEnumerator>(e);
            if (en == nullptr)
                continue;
            std::string entry = (list.empty() ? "" : ", ") +
                                en->getName().str() + "=" +
                                std::to_string(en->getValue().getSExtValue());
            if (list.size() + entry.size() + 5 >= sizeof out->detail) {
                list += list.empty() ? "..." : ", ...";
                break;
            }
            list += entry;
        }
        copy(out->detail, sizeof out->detail, list);
        return;
    }
    auto *d = dyn_cast_or_null<DIDerivedType>(t);
    if (d == nullptr || d->getTag() != dwarf::DW_TAG_pointer_type)
        return;
    out->is_pointer = 1;
    bool is_const = false;
    const DIType *named = d->getBaseType();
    const DIType *p = strip(named, &is_const);
    out->pointee_const = is_const;
    if (p == nullptr) {
        out->pointee_void = 1;
        return;
    }
    out->pointee_bits = (unsigned)p->getSizeInBits();
    if (auto *st = dyn_cast<DISubroutineType>(p)) {
        out->is_funcptr = 1;
        copy(out->detail, sizeof out->detail, signature(st));
        callback_abi(st, out);
    } else if (auto *b = dyn_cast<DIBasicType>(p)) {
        unsigned e = b->getEncoding();
        out->pointee_char =
            e == dwarf::DW_ATE_signed_char || e == dwarf::DW_ATE_unsigned_char;
        out->pointee_bool = e == dwarf::DW_ATE_boolean;
        out->pointee_float = e == dwarf::DW_ATE_float;
        out->pointee_unsigned = e == dwarf::DW_ATE_unsigned ||
                                e == dwarf::DW_ATE_unsigned_char ||
                                e == dwarf::DW_ATE_boolean;
    } else if (auto *c = dyn_cast<DICompositeType>(p)) {
        out->pointee_struct = c->getTag() == dwarf::DW_TAG_structure_type;
        copy(out->pointee_name, sizeof out->pointee_name,
             struct_name(c, named));
    } else if (auto *pd = dyn_cast<DIDerivedType>(p)) {
        out->pointee_pointer = pd->getTag() == dwarf::DW_TAG_pointer_type;
        const DIType *inner_named = pd->getBaseType();
        auto *inner =
            dyn_cast_or_null<DICompositeType>(strip(inner_named, nullptr));
        if (out->pointee_pointer && inner != nullptr &&
            inner->getTag() == dwarf::DW_TAG_structure_type)
            copy(out->pointee_name, sizeof out->pointee_name,
                 struct_name(inner, inner_named));
    }
}

/* Calls f with the variable of each debug intrinsic of fn (from LLVM
 * 19, of each debug record). */
template <typename F> static void each_variable(const Function &fn, F f)
{
    for (const Instruction &inst : instructions(fn)) {
        if (auto *dvi = dyn_cast<DbgVariableIntrinsic>(&inst))
            f(dvi->getVariable());
#if LLVM_VERSION_MAJOR >= 19
        /* LLVM 19 keeps variable locations as records, not intrinsics */
        for (const DbgVariableRecord &r :
             filterDbgVars(inst.getDbgRecordRange()))
            f(r.getVariable());
#endif
    }
}

extern "C" int bcw__di_signature(LLVMValueRef fnref, bcw_di_type *out,
                                 unsigned max)
{
    std::memset(out, 0, sizeof *out * max);
    auto *fn = dyn_cast<Function>(unwrap(fnref));
    DISubprogram *sp = fn ? fn->getSubprogram() : nullptr;
    if (sp == nullptr || sp->getType() == nullptr)
        return 0;
    DITypeRefArray types = sp->getType()->getTypeArray();
    unsigned n = 0;
    for (unsigned i = 0; i < types.size() && i < max; i++, n++)
        classify(types[i], &out[i]);
    /* the function's own arguments: an inlined callee's (xxhash's
     * always-inline readers at -O0) are the callee's, not these */
    auto name_arg = [&](const DILocalVariable *v) {
        if (v && v->getArg() > 0 && v->getArg() < max &&
            v->getScope() == sp)
            copy(out[v->getArg()].name, sizeof out[0].name, v->getName().str());
    };
    for (const DINode *node : sp->getRetainedNodes())
        name_arg(dyn_cast<DILocalVariable>(node));
    each_variable(*fn, name_arg);
    return (int)n;
}

extern "C" int bcw__di_canonical(LLVMValueRef fnref, unsigned slot, char *buf,
                                 size_t n)
{
    auto *fn = dyn_cast<Function>(unwrap(fnref));
    DISubprogram *sp = fn ? fn->getSubprogram() : nullptr;
    const DISubroutineType *st = sp ? sp->getType() : nullptr;
    if (st != nullptr && slot > 0) {
        DITypeRefArray types = st->getTypeArray();
        auto *d =
            slot < types.size()
                ? dyn_cast_or_null<DIDerivedType>(strip(types[slot], nullptr))
                : nullptr;
        st = d && d->getTag() == dwarf::DW_TAG_pointer_type
                 ? dyn_cast_or_null<DISubroutineType>(
                       strip(d->getBaseType(), nullptr))
                 : nullptr;
    }
    std::string sig = st ? signature(st, true) : "";
    if (sig.empty() || sig.size() >= n)
        return 0;
    copy(buf, n, sig);
    return 1;
}

/* Visits the struct definitions of the module, in the order the types
 * its globals, functions and variables name lead to them, each type once,
 * until `found` says stop; skips a null among a struct's members: LLVM's
 * verifier lets both a cycle and such a null through, and LLVM's
 * DebugInfoFinder crashes on the null. */
template <typename F> static void each_struct(const Module &mod, F found)
{
    SmallVector<const DIType *, 64> work;
    for (const DICompileUnit *cu : mod.debug_compile_units())
        for (const DIGlobalVariableExpression *g : cu->getGlobalVariables())
            work.push_back(g->getVariable()->getType());
    for (const Function &fn : mod) {
        if (const DISubprogram *sp = fn.getSubprogram())
            work.push_back(sp->getType());
        each_variable(fn, [&](const DILocalVariable *v) {
            work.push_back(v->getType());
        });
    }
    SmallPtrSet<const DIType *, 32> seen;
    for (size_t i = 0; i < work.size(); i++) {
        const DIType *t = work[i];
        if (t == nullptr || !seen.insert(t).second)
            continue;
        if (auto *d = dyn_cast<DIDerivedType>(t))
            work.push_back(d->getBaseType());
        else if (auto *st = dyn_cast<DISubroutineType>(t))
            for (const DIType *p : st->getTypeArray())
                work.push_back(p);
        else if (auto *c = dyn_cast<DICompositeType>(t)) {
            if (c->getTag() == dwarf::DW_TAG_structure_type &&
                !c->isForwardDecl() && found(c))
                return;
            for (const DINode *e : c->getElements())
                work.push_back(dyn_cast_or_null<DIType>(e));
        }
    }
}

/* The module under analysis (bcw__di_index) and its struct definitions
 * by name, the first each_struct meets of each, gathered at the first
 * question: a module declaring many structs it defines elsewhere asked
 * once per slot, each a walk of all its types (7% of SQLite's
 * analysis). */
static const Module *indexed;
static bool index_built;
static StringMap<const DICompositeType *> index_map;

extern "C" void bcw__di_index(LLVMModuleRef mod)
{
    indexed = mod != nullptr ? unwrap(mod) : nullptr;
    index_built = false;
    index_map.clear();
}

/* A struct definition of the module named `name`, for a slot whose own
 * compile unit only declares it (typedef struct x X; in a header): the
 * definition lives in another compile unit of a linked module. */
static const DICompositeType *definition(const Module &mod, StringRef name)
{
    if (&mod == indexed) {
        if (!index_built)
            each_struct(mod, [&](const DICompositeType *c) {
                index_map.try_emplace(c->getName(), c);
                return false;
            });
        index_built = true;
        return index_map.lookup(name);
    }
    const DICompositeType *def = nullptr;
    each_struct(mod, [&](const DICompositeType *c) {
        if (c->getName() == name)
            def = c;
        return def != nullptr;
    });
    return def;
}

/* The struct slot `slot` of `fn` points to, directly or, for a
 * constructor's T **out, through a pointer to it; nullptr if none. */
static const DICompositeType *slot_struct(LLVMValueRef fnref, unsigned slot)
{
    auto *fn = dyn_cast<Function>(unwrap(fnref));
    DISubprogram *sp = fn ? fn->getSubprogram() : nullptr;
    if (sp == nullptr || sp->getType() == nullptr)
        return nullptr;
    DITypeRefArray types = sp->getType()->getTypeArray();
    if (slot >= types.size())
        return nullptr;
    auto *ptr = dyn_cast_or_null<DIDerivedType>(strip(types[slot], nullptr));
    if (ptr == nullptr || ptr->getTag() != dwarf::DW_TAG_pointer_type)
        return nullptr;
    const DIType *base = strip(ptr->getBaseType(), nullptr);
    auto *inner = dyn_cast_or_null<DIDerivedType>(base);
    if (inner != nullptr && inner->getTag() == dwarf::DW_TAG_pointer_type)
        base = strip(inner->getBaseType(), nullptr);
    auto *st = dyn_cast_or_null<DICompositeType>(base);
    if (st == nullptr || st->getTag() != dwarf::DW_TAG_structure_type)
        return nullptr;
    if (st->isForwardDecl() && !st->getName().empty())
        return definition(*fn->getParent(), st->getName());
    return st;
}

extern "C" unsigned bcw__di_struct_bits(LLVMValueRef fn, unsigned slot)
{
    const DICompositeType *st = slot_struct(fn, slot);
    return st ? (unsigned)st->getSizeInBits() : 0;
}

extern "C" int bcw__di_fields(LLVMValueRef fn, unsigned slot, bcw_di_field *out,
                              unsigned max)
{
    const DICompositeType *st = slot_struct(fn, slot);
    if (st == nullptr)
        return 0;
    unsigned n = 0;
    for (const DINode *e : st->getElements()) {
        auto *m = dyn_cast_or_null<DIDerivedType>(e);
        if (m == nullptr || m->getTag() != dwarf::DW_TAG_member || n >= max)
            continue;
        bcw_di_field *f = &out[n++];
        std::memset(f, 0, sizeof *f);
        copy(f->name, sizeof f->name, m->getName().str());
        f->offset_bits = (unsigned)m->getOffsetInBits();
        f->size_bits = (unsigned)m->getSizeInBits();
        classify(m->getBaseType(), &f->type);
        const DIType *t = strip(m->getBaseType(), nullptr);
        if (auto *d = dyn_cast_or_null<DIDerivedType>(t))
            f->is_pointer = d->getTag() == dwarf::DW_TAG_pointer_type;
        if (auto *b = dyn_cast_or_null<DIBasicType>(t))
            f->is_signed = b->getEncoding() == dwarf::DW_ATE_signed ||
                           b->getEncoding() == dwarf::DW_ATE_signed_char;
    }
    return (int)n;
}

/* Whether LLVM finds v's size: DIVariable::getSizeInBits follows base
 * types until one has a size, forever around a cycle of unsized ones. */
static bool sized(const DIVariable *v)
{
    const DIType *t = v->getType();
    for (unsigned hops = 0; hops < MAX_HOPS; hops++) {
        auto *d = dyn_cast_or_null<DIDerivedType>(t);
        if (d == nullptr || d->getSizeInBits() != 0)
            return true;
        t = d->getBaseType();
    }
    return false;
}

extern "C" void bcw__di_drop_unsized(LLVMModuleRef mod)
{
    for (Function &fn : *unwrap(mod))
        for (Instruction &inst : make_early_inc_range(instructions(fn))) {
#if LLVM_VERSION_MAJOR >= 19
            for (DbgVariableRecord &r :
                 make_early_inc_range(filterDbgVars(inst.getDbgRecordRange())))
                if (!sized(r.getVariable()))
                    r.eraseFromParent();
#endif
            auto *dvi = dyn_cast<DbgVariableIntrinsic>(&inst);
            if (dvi != nullptr && !sized(dvi->getVariable()))
                dvi->eraseFromParent();
        }
}

extern "C" int bcw__di_cxx(LLVMModuleRef mod)
{
    int found = -1;
    for (const DICompileUnit *cu : unwrap(mod)->debug_compile_units()) {
        switch (cu->getSourceLanguage()) {
        case dwarf::DW_LANG_C_plus_plus:
        case dwarf::DW_LANG_C_plus_plus_03:
        case dwarf::DW_LANG_C_plus_plus_11:
        case dwarf::DW_LANG_C_plus_plus_14:
        case 0x2a: /* DW_LANG_C_plus_plus_17, unnamed in LLVM 14 */
        case 0x2b: /* DW_LANG_C_plus_plus_20 */
        case dwarf::DW_LANG_ObjC_plus_plus:
            return 1;
        default:
            found = 0;
        }
    }
    return found;
}
