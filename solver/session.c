/* session.c - one Z3 context and push/pop solver per model (session.h).
 *
 * Z3 reports a misuse or an internal failure (its own memory included)
 * through the context's error handler; the default one exits the
 * process.  Ours records the first error in the session, and callers
 * check the session after each group of calls (z3's test_capi.c). */
#define _POSIX_C_SOURCE 200809L
#include "session.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"

/* The backstop of the session's checks: a thread that wakes each second
 * and interrupts a check running past BCW_Z3_TIMEOUT_MS. */
typedef struct bcw_watch {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool stop;
    Z3_context z;
    uint64_t started_ms; /* the check in flight's start, 0: none */
} bcw_watch;

static uint64_t now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

static void *watch(void *arg)
{
    bcw_watch *w = arg;
    pthread_mutex_lock(&w->mu);
    while (!w->stop) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        t.tv_sec += 1;
        pthread_cond_timedwait(&w->cv, &w->mu, &t);
        uint64_t at = __atomic_load_n(&w->started_ms, __ATOMIC_ACQUIRE);
        if (at != 0 && now_ms() - at > BCW_Z3_TIMEOUT_MS) {
            /* Z3 gives up on the check, answering unknown, as its own
             * timeout did */
            Z3_interrupt(w->z);
            __atomic_store_n(&w->started_ms, 0, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* The session's backstop started into *out, or NULL there (no thread to
 * be had: Z3's own timeout then); BCW_ENOMEM. */
static int watch_start(bcw_watch **out, Z3_context z)
{
    bcw_watch *w = bcw__calloc(1, sizeof *w);
    *out = NULL;
    if (w == NULL)
        return BCW_ENOMEM;
    pthread_condattr_t ca;
    if (pthread_condattr_init(&ca) != 0) {
        free(w);
        return 0;
    }
    w->z = z;
    bool ok = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) == 0 &&
              pthread_cond_init(&w->cv, &ca) == 0;
    pthread_condattr_destroy(&ca);
    if (ok && pthread_mutex_init(&w->mu, NULL) != 0) {
        pthread_cond_destroy(&w->cv);
        ok = false;
    }
    if (ok && pthread_create(&w->thread, NULL, watch, w) != 0) {
        pthread_mutex_destroy(&w->mu);
        pthread_cond_destroy(&w->cv);
        ok = false;
    }
    if (!ok) {
        free(w);
        return 0;
    }
    *out = w;
    return 0;
}

static void watch_stop(bcw_watch *w)
{
    if (w == NULL)
        return;
    pthread_mutex_lock(&w->mu);
    w->stop = true;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    free(w);
}

void bcw__session_checking(bcw_session *s, int on)
{
    if (s->watch != NULL)
        __atomic_store_n(&s->watch->started_ms, on ? now_ms() : 0,
                         __ATOMIC_RELEASE);
}

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
    if (watch_start(&s->watch, s->z) < 0) {
        bcw__session_close(s);
        return BCW_ENOMEM;
    }
    Z3_params sp = Z3_mk_params(s->z);
    if (sp != NULL) {
        Z3_params_inc_ref(s->z, sp);
        static const struct {
            const char *name;
            unsigned value;
        } limits[] = {{"rlimit", BCW_Z3_RLIMIT},
                      {"max_conflicts", BCW_Z3_MAX_CONFLICTS},
                      {"timeout", BCW_Z3_TIMEOUT_MS}};
        size_t n = sizeof limits / sizeof *limits - (s->watch != NULL);
        for (size_t i = 0; i < n; i++) {
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
    watch_stop(s->watch);
    s->watch = NULL;
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
