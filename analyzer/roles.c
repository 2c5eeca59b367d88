/* roles.c - a function's unit and role.  Constructors of each shape: a
 * heap constructor returning T * (or a string handle, typedef char
 * *sds), an init function T_init(T *), int t_open(..., T **out), and,
 * without struct information, the name's prefix (X_new makes unit X);
 * destructors because they free the unit, by name only where the unit
 * goes to code bcwalk cannot see; the rest are observers until their
 * effects say otherwise. */
#define _POSIX_C_SOURCE 200809L
#include "roles.h"

#include <string.h>
#include <strings.h>

#include "addr.h"
#include "params.h"

/* The last word of a function name names its role (last_word_in). */
static const char *const init_words[] = {"init",  "initialize", "initialise",
                                         "setup", "construct",  NULL};
static const char *const ctor_words[] = {"new",  "create", "alloc", "make",
                                         "open", "from",   NULL};
static const char *const dtor_words[] = {
    "free",   "destroy",  "delete",   "release", "dispose", "fini",
    "deinit", "finalize", "finalise", "cleanup", "end", NULL};

/* Is [w, w + n), its trailing digits aside, one of `words`, case
 * aside? */
static bool word_is(const char *w, size_t n, const char *const *words)
{
    while (n > 0 && w[n - 1] >= '0' && w[n - 1] <= '9')
        n--;
    for (; n > 0 && *words != NULL; words++)
        if (strlen(*words) == n && strncasecmp(w, *words, n) == 0)
            return true;
    return false;
}

/* Does the name's last word name a role: its last '_'-separated word
 * that is not empty (deflateInit_'s deflateInit), or, written in
 * camelCase, that word's last part (deflateInit's Init) or, for a verb
 * that makes or ends an object, its first (LZ4F_createCompression-
 * Context's create; not cJSON_InitHooks's Init, which reads the hooks
 * it is given)? */
static bool last_word_in(const char *name, const char *const *words)
{
    size_t n = strlen(name);
    while (n > 0 && name[n - 1] == '_')
        n--;
    const char *w = name + n;
    while (w > name && w[-1] != '_')
        w--;
    size_t len = (size_t)(name + n - w), first = len, last = 0;
    for (size_t i = 1; i < len; i++)
        if (w[i] >= 'A' && w[i] <= 'Z' && w[i - 1] >= 'a' && w[i - 1] <= 'z') {
            first = first < len ? first : i;
            last = i;
        }
    return (words != init_words && word_is(w, first, words)) ||
           word_is(w + last, len - last, words);
}

/* Is one of the '_'-separated words of a function name in `words`? */
static bool any_word_in(const char *name, const char *const *words)
{
    for (const char *w = name; w != NULL; w = strchr(w, '_')) {
        w += *w == '_';
        size_t n = strcspn(w, "_");
        for (const char *const *x = words; *x != NULL; x++)
            if (strlen(*x) == n && strncmp(w, *x, n) == 0)
                return true;
    }
    return false;
}

/* Is `name` an initialiser's: its last word an init word, or one after
 * its first (set_init_alt, a macro family's map_init_int)? */
static bool init_named(const char *name)
{
    const char *us = strchr(name, '_');
    return last_word_in(name, init_words) ||
           (us != NULL && any_word_in(us + 1, init_words));
}

/* The slot an init-named function `s` initialises: its first parameter's
 * struct (T_init(T *)), else the first struct it may write (not const:
 * ks_setup(const uint8_t *key, keysched *ks); not genann_init_sigmoid_
 * lookup(const genann *), which fills a table of its own), 0 for none. */
static unsigned init_slot(const bcw_sig *s)
{
    if (!init_named(s->name))
        return 0;
    bool last = last_word_in(s->name, init_words);
    for (unsigned i = 1; i <= s->n; i++)
        if (bcw__sig_struct(s, i) != NULL &&
            ((i == 1 && last) || !s->di[i].pointee_const))
            return i;
    return 0;
}

/* The T **out slot of a constructor `t_open(..., T **out)` that debug
 * info does not describe: a pointer the function stores a pointer into,
 * in a function named as a constructor.  0 if none. */
static unsigned out_slot(const bcw_sig *s)
{
    if (!last_word_in(s->name, ctor_words))
        return 0;
    for (unsigned i = 1; i <= s->n; i++)
        if (bcw__sig_weak(s, i) && s->pt[i].kind == BCW_PT_POINTER)
            return i;
    return 0;
}

/* Does `s` take a pointer to a struct (other than a T **out)? */
bool bcw__roles_takes_struct(const bcw_sig *s)
{
    for (unsigned i = 1; i <= s->n; i++)
        if (bcw__sig_struct(s, i) != NULL)
            return true;
    return false;
}

bool bcw__roles_makes_from(const bcw_sig *s, unsigned i)
{
    return i >= 2 && i <= s->n && any_word_in(s->name, ctor_words) &&
           bcw__sig_pointer(s, i) && s->pt[i].kind == BCW_PT_POINTER &&
           s->pt[i].name[0] &&
           bcw__params_only_written(LLVMGetParam(s->fn, i - 1));
}

const char *bcw__roles_constructs(const bcw_sig *s, unsigned *slot, char *buf,
                                  size_t n)
{
    const char *ret = bcw__sig_struct(s, 0);
    const char *first = s->n > 0 ? bcw__sig_struct(s, 1) : NULL;
    *slot = 0;
    if (ret != NULL && (first == NULL || strcmp(first, ret) != 0))
        return ret;
    *slot = init_slot(s);
    if (*slot > 0 && (*slot == 1 || ret == NULL))
        return bcw__sig_struct(s, *slot);
    *slot = 1;
    /* int t_open(..., T **out): debug info names T */
    if (last_word_in(s->name, ctor_words))
        for (unsigned i = 1; i <= s->n; i++)
            if (bcw__sig_pointer(s, i) && s->pt[i].kind == BCW_PT_POINTER &&
                s->pt[i].name[0]) {
                *slot = i;
                return s->pt[i].name;
            }
    for (unsigned i = 2; i <= s->n; i++)
        if (bcw__roles_makes_from(s, i)) {
            *slot = i;
            return s->pt[i].name;
        }
    /* no struct information: the name's prefix names the unit */
    const char *us = strrchr(s->name, '_');
    if (us == NULL || us == s->name || (size_t)(us - s->name) >= n)
        return NULL;
    bool by_result = bcw__sig_weak(s, 0) && last_word_in(s->name, ctor_words);
    bool by_init =
        s->n > 0 && bcw__sig_weak(s, 1) && last_word_in(s->name, init_words);
    unsigned by_out = by_result || by_init ? 0 : out_slot(s);
    if (!by_result && !by_init && !by_out)
        return NULL;
    *slot = by_result ? 0 : by_out ? by_out : 1;
    memcpy(buf, s->name, (size_t)(us - s->name));
    buf[us - s->name] = '\0';
    return buf;
}

/* Is `s` a destructor of the unit in its slot `self`?  One that frees the
 * unit is, whatever its name (cc_array_destroy_cb(a, cb) frees `a`
 * through a's mem_free field); one named as a destructor (t_free) is if
 * the unit goes to code bcwalk cannot see; t_delete freeing only a node
 * of the unit is not.  A list in the caller's cell is freed node by
 * node, by its pop as well as its free: there the name decides between
 * functions freeing `*head`. */
static bool frees_self(const bcw_finder *f, const bcw_sig *s, int self)
{
    bool named = last_word_in(s->name, dtor_words);
    if (bcw__finder_unit(f, bcw__sig_cell(s, (unsigned)self + 1)) >= 0)
        return named &&
               (bcw__effects_frees_held(f->fx, s->name, (unsigned)self) ||
                bcw__effects_escapes(f->fx, s->name, (unsigned)self));
    return bcw__effects_frees(f->fx, s->name, (unsigned)self) ||
           (named && bcw__effects_escapes(f->fx, s->name, (unsigned)self));
}

/* Is v parameter *given (ctx; the first met becomes it)? */
static bool is_given(LLVMValueRef v, void *ctx)
{
    LLVMValueRef *given = ctx;
    if (!LLVMIsAArgument(v) || (*given != NULL && v != *given))
        return false;
    *given = v;
    return true;
}

/* Does s give back one of its parameters: every return returns the same
 * parameter, or NULL (list_rpush(list, node) returning node)?  Such a
 * function hands back what it was given: it makes nothing. */
static bool gives_back_param(const bcw_sig *s)
{
    LLVMValueRef given = NULL;
    return bcw__returns_only(s->fn, is_given, &given) && given != NULL;
}

/* Is v what a pointer parameter of function ctx holds: one of its
 * fields, or a pointer loaded from it? */
static bool is_held(LLVMValueRef v, void *ctx)
{
    LLVMValueRef fn = ctx;
    for (unsigned k = 0; k < LLVMCountParams(fn); k++) {
        LLVMValueRef p = LLVMGetParam(fn, k);
        if (v != p && LLVMGetTypeKind(LLVMTypeOf(p)) == LLVMPointerTypeKind &&
            bcw__derived_from(v, p))
            return true;
    }
    return false;
}

/* Does s only give out what its parameters hold: every return NULL or
 * a pointer read from a parameter's block (json_object_get_object(jso)
 * returning jso's own table)?  Such an accessor makes nothing. */
static bool gives_held(const bcw_sig *s)
{
    return s->n > 0 && bcw__returns_only(s->fn, is_held, s->fn);
}

/* Is v a pointer read from memory, or the result of a module function
 * (ctx: how many levels down) returning only such pointers or NULL? */
static bool is_found(LLVMValueRef v, void *ctx)
{
    intptr_t depth = (intptr_t)ctx;
    if (LLVMIsALoadInst(v))
        return true;
    LLVMValueRef callee = LLVMIsACallInst(v) ? bcw__called_function(v) : NULL;
    return callee != NULL && depth > 0 && !LLVMIsDeclaration(callee) &&
           bcw__returns_only(callee, is_found, (void *)(depth - 1));
}

/* Does s, given an instance of another unit first, only give out what
 * it finds in memory: every return NULL or a pointer loaded, here or by
 * the functions it calls (list_find(list, v) returning the node an
 * iterator over the list reached)?  Such a lookup makes nothing: it is
 * the other unit's method. */
static bool gives_found(const bcw_finder *f, const bcw_sig *s, const char *ret)
{
    const char *first = s->n > 0 ? bcw__sig_struct(s, 1) : NULL;
    return first != NULL && strcmp(first, ret) != 0 &&
           bcw__finder_unit(f, first) >= 0 &&
           bcw__returns_only(s->fn, is_found, (void *)(intptr_t)2);
}

/* Does fn, or a module function it calls (`depth` levels down),
 * allocate memory? */
static bool allocates(LLVMValueRef fn, int depth)
{
    static const char *const allocators[] = {
        "malloc",  "calloc",       "realloc",       "strdup",
        "strndup", "reallocarray", "aligned_alloc", "posix_memalign"};
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
         bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
             i = LLVMGetNextInstruction(i)) {
            LLVMValueRef callee =
                LLVMIsACallInst(i) ? bcw__called_function(i) : NULL;
            if (callee == NULL)
                continue;
            const char *name = bcw__value_name(callee);
            for (size_t k = 0; k < sizeof allocators / sizeof *allocators; k++)
                if (strcmp(name, allocators[k]) == 0)
                    return true;
            if (depth > 0 && !LLVMIsDeclaration(callee) &&
                allocates(callee, depth - 1))
                return true;
        }
    return false;
}

/* Is v, stored at `to`, the value the field at `to` of what p points to
 * held already (`*t = (struct t){.stamp = t->stamp}`: a field kept)? */
static bool kept(const bcw_finder *f, LLVMValueRef v, LLVMValueRef to,
                 LLVMValueRef p)
{
    uint32_t at, from;
    return LLVMIsALoadInst(v) && bcw__addr_field_offset(f->td, to, p, &at) &&
           bcw__addr_field_offset(f->td, LLVMGetOperand(v, 0), p, &from) &&
           at == from;
}

/* Does fn store into what its first parameter points to only constants
 * (NULLs, zeros: a destroy leaving nothing behind) or what a field held
 * already, not values it read or made (a pop linking the next node in)? */
static bool stores_only_constants(const bcw_finder *f, LLVMValueRef fn)
{
    LLVMValueRef p = LLVMGetParam(fn, 0);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
         bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
             i = LLVMGetNextInstruction(i)) {
            if (!LLVMIsAStoreInst(i))
                continue;
            LLVMValueRef a = LLVMGetOperand(i, 1), v = LLVMGetOperand(i, 0);
            while (LLVMIsAGetElementPtrInst(a) || LLVMIsABitCastInst(a))
                a = LLVMGetOperand(a, 0);
            if (a == p && !LLVMIsAConstant(v) &&
                !kept(f, v, LLVMGetOperand(i, 1), p))
                return false;
        }
    return true;
}

/* Is fn, a mutator of an init unit (its first parameter), one that
 * releases what the unit reaches and leaves nothing behind: no new
 * block, only constants or what fields held stored back? */
static bool releases_all(const bcw_finder *f, const bcw_func *fn)
{
    LLVMValueRef v = LLVMGetNamedFunction(f->mod, fn->name);
    return fn->role == BCW_ROLE_MUTATOR && fn->self == 0 && v != NULL &&
           !LLVMIsDeclaration(v) && LLVMCountParams(v) > 0 &&
           bcw__effects_releases(f->fx, fn->name, 0) && !allocates(v, 2) &&
           stores_only_constants(f, v);
}

/* What destructor fn frees (enum bcw_teardown): its unit's block, what
 * the unit holds only, or what bcwalk cannot see. */
static enum bcw_teardown teardown_of(const bcw_finder *f, const bcw_func *fn)
{
    if (fn->self < 0)
        return BCW_TEARDOWN_ANY;
    unsigned self = (unsigned)fn->self;
    if (bcw__effects_frees(f->fx, fn->name, self))
        return BCW_TEARDOWN_BLOCK;
    return bcw__effects_releases(f->fx, fn->name, self) &&
                   !bcw__effects_escapes(f->fx, fn->name, self)
               ? BCW_TEARDOWN_RELEASES
               : BCW_TEARDOWN_ANY;
}

/* The destructors of init unit u's storage: its mutators that release
 * what it reaches and leave nothing behind.  A teardown frees what a
 * field holds (free(s->nodes)); one freeing only what is further down
 * (each entry, a clear keeping the array) ends nothing while another
 * frees a field's block.  When u has destructors already (of its heap
 * form: msgpack_zone_free), only such a mutator named as a destructor
 * (msgpack_zone_destroy) is one. */
static void release_storage(const bcw_finder *f, bcw_unit *u, bool dtor)
{
    bool held = false;
    for (int pass = 0; pass < 2; pass++)
        for (unsigned i = 0; i < u->nfuncs; i++) {
            bcw_func *fn = &u->funcs[i];
            if (!releases_all(f, fn) ||
                (dtor && !last_word_in(fn->name, dtor_words)))
                continue;
            bool direct = bcw__effects_frees_held(f->fx, fn->name, 0);
            held |= direct;
            if (pass == 1 && (direct || !held))
                fn->role = BCW_ROLE_DESTRUCTOR;
        }
}

void bcw__roles_release_inits(bcw_finder *f)
{
    for (unsigned k = 0; k < f->model->nunits; k++) {
        bcw_unit *u = &f->model->units[k];
        bool init = false, dtor = false;
        for (unsigned i = 0; i < u->nfuncs; i++) {
            init = init || u->funcs[i].role == BCW_ROLE_INIT_CONSTRUCTOR;
            dtor = dtor || u->funcs[i].role == BCW_ROLE_DESTRUCTOR;
        }
        if (init)
            release_storage(f, u, dtor);
        for (unsigned i = 0; i < u->nfuncs; i++)
            if (u->funcs[i].role == BCW_ROLE_DESTRUCTOR)
                u->funcs[i].teardown = teardown_of(f, &u->funcs[i]);
    }
}

/* Is i an atomic add of `delta` to the field of p at *off (any field's
 * with *off UINT32_MAX, its offset then in *off): __atomic_fetch_add(
 * &o->refs, 1, ...), __sync_sub_and_fetch(&o->refs, 1), each an
 * atomicrmw add or sub of a constant? */
static bool atomic_count(const bcw_finder *f, LLVMValueRef i, LLVMValueRef p,
                         int delta, uint32_t *off)
{
    uint32_t at;
    if (!LLVMIsAAtomicRMWInst(i) ||
        !bcw__addr_field_offset(f->td, LLVMGetOperand(i, 0), p, &at) ||
        (*off != UINT32_MAX && at != *off))
        return false;
    LLVMValueRef c = LLVMGetOperand(i, 1);
    LLVMAtomicRMWBinOp op = LLVMGetAtomicRMWBinOp(i);
    if (!LLVMIsAConstantInt(c) ||
        (op != LLVMAtomicRMWBinOpAdd && op != LLVMAtomicRMWBinOpSub))
        return false;
    int64_t by = LLVMConstIntGetSExtValue(c);
    if ((op == LLVMAtomicRMWBinOpAdd ? by : -by) != delta)
        return false;
    *off = at;
    return true;
}

/* Does fn count the field at byte offset *off of what its parameter p
 * points to by `delta` (load it, add delta, store it back, or add it
 * atomically), itself or through a module function it gives p (`depth`
 * levels down); with *off UINT32_MAX, any field's, its offset then in
 * *off? */
static bool counts(const bcw_finder *f, LLVMValueRef fn, LLVMValueRef p,
                   int delta, uint32_t *off, int depth)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
         bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
             i = LLVMGetNextInstruction(i)) {
            uint32_t at, from;
            LLVMValueRef callee =
                LLVMIsACallInst(i) ? bcw__called_function(i) : NULL;
            for (unsigned k = 0;
                 callee != NULL && depth > 0 && !LLVMIsDeclaration(callee) &&
                 k < LLVMCountParams(callee);
                 k++)
                if (LLVMGetOperand(i, k) == p &&
                    counts(f, callee, LLVMGetParam(callee, k), delta, off,
                           depth - 1))
                    return true;
            if (atomic_count(f, i, p, delta, off))
                return true;
            if (!LLVMIsAStoreInst(i) ||
                !bcw__addr_field_offset(f->td, LLVMGetOperand(i, 1), p, &at) ||
                (*off != UINT32_MAX && at != *off))
                continue;
            LLVMValueRef v = LLVMGetOperand(i, 0);
            if (!LLVMIsABinaryOperator(v) ||
                LLVMGetInstructionOpcode(v) != LLVMAdd)
                continue;
            LLVMValueRef l = LLVMGetOperand(v, 0), c = LLVMGetOperand(v, 1);
            if (LLVMIsALoadInst(l) && LLVMIsAConstantInt(c) &&
                LLVMConstIntGetSExtValue(c) == delta &&
                bcw__addr_field_offset(f->td, LLVMGetOperand(l, 0), p, &from) &&
                from == at) {
                *off = at;
                return true;
            }
        }
    return false;
}

void bcw__roles_retains(bcw_finder *f)
{
    for (unsigned k = 0; k < f->model->nunits; k++) {
        bcw_unit *u = &f->model->units[k];
        /* the count the destructor takes down */
        uint32_t off = UINT32_MAX;
        for (unsigned i = 0; i < u->nfuncs && off == UINT32_MAX; i++) {
            const bcw_func *d = &u->funcs[i];
            LLVMValueRef v = LLVMGetNamedFunction(f->mod, d->name);
            if (d->role == BCW_ROLE_DESTRUCTOR && d->self == 0 && v != NULL &&
                !LLVMIsDeclaration(v) && LLVMCountParams(v) > 0 &&
                !counts(f, v, LLVMGetParam(v, 0), -1, &off, 2))
                off = UINT32_MAX;
        }
        for (unsigned i = 0; off != UINT32_MAX && i < u->nfuncs; i++) {
            bcw_func *fn = &u->funcs[i];
            const bcw_sig *s =
                bcw__finder_sig(f, LLVMGetNamedFunction(f->mod, fn->name));
            uint32_t at = off;
            fn->retains = fn->self == 0 && fn->role != BCW_ROLE_DESTRUCTOR &&
                          s != NULL && gives_back_param(s) &&
                          counts(f, s->fn, LLVMGetParam(s->fn, 0), 1, &at, 2);
        }
    }
}

int bcw__roles_of(const bcw_finder *f, const bcw_sig *s, enum bcw_role *role,
                  int *self, int *out)
{
    const char *ret = bcw__sig_struct(s, 0);
    const char *first = s->n > 0 ? bcw__sig_struct(s, 1) : NULL;
    int unit;
    *self = -1;
    *out = -1;
    /* a unit in the caller's cell has the empty cell for its only
     * constructor: list_prepend(&head, v) returning an entry grows it */
    if (ret != NULL && (first == NULL || strcmp(first, ret) != 0) &&
        (unit = bcw__finder_unit(f, ret)) >= 0 && !f->model->units[unit].cell &&
        !gives_back_param(s) && !gives_held(s) && !gives_found(f, s, ret)) {
        *role = BCW_ROLE_CONSTRUCTOR;
        return unit;
    }
    if (bcw__sig_weak(s, 0) && last_word_in(s->name, ctor_words) &&
        !(s->n > 0 && (first != NULL || bcw__sig_weak(s, 1))) &&
        (unit = bcw__finder_unit_by_prefix(f, s->name)) >= 0) {
        *role = BCW_ROLE_CONSTRUCTOR;
        return unit;
    }
    /* t_with_capacity(int): returns a fresh block of the unit's size */
    if (bcw__sig_weak(s, 0) && s->pt[0].alloc_bytes > 0 &&
        !(s->n > 0 && (first != NULL || bcw__sig_weak(s, 1))) &&
        (unit = bcw__finder_unit_by_prefix(f, s->name)) >= 0 &&
        f->model->units[unit].size == s->pt[0].alloc_bytes) {
        *role = BCW_ROLE_CONSTRUCTOR;
        return unit;
    }
    /* int t_open(..., T **out) */
    if (last_word_in(s->name, ctor_words)) {
        for (unsigned i = 1; i <= s->n; i++) {
            unit = -1;
            if (bcw__sig_pointer(s, i) && s->pt[i].kind == BCW_PT_POINTER)
                unit = s->pt[i].name[0] ? bcw__finder_unit(f, s->pt[i].name)
                       : bcw__sig_weak(s, i)
                           ? bcw__finder_unit_by_prefix(f, s->name)
                           : -1;
            if (unit >= 0 && !f->model->units[unit].cell) {
                *role = BCW_ROLE_CONSTRUCTOR;
                *out = (int)i - 1;
                return unit;
            }
        }
    }
    /* int t_new_conf(const conf *c, T **out): named as a constructor
     * before its last word, filling a cell of another unit than its
     * first parameter's without reading it */
    for (unsigned i = 2; i <= s->n; i++) {
        if (!bcw__roles_makes_from(s, i))
            continue;
        unit = bcw__finder_unit(f, s->pt[i].name);
        if (unit >= 0 && unit != bcw__finder_unit(f, first)) {
            *role = BCW_ROLE_CONSTRUCTOR;
            *out = (int)i - 1;
            return unit;
        }
    }
    /* the unit is the first parameter (or the cell holding it), or
     * failing that the first one of a unit's type: map_put(int k, map *m) */
    unit = bcw__finder_unit(f, first);
    if (unit < 0 && s->n > 0)
        unit = bcw__finder_unit(f, bcw__sig_cell(s, 1));
    *self = 0;
    for (unsigned i = 2; unit < 0 && i <= s->n; i++) {
        unit = bcw__finder_unit(f, bcw__sig_struct(s, i));
        *self = (int)i - 1;
    }
    if (unit < 0 && s->n > 0 && bcw__sig_weak(s, 1)) {
        unit = bcw__finder_unit_by_prefix(f, s->name);
        *self = 0;
    }
    if (unit < 0)
        return -1;
    if (ret == NULL &&
        ((*self == 0 && last_word_in(s->name, init_words)) ||
         (init_slot(s) > 0 && init_slot(s) == (unsigned)*self + 1)))
        *role = BCW_ROLE_INIT_CONSTRUCTOR;
    else if (frees_self(f, s, *self) &&
             !(ret != NULL && bcw__finder_unit(f, ret) == unit))
        *role = BCW_ROLE_DESTRUCTOR;
    else
        *role = BCW_ROLE_OBSERVER; /* bcw__funcs_add refines it */
    return unit;
}
