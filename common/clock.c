/* clock.c — a clock's reading in seconds (clock.h). */
#include "config.h"

#include "clock.h"

double clock_seconds(clockid_t id)
{
	struct timespec t;
	if (clock_gettime(id, &t) != 0)
		return 0;
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}
