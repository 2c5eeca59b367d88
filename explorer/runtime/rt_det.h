/* rt_det.h - the randomness and the clocks the code under test reads,
 * made the sequence's own (rt_det.c): what a call returns then depends
 * on the sequence alone, not on the run, so an oracle can hold it. */
#ifndef BCW_RT_DET_H
#define BCW_RT_DET_H

#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>
#include <sys/types.h>
#include <time.h>

/* Every sequence starts from the same random stream and the same
 * time. */
void bcw_rt_det_reset(void);

/* What the unit's calls are renamed to (native.c's table). */
uint32_t bcw_rt_arc4random(void);
uint32_t bcw_rt_arc4random_uniform(uint32_t bound);
void bcw_rt_arc4random_buf(void *buf, size_t n);
ssize_t bcw_rt_getrandom(void *buf, size_t n, unsigned flags);
int bcw_rt_getentropy(void *buf, size_t n);
int bcw_rt_rand(void);
long bcw_rt_random(void);
void bcw_rt_srand(unsigned seed);
double bcw_rt_drand48(void);
long bcw_rt_lrand48(void);
void bcw_rt_srand48(long seed);
time_t bcw_rt_time(time_t *t);
int bcw_rt_clock_gettime(clockid_t id, struct timespec *ts);
int bcw_rt_gettimeofday(struct timeval *tv, void *tz);
clock_t bcw_rt_clock(void);

#endif
