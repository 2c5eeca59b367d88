/* rt_halt.c - a halt of the code under test (abort, assert, exit, a
 * contract, a double free) ends the sequence in flight, or the interface
 * predicate being evaluated, by a siglongjmp to where rt_main armed it. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <unistd.h>

#include "rt.h"

bcw_rt_landing bcw_rt_land;

void bcw_rt_halt(enum bcw_outcome outcome, int signo)
{
    if (bcw_rt_land.in_pred) {
        bcw_rt_land.in_pred = 0;
        siglongjmp(bcw_rt_land.pred_env, 1);
    }
    if (!bcw_rt_land.in_seq)
        _exit(BCW_EXIT_SETUP);
    bcw_rt_land.in_seq = 0;
    bcw_rt_land.outcome = outcome;
    bcw_rt_land.signo = signo;
    siglongjmp(bcw_rt_land.seq_env, 1);
}
