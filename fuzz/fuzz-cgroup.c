/* fuzz-cgroup.c — /proc/PID/cgroup, mountinfo, the CPU lists (online,
 * cpuset) and the controller names looked up in them. */
#include "config.h"

#include "cgroup.h"
#include "cgroup-parse.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size);
	struct cgroup_line l;
	struct cgroup_mount m;
	(void)cgroup_file_parse(s, true, &l);
	(void)cgroup_file_parse(s, false, &l);
	(void)cgroup_file_find(s, "cpu", &l);
	(void)cgroup_file_find(s, NULL, &l);
	(void)cgroup_mountinfo_parse(s, 1, &m);
	(void)cgroup_mountinfo_parse(s, 2, &m);
	(void)cgroup_mountinfo_find(s, "cpu", &m);
	(void)cgroup_mountinfo_find(s, NULL, &m);
	(void)cgroup_cpulist_count(s);
	free(s);
	return 0;
}
