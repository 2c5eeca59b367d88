/* cmd_review.c - bcwalk review: a person judges an oracle's pending
 * observations one at a time, after the walks that found them
 * (docs/oracle.md), as `cargo insta review` does for snapshots. */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcwalk/error.h"
#include "bcwalk/oracle.h"
#include "cli.h"
#include "opt.h"

typedef struct review_args {
    const char *oracle;
    int list, accept_all, reject_all;
} review_args;

static const review_args defaults = {0};

static const cli_opt options[] = {
    {.name = "oracle",
     .arg = "FILE",
     CLI_FILE_IN(review_args, oracle),
     .flags = CLI_REQUIRED,
     .help = "the oracle whose pending observations are judged"},
    {.name = "list",
     CLI_FLAG(review_args, list),
     .help = "print what waits for a judgement and ask nothing"},
    {.name = "accept-all",
     CLI_FLAG(review_args, accept_all),
     .help = "record everything waiting as passing, without asking"},
    {.name = "reject-all",
     CLI_FLAG(review_args, reject_all),
     .help = "record everything waiting as known failures, without asking"},
    {.kind = CLI_END}};

static const cli_spec spec = {
    .cmd = "review",
    .operand = NULL,
    .about =
        "Shows each observation of an oracle that waits for a person - new\n"
        "(not judged yet), or changed (a later run saw the call do\n"
        "otherwise: both are shown) - and reads the answer from standard\n"
        "input: Enter or y records it as passing (a changed one becoming\n"
        "the oracle's), n as a known failure, s or anything else leaves\n"
        "it pending, a accepts it and all the rest, r rejects it and all\n"
        "the rest, q stops. The oracle is written back atomically. Exit 1\n"
        "while anything is still pending, 0 when nothing is.\n",
    .after = "examples:\n"
             "  bcwalk review --oracle stack.oracle.msgpack\n"
             "  bcwalk review --oracle stack.oracle.msgpack --list\n"
             "  printf 'y\\nn\\n' | bcwalk review --oracle "
             "stack.oracle.msgpack\n",
    .opts = options,
    .defaults = &defaults,
    .size = sizeof defaults};

/* Entry i as a person reads it: its calls, what it does, and for a
 * changed one what the oracle had. */
static void show(const bcw_oracle_entry *e, size_t k, size_t n)
{
    char obs[1024];
    const bool changed = e->proposed.outcome != NULL;
    printf("[%zu/%zu] %s\n", k, n, changed ? "changed" : "not judged yet");
    for (unsigned c = 0; c < e->ncalls; c++)
        printf("%s;\n", e->calls[c]);
    bcw_observation_text(changed ? &e->proposed : &e->obs, obs, sizeof obs);
    printf("==> %s\n", obs);
    if (changed) {
        bcw_observation_text(&e->obs, obs, sizeof obs);
        printf("--- the oracle has ==> %s (%s)\n", obs,
               e->verdict == BCW_VERDICT_FAIL ? "a known failure" : "passing");
    }
}

enum answer { LATER, PASS, FAIL, ALL_PASS, ALL_FAIL, STOP };

static enum answer ask(void)
{
    switch (cli_ask("accept? [Y]es, [n]o: a known failure, [s]kip, [a]ccept "
                    "all the rest, [r]eject all the rest, [q]uit: ")) {
    case '\n':
    case 'y':
        return PASS;
    case 'n':
        return FAIL;
    case 'a':
        return ALL_PASS;
    case 'r':
        return ALL_FAIL;
    case 'q':
    case -1:
        return STOP;
    default:
        return LATER;
    }
}

int cmd_review(int argc, char **argv)
{
    review_args a;
    cli_args given;
    int rc;
    if ((rc = cli_parse(&given, &spec, &a, argc, argv)) != CLI_RUN)
        return rc;
    if (a.list + a.accept_all + a.reject_all > 1)
        return cli_fail("review: --list, --accept-all and --reject-all "
                        "each decide alone: give one");
    bcw_oracle *o = NULL;
    int err = bcw_oracle_load(&o, a.oracle);
    if (err < 0)
        return cli_fail_library(&spec, &given, err);
    size_t n = bcw_oracle_count(o), waiting = 0;
    for (size_t i = 0; i < n; i++)
        waiting += bcw_oracle_waiting(o, i) != 0;
    size_t k = 0, accepted = 0, rejected = 0;
    enum answer all = a.accept_all ? ALL_PASS : a.reject_all ? ALL_FAIL : LATER;
    bool stop = false;
    for (size_t i = 0; i < n && !stop && err == 0; i++) {
        if (!bcw_oracle_waiting(o, i))
            continue;
        enum answer say = all;
        if (all == LATER) {
            show(bcw_oracle_entry_at(o, i), ++k, waiting);
            say = a.list ? LATER : ask();
            if (!a.list)
                putchar('\n');
        }
        if (say == ALL_PASS || say == ALL_FAIL)
            all = say;
        stop = say == STOP;
        if (say == PASS || say == ALL_PASS) {
            err = bcw_oracle_settle(o, i, BCW_VERDICT_PASS);
            accepted++;
        } else if (say == FAIL || say == ALL_FAIL) {
            err = bcw_oracle_settle(o, i, BCW_VERDICT_FAIL);
            rejected++;
        }
    }
    if (err == 0 && accepted + rejected > 0)
        err = bcw_oracle_save(o, a.oracle);
    bcw_oracle_free(o);
    if (err < 0)
        return cli_fail_library(&spec, &given, err);
    size_t pending = waiting - accepted - rejected;
    printf("%zu accepted, %zu rejected, %zu still pending\n", accepted,
           rejected, pending);
    return pending > 0 ? EXIT_FINDINGS : EXIT_OK;
}
