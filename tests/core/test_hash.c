/* test_hash.c - the results file's checksum: written in pieces of any
 * size, it is the checksum a reader takes of the whole, and it sees any
 * byte changed. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hash.h"

/* A file's worth of bytes: past three blocks, not a whole number of
 * them, nor of the lanes' stripes. */
#define N (3 * BCW_HASH_BLOCK + 12345)

static unsigned char *bytes(void)
{
    unsigned char *p = malloc(N);
    assert_non_null(p);
    uint64_t x = 0x243F6A8885A308D3ULL;
    for (size_t i = 0; i < N; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        p[i] = (unsigned char)(x >> 56);
    }
    return p;
}

static void test_hash__pieces_sum_as_the_whole(void **state)
{
    (void)state;
    unsigned char *p = bytes();
    uint64_t whole = bcw__hash_blocks(p, N);
    /* small pieces, pieces of whole blocks from a block's start, and
     * pieces past a block that start inside one */
    const size_t sizes[][4] = {{1, 7, 100, 65536},
                               {BCW_HASH_BLOCK, 3, BCW_HASH_BLOCK + 5, 1},
                               {13, 2 * BCW_HASH_BLOCK, 29, 4096}};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        bcw_hasher h;
        assert_int_equal(bcw__hasher_init(&h), 0);
        for (size_t at = 0, k = 0; at < N; k++) {
            size_t n = sizes[s][k % 4] < N - at ? sizes[s][k % 4] : N - at;
            bcw__hasher_add(&h, p + at, n);
            at += n;
        }
        assert_true(bcw__hasher_end(&h) == whole);
    }
    free(p);
}

static void test_hash__any_byte_changed_changes_it(void **state)
{
    (void)state;
    unsigned char *p = bytes();
    uint64_t whole = bcw__hash_blocks(p, N);
    /* each lane of a stripe, a block's last byte, the tail's */
    const size_t at[] = {
        0, 9, 17, 31, 32, BCW_HASH_BLOCK - 1, BCW_HASH_BLOCK, N - 12345, N - 1};
    for (size_t i = 0; i < sizeof at / sizeof *at; i++) {
        p[at[i]] ^= 0x10;
        assert_true(bcw__hash_blocks(p, N) != whole);
        p[at[i]] ^= 0x10;
    }
    /* a byte less, or two words swapped */
    assert_true(bcw__hash_blocks(p, N - 1) != whole);
    unsigned char w[8];
    memcpy(w, p + 64, 8);
    memcpy(p + 64, p + 72, 8);
    memcpy(p + 72, w, 8);
    assert_true(bcw__hash_blocks(p, N) != whole);
    free(p);
}

static void test_hash__zeros_of_two_lengths_differ(void **state)
{
    (void)state;
    unsigned char *z = calloc(1, 4096);
    assert_non_null(z);
    assert_true(bcw__hash_wide(z, 64, 0) != bcw__hash_wide(z, 96, 0));
    assert_true(bcw__hash_wide(z, 4096, 0) != bcw__hash_wide(z, 4096, 1));
    free(z);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hash__pieces_sum_as_the_whole),
        cmocka_unit_test(test_hash__any_byte_changed_changes_it),
        cmocka_unit_test(test_hash__zeros_of_two_lengths_differ),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
