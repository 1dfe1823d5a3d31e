/* clock.h — a clock's reading in seconds (common/: every layer links it).
 *
 * Every time threadlab keeps is a double of seconds: CLOCK_MONOTONIC for
 * intervals, CLOCK_REALTIME for what a person reads. */
#ifndef THREADLAB_CLOCK_H
#define THREADLAB_CLOCK_H

#include <time.h>

/* Clock id read now, in seconds (0 if the clock cannot be read). */
double clock_seconds(clockid_t id);

/* Clock ticks a second, the unit of /proc's stat times (sysconf's
 * _SC_CLK_TCK, read once; 100 where it says nothing). */
long clock_ticks_per_s(void);

#endif
