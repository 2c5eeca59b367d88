/* cover_pass.c - compiles coverage flags into a unit's bitcode
 * (cover_pass.h).  A flag is one byte set by a plain store (as
 * SanitizerCoverage's inline-bool-flag), its index a constant: the
 * block's first instruction stores 1 into the block's flag, and before
 * a conditional its arm's flag is chosen by the same condition (a
 * `select`, a chain of them for a switch) and set, so that no edge is
 * split and no PHI changes.  The map is made here, from the debug
 * locations of the instructions the flags stand for, not by
 * symbolizing addresses afterwards. */
#include "cover_pass.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "bitcode.h"

/* A set of pointers (LLVM values), open addressing. */
typedef struct ptrset {
    const void **slot;
    size_t cap, n;
} ptrset;

static size_t ptr_hash(const void *p, size_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15u;
    return (size_t)(h >> 17) & (cap - 1);
}

/* Adds p: 1 if it was new, 0 if there, BCW_ENOMEM. */
static int ptrset_add(ptrset *s, const void *p)
{
    if (2 * (s->n + 1) > s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        const void **slot = bcw__calloc(cap, sizeof *slot);
        if (slot == NULL)
            return BCW_ENOMEM;
        for (size_t i = 0; i < s->cap; i++)
            if (s->slot[i] != NULL) {
                size_t k = ptr_hash(s->slot[i], cap);
                while (slot[k] != NULL)
                    k = (k + 1) & (cap - 1);
                slot[k] = s->slot[i];
            }
        free(s->slot);
        s->slot = slot;
        s->cap = cap;
    }
    size_t k = ptr_hash(p, s->cap);
    for (; s->slot[k] != NULL; k = (k + 1) & (s->cap - 1))
        if (s->slot[k] == p)
            return 0;
    s->slot[k] = p;
    s->n++;
    return 1;
}

/* A defined function and its index in the map. */
typedef struct numbered {
    LLVMValueRef fn;
    uint32_t index;
} numbered;

typedef struct pass {
    bcw_cov_map *map;
    size_t capfiles, capfns, caplines, capbranches, caprefs, caprefs_at;
    numbered *order; /* the defined functions, by address */
    uint32_t norder;
    ptrset found; /* functions the one being mapped refers to */
    ptrset seen;  /* constants looked through for it */
    /* the last file looked up, by the strings' addresses */
    const char *last_dir, *last_name;
    uint32_t last_file;
} pass;

static bool defined(LLVMValueRef fn)
{
    return !LLVMIsDeclaration(fn) &&
           LLVMGetLinkage(fn) != LLVMAvailableExternallyLinkage;
}

static int by_address(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const numbered *)a)->fn;
    uintptr_t y = (uintptr_t)((const numbered *)b)->fn;
    return x < y ? -1 : x > y;
}

/* Numbers the defined functions in module order, as the map lists
 * them.  0 or BCW_ENOMEM. */
static int number(pass *p, LLVMModuleRef mod)
{
    uint32_t n = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn != NULL;
         fn = LLVMGetNextFunction(fn))
        n += defined(fn);
    if ((p->order = bcw__calloc(n ? n : 1, sizeof *p->order)) == NULL)
        return BCW_ENOMEM;
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn != NULL;
         fn = LLVMGetNextFunction(fn))
        if (defined(fn)) {
            p->order[p->norder].fn = fn;
            p->order[p->norder].index = p->norder;
            p->norder++;
        }
    qsort(p->order, p->norder, sizeof *p->order, by_address);
    return 0;
}

/* Adds the functions v refers to, through constants and the
 * initializers of globals, to the refs of the function being mapped. */
static int collect(pass *p, LLVMValueRef v)
{
    if (LLVMIsAFunction(v)) {
        numbered key = {v, 0};
        const numbered *at =
            bsearch(&key, p->order, p->norder, sizeof *p->order, by_address);
        int added = at != NULL ? ptrset_add(&p->found, v) : 0;
        if (added <= 0)
            return added;
        bcw_cov_map *m = p->map;
        if (bcw__grow(&m->refs, &p->caprefs, m->nrefs + 1, sizeof *m->refs) < 0)
            return BCW_ENOMEM;
        m->refs[m->nrefs++] = at->index;
        return 0;
    }
    if (!LLVMIsAGlobalVariable(v) && !LLVMIsAConstantExpr(v) &&
        !LLVMIsAConstantStruct(v) && !LLVMIsAConstantArray(v) &&
        !LLVMIsAConstantVector(v))
        return 0;
    int added = ptrset_add(&p->seen, v);
    if (added <= 0)
        return added;
    if (LLVMIsAGlobalVariable(v)) {
        LLVMValueRef init = LLVMGetInitializer(v);
        return init != NULL ? collect(p, init) : 0;
    }
    int n = LLVMGetNumOperands(v), err = 0;
    for (int i = 0; i < n && err == 0; i++)
        err = collect(p, LLVMGetOperand(v, (unsigned)i));
    return err;
}

/* Function k's refs (fn): what its instructions refer to. */
static int refs_of(pass *p, LLVMValueRef fn, uint32_t k)
{
    bcw_cov_map *m = p->map;
    if (bcw__grow(&m->refs_at, &p->caprefs_at, (size_t)k + 2,
                  sizeof *m->refs_at) < 0)
        return BCW_ENOMEM;
    m->refs_at[k] = m->nrefs;
    free(p->found.slot);
    free(p->seen.slot);
    p->found = p->seen = (ptrset){0};
    int err = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn);
         bb != NULL && err == 0; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb);
             in != NULL && err == 0; in = LLVMGetNextInstruction(in)) {
            int n = LLVMGetNumOperands(in);
            for (int i = 0; i < n && err == 0; i++)
                err = collect(p, LLVMGetOperand(in, (unsigned)i));
        }
    m->refs_at[k + 1] = m->nrefs;
    return err;
}

/* The index of the file of v's debug location (an instruction's or a
 * function's) in map->files, or UINT32_MAX for BCW_ENOMEM. */
static uint32_t file_of(pass *p, LLVMValueRef v)
{
    unsigned nd = 0, nn = 0;
    const char *dir = LLVMGetDebugLocDirectory(v, &nd);
    const char *name = LLVMGetDebugLocFilename(v, &nn);
    if (name == p->last_name && dir == p->last_dir && p->map->nfiles > 0)
        return p->last_file;
    char *path = NULL;
    if (bcw__debug_path(v, &path) < 0 ||
        (path == NULL && (path = bcw__strdup("")) == NULL))
        return UINT32_MAX;
    bcw_cov_map *m = p->map;
    uint32_t k = 0;
    while (k < m->nfiles && strcmp(m->files[k], path) != 0)
        k++;
    if (k < m->nfiles) {
        free(path);
    } else {
        if (bcw__grow(&m->files, &p->capfiles, m->nfiles + 1,
                      sizeof *m->files) < 0) {
            free(path);
            return UINT32_MAX;
        }
        m->files[m->nfiles++] = path;
    }
    p->last_name = name;
    p->last_dir = dir;
    p->last_file = k;
    return k;
}

/* The flags a block's terminator has for its arms: 2 for a branch on a
 * condition, one per case and the default for a switch of at most
 * BCW_COV_MAX_CASES cases, none for other terminators and for those
 * without a source line (code the compiler made up). */
static unsigned arms_of(LLVMValueRef term, bool *skipped)
{
    if (term == NULL || LLVMGetDebugLocLine(term) == 0)
        return 0;
    if (LLVMIsABranchInst(term) && LLVMIsConditional(term) &&
        !LLVMIsConstant(LLVMGetCondition(term)))
        return 2;
    if (LLVMIsASwitchInst(term)) {
        unsigned n = LLVMGetNumSuccessors(term);
        if (n - 1 <= BCW_COV_MAX_CASES)
            return n;
        *skipped = true;
    }
    return 0;
}

/* Where a block's flag is set: its first instruction that is not a PHI
 * or landing pad; NULL for a block that takes none (an EH pad). */
static LLVMValueRef flag_point(LLVMBasicBlockRef bb)
{
    LLVMValueRef in = LLVMGetFirstInstruction(bb);
    while (in != NULL && LLVMIsAPHINode(in))
        in = LLVMGetNextInstruction(in);
    if (in != NULL && LLVMIsALandingPadInst(in))
        in = LLVMGetNextInstruction(in);
    if (in == NULL || LLVMIsACatchSwitchInst(in) || LLVMIsACatchPadInst(in) ||
        LLVMIsACleanupPadInst(in))
        return NULL;
    return in;
}

static bool is_debug(LLVMValueRef in)
{
    return LLVMIsADbgInfoIntrinsic(in) != NULL;
}

/* Where control goes on entering bb: the line and column of its first
 * instruction with a line, through blocks of a bare jump (the joins
 * clang makes); 0 when none is found in a few. */
static void dest_of(LLVMBasicBlockRef bb, uint32_t *line, uint32_t *col)
{
    for (int hop = 0; bb != NULL && hop < 8; hop++) {
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in != NULL;
             in = LLVMGetNextInstruction(in))
            if (!is_debug(in) && LLVMGetDebugLocLine(in) != 0) {
                *line = LLVMGetDebugLocLine(in);
                *col = LLVMGetDebugLocColumn(in);
                return;
            }
        LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
        bb = term != NULL && LLVMIsABranchInst(term) && !LLVMIsConditional(term)
                 ? LLVMGetSuccessor(term, 0)
                 : NULL;
    }
    *line = *col = 0;
}

typedef struct emitter {
    LLVMBuilderRef b;
    LLVMValueRef flags;
    LLVMTypeRef i8, i64;
} emitter;

/* Sets flag k (a constant index) or the flag at index value `at`. */
static void set_flag(emitter *e, LLVMValueRef at)
{
    LLVMValueRef ptr = LLVMBuildGEP2(e->b, e->i8, e->flags, &at, 1, "");
    LLVMBuildStore(e->b, LLVMConstInt(e->i8, 1, 0), ptr);
}

static int add_line(pass *p, uint32_t file, uint32_t line, uint32_t flag,
                    uint32_t fn)
{
    bcw_cov_map *m = p->map;
    if (bcw__grow(&m->lines, &p->caplines, m->nlines + 1, sizeof *m->lines) < 0)
        return BCW_ENOMEM;
    m->lines[m->nlines++] = (bcw_cov_line){file, line, flag, fn};
    return 0;
}

/* The block's flag, its lines and its terminator's arms. */
static int block(pass *p, emitter *e, LLVMBasicBlockRef bb, uint32_t fn,
                 uint32_t *next, uint32_t *group)
{
    bcw_cov_map *m = p->map;
    LLVMValueRef at = flag_point(bb);
    if (at == NULL)
        return 0;
    uint32_t flag = (*next)++;
    if (LLVMGetFirstBasicBlock(LLVMGetBasicBlockParent(bb)) == bb)
        m->fns[fn].flag = flag;
    uint32_t last_file = UINT32_MAX, last_line = 0;
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in != NULL;
         in = LLVMGetNextInstruction(in)) {
        unsigned line = LLVMGetDebugLocLine(in);
        if (line == 0 || is_debug(in))
            continue;
        uint32_t file = file_of(p, in);
        if (file == UINT32_MAX)
            return BCW_ENOMEM;
        if (file == last_file && line == last_line)
            continue;
        if (add_line(p, file, line, flag, fn) < 0)
            return BCW_ENOMEM;
        last_file = file;
        last_line = line;
    }
    LLVMPositionBuilderBefore(e->b, at);
    set_flag(e, LLVMConstInt(e->i64, flag, 0));
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    bool skipped = false;
    unsigned arms = arms_of(term, &skipped);
    m->switches_skipped += skipped;
    if (arms == 0)
        return 0;
    uint32_t file = file_of(p, term), line = LLVMGetDebugLocLine(term);
    if (file == UINT32_MAX ||
        bcw__grow(&m->branches, &p->capbranches, m->nbranches + arms,
                  sizeof *m->branches) < 0)
        return BCW_ENOMEM;
    uint32_t first = *next;
    bool sw = LLVMIsASwitchInst(term) != NULL;
    for (unsigned a = 0; a < arms; a++) {
        bcw_cov_branch *br = &m->branches[m->nbranches++];
        *br = (bcw_cov_branch){fn, file, line, flag, first + a, *group, a};
        br->kind = !sw            ? BCW_ARM_BRANCH
                   : a + 1 < arms ? BCW_ARM_CASE
                                  : BCW_ARM_DEFAULT;
        br->col = LLVMGetDebugLocColumn(term);
        /* a switch's successors: the default, then the cases' */
        unsigned to = !sw ? a : (a + 1) % arms;
        dest_of(LLVMGetSuccessor(term, to), &br->to_line, &br->to_col);
        if (br->kind == BCW_ARM_CASE)
            br->value =
                LLVMConstIntGetSExtValue(LLVMGetOperand(term, 2 + 2 * a));
    }
    (*group)++;
    *next += arms;
    LLVMPositionBuilderBefore(e->b, term);
    LLVMValueRef idx;
    if (LLVMIsABranchInst(term)) {
        idx = LLVMBuildSelect(e->b, LLVMGetCondition(term),
                              LLVMConstInt(e->i64, first, 0),
                              LLVMConstInt(e->i64, first + 1, 0), "");
    } else {
        /* operands: the condition, the default, then (value, dest)
         * pairs; arm k is case k, arm arms-1 the default */
        LLVMValueRef v = LLVMGetOperand(term, 0);
        idx = LLVMConstInt(e->i64, first + arms - 1, 0);
        for (unsigned c = 0; c + 1 < arms; c++) {
            LLVMValueRef is = LLVMBuildICmp(
                e->b, LLVMIntEQ, v, LLVMGetOperand(term, 2 + 2 * c), "");
            idx = LLVMBuildSelect(e->b, is, LLVMConstInt(e->i64, first + c, 0),
                                  idx, "");
        }
    }
    set_flag(e, idx);
    return 0;
}

/* Flags before `flags` exists: as block() will give them. */
static uint32_t count_flags(LLVMModuleRef mod)
{
    uint32_t n = 0;
    bool skipped;
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn != NULL;
         fn = LLVMGetNextFunction(fn)) {
        if (!defined(fn))
            continue;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb != NULL;
             bb = LLVMGetNextBasicBlock(bb))
            if (flag_point(bb) != NULL)
                n += 1 + arms_of(LLVMGetBasicBlockTerminator(bb), &skipped);
    }
    return n;
}

static int cmp_line(const void *a, const void *b)
{
    const bcw_cov_line *x = a, *y = b;
    if (x->file != y->file)
        return x->file < y->file ? -1 : 1;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return x->flag < y->flag ? -1 : x->flag > y->flag;
}

static int cmp_branch(const void *a, const void *b)
{
    const bcw_cov_branch *x = a, *y = b;
    if (x->file != y->file)
        return x->file < y->file ? -1 : 1;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return x->flag < y->flag ? -1 : x->flag > y->flag;
}

/* Sorts the lines by file and line and drops repeats. */
static void tidy(bcw_cov_map *m)
{
    if (m->nlines > 0) {
        qsort(m->lines, m->nlines, sizeof *m->lines, cmp_line);
        uint32_t k = 1;
        for (uint32_t i = 1; i < m->nlines; i++)
            if (cmp_line(&m->lines[i], &m->lines[k - 1]) != 0)
                m->lines[k++] = m->lines[i];
        m->nlines = k;
    }
    if (m->nbranches > 0)
        qsort(m->branches, m->nbranches, sizeof *m->branches, cmp_branch);
}

int bcw__cov_instrument(LLVMModuleRef mod, bcw_cov_map *map)
{
    memset(map, 0, sizeof *map);
    pass p = {.map = map};
    int err = number(&p, mod);
    LLVMContextRef ctx = LLVMGetModuleContext(mod);
    emitter e = {.i8 = LLVMInt8TypeInContext(ctx),
                 .i64 = LLVMInt64TypeInContext(ctx)};
    uint32_t n = count_flags(mod);
    LLVMTypeRef at = LLVMArrayType(e.i8, n);
    e.flags = LLVMAddGlobal(mod, at, "bcw_cov_flags");
    LLVMSetInitializer(e.flags, LLVMConstNull(at));
    LLVMSetSection(e.flags, "bcw_cov");
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    LLVMValueRef count = LLVMAddGlobal(mod, i32, "bcw_cov_count");
    LLVMSetInitializer(count, LLVMConstInt(i32, n, 0));
    LLVMSetGlobalConstant(count, 1);
    e.b = LLVMCreateBuilderInContext(ctx);
    uint32_t next = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn != NULL && err == 0;
         fn = LLVMGetNextFunction(fn)) {
        if (!defined(fn))
            continue;
        if (bcw__grow(&map->fns, &p.capfns, map->nfns + 1, sizeof *map->fns) <
            0) {
            err = BCW_ENOMEM;
            break;
        }
        uint32_t k = map->nfns++, file = 0;
        map->fns[k] = (bcw_cov_fn){.flag = UINT32_MAX};
        unsigned line = LLVMGetDebugLocLine(fn);
        if (line > 0 && (file = file_of(&p, fn)) == UINT32_MAX) {
            err = BCW_ENOMEM;
            break;
        }
        map->fns[k] = (bcw_cov_fn){.name = bcw__strdup(bcw__value_name(fn)),
                                   .file = file,
                                   .line = line,
                                   .flag = UINT32_MAX};
        if (map->fns[k].name == NULL) {
            err = BCW_ENOMEM;
            break;
        }
        /* before the flags: their stores refer to no function */
        if ((err = refs_of(&p, fn, k)) < 0)
            break;
        uint32_t group = 0;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn);
             bb != NULL && err == 0; bb = LLVMGetNextBasicBlock(bb))
            err = block(&p, &e, bb, k, &next, &group);
    }
    LLVMDisposeBuilder(e.b);
    free(p.found.slot);
    free(p.seen.slot);
    free(p.order);
    map->nflags = n;
    if (err == 0 && next != n)
        err = bcw__error(BCW_ERROR, "coverage: %u flags placed, %u counted",
                         (unsigned)next, (unsigned)n);
    if (err < 0) {
        bcw__cov_map_free(map);
        return err;
    }
    tidy(map);
    return 0;
}
