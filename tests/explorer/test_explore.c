/* test_explore.c - bcw_explore_run under allocation failure: every
 * allocation of a walk in turn fails, through its plan, workers, walk,
 * reports and results file, and each run fails cleanly with no results
 * file left; and the results file is written whole or not at all. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "bcwalk/error.h"
#include "bcwalk/explore.h"
#include "bcwalk/model.h"
#include "bcwalk/solver.h"

static bcw_model *open_model(const char *name, char *path, size_t n)
{
    snprintf(path, n, "%s/%s", BCW_EXAMPLES, name);
    bcw_model *m = NULL;
    if (bcw_model_open(&m, path, BCW_TEST_CACHE) < 0)
        fail_msg("%s: %s", path, bcw_error_last());
    return m;
}

/* Files in `dir`, each removed as it is counted, and then dir itself. */
static unsigned clear_dir(const char *dir)
{
    unsigned n = 0;
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    char file[1200];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(file, sizeof file, "%s/%s", dir, e->d_name);
        assert_int_equal(unlink(file), 0);
        n++;
    }
    closedir(d);
    rmdir(dir);
    return n;
}

static void tmp_dir(char *dir, size_t n)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, n, "%s/bcw-test-explore-XXXXXX",
             tmp != NULL && tmp[0] == '/' ? tmp : "/tmp");
    assert_non_null(mkdtemp(dir));
}

/* One walk of `unit` in `name` as `o` says, its report and results
 * file (and graph, for the state walk) in a fresh folder, failing the
 * nth allocation (0: none).  Returns the error; *failed tells whether
 * the failure happened, *files how many files the folder had after. */
static int walk_once(const bcw_model *m, const char *path, const char *unit,
                     bcw_explore_opts o, unsigned long nth, bool *failed,
                     unsigned *files)
{
    char dir[512], results[600], graph[600];
    tmp_dir(dir, sizeof dir);
    snprintf(results, sizeof results, "%s/results.msgpack", dir);
    snprintf(graph, sizeof graph, "%s/graph.dot", dir);
    o.bitcode = path;
    o.unit = bcw_model_find_unit(m, unit);
    assert_true(o.unit >= 0);
    o.cache_dir = BCW_TEST_CACHE;
    o.results_path = results;
    if (o.walk == BCW_WALK_STATE)
        o.graph_path = graph;
    char *text = NULL;
    size_t len = 0;
    o.report = open_memstream(&text, &len);
    assert_non_null(o.report);
    bcw_summary s;
    bcw__error_clear();
    bcw__alloc_fail_at(nth);
    int err = bcw_explore_run(&s, m, &o);
    *failed = nth > 0 && bcw__alloc_fail_at(0) == 0;
    fclose(o.report);
    free(text);
    *files = clear_dir(dir);
    return err;
}

/* Fails allocation 1, 2, ... of a walk until one runs without a
 * failure: each run before fails with BCW_ENOMEM and leaves no file
 * (no results file, no temporary one, no graph) and no descriptor of
 * the process's closed (fd 0 is open throughout: a pool that failed to
 * open closed it), with no crash and, under ASan, no leak; the run
 * after writes its files. */
static void walk_fails_cleanly(const char *name, const char *unit,
                               bcw_explore_opts o, unsigned files_on_success)
{
    char path[512];
    bcw_model *m = open_model(name, path, sizeof path);
    bool failed;
    unsigned files;
    if (fcntl(0, F_GETFD) < 0) {
        int null = open("/dev/null", O_RDONLY);
        assert_int_equal(null, 0);
    }
    for (unsigned long nth = 1;; nth++) {
        int err = walk_once(m, path, unit, o, nth, &failed, &files);
        if (fcntl(0, F_GETFD) < 0)
            fail_msg("%s %s, allocation %lu failing: fd 0 closed", name, unit,
                     nth);
        if (!failed) {
            if (err != 0)
                fail_msg("%s %s: %s", name, unit, bcw_error_last());
            assert_int_equal(files, files_on_success);
            assert_true(nth > 1);
            break;
        }
        if (err != BCW_ENOMEM)
            fail_msg("%s %s, allocation %lu failing: %s (%s)", name, unit, nth,
                     err == 0 ? "the walk succeeded" : "another error",
                     bcw_error_last());
        if (files != 0)
            fail_msg("%s %s, allocation %lu failing: %u files left", name, unit,
                     nth, files);
        assert_true(nth < 100000);
    }
    bcw_model_free(m);
}

static void test_explore__protocol_walk_allocation_failures(void **state)
{
    (void)state;
    bcw_explore_opts o = BCW_EXPLORE_OPTS_INIT;
    o.depth = 2;
    o.format = BCW_REPORT_JSONL;
    walk_fails_cleanly("bstack.bc", "bstack", o, 1);
    /* categories, combinations and a capped function's warning */
    o.max_combos = 4;
    o.format = BCW_REPORT_JSON;
    walk_fails_cleanly("cfg.bc", "cfg", o, 1);
}

static void
test_explore__algebra_and_state_walk_allocation_failures(void **state)
{
    (void)state;
    bcw_explore_opts o = BCW_EXPLORE_OPTS_INIT;
    o.walk = BCW_WALK_ALGEBRA;
    o.depth = 2;
    walk_fails_cleanly("bstack.bc", "bstack", o, 1);
    /* the state walk writes its graph too */
    o.walk = BCW_WALK_STATE;
    o.depth = 1;
    o.probe_depth = 4;
    walk_fails_cleanly("bstack.bc", "bstack", o, 2);
}

/* Buffer permutations and the cap on the permuted contents. */
static void test_explore__permutations_allocation_failures(void **state)
{
    (void)state;
    bcw_explore_opts o = BCW_EXPLORE_OPTS_INIT;
    o.depth = 1;
    o.permute = "ab|cd";
    o.max_combos = 2;
    walk_fails_cleanly("sbuf.bc", "sbuf", o, 1);
}

/* A custom generator (built already: no compiler run under failure). */
static void test_explore__generator_allocation_failures(void **state)
{
    (void)state;
    bcw_explore_opts o = BCW_EXPLORE_OPTS_INIT;
    o.depth = 2;
    o.generator = BCW_EXAMPLES "/gen_index.so";
    o.format = BCW_REPORT_JSONL;
    walk_fails_cleanly("bstack.bc", "bstack", o, 1);
}

/* A results file that cannot be written leaves nothing behind and says
 * why. */
static void test_explore__unwritable_results(void **state)
{
    (void)state;
    char path[512];
    bcw_model *m = open_model("bstack.bc", path, sizeof path);
    bcw_explore_opts o = BCW_EXPLORE_OPTS_INIT;
    o.bitcode = path;
    o.unit = bcw_model_find_unit(m, "bstack");
    o.cache_dir = BCW_TEST_CACHE;
    o.depth = 1;
    o.results_path = "/nonexistent/results.msgpack";
    bcw_summary s;
    assert_int_equal(bcw_explore_run(&s, m, &o), BCW_EINPUT);
    assert_non_null(strstr(bcw_error_last(), "/nonexistent/results.msgpack"));
    bcw_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_explore__protocol_walk_allocation_failures),
        cmocka_unit_test(
            test_explore__algebra_and_state_walk_allocation_failures),
        cmocka_unit_test(test_explore__permutations_allocation_failures),
        cmocka_unit_test(test_explore__generator_allocation_failures),
        cmocka_unit_test(test_explore__unwritable_results),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
