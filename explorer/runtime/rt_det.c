/* rt_det.c - the randomness and the clocks the code under test reads,
 * made the sequence's own.  A library that seeds a hash from
 * arc4random() (json-c's lh_char_hash), stamps objects with time() or
 * draws from rand() otherwise answers the same call in the same state
 * differently from run to run, and no oracle can hold it.  bcwalk
 * renames those calls in the unit's bitcode (native.c) to these: one
 * splitmix64 stream and one clock, both reset before every sequence, so
 * that a call's result depends on the sequence alone.  The clock starts
 * at BASE_S and moves on by TICK_NS at each reading, so code waiting for
 * time to pass still sees it pass.  The runtime's own timers (the hang
 * limit) are not renamed and keep the real clocks. */
#include "rt_det.h"

#include <errno.h>
#include <string.h>

#define SEED 0x62637761ull  /* "bcwa" */
#define BASE_S 1767225600ll /* 2026-01-01T00:00:00Z */
#define TICK_NS 1000000ll   /* a millisecond per reading */

static uint64_t stream;
static int64_t now_ns;

void bcw_rt_det_reset(void)
{
    stream = SEED;
    now_ns = BASE_S * 1000000000ll;
}

/* splitmix64: the stream's next word */
static uint64_t next(void)
{
    uint64_t z = (stream += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void fill(void *buf, size_t n)
{
    unsigned char *p = buf;
    while (n > 0) {
        uint64_t w = next();
        size_t k = n < sizeof w ? n : sizeof w;
        memcpy(p, &w, k);
        p += k;
        n -= k;
    }
}

static int64_t tick(void)
{
    now_ns += TICK_NS;
    return now_ns;
}

uint32_t bcw_rt_arc4random(void)
{
    return (uint32_t)(next() >> 32);
}

uint32_t bcw_rt_arc4random_uniform(uint32_t bound)
{
    return bound > 1 ? (uint32_t)(next() % bound) : 0;
}

void bcw_rt_arc4random_buf(void *buf, size_t n)
{
    fill(buf, n);
}

ssize_t bcw_rt_getrandom(void *buf, size_t n, unsigned flags)
{
    (void)flags;
    fill(buf, n);
    return (ssize_t)n;
}

int bcw_rt_getentropy(void *buf, size_t n)
{
    if (n > 256) {
        errno = EIO;
        return -1;
    }
    fill(buf, n);
    return 0;
}

int bcw_rt_rand(void)
{
    return (int)(next() >> 33); /* 0 .. 2^31 - 1, RAND_MAX in glibc */
}

long bcw_rt_random(void)
{
    return (long)(next() >> 33);
}

void bcw_rt_srand(unsigned seed)
{
    stream = SEED ^ seed;
}

double bcw_rt_drand48(void)
{
    return (double)(next() >> 11) / 9007199254740992.0; /* [0, 1) */
}

long bcw_rt_lrand48(void)
{
    return (long)(next() >> 33);
}

void bcw_rt_srand48(long seed)
{
    stream = SEED ^ (uint64_t)seed;
}

time_t bcw_rt_time(time_t *t)
{
    time_t s = (time_t)(tick() / 1000000000ll);
    if (t != NULL)
        *t = s;
    return s;
}

int bcw_rt_clock_gettime(clockid_t id, struct timespec *ts)
{
    (void)id;
    int64_t ns = tick();
    ts->tv_sec = (time_t)(ns / 1000000000ll);
    ts->tv_nsec = (long)(ns % 1000000000ll);
    return 0;
}

int bcw_rt_gettimeofday(struct timeval *tv, void *tz)
{
    (void)tz;
    int64_t ns = tick();
    if (tv != NULL) {
        tv->tv_sec = (time_t)(ns / 1000000000ll);
        tv->tv_usec = (suseconds_t)(ns % 1000000000ll / 1000);
    }
    return 0;
}

clock_t bcw_rt_clock(void)
{
    /* processor time since the sequence began */
    return (clock_t)((tick() - BASE_S * 1000000000ll) / 1000);
}
