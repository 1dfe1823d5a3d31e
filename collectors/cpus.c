/* cpus.c — per-CPU utilisation from libproc2's stat API.
 *
 * libproc2 keeps the previous /proc/stat reading inside its info handle and
 * hands back tick deltas, so one handle per sampler gives "since the
 * previous call" (and "since boot" on the first). */
#include "config.h"

#include "cpus.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <libproc2/stat.h>

#include "xalloc.h"

struct cpus_sampler {
	struct stat_info *info;
};

static enum stat_item items[] = {STAT_TIC_ID, STAT_TIC_SUM_DELTA_BUSY, STAT_TIC_SUM_DELTA_TOTAL};
enum { I_ID, I_BUSY, I_TOTAL };

struct cpus_sampler *cpus_sampler_new(void)
{
	struct cpus_sampler *cs = xcalloc(1, sizeof(*cs));
	int rc = procps_stat_new(&cs->info);
	if (rc < 0) {
		free(cs);
		errno = -rc;
		return NULL;
	}
	return cs;
}

void cpus_sampler_free(struct cpus_sampler *cs)
{
	if (!cs)
		return;
	procps_stat_unref(&cs->info);
	free(cs);
}

static double busy_pct(const struct stat_stack *s)
{
	long busy = STAT_VAL(I_BUSY, sl_int, s, NULL);
	long total = STAT_VAL(I_TOTAL, sl_int, s, NULL);
	if (total <= 0 || busy < 0)
		return 0.0;
	return busy >= total ? 100.0 : 100.0 * (double)busy / (double)total;
}

int cpus_sample(struct cpus_sampler *cs, struct cpu_usage *out)
{
	struct stat_reaped *r = procps_stat_reap(cs->info, STAT_REAP_CPUS_ONLY, items,
						 (int)(sizeof(items) / sizeof(*items)));
	if (!r)
		return errno ? -errno : -EIO;
	out->n = 0;
	for (int i = 0; i < r->cpus->total && out->n < CPUS_MAX; i++) {
		const struct stat_stack *s = r->cpus->stacks[i];
		out->id[out->n] = STAT_VAL(I_ID, s_int, s, NULL);
		out->busy_pct[out->n] = busy_pct(s);
		out->n++;
	}
	out->total_busy_pct = busy_pct(r->summary);
	return 0;
}
