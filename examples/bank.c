/* bank.c - a bank account whose deposit and withdraw branch on the
 * amount and on the balance, with an overflow guard.  Return codes:
 * BANK_OK, BANK_EINVAL (amount not positive), BANK_EFUNDS (past the
 * overdraft limit), BANK_EOVERFLOW (the balance would overflow). */
#include <limits.h>
#include <stdlib.h>

enum bank_status {
    BANK_OK = 0,
    BANK_EINVAL = -1,
    BANK_EFUNDS = -2,
    BANK_EOVERFLOW = -3
};

typedef struct bank {
    long balance;
    long limit; /* overdraft allowed */
} bank;

bank *bank_new(void)
{
    return calloc(1, sizeof(bank));
}

void bank_free(bank *b)
{
    free(b);
}

enum bank_status bank_deposit(bank *b, long amount)
{
    if (amount <= 0)
        return BANK_EINVAL;
    if (amount > LONG_MAX - b->balance)
        return BANK_EOVERFLOW;
    b->balance += amount;
    return BANK_OK;
}

enum bank_status bank_withdraw(bank *b, long amount)
{
    if (amount <= 0)
        return BANK_EINVAL;
    if (amount > b->balance + b->limit)
        return BANK_EFUNDS;
    b->balance -= amount;
    return BANK_OK;
}

/* The overdraft allowed, up to a million. */
enum bank_status bank_set_limit(bank *b, unsigned long limit)
{
    if (limit > 1000000)
        return BANK_EINVAL;
    b->limit = (long)limit;
    return BANK_OK;
}

long bank_balance(const bank *b)
{
    return b->balance;
}
