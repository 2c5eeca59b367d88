/* session.c - one Z3 context and push/pop solver per model (session.h).
 *
 * Z3 reports a misuse or an internal failure (its own memory included)
 * through the context's error handler; the default one exits the
 * process.  Ours records the first error in the session, and callers
 * check the session after each group of calls (z3's test_capi.c). */
#define _POSIX_C_SOURCE 200809L
#include "session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

/* The handler is given the context only: it finds its session among
 * those open on this thread (one per partition in practice). */
static _Thread_local bcw_session *open_sessions;

static void on_z3_error(Z3_context z, Z3_error_code code)
{
    for (bcw_session *s = open_sessions; s != NULL; s = s->next) {
        if (s->z != z)
            continue;
        if (s->z3_code == Z3_OK) {
            const char *msg = Z3_get_error_msg(z, code);
            s->z3_code = code;
            snprintf(s->z3_msg, sizeof s->z3_msg, "%s",
                     msg != NULL ? msg : "no message");
        }
        return;
    }
}

int bcw__session_check(bcw_session *s)
{
    if (s->err < 0)
        return s->err;
    /* the handler has seen every error; the code of the last call is a
     * second look that costs nothing */
    if (s->z3_code == Z3_OK && s->z != NULL) {
        Z3_error_code code = Z3_get_error_code(s->z);
        if (code != Z3_OK)
            on_z3_error(s->z, code);
    }
    if (s->z3_code != Z3_OK)
        s->err = bcw__error(BCW_ERROR, "Z3 failed (error %d): %s",
                            (int)s->z3_code, s->z3_msg);
    return s->err;
}

int bcw__session_open(bcw_session *s)
{
    memset(s, 0, sizeof *s);
    Z3_config cfg = Z3_mk_config();
    if (cfg == NULL)
        return bcw__error(BCW_ERROR, "Z3_mk_config failed");
    s->z = Z3_mk_context_rc(cfg);
    Z3_del_config(cfg);
    if (s->z == NULL)
        return bcw__error(BCW_ERROR, "Z3_mk_context_rc failed");
    Z3_set_error_handler(s->z, on_z3_error);
    s->next = open_sessions;
    open_sessions = s;
    s->sv = Z3_mk_simple_solver(s->z);
    if (s->sv != NULL)
        Z3_solver_inc_ref(s->z, s->sv);
    Z3_params sp = Z3_mk_params(s->z);
    if (sp != NULL) {
        Z3_params_inc_ref(s->z, sp);
        static const struct {
            const char *name;
            unsigned value;
        } limits[] = {{"timeout", BCW_Z3_TIMEOUT_MS},
                      {"rlimit", BCW_Z3_RLIMIT},
                      {"max_conflicts", BCW_Z3_MAX_CONFLICTS}};
        for (size_t i = 0; i < sizeof limits / sizeof *limits; i++) {
            Z3_symbol name = Z3_mk_string_symbol(s->z, limits[i].name);
            if (name != NULL)
                Z3_params_set_uint(s->z, sp, name, limits[i].value);
        }
        if (s->sv != NULL)
            Z3_solver_set_params(s->z, s->sv, sp);
        Z3_params_dec_ref(s->z, sp);
    }
    int err = bcw__session_check(s);
    if (err == 0 && (s->sv == NULL || sp == NULL))
        err = s->err = bcw__error(BCW_ERROR, "Z3 made no solver");
    if (err < 0)
        bcw__session_close(s);
    return err;
}

void bcw__session_release(bcw_session *s)
{
    while (s->nkept > 0)
        Z3_dec_ref(s->z, s->kept[--s->nkept]);
}

void bcw__session_close(bcw_session *s)
{
    if (s->z == NULL)
        return;
    bcw__session_release(s);
    if (s->sv != NULL)
        Z3_solver_dec_ref(s->z, s->sv);
    for (bcw_session **p = &open_sessions; *p != NULL; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            break;
        }
    Z3_del_context(s->z);
    free(s->kept);
    s->z = NULL;
    s->sv = NULL;
    s->kept = NULL;
    s->capkept = 0;
}

Z3_ast bcw__session_keep(bcw_session *s, Z3_ast a)
{
    if (s->err < 0)
        return NULL;
    if (a == NULL) {
        if (bcw__session_check(s) == 0)
            s->err = bcw__error(BCW_ERROR, "Z3 returned no term");
        return NULL;
    }
    if (bcw__grow(&s->kept, &s->capkept, s->nkept + 1, sizeof *s->kept) < 0) {
        /* not kept, so not ours: Z3 frees it with the context */
        s->err = BCW_ENOMEM;
        return NULL;
    }
    Z3_inc_ref(s->z, a);
    s->kept[s->nkept++] = a;
    return a;
}

Z3_sort bcw__session_bv_sort(bcw_session *s, unsigned bits)
{
    if (s->err < 0)
        return NULL;
    if (bits == 0 || bits > 64) {
        s->err = bcw__error(BCW_ERROR, "no %u-bit integers in Z3 terms", bits);
        return NULL;
    }
    Z3_sort t = Z3_mk_bv_sort(s->z, bits);
    if (bcw__session_keep(s, t == NULL ? NULL : Z3_sort_to_ast(s->z, t)) ==
        NULL)
        return NULL;
    return t;
}

Z3_ast bcw__session_int(bcw_session *s, int64_t v, unsigned bits)
{
    Z3_sort t = bcw__session_bv_sort(s, bits);
    return t == NULL ? NULL : bcw__session_keep(s, Z3_mk_int64(s->z, v, t));
}

Z3_ast bcw__session_var(bcw_session *s, const char *name, unsigned bits)
{
    Z3_sort t = bcw__session_bv_sort(s, bits);
    if (t == NULL)
        return NULL;
    Z3_symbol sym = Z3_mk_string_symbol(s->z, name);
    return bcw__session_keep(s, sym == NULL ? NULL : Z3_mk_const(s->z, sym, t));
}
