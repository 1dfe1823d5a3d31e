/* clock.c — a clock's reading in seconds (clock.h). */
#include "config.h"

#include "clock.h"

#include <unistd.h>

double clock_seconds(clockid_t id)
{
	struct timespec t;
	if (clock_gettime(id, &t) != 0)
		return 0;
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

long clock_ticks_per_s(void)
{
	static long hz;
	if (hz <= 0) {
		long v = sysconf(_SC_CLK_TCK);
		hz = v > 0 ? v : 100;
	}
	return hz;
}
