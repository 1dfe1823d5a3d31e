/* fuzz-quota.c — cpu.max (v2), the cfs files (v1: the first line is
 * cpu.cfs_quota_us, the rest cpu.cfs_period_us), cpu.stat and pressure. */
#include "config.h"

#include <math.h>

#include "cgroup.h"
#include "cgroup-parse.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size);
	double cpus;
	uint64_t period;
	struct cgroup_cpustat cs;
	struct psi p;
	/* a quota is a number of CPUs or -1 (none): never NaN */
	if (cgroup_parse_cpu_max(s, &cpus, &period) == 0 && isnan(cpus))
		abort();
	(void)cgroup_parse_cpustat(s, 1, &cs);
	(void)cgroup_parse_cpustat(s, 2, &cs);
	(void)cgroup_parse_psi(s, &p);
	char period_buf[4096];
	char *rest = fuzz_split(s, period_buf, sizeof(period_buf));
	if (cgroup_parse_cfs(s, rest, &cpus, &period) == 0 && isnan(cpus))
		abort();
	free(s);
	return 0;
}
