/* cause.c - why a sequence halted, and what it leaked, in words (cause.h):
 * what the worker saw (bcw_wire_cause), its addresses symbolized, else
 * what the outcome and signal say; and where in the library's source. */
#define _POSIX_C_SOURCE 200809L
#include "cause.h"

#include "engine.h"

#include "calls.h"
#include "text.h"

#include <stdlib.h>
#include <string.h>

/* "REQUIRES(amount > 0)": the failed contract of the call that halted,
 * its text from the model when the method has one of that kind. */
static const char *contract_text(const bcw_reporter *r, const bcw_seq *s)
{
    static char buf[160];
    static const char *const kinds[] = {"contract", "REQUIRES", "ENSURES",
                                        "INVARIANT"};
    enum bcw_contract_origin ck = s->signo == 1   ? BCW_CK_REQUIRES
                                  : s->signo == 2 ? BCW_CK_ENSURES
                                                  : BCW_CK_INVARIANT;
    const char *kind = kinds[s->signo <= 3 ? s->signo : 0];
    const char *expr = NULL;
    if (s->halted_at <= s->len) {
        const bcw_func *f =
            &r->unit->funcs[r->steps[s->steps[s->halted_at]].func];
        for (unsigned k = 0; k < f->ncontracts; k++) {
            if (f->contracts[k].kind != ck)
                continue;
            expr = expr == NULL ? f->contracts[k].expr : "";
        }
    }
    if (expr != NULL && expr[0] != '\0')
        snprintf(buf, sizeof buf, "%s(%s)", kind, expr);
    else
        snprintf(buf, sizeof buf, "%s", kind);
    return buf;
}

/* Where address pc of the worker is, " in f (f.c:12)" (" in f" without
 * `line`), appended to buf (n bytes); nothing when the symbolizer cannot
 * tell. */
static void append_site(const bcw_reporter *r, uint64_t pc, bool line,
                        char *buf, size_t n)
{
    char func[128], file[128];
    unsigned lineno;
    size_t len = strlen(buf);
    if (len >= n || r->symbols == NULL ||
        !bcw__symbols_get(r->symbols, pc, func, sizeof func, file, sizeof file,
                          &lineno))
        return;
    if (file[0] && lineno && line)
        snprintf(buf + len, n - len, " in %s (%s:%u)", func, file, lineno);
    else
        snprintf(buf + len, n - len, " in %s", func);
}

/* "a 16-byte block allocated in t_grow (t.c:12)" (by call c of s, where
 * the site is unknown), with " and freed in ..." for a freed one. */
static void block_text(const bcw_reporter *r, const bcw_seq *s,
                       const bcw_wire_cause *c, bool freed, char *buf, size_t n)
{
    snprintf(buf, n, "a %u-byte block allocated", c->size);
    size_t len = strlen(buf);
    append_site(r, c->alloc_site, true, buf, n);
    if (strlen(buf) == len)
        snprintf(buf + len, n - len, " by %s",
                 bcw__calls_name(r, s, c->alloc_call));
    if (!freed)
        return;
    len = strlen(buf);
    snprintf(buf + len, n - len, " and freed");
    len = strlen(buf);
    append_site(r, c->free_site, true, buf, n);
    if (strlen(buf) == len)
        snprintf(buf + len, n - len, " by %s",
                 bcw__calls_name(r, s, c->free_call));
}

/* ": read of address 0x8", ": write 4 bytes past the end of a 16-byte
 * block allocated in t_new (t.c:3)" ...: a faulting access as bcw_where
 * placed it, the same from run to run. */
static void address_text(const bcw_reporter *r, const bcw_seq *s,
                         const bcw_wire_cause *c, char *buf, size_t n)
{
    const char *verb = c->access == BCW_ACCESS_WRITE ? "write" : "read";
    char block[256];
    block_text(r, s, c, c->where == BCW_WHERE_FREED, block, sizeof block);
    switch (c->where) {
    case BCW_WHERE_LOW:
        snprintf(buf, n, ": %s address 0x%llx",
                 c->access == BCW_ACCESS_WRITE ? "write to" : "read of",
                 (unsigned long long)c->addr);
        break;
    case BCW_WHERE_BLOCK:
    case BCW_WHERE_FREED:
        snprintf(buf, n, ": %s at offset %llu of %s", verb,
                 (unsigned long long)c->addr, block);
        break;
    case BCW_WHERE_PAST:
        snprintf(buf, n, ": %s %llu bytes past the end of %s", verb,
                 (unsigned long long)c->addr, block);
        break;
    case BCW_WHERE_STACK:
        snprintf(buf, n, ": stack overflow");
        break;
    default:
        snprintf(buf, n, ": %s an address outside the heap's blocks",
                 c->access == BCW_ACCESS_WRITE ? "write to" : "read of");
        break;
    }
}

/* A cause the worker saw that is worded without its site: a heap
 * overflow (the sequence's last call wrote), a failed assert (its file
 * and line are its own), the worker's end, a scribble (found after the
 * call returned); into buf (n bytes).  False for another kind. */
static bool unsited_cause(const bcw_reporter *r, const bcw_seq *s, char *buf,
                          size_t n)
{
    const bcw_wire_cause *c = s->cause;
    switch (c->kind) {
    case BCW_CAUSE_OVERFLOW: {
        char block[256];
        block_text(r, s, c, c->free_call != UINT32_MAX, block, sizeof block);
        /* the call that wrote is the sequence's last: no site */
        snprintf(buf, n, "heap overflow: a write past the end of %s", block);
        return true;
    }
    case BCW_CAUSE_UNDERFLOW: {
        char block[256] = "a heap block (its header written over)";
        if (c->alloc_call != UINT32_MAX)
            block_text(r, s, c, c->free_call != UINT32_MAX, block,
                       sizeof block);
        snprintf(buf, n, "heap underflow: a write before the start of %s",
                 block);
        return true;
    }
    case BCW_CAUSE_GARBAGE:
        /* the call that returned it is the sequence's last: no site */
        snprintf(buf, n, "%s: it returned 0x%016llx as a pointer, %s",
                 c->addr == BCW_GUARD_WORD ? "heap over-read"
                                           : "uninitialised read",
                 (unsigned long long)c->addr,
                 c->addr == BCW_GUARD_WORD
                     ? "bytes read past the end of a heap block (the "
                       "guard bytes bcwalk puts after every block)"
                     : "bytes of memory nothing wrote (bcwalk fills new "
                       "blocks with them)");
        return true;
    case BCW_CAUSE_ASSERT: {
        /* "expr\tfile\tline" */
        char text[sizeof c->text + 1];
        memcpy(text, c->text, sizeof c->text);
        text[sizeof c->text] = '\0';
        char *file = strchr(text, '\t'), *line = NULL;
        if (file != NULL && (line = strchr(file + 1, '\t')) != NULL)
            *file++ = '\0', *line++ = '\0';
        if (line != NULL)
            snprintf(buf, n, "assertion failed: %s (%s:%s)", text, file, line);
        else
            snprintf(buf, n, "assertion failed: %s", text);
        return true;
    }
    case BCW_CAUSE_DIED:
        snprintf(buf, n,
                 "the worker ended with status %d, by no call bcwalk "
                 "intercepts",
                 (int)c->size);
        return true;
    case BCW_CAUSE_SCRIBBLE:
        /* found after the call returned: no site */
        snprintf(buf, n, "wrote over bcwalk's shared memory%s",
                 c->size == 1 ? " after the sequence ended (a thread or "
                                "process it left)"
                              : "");
        return true;
    default:
        return false;
    }
}

/* A cause the worker saw at an instruction, worded up to its site: a
 * fatal signal, a double free, abort, exit, exec, a runaway allocation,
 * a sanitizer's report; into buf (n bytes).  False for another kind. */
static bool sited_cause(const bcw_reporter *r, const bcw_seq *s, char *buf,
                        size_t n)
{
    const bcw_wire_cause *c = s->cause;
    switch (c->kind) {
    case BCW_CAUSE_SIGNAL:
        snprintf(buf, n, "%s", bcw__signal_name(s->signo));
        if (c->access != BCW_ACCESS_UNKNOWN)
            address_text(r, s, c, buf + strlen(buf), n - strlen(buf));
        break;
    case BCW_CAUSE_DOUBLE_FREE: {
        char block[256];
        block_text(r, s, c, true, block, sizeof block);
        snprintf(buf, n, "double free of %s, freed again", block);
        break;
    }
    case BCW_CAUSE_ABORT:
        snprintf(buf, n, "abort() called");
        break;
    case BCW_CAUSE_EXIT:
        snprintf(buf, n, "exit(%d) called", (int)c->size);
        break;
    case BCW_CAUSE_EXEC: {
        char text[sizeof c->text + 1];
        memcpy(text, c->text, sizeof c->text);
        text[sizeof c->text] = '\0';
        snprintf(buf, n, "exec of \"%s\" called (not run)", text);
        break;
    }
    case BCW_CAUSE_MEMORY:
        snprintf(buf, n,
                 "runaway allocation: %u more bytes would pass the "
                 "sequence's limit (--worker-memory)",
                 c->size);
        break;
    case BCW_CAUSE_SANITIZER:
    case BCW_CAUSE_UNDEFINED: {
        char text[sizeof c->text + 1];
        memcpy(text, c->text, sizeof c->text);
        text[sizeof c->text] = '\0';
        snprintf(buf, n, "%s: %s",
                 c->kind == BCW_CAUSE_SANITIZER ? "AddressSanitizer"
                                                : "undefined behaviour",
                 text);
        if (c->access != BCW_ACCESS_UNKNOWN)
            address_text(r, s, c, buf + strlen(buf), n - strlen(buf));
        break;
    }
    default:
        return false;
    }
    return true;
}

/* What the worker saw of s's halt (bcw_wire_cause) in words; false when
 * it said nothing. */
static bool worker_cause(const bcw_reporter *r, const bcw_seq *s, char *buf,
                         size_t n)
{
    const bcw_wire_cause *c = s->cause;
    if (c == NULL)
        return false;
    if (unsited_cause(r, s, buf, n))
        return true;
    if (!sited_cause(r, s, buf, n))
        return false;
    /* where a stack overflows depends on where the stack starts: the
     * function, not the line */
    append_site(r, c->pc,
                !(c->kind == BCW_CAUSE_SIGNAL && c->where == BCW_WHERE_STACK),
                buf, n);
    return true;
}

/* Why sequence s halted, in words ("SIGSEGV: read of address 0x0 in f
 * (f.c:3)", "no node handle given out"): what the worker saw, else what
 * its outcome and signal say. */
static void cause_text(const bcw_reporter *r, const bcw_seq *s, char *buf,
                       size_t n)
{
    const bcw_func *f =
        s->halted_at <= s->len
            ? &r->unit->funcs[r->steps[s->steps[s->halted_at]].func]
            : NULL;
    const char *type = NULL;
    bool head = false; /* takes a list's head it does not check */
    for (unsigned k = 0; f != NULL && k < f->nparams; k++) {
        if (f->params[k].kind == BCW_PK_HANDLE && type == NULL)
            type = f->params[k].detail;
        head |=
            f->params[k].kind == BCW_PK_UNIT_DEREF && !f->params[k].nullable;
    }
    buf[0] = '\0';
    switch (s->outcome) {
    case BCW_RUN_CRASH:
    case BCW_RUN_ABORT:
        if (worker_cause(r, s, buf, n))
            break;
        if (s->signo == BCW_SIG_OVERFLOW)
            snprintf(buf, n, "heap overflow (a write past the end of a block)");
        else
            snprintf(buf, n, "%s", bcw__signal_name(s->signo));
        break;
    case BCW_RUN_HANG:
        if (s->cause != NULL && s->cause->kind == BCW_CAUSE_CPU)
            snprintf(buf, n,
                     "its worker passed its CPU time limit, %u s "
                     "(--worker-cpu)",
                     s->cause->size);
        else
            snprintf(buf, n, "no return within %u ms", r->timeout_ms);
        break;
    case BCW_RUN_REJECTED:
        if (s->signo == BCW_SIG_FREED)
            snprintf(buf, n, "the %s handle was freed since it was given out",
                     type ? type : "");
        else if (s->signo == BCW_SIG_LET_GO)
            snprintf(buf, n,
                     "the %s handle is no longer the unit's: a call let it go "
                     "since it was given out",
                     type ? type : "");
        else if (s->signo == BCW_SIG_HELD)
            snprintf(buf, n,
                     "it freed a block the unit still holds, which leaves the "
                     "unit dangling: not a call a caller makes");
        else if (s->signo == BCW_SIG_FAMILY)
            snprintf(buf, n,
                     "it works on objects of another family than the "
                     "constructor's (what a field of the unit points to): "
                     "not this object");
        else if (s->signo == BCW_SIG_ENDED)
            snprintf(buf, n,
                     "an earlier call freed the unit: it ended the object, as "
                     "a destructor does");
        else if (s->signo == BCW_SIG_NO_ARG && head && type == NULL)
            snprintf(buf, n,
                     "the list is empty (the function does not check its "
                     "entry for NULL)");
        else if (s->signo == BCW_SIG_NO_ARG && type != NULL)
            snprintf(buf, n, "no %s handle given out", type);
        else if (s->signo == BCW_SIG_NO_ARG)
            snprintf(buf, n, "no instance for an argument");
        else if (s->signo == BCW_SIG_UNMET)
            snprintf(buf, n,
                     "no value of an argument's category on the object as it "
                     "is: the call was not made");
        else if (s->signo == 0)
            snprintf(buf, n, "the constructor returned NULL");
        else if (s->signo == BCW_SIG_FAILED)
            snprintf(buf, n,
                     "the init function returned its failure status: no "
                     "object");
        else
            snprintf(buf, n, "%s", contract_text(r, s));
        break;
    case BCW_RUN_FAILURE:
        if (s->signo == BCW_SIG_INVARIANT && r->unit->invariant >= 0)
            snprintf(buf, n, "invariant %s(target) is false after the call",
                     r->unit->funcs[r->unit->invariant].name);
        else
            snprintf(buf, n, "%s", contract_text(r, s));
        break;
    default:
        break;
    }
}

void bcw__cause_halt(const bcw_reporter *r, const bcw_seq *s, char *buf,
                     size_t n)
{
    if (s->outcome == BCW_RUN_REJECTED && s->signo == 0) {
        snprintf(buf, n, "NULL  *rejected*");
        return;
    }
    char cause[320];
    cause_text(r, s, cause, sizeof cause);
    snprintf(buf, n, "*%s* %s", bcw__outcome_name(s->outcome), cause);
}

/* Why a halt or leak of s is listed apart, or NULL. */
static const char *apart_of(const bcw_seq *s)
{
    return s->suspect    ? "after an argument bcwalk made up"
           : s->aliasing ? "after the target was passed as its own argument"
                         : NULL;
}

const char *bcw__cause_apart(const bcw_seq *s)
{
    bool halted =
        s->outcome != BCW_RUN_NORMAL && s->outcome != BCW_RUN_REJECTED;
    return halted ? apart_of(s) : NULL;
}

const char *bcw__cause_outcome(const bcw_seq *s)
{
    bool halted =
        s->outcome != BCW_RUN_NORMAL && s->outcome != BCW_RUN_REJECTED;
    return halted && s->suspect    ? "suspect"
           : halted && s->aliasing ? "aliasing"
                                   : bcw__outcome_name(s->outcome);
}

void bcw__cause_observed(const bcw_reporter *r, const bcw_seq *s, bool plain,
                         char *buf, size_t n)
{
    char cause[320];
    cause_text(r, s, cause, sizeof cause);
    /* the frame a stack overflows in is where the stack happened to end
     * (json-c's to_json_string and printbuf_memappend, recursing), not
     * what the call did */
    const bcw_wire_cause *c = s->cause;
    char *in = plain && c != NULL && c->kind == BCW_CAUSE_SIGNAL &&
                       c->where == BCW_WHERE_STACK
                   ? strstr(cause, ": stack overflow in ")
                   : NULL;
    if (in != NULL)
        in[sizeof ": stack overflow" - 1] = '\0';
    const char *apart = plain ? NULL : bcw__cause_apart(s);
    if (apart != NULL)
        snprintf(buf, n, "%s: %s, %s", bcw__outcome_name(s->outcome), cause,
                 apart);
    else
        snprintf(buf, n, "%s", cause);
}

void bcw__cause_leak(const bcw_reporter *r, const bcw_seq *s, char *buf,
                     size_t n)
{
    const bcw_wire_cause *c = s->leak;
    snprintf(buf, n, "%llu block%s, %u bytes, %sallocated",
             (unsigned long long)c->addr, c->addr == 1 ? "" : "s", c->size,
             c->addr == 1 ? "" : "the first ");
    size_t len = strlen(buf);
    append_site(r, c->alloc_site, true, buf, n);
    if (strlen(buf) == len)
        snprintf(buf + len, n - len, " by %s",
                 bcw__calls_name(r, s, c->alloc_call));
    len = strlen(buf);
    snprintf(buf + len, n - len, ", left by %s", bcw__report_destructor(r, s));
    len = strlen(buf);
    if (apart_of(s) != NULL)
        snprintf(buf + len, n - len, ", %s", apart_of(s));
}

void bcw__report_words(const bcw_reporter *r, const bcw_seq *s, char *cause,
                       size_t ncause, char *leak, size_t nleak)
{
    cause[0] = leak[0] = '\0';
    if (s->outcome != BCW_RUN_NORMAL)
        cause_text(r, s, cause, ncause);
    else if (s->leak != NULL)
        bcw__cause_leak(r, s, leak, nleak);
}

bool bcw__report_site(const bcw_reporter *r, const bcw_seq *s, char *file,
                      size_t nfile, unsigned *line, bool *inside)
{
    bool exact;
    if (inside == NULL)
        inside = &exact;
    *inside = true;
    const bcw_wire_cause *c = s->outcome != BCW_RUN_NORMAL ? s->cause : s->leak;
    char func[128];
    uint64_t pc = c == NULL                      ? 0
                  : s->outcome == BCW_RUN_NORMAL ? c->alloc_site
                                                 : c->pc;
    if (pc != 0 && r->symbols != NULL &&
        bcw__symbols_get(r->symbols, pc, func, sizeof func, file, nfile,
                         line) &&
        file[0] != '\0' && *line > 0) {
        /* a name the symbolizer gave relative: the unit's source file of
         * that name, as the model has it, when there is one */
        size_t n = strlen(file);
        for (unsigned i = 0; file[0] != '/' && i < r->unit->nfuncs; i++) {
            const char *p = r->unit->funcs[i].file;
            size_t k = p != NULL ? strlen(p) : 0;
            if (k > n && p[k - n - 1] == '/' && strcmp(p + k - n, file) == 0)
                snprintf(file, nfile, "%s", p);
        }
        return true;
    }
    if (c != NULL && c->kind == BCW_CAUSE_ASSERT) {
        /* "expr\tfile\tline" */
        char text[sizeof c->text + 1];
        memcpy(text, c->text, sizeof c->text);
        text[sizeof c->text] = '\0';
        char *f = strchr(text, '\t'), *l = f ? strchr(f + 1, '\t') : NULL;
        if (l != NULL && (*line = (unsigned)strtoul(l + 1, NULL, 10)) > 0) {
            snprintf(file, nfile, "%.*s", (int)(l - f - 1), f + 1);
            return true;
        }
    }
    /* the function whose call halted, where it is defined */
    const bcw_func *fn =
        s->halted_at <= s->len
            ? &r->unit->funcs[r->steps[s->steps[s->halted_at]].func]
            : NULL;
    if (fn == NULL || fn->file == NULL || fn->line == 0)
        return false;
    snprintf(file, nfile, "%s", fn->file);
    *line = fn->line;
    *inside = false;
    return true;
}
