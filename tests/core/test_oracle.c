/* test_oracle.c - the oracle store (bcwalk/oracle.h, docs/oracle.md):
 * keys shared by state, the file's round trip, every kind of bad file
 * refused with its message, and the JSON dump. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "bcwalk/error.h"
#include "bcwalk/oracle.h"
#include "file.h"
#include "pack.h"
#include "text.h"

static char dir[] = "/tmp/test_oracle.XXXXXX";

static char *path_of(const char *name)
{
    static char path[sizeof dir + 64];
    snprintf(path, sizeof path, "%s/%.60s", dir, name);
    return path;
}

static const char *const push1[] = {"bstack_new()",
                                    "bstack_push(target, 1 /* x > 0 */)"};
static const char *const pop_push1[] = {"bstack_new()",
                                        "bstack_push(target, "
                                        "1 /* x > 0 */)",
                                        "bstack_pop(target)",
                                        "bstack_push(target, 1 /* x > 0 */)"};
static const char *const outs[] = {"visit", "16", "len", "3"};
/* bytes that are not UTF-8: a Latin-1 literal */
static const char *const latin[] = {"doc_new()",
                                    "doc_put(target, \"caf\xe9\")"};

/* An oracle of three entries: two keyed by state, one by the whole
 * sequence. */
static bcw_oracle *three(void)
{
    bcw_oracle *o = NULL;
    assert_int_equal(bcw_oracle_new(&o, "bstack"), 0);
    bcw_oracle_entry e = {.state = 0x9a3c0e1b55f0d2a7u,
                          .after = 0x51,
                          .ncalls = 2,
                          .calls = push1,
                          .obs = {.outcome = "normal"},
                          .verdict = BCW_VERDICT_PASS,
                          .first_seen = 1795000000};
    assert_int_equal(bcw_oracle_add(o, &e), 0);
    e.state = 0x1234;
    e.obs = (bcw_observation){.outcome = "crash",
                              .cause = "SIGSEGV: read of address 0x8",
                              .nout = 2,
                              .out = outs};
    e.verdict = BCW_VERDICT_FAIL;
    assert_int_equal(bcw_oracle_add(o, &e), 1);
    e = (bcw_oracle_entry){.state = 0,
                           .ncalls = 2,
                           .calls = latin,
                           .obs = {.outcome = "normal", .result = "'\xe9'"},
                           .verdict = BCW_VERDICT_PENDING,
                           .first_seen = 1795000001};
    assert_int_equal(bcw_oracle_add(o, &e), 2);
    return o;
}

/* The oracle's JSON dump, the caller's. */
static char *dumped(const bcw_oracle *o)
{
    char *out = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&out, &n);
    assert_non_null(f);
    assert_int_equal(bcw_oracle_dump(o, f), 0);
    assert_int_equal(fclose(f), 0);
    assert_true(bcw__utf8_valid(out, n));
    return out;
}

static void test_oracle__entries_are_shared_by_state(void **state)
{
    (void)state;
    bcw_oracle *o = three();
    /* another prefix that reaches the same state, the same last call */
    assert_int_equal(bcw_oracle_find(o, 0x9a3c0e1b55f0d2a7u, pop_push1, 4), 0);
    assert_int_equal(bcw_oracle_find(o, 0x1234, pop_push1, 4), 1);
    /* another state, or another call */
    assert_int_equal(bcw_oracle_find(o, 0x4321, push1, 2), -1);
    assert_int_equal(bcw_oracle_find(o, 0x1234, latin, 2), -1);
    /* no state: only the whole sequence */
    assert_int_equal(bcw_oracle_find(o, 0, latin, 2), 2);
    assert_int_equal(bcw_oracle_find(o, 0, latin, 1), -1);
    assert_int_equal(bcw_oracle_find(o, 0, push1, 2), -1);
    /* a key that is there, or an entry missing a part, is refused */
    bcw_oracle_entry e = *bcw_oracle_entry_at(o, 0);
    e.calls = pop_push1;
    e.ncalls = 4;
    assert_int_equal(bcw_oracle_add(o, &e), BCW_EINPUT);
    e.state = 77;
    e.obs.outcome = NULL;
    assert_int_equal(bcw_oracle_add(o, &e), BCW_EINPUT);
    assert_int_equal(bcw_oracle_count(o), 3);
    bcw_oracle_judge(o, 2, BCW_VERDICT_PASS);
    assert_int_equal(bcw_oracle_entry_at(o, 2)->verdict, BCW_VERDICT_PASS);
    bcw_oracle_free(o);
}

static void test_oracle__a_person_settles_a_proposed_change(void **state)
{
    (void)state;
    bcw_oracle *o = three(), *back = NULL;
    const bcw_observation now = {.outcome = "normal", .result = "true"};
    assert_false(bcw_oracle_waiting(o, 0));
    assert_true(bcw_oracle_waiting(o, 2)); /* pending */
    assert_int_equal(bcw_oracle_propose(o, 0, &now), 0);
    assert_true(bcw_oracle_waiting(o, 0));
    /* kept in the file, the old observation still the entry's */
    assert_int_equal(bcw_oracle_save(o, path_of("p.msgpack")), 0);
    assert_int_equal(bcw_oracle_load(&back, path_of("p.msgpack")), 0);
    const bcw_oracle_entry *e = bcw_oracle_entry_at(back, 0);
    assert_null(e->obs.result);
    assert_string_equal(e->proposed.result, "true");
    char buf[64];
    bcw_observation_text(&e->proposed, buf, sizeof buf);
    assert_string_equal(buf, "true");
    bcw_observation_text(&e->obs, buf, sizeof buf);
    assert_string_equal(buf, "void");
    /* rejected: the new observation is the entry's, a known failure */
    assert_int_equal(bcw_oracle_settle(back, 0, BCW_VERDICT_FAIL), 0);
    e = bcw_oracle_entry_at(back, 0);
    assert_string_equal(e->obs.result, "true");
    assert_null(e->proposed.outcome);
    assert_int_equal(e->verdict, BCW_VERDICT_FAIL);
    assert_false(bcw_oracle_waiting(back, 0));
    /* a proposal withdrawn, and a pending entry accepted as it is */
    assert_int_equal(bcw_oracle_propose(o, 0, NULL), 0);
    assert_false(bcw_oracle_waiting(o, 0));
    assert_int_equal(bcw_oracle_settle(o, 2, BCW_VERDICT_PASS), 0);
    assert_string_equal(bcw_oracle_entry_at(o, 2)->obs.result, "'\xe9'");
    assert_false(bcw_oracle_waiting(o, 2));
    assert_int_equal(bcw_oracle_settle(o, 3, BCW_VERDICT_PASS), BCW_EINPUT);
    bcw_observation_text(&bcw_oracle_entry_at(o, 1)->obs, buf, sizeof buf);
    assert_string_equal(buf, "*crash* SIGSEGV: read of address 0x8");
    bcw_oracle_free(back);
    bcw_oracle_free(o);
}

static void test_oracle__the_file_round_trips(void **state)
{
    (void)state;
    bcw_oracle *o = three(), *back = NULL;
    assert_int_equal(bcw_oracle_save(o, path_of("o.msgpack")), 0);
    assert_int_equal(bcw_oracle_load(&back, path_of("o.msgpack")), 0);
    assert_string_equal(bcw_oracle_unit(back), "bstack");
    assert_int_equal(bcw_oracle_count(back), 3);
    const bcw_oracle_entry *e = bcw_oracle_entry_at(back, 1);
    assert_int_equal(e->state, 0x1234);
    assert_int_equal(e->after, 0x51);
    assert_int_equal(e->ncalls, 2);
    assert_string_equal(e->calls[1], push1[1]);
    assert_string_equal(e->obs.outcome, "crash");
    assert_string_equal(e->obs.cause, "SIGSEGV: read of address 0x8");
    assert_null(e->obs.result);
    assert_int_equal(e->obs.nout, 2);
    assert_string_equal(e->obs.out[2], "len");
    assert_int_equal(e->verdict, BCW_VERDICT_FAIL);
    /* bytes that are not UTF-8 come back as they were */
    assert_string_equal(bcw_oracle_entry_at(back, 2)->calls[1], latin[1]);
    assert_int_equal(bcw_oracle_find(back, 0, latin, 2), 2);
    char *a = dumped(o), *b = dumped(back);
    assert_string_equal(a, b);
    /* docs/oracle.md's example line */
    assert_non_null(strstr(a, "\n  {\"state\": \"9a3c0e1b55f0d2a7\", "
                              "\"after\": \"0000000000000051\", "
                              "\"sequence\": [\"bstack_new()\", "
                              "\"bstack_push(target, 1 /* x > 0 */)\"], "
                              "\"verdict\": \"pass\", \"first_seen\": "
                              "\"2026-11-18T"));
    assert_non_null(strstr(a, "\"out\": {\"visit\": \"16\", \"len\": \"3\"}"));
    assert_non_null(strstr(a, "{\"state\": null, \"after\": null, "
                              "\"sequence\": [\"doc_new()\", "
                              "\"doc_put(target, \\\"caf\\udce9\\\")\"]"));
    free(a);
    free(b);
    /* saved again, the same bytes */
    assert_int_equal(bcw_oracle_save(back, path_of("again.msgpack")), 0);
    char *x, *y;
    size_t nx, ny;
    assert_int_equal(bcw__read_file(&x, &nx, path_of("o.msgpack"), 1 << 20), 0);
    assert_int_equal(bcw__read_file(&y, &ny, path_of("again.msgpack"), 1 << 20),
                     0);
    assert_int_equal(nx, ny);
    assert_memory_equal(x, y, nx);
    free(x);
    free(y);
    bcw_oracle_free(o);
    bcw_oracle_free(back);
}

/* The arguments computed from the object that an entry's call was
 * passed (bcwalk test passes them again): kept in the file, replaced
 * whole, and refused when they name no step or no parameter. */
static void test_oracle__recorded_arguments_round_trip(void **state)
{
    (void)state;
    bcw_oracle *o = three(), *back = NULL;
    assert_int_equal(bcw_oracle_entry_at(o, 0)->args.nsteps, 0);
    static const uint16_t steps[] = {4, 9};
    bcw_oracle_args a = {
        .plan = 0x7a, .nsteps = 2, .steps = steps, .pinned = 0x6};
    a.args[1] = (uint64_t)-1;
    a.args[2] = 64;
    assert_int_equal(bcw_oracle_record_args(o, 1, &a), 0);
    assert_int_equal(bcw_oracle_save(o, path_of("a.msgpack")), 0);
    assert_int_equal(bcw_oracle_load(&back, path_of("a.msgpack")), 0);
    const bcw_oracle_args *got = &bcw_oracle_entry_at(back, 1)->args;
    assert_int_equal(got->plan, 0x7a);
    assert_int_equal(got->nsteps, 2);
    assert_int_equal(got->steps[1], 9);
    assert_int_equal(got->pinned, 0x6);
    assert_int_equal(got->args[1], (uint64_t)-1);
    assert_int_equal(got->args[2], 64);
    assert_int_equal(bcw_oracle_entry_at(back, 0)->args.nsteps, 0);
    char *d = dumped(back);
    assert_non_null(strstr(d,
                           "\"plan\": \"000000000000007a\", \"steps\": [4, 9], "
                           "\"args\": {\"1\": "
                           "18446744073709551615, \"2\": 64}"));
    free(d);
    /* replaced whole: the oracle keeps its own copy of the steps */
    uint16_t one[] = {4};
    bcw_oracle_args b = {.nsteps = 1, .steps = one, .pinned = 0x2};
    assert_int_equal(bcw_oracle_record_args(back, 1, &b), 0);
    one[0] = 7;
    got = &bcw_oracle_entry_at(back, 1)->args;
    assert_int_equal(got->nsteps, 1);
    assert_int_equal(got->steps[0], 4);
    assert_int_equal(got->args[2], 0);
    /* values of no step, a parameter past a call's, no entry */
    bcw_oracle_args bad = {.pinned = 1};
    assert_int_equal(bcw_oracle_record_args(back, 1, &bad), BCW_EINPUT);
    bad = (bcw_oracle_args){.nsteps = 1, .steps = one, .pinned = 1u << 8};
    assert_int_equal(bcw_oracle_record_args(back, 1, &bad), BCW_EINPUT);
    assert_int_equal(bcw_oracle_record_args(back, 3, &b), BCW_EINPUT);
    bcw_oracle_entry e = *bcw_oracle_entry_at(back, 1);
    e.state = 99;
    e.args.steps = NULL;
    assert_int_equal(bcw_oracle_add(back, &e), BCW_EINPUT);
    bcw_oracle_free(o);
    bcw_oracle_free(back);
}

static void test_oracle__design_states_round_trip(void **state)
{
    (void)state;
    bcw_oracle *o = three(), *back = NULL;
    assert_null(bcw_oracle_get_states(o));
    static const char *const preds[] = {"is_empty", "is_full"};
    static const uint16_t empty[] = {0}, full[] = {0, 3, 3, 3};
    static const char *const fn_empty[] = {"undo_new"};
    static const char *const fn_full[] = {"undo_new", "undo_push", "undo_push",
                                          "undo_push"};
    bcw_oracle_state v[] = {{"empty", 1, 0, empty, fn_empty},
                            {"full", 2, 3, full, fn_full}};
    bcw_oracle_states s = {11, 2, preds, 2, v};
    assert_int_equal(bcw_oracle_set_states(o, &s), 0);
    assert_int_equal(bcw_oracle_save(o, path_of("s.msgpack")), 0);
    assert_int_equal(bcw_oracle_load(&back, path_of("s.msgpack")), 0);
    const bcw_oracle_states *got = bcw_oracle_get_states(back);
    assert_non_null(got);
    assert_int_equal(got->plan_steps, 11);
    assert_int_equal(got->npreds, 2);
    assert_string_equal(got->preds[1], "is_full");
    assert_int_equal(got->n, 2);
    assert_string_equal(got->v[1].name, "full");
    assert_int_equal(got->v[1].value, 2);
    assert_int_equal(got->v[1].ncover, 3);
    assert_memory_equal(got->v[1].steps, full, sizeof full);
    assert_string_equal(got->v[1].fns[3], "undo_push");
    assert_int_equal(got->v[0].ncover, 0);
    /* a state with no cover is refused, the states kept */
    bcw_oracle_state bad = {"none", 0, 0, NULL, NULL};
    bcw_oracle_states b = {11, 0, NULL, 1, &bad};
    assert_int_equal(bcw_oracle_set_states(back, &b), BCW_EINPUT);
    assert_int_equal(bcw_oracle_get_states(back)->n, 2);
    /* cleared */
    assert_int_equal(bcw_oracle_set_states(back, NULL), 0);
    assert_null(bcw_oracle_get_states(back));
    bcw_oracle_free(o);
    bcw_oracle_free(back);
}

/* Loads `data` as an oracle file: the error, its message in *msg. */
static int load_bytes(const void *data, size_t n, const char **msg)
{
    assert_int_equal(bcw__write_file_atomic(path_of("bad.msgpack"), data, n),
                     0);
    bcw_oracle *o = (bcw_oracle *)1;
    int err = bcw_oracle_load(&o, path_of("bad.msgpack"));
    assert_null(o);
    *msg = bcw_error_last();
    return err;
}

static void assert_refused(const void *data, size_t n, const char *says)
{
    const char *msg;
    assert_int_equal(load_bytes(data, n, &msg), BCW_EINPUT);
    assert_non_null(strstr(msg, says));
    assert_non_null(strstr(msg, path_of("bad.msgpack")));
}

/* A sealed map of `fields` key-value pairs that `put` packs, as the
 * writer would. */
static void sealed_map(bcw_pack *p, unsigned fields,
                       void (*put)(msgpack_packer *))
{
    bcw__pack_init(p, "test", 1 << 20);
    msgpack_pack_map(&p->pk, fields + 1);
    put(&p->pk);
    bcw__pack_seal(p);
    assert_int_equal(p->err, 0);
}

static void head(msgpack_packer *pk, unsigned version)
{
    bcw__pack_str(pk, "format");
    bcw__pack_str(pk, "bcwalk-oracle");
    bcw__pack_str(pk, "version");
    msgpack_pack_uint32(pk, version);
}

static void version_two(msgpack_packer *pk)
{
    head(pk, 2);
}

static void no_entries(msgpack_packer *pk)
{
    head(pk, 6);
    bcw__pack_str(pk, "unit");
    bcw__pack_str(pk, "bstack");
    bcw__pack_str(pk, "model");
    msgpack_pack_nil(pk);
    bcw__pack_str(pk, "states");
    msgpack_pack_nil(pk);
}

static void an_entry(msgpack_packer *pk, const char *verdict)
{
    msgpack_pack_array(pk, 12);
    msgpack_pack_uint64(pk, 7);
    msgpack_pack_uint64(pk, 8);
    msgpack_pack_array(pk, 1);
    bcw__pack_str(pk, "bstack_new()");
    bcw__pack_str(pk, verdict);
    msgpack_pack_int64(pk, 0);
    msgpack_pack_array(pk, 4);
    bcw__pack_str(pk, "normal");
    msgpack_pack_nil(pk);
    bcw__pack_str(pk, "#0");
    msgpack_pack_array(pk, 0);
    msgpack_pack_nil(pk);
    bcw__pack_str(pk, "protocol");
    msgpack_pack_uint32(pk, 0);
    msgpack_pack_uint64(pk, 0);
    msgpack_pack_array(pk, 0);
    msgpack_pack_array(pk, 0);
}

static void twice(msgpack_packer *pk)
{
    no_entries(pk);
    bcw__pack_str(pk, "entries");
    msgpack_pack_array(pk, 2);
    an_entry(pk, "pass");
    an_entry(pk, "pass");
}

static void unknown_verdict(msgpack_packer *pk)
{
    no_entries(pk);
    bcw__pack_str(pk, "entries");
    msgpack_pack_array(pk, 1);
    an_entry(pk, "maybe");
}

static void test_oracle__bad_files_are_refused(void **state)
{
    (void)state;
    bcw_oracle *o = three();
    assert_int_equal(bcw_oracle_save(o, path_of("good.msgpack")), 0);
    bcw_oracle_free(o);
    char *good;
    size_t n;
    assert_int_equal(
        bcw__read_file(&good, &n, path_of("good.msgpack"), 1 << 20), 0);
    /* cut anywhere: refused, never loaded in part */
    for (size_t cut = 0; cut < n; cut += cut < 64 ? 1 : 13)
        assert_refused(good, cut, "corrupt oracle file");
    /* any byte changed (past the header, which names the format) */
    for (size_t at = 40; at < n; at += 7) {
        good[at] ^= 0x20;
        const char *msg;
        assert_int_equal(load_bytes(good, n, &msg), BCW_EINPUT);
        good[at] ^= 0x20;
    }
    free(good);
    assert_refused("", 0, "not a msgpack map, or truncated");
    assert_refused("\x93\x01\x02\x03", 4, "not a msgpack map");
    /* lengths past the file's bytes: refused before anything is
     * allocated for them (a map of 2^32 - 1 pairs, an array of as many
     * elements, a string of 4 GiB), not an allocation of 64 GiB */
    assert_refused("\xdf\xff\xff\xff\xff\x01\x02", 7, "not a msgpack map");
    assert_refused("\x81\xa1k\xdd\xff\xff\xff\xff\x01", 9, "not a msgpack map");
    assert_refused("\x81\xa1k\xdb\xff\xff\xff\xff", 8, "not a msgpack map");
    assert_refused("\x81\xa1k\xc1", 4, "not a msgpack map");
    bcw_pack p;
    sealed_map(&p, 2, version_two);
    assert_refused(p.buf.data, p.buf.len,
                   "oracle version 2, this bcwalk reads 6: make it again");
    bcw__pack_free(&p);
    sealed_map(&p, 5, no_entries);
    assert_refused(p.buf.data, p.buf.len, "missing fields");
    bcw__pack_free(&p);
    sealed_map(&p, 6, twice);
    assert_refused(p.buf.data, p.buf.len, "two entries of one key");
    bcw__pack_free(&p);
    sealed_map(&p, 6, unknown_verdict);
    assert_refused(p.buf.data, p.buf.len, "(verdict)");
    bcw__pack_free(&p);
    /* another bcwalk file */
    static const char model[] = "\x82\xa6"
                                "format\xac"
                                "bcwalk-model"
                                "\xa7version\x0a";
    assert_refused(model, sizeof model - 1, "not a bcwalk oracle file");
}

static void test_oracle__saving_leaves_nothing_else(void **state)
{
    (void)state;
    bcw_oracle *o = three();
    assert_int_equal(bcw_oracle_save(o, path_of("o.msgpack")), 0);
    /* a folder that is not there: an error, nothing written */
    assert_true(bcw_oracle_save(o, path_of("none/o.msgpack")) < 0);
    bcw_oracle_free(o);
    DIR *d = opendir(dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        assert_null(strstr(e->d_name, "tmp"));
    closedir(d);
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) != NULL ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    DIR *d = opendir(dir);
    for (struct dirent *e; d != NULL && (e = readdir(d)) != NULL;)
        if (e->d_name[0] != '.')
            unlink(path_of(e->d_name));
    if (d != NULL)
        closedir(d);
    return rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle__entries_are_shared_by_state),
        cmocka_unit_test(test_oracle__the_file_round_trips),
        cmocka_unit_test(test_oracle__recorded_arguments_round_trip),
        cmocka_unit_test(test_oracle__design_states_round_trip),
        cmocka_unit_test(test_oracle__a_person_settles_a_proposed_change),
        cmocka_unit_test(test_oracle__bad_files_are_refused),
        cmocka_unit_test(test_oracle__saving_leaves_nothing_else),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
