/* book.c - a library book that can be on loan and reserved at once: two
 * orthogonal interface predicates, so four design states (default, on
 * loan, reserved, both).  Each method returns 0, or -1 when the book is
 * not in a state that allows it. */
#include <stdbool.h>
#include <stdlib.h>

typedef struct book {
    int on_loan;
    int reserved;
    int loans;
} book;

book *book_new(void)
{
    return calloc(1, sizeof(book));
}

void book_free(book *b)
{
    free(b);
}

bool book_is_on_loan(const book *b)
{
    return b->on_loan != 0;
}

bool book_is_reserved(const book *b)
{
    return b->reserved != 0;
}

int book_lend(book *b)
{
    if (b->on_loan)
        return -1;
    b->on_loan = 1;
    b->loans++;
    return 0;
}

int book_return(book *b)
{
    if (!b->on_loan)
        return -1;
    b->on_loan = 0;
    return 0;
}

int book_reserve(book *b)
{
    if (b->reserved)
        return -1;
    b->reserved = 1;
    return 0;
}

int book_cancel(book *b)
{
    if (!b->reserved)
        return -1;
    b->reserved = 0;
    return 0;
}
