/* account.c - a bank account with contracts: REQUIRES on the arguments
 * and the state, ENSURES on the result, an invariant function, an assert
 * and an abort on a guarded path.  account_withdraw has an off-by-one
 * bug that its ENSURES catches. */
#include <assert.h>
#include <stdbool.h>
#include <stdlib.h>

#include "bcwalk/contract.h"

typedef struct account {
    long balance;
    long limit;
    int frozen;
} account;

account *account_new(void)
{
    account *a = calloc(1, sizeof *a);
    return a; /* balance 0, no overdraft (limit 0) */
}

void account_free(account *a)
{
    free(a);
}

bool account_invariant(const account *a)
{
    return a->balance >= -a->limit;
}

/* Returns the new balance. */
long account_deposit(account *a, long amount)
{
    REQUIRES(amount > 0);
    if (a->frozen)
        abort();
    a->balance += amount;
    ENSURES(a->balance > 0 || a->balance + a->limit >= 0);
    return a->balance;
}

/* Returns 0, or -1 when the amount would pass the limit. */
int account_withdraw(account *a, long amount)
{
    REQUIRES(amount > 0);
    if (amount > a->balance + a->limit + 1) /* the bug: + 1 */
        return -1;
    a->balance -= amount;
    ENSURES(a->balance >= -a->limit);
    return 0;
}

/* Only an empty account can be closed. */
void account_close(account *a)
{
    REQUIRES(a->balance == 0);
    a->frozen = 1;
}

void account_freeze(account *a)
{
    assert(!a->frozen);
    a->frozen = 1;
}
