/* mutate.c - the mutation benchmark's mutator (bench_mutants.py): lists
 * the mutation sites of a module's functions and writes one mutant.
 *
 *   mutate list IN.bc [FUNC...]     one line per site: id, function, kind,
 *                                   description (tab-separated)
 *   mutate apply IN.bc ID OUT.bc    writes the mutant with site ID applied
 *
 * A site is numbered in the order of the module's defined functions, their
 * instructions and, per instruction, its mutations, over every defined
 * function (llvm.* intrinsics are declarations): an id names the same
 * mutant whatever FUNC list printed it.  FUNC selects the functions whose
 * names begin with it.  The mutations:
 *   icmp-negate    an icmp's predicate negated (eq<->ne, slt<->sge, ...)
 *   icmp-boundary  an icmp's predicate loosened or tightened (slt<->sle,
 *                  ugt<->uge, ...)
 *   const          an integer constant operand of a binary operation, an
 *                  icmp or a store, plus or minus one (a divisor or shift
 *                  amount is never made invalid)
 *   store-drop     a store to memory other than a local slot (alloca) removed
 *   branch-swap    a conditional branch's successors swapped
 *   return         a returned value replaced: 0, the value plus or minus one
 *                  (ints), its negation (bools), or null (pointers)
 * Errors: one line on stderr, exit status 2. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>

enum mut_kind {
    MUT_ICMP_NEGATE,
    MUT_ICMP_BOUNDARY,
    MUT_CONST,
    MUT_STORE_DROP,
    MUT_BRANCH_SWAP,
    MUT_RETURN
};

static const char *const kind_names[] = {[MUT_ICMP_NEGATE] = "icmp-negate",
                                         [MUT_ICMP_BOUNDARY] = "icmp-boundary",
                                         [MUT_CONST] = "const",
                                         [MUT_STORE_DROP] = "store-drop",
                                         [MUT_BRANCH_SWAP] = "branch-swap",
                                         [MUT_RETURN] = "return"};

/* How a return value is replaced. */
enum ret_how { RET_ZERO, RET_PLUS_ONE, RET_MINUS_ONE, RET_NOT, RET_NULL };

static const char *const ret_names[] = {[RET_ZERO] = "return 0",
                                        [RET_PLUS_ONE] = "return value + 1",
                                        [RET_MINUS_ONE] = "return value - 1",
                                        [RET_NOT] = "return !value",
                                        [RET_NULL] = "return NULL"};

/* One mutation: where, what kind, and the kind's detail. */
struct mutation {
    LLVMValueRef fn;
    LLVMValueRef inst;
    enum mut_kind kind;
    LLVMIntPredicate pred; /* icmp: the new predicate */
    unsigned operand;      /* const: which operand */
    int delta;             /* const: +1 or -1 */
    enum ret_how ret;      /* return: the replacement */
};

/* A visitor's answer: go on, or stop at this mutation. */
typedef bool (*mutation_fn)(const struct mutation *m, void *payload);

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "mutate: %s: %s\n", what, detail);
    exit(2);
}

static const char *pred_name(LLVMIntPredicate p)
{
    switch (p) {
    case LLVMIntEQ:
        return "eq";
    case LLVMIntNE:
        return "ne";
    case LLVMIntUGT:
        return "ugt";
    case LLVMIntUGE:
        return "uge";
    case LLVMIntULT:
        return "ult";
    case LLVMIntULE:
        return "ule";
    case LLVMIntSGT:
        return "sgt";
    case LLVMIntSGE:
        return "sge";
    case LLVMIntSLT:
        return "slt";
    default:
        return "sle";
    }
}

static LLVMIntPredicate pred_negated(LLVMIntPredicate p)
{
    switch (p) {
    case LLVMIntEQ:
        return LLVMIntNE;
    case LLVMIntNE:
        return LLVMIntEQ;
    case LLVMIntUGT:
        return LLVMIntULE;
    case LLVMIntUGE:
        return LLVMIntULT;
    case LLVMIntULT:
        return LLVMIntUGE;
    case LLVMIntULE:
        return LLVMIntUGT;
    case LLVMIntSGT:
        return LLVMIntSLE;
    case LLVMIntSGE:
        return LLVMIntSLT;
    case LLVMIntSLT:
        return LLVMIntSGE;
    default:
        return LLVMIntSGT;
    }
}

/* The predicate with its boundary moved (< and <=, > and >=); eq and ne
 * have none, and come back unchanged. */
static LLVMIntPredicate pred_boundary(LLVMIntPredicate p)
{
    switch (p) {
    case LLVMIntUGT:
        return LLVMIntUGE;
    case LLVMIntUGE:
        return LLVMIntUGT;
    case LLVMIntULT:
        return LLVMIntULE;
    case LLVMIntULE:
        return LLVMIntULT;
    case LLVMIntSGT:
        return LLVMIntSGE;
    case LLVMIntSGE:
        return LLVMIntSGT;
    case LLVMIntSLT:
        return LLVMIntSLE;
    case LLVMIntSLE:
        return LLVMIntSLT;
    default:
        return p;
    }
}

static const char *binop_name(LLVMOpcode op)
{
    switch (op) {
    case LLVMAdd:
        return "add";
    case LLVMSub:
        return "sub";
    case LLVMMul:
        return "mul";
    case LLVMUDiv:
        return "udiv";
    case LLVMSDiv:
        return "sdiv";
    case LLVMURem:
        return "urem";
    case LLVMSRem:
        return "srem";
    case LLVMShl:
        return "shl";
    case LLVMLShr:
        return "lshr";
    case LLVMAShr:
        return "ashr";
    case LLVMAnd:
        return "and";
    case LLVMOr:
        return "or";
    case LLVMXor:
        return "xor";
    default:
        return NULL;
    }
}

static bool is_int_constant(LLVMValueRef v)
{
    return LLVMIsAConstantInt(v) != NULL &&
           LLVMGetIntTypeWidth(LLVMTypeOf(v)) > 1;
}

/* Whether operand `operand` of `inst`, changed to `value`, keeps the
 * instruction defined: no zero divisor, no shift by the width or more. */
static bool keeps_defined(LLVMValueRef inst, unsigned operand, long long value)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(inst);
    unsigned width = LLVMGetIntTypeWidth(LLVMTypeOf(inst));
    if (operand != 1)
        return true;
    if (op == LLVMUDiv || op == LLVMSDiv || op == LLVMURem || op == LLVMSRem)
        return value != 0;
    if (op == LLVMShl || op == LLVMLShr || op == LLVMAShr)
        return value >= 0 && value < (long long)width;
    return true;
}

/* An icmp's predicate negated, then its boundary moved (not eq, ne). */
static bool visit_icmp(LLVMValueRef fn, LLVMValueRef inst, mutation_fn cb,
                       void *payload)
{
    LLVMIntPredicate p = LLVMGetICmpPredicate(inst);
    struct mutation m = {.fn = fn,
                         .inst = inst,
                         .kind = MUT_ICMP_NEGATE,
                         .pred = pred_negated(p)};
    if (cb(&m, payload))
        return true;
    if (pred_boundary(p) == p)
        return false;
    m.kind = MUT_ICMP_BOUNDARY;
    m.pred = pred_boundary(p);
    return cb(&m, payload);
}

/* The integer constant operands of `inst`, each plus and minus 1. */
static bool visit_constants(LLVMValueRef fn, LLVMValueRef inst, mutation_fn cb,
                            void *payload)
{
    static const int deltas[] = {1, -1};
    unsigned n = LLVMGetNumOperands(inst);
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef v = LLVMGetOperand(inst, i);
        if (!is_int_constant(v))
            continue;
        for (size_t d = 0; d < 2; d++) {
            long long value = LLVMConstIntGetSExtValue(v) + deltas[d];
            struct mutation m = {.fn = fn,
                                 .inst = inst,
                                 .kind = MUT_CONST,
                                 .operand = i,
                                 .delta = deltas[d]};
            if (keeps_defined(inst, i, value) && cb(&m, payload))
                return true;
        }
    }
    return false;
}

/* A store's constant value +-1, then the store dropped. */
static bool visit_store(LLVMValueRef fn, LLVMValueRef inst, mutation_fn cb,
                        void *payload)
{
    struct mutation m = {.fn = fn, .inst = inst, .kind = MUT_STORE_DROP};
    /* of the operands only the value can be a ConstantInt */
    if (visit_constants(fn, inst, cb, payload))
        return true;
    /* a dropped store to a local slot leaves a read of undefined memory:
     * a mutant of the compiler's spills, not of the code */
    if (LLVMIsAAllocaInst(LLVMGetOperand(inst, 1)) != NULL)
        return false;
    return cb(&m, payload);
}

/* A returned int, bool or pointer replaced. */
static bool visit_return(LLVMValueRef fn, LLVMValueRef inst, mutation_fn cb,
                         void *payload)
{
    static const enum ret_how for_int[] = {RET_ZERO, RET_PLUS_ONE,
                                           RET_MINUS_ONE};
    static const enum ret_how for_bool[] = {RET_ZERO, RET_NOT};
    static const enum ret_how for_ptr[] = {RET_NULL};
    const enum ret_how *hows;
    size_t n;
    if (LLVMGetNumOperands(inst) == 0)
        return false;
    LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(inst, 0));
    if (LLVMGetTypeKind(t) == LLVMPointerTypeKind) {
        hows = for_ptr, n = 1;
    } else if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind) {
        return false;
    } else if (LLVMGetIntTypeWidth(t) == 1) {
        hows = for_bool, n = 2;
    } else {
        hows = for_int, n = 3;
    }
    for (size_t i = 0; i < n; i++) {
        struct mutation m = {
            .fn = fn, .inst = inst, .kind = MUT_RETURN, .ret = hows[i]};
        if (cb(&m, payload))
            return true;
    }
    return false;
}

/* Every mutation of one instruction, in a fixed order; true when the
 * callback stopped the walk. */
static bool visit_instruction(LLVMValueRef fn, LLVMValueRef inst,
                              mutation_fn cb, void *payload)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(inst);
    if (op == LLVMICmp) {
        return visit_icmp(fn, inst, cb, payload) ||
               visit_constants(fn, inst, cb, payload);
    }
    if (binop_name(op) != NULL)
        return visit_constants(fn, inst, cb, payload);
    if (op == LLVMStore)
        return visit_store(fn, inst, cb, payload);
    if (op == LLVMBr && LLVMIsConditional(inst)) {
        struct mutation m = {.fn = fn, .inst = inst, .kind = MUT_BRANCH_SWAP};
        return cb(&m, payload);
    }
    if (op == LLVMRet)
        return visit_return(fn, inst, cb, payload);
    return false;
}

/* Every mutation of every defined function of `mod`, in module order. */
static void visit_module(LLVMModuleRef mod, mutation_fn cb, void *payload)
{
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn != NULL;
         fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn) || LLVMGetIntrinsicID(fn) != 0)
            continue;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb != NULL;
             bb = LLVMGetNextBasicBlock(bb)) {
            for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst != NULL;
                 inst = LLVMGetNextInstruction(inst)) {
                if (visit_instruction(fn, inst, cb, payload))
                    return;
            }
        }
    }
}

static const char *fn_name(LLVMValueRef fn)
{
    size_t len;
    return LLVMGetValueName2(fn, &len);
}

/* Where a store writes, into buf: "field 2", "an element of field 0" (a
 * GEP's last constant struct index), "global calls", or "memory". */
static void address_text(LLVMValueRef addr, char *buf, size_t size)
{
    const char *element = "";
    size_t len;
    if (LLVMIsAGlobalVariable(addr) != NULL) {
        snprintf(buf, size, "global %s", LLVMGetValueName2(addr, &len));
        return;
    }
    if (LLVMIsAGetElementPtrInst(addr) != NULL &&
        LLVMGetTypeKind(LLVMGetGEPSourceElementType(addr)) ==
            LLVMArrayTypeKind) {
        element = "an element of ";
        addr = LLVMGetOperand(addr, 0);
    }
    if (LLVMIsAGetElementPtrInst(addr) != NULL &&
        LLVMGetTypeKind(LLVMGetGEPSourceElementType(addr)) ==
            LLVMStructTypeKind &&
        LLVMGetNumOperands(addr) == 3 &&
        LLVMIsAConstantInt(LLVMGetOperand(addr, 2)) != NULL) {
        snprintf(buf, size, "%sfield %lld", element,
                 LLVMConstIntGetSExtValue(LLVMGetOperand(addr, 2)));
        return;
    }
    snprintf(buf, size, "%smemory", element);
}

/* A mutation's description, "undo_push:66: icmp eq -> ne", into buf. */
static void describe(const struct mutation *m, char *buf, size_t size)
{
    char where[64] = "";
    if (LLVMGetInstructionOpcode(m->inst) == LLVMStore)
        address_text(LLVMGetOperand(m->inst, 1), where, sizeof where);
    int n = snprintf(buf, size, "%s:%u: ", fn_name(m->fn),
                     LLVMGetDebugLocLine(m->inst));
    size_t at = n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
    char *p = buf + at;
    size -= at;
    switch (m->kind) {
    case MUT_ICMP_NEGATE:
    case MUT_ICMP_BOUNDARY:
        snprintf(p, size, "icmp %s -> %s",
                 pred_name(LLVMGetICmpPredicate(m->inst)), pred_name(m->pred));
        break;
    case MUT_CONST: {
        LLVMOpcode op = LLVMGetInstructionOpcode(m->inst);
        long long old =
            LLVMConstIntGetSExtValue(LLVMGetOperand(m->inst, m->operand));
        if (op == LLVMStore)
            snprintf(p, size, "store to %s: constant %lld -> %lld", where, old,
                     old + m->delta);
        else
            snprintf(p, size, "%s constant %lld -> %lld",
                     op == LLVMICmp ? "icmp" : binop_name(op), old,
                     old + m->delta);
        break;
    }
    case MUT_STORE_DROP:
        snprintf(p, size, "store to %s dropped", where);
        break;
    case MUT_BRANCH_SWAP:
        snprintf(p, size, "branch inverted");
        break;
    case MUT_RETURN:
        snprintf(p, size, "%s", ret_names[m->ret]);
        break;
    }
}

/* list: the selected functions' name prefixes, and the next id. */
struct lister {
    char **prefixes;
    int n_prefixes;
    unsigned long next_id;
};

static bool selected(const struct lister *l, LLVMValueRef fn)
{
    if (l->n_prefixes == 0)
        return true;
    for (int i = 0; i < l->n_prefixes; i++) {
        if (strncmp(fn_name(fn), l->prefixes[i], strlen(l->prefixes[i])) == 0)
            return true;
    }
    return false;
}

static bool print_mutation(const struct mutation *m, void *payload)
{
    struct lister *l = payload;
    char desc[256];
    unsigned long id = l->next_id++;
    if (!selected(l, m->fn))
        return false;
    describe(m, desc, sizeof desc);
    printf("%lu\t%s\t%s\t%s\n", id, fn_name(m->fn), kind_names[m->kind], desc);
    return false;
}

/* apply: the id sought, the ids passed, and the mutation found. */
struct finder {
    unsigned long id;
    unsigned long next_id;
    struct mutation found;
    bool ok;
};

static bool find_mutation(const struct mutation *m, void *payload)
{
    struct finder *f = payload;
    if (f->next_id++ != f->id)
        return false;
    f->found = *m;
    f->ok = true;
    return true;
}

/* Gives `made` the debug location of `like`, so that halts and
 * conditions in the mutant keep their source line. */
static void copy_location(LLVMValueRef made, LLVMValueRef like)
{
    unsigned dbg = LLVMGetMDKindID("dbg", 3);
    LLVMValueRef loc = LLVMGetMetadata(like, dbg);
    if (loc != NULL)
        LLVMSetMetadata(made, dbg, loc);
}

static void apply_icmp(LLVMBuilderRef b, const struct mutation *m)
{
    LLVMPositionBuilderBefore(b, m->inst);
    LLVMValueRef made = LLVMBuildICmp(b, m->pred, LLVMGetOperand(m->inst, 0),
                                      LLVMGetOperand(m->inst, 1), "");
    copy_location(made, m->inst);
    LLVMReplaceAllUsesWith(m->inst, made);
    LLVMInstructionEraseFromParent(m->inst);
}

static void apply_const(const struct mutation *m)
{
    LLVMValueRef old = LLVMGetOperand(m->inst, m->operand);
    long long value = LLVMConstIntGetSExtValue(old) + m->delta;
    LLVMSetOperand(m->inst, m->operand,
                   LLVMConstInt(LLVMTypeOf(old), (unsigned long long)value, 1));
}

static void apply_branch_swap(const struct mutation *m)
{
    LLVMBasicBlockRef then_bb = LLVMGetSuccessor(m->inst, 0);
    LLVMSetSuccessor(m->inst, 0, LLVMGetSuccessor(m->inst, 1));
    LLVMSetSuccessor(m->inst, 1, then_bb);
}

/* The value a return mutation returns, built before the return. */
static LLVMValueRef replacement(LLVMBuilderRef b, const struct mutation *m)
{
    LLVMValueRef v = LLVMGetOperand(m->inst, 0);
    LLVMTypeRef t = LLVMTypeOf(v);
    LLVMValueRef made;
    switch (m->ret) {
    case RET_PLUS_ONE:
        made = LLVMBuildAdd(b, v, LLVMConstInt(t, 1, 0), "");
        break;
    case RET_MINUS_ONE:
        made = LLVMBuildSub(b, v, LLVMConstInt(t, 1, 0), "");
        break;
    case RET_NOT:
        made = LLVMBuildNot(b, v, "");
        break;
    default:
        return LLVMConstNull(t);
    }
    if (LLVMIsAInstruction(made))
        copy_location(made, m->inst);
    return made;
}

static void apply_return(LLVMBuilderRef b, const struct mutation *m)
{
    LLVMPositionBuilderBefore(b, m->inst);
    LLVMSetOperand(m->inst, 0, replacement(b, m));
}

static void apply(LLVMContextRef ctx, const struct mutation *m)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    switch (m->kind) {
    case MUT_ICMP_NEGATE:
    case MUT_ICMP_BOUNDARY:
        apply_icmp(b, m);
        break;
    case MUT_CONST:
        apply_const(m);
        break;
    case MUT_STORE_DROP:
        LLVMInstructionEraseFromParent(m->inst);
        break;
    case MUT_BRANCH_SWAP:
        apply_branch_swap(m);
        break;
    case MUT_RETURN:
        apply_return(b, m);
        break;
    }
    LLVMDisposeBuilder(b);
}

/* Bitcode reading reports through this handler: its message is the
 * error line. */
static void on_diagnostic(LLVMDiagnosticInfoRef info, void *payload)
{
    char **message = payload;
    if (LLVMGetDiagInfoSeverity(info) != LLVMDSError || *message != NULL)
        return;
    *message = LLVMGetDiagInfoDescription(info);
}

static LLVMModuleRef read_module(LLVMContextRef ctx, const char *path)
{
    LLVMMemoryBufferRef buf;
    char *message = NULL;
    LLVMModuleRef mod;
    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &message)) {
        fprintf(stderr, "mutate: cannot read %s: %s\n", path, message);
        exit(2);
    }
    LLVMContextSetDiagnosticHandler(ctx, on_diagnostic, &message);
    if (LLVMParseBitcodeInContext2(ctx, buf, &mod)) {
        fprintf(stderr, "mutate: %s is not bitcode: %s\n", path,
                message != NULL ? message : "unreadable");
        exit(2);
    }
    LLVMDisposeMemoryBuffer(buf);
    return mod;
}

/* Writes mod to path through path.tmp and a rename. */
static void write_module(LLVMModuleRef mod, const char *path)
{
    size_t len = strlen(path) + sizeof ".tmp";
    char *tmp = malloc(len);
    if (tmp == NULL)
        die("malloc", strerror(errno));
    snprintf(tmp, len, "%s.tmp", path);
    if (LLVMWriteBitcodeToFile(mod, tmp) != 0)
        die(tmp, "cannot write bitcode");
    if (rename(tmp, path) != 0) {
        fprintf(stderr, "mutate: rename %s to %s: %s\n", tmp, path,
                strerror(errno));
        remove(tmp);
        exit(2);
    }
    free(tmp);
}

static unsigned long parse_id(const char *text)
{
    char *end;
    errno = 0;
    unsigned long id = strtoul(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || text[0] == '-')
        die("not a mutation id", text);
    return id;
}

static int cmd_list(LLVMModuleRef mod, char **prefixes, int n_prefixes)
{
    struct lister l = {.prefixes = prefixes, .n_prefixes = n_prefixes};
    visit_module(mod, print_mutation, &l);
    if (fflush(stdout) != 0)
        die("stdout", strerror(errno));
    return 0;
}

static int cmd_apply(LLVMContextRef ctx, LLVMModuleRef mod, const char *id,
                     const char *out)
{
    struct finder f = {.id = parse_id(id)};
    visit_module(mod, find_mutation, &f);
    if (!f.ok)
        die("no mutation site with id", id);
    apply(ctx, &f.found);
    write_module(mod, out);
    return 0;
}

static void usage(void)
{
    fputs("usage: mutate list IN.bc [FUNC...] | mutate apply IN.bc ID "
          "OUT.bc\n",
          stderr);
    exit(2);
}

int main(int argc, char **argv)
{
    bool list = argc >= 3 && strcmp(argv[1], "list") == 0;
    bool apply_one = argc == 5 && strcmp(argv[1], "apply") == 0;
    if (!list && !apply_one)
        usage();
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef mod = read_module(ctx, argv[2]);
    int rc = list ? cmd_list(mod, argv + 3, argc - 3)
                  : cmd_apply(ctx, mod, argv[3], argv[4]);
    LLVMDisposeModule(mod);
    LLVMContextDispose(ctx);
    return rc;
}
