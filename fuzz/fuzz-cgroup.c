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
	(void)cgroup_parse_file(s, true, &l);
	(void)cgroup_parse_file(s, false, &l);
	(void)cgroup_parse_file_find(s, "cpu", &l);
	(void)cgroup_parse_file_find(s, NULL, &l);
	(void)cgroup_parse_mountinfo(s, 1, &m);
	(void)cgroup_parse_mountinfo(s, 2, &m);
	(void)cgroup_parse_mountinfo_find(s, "cpu", &m);
	(void)cgroup_parse_mountinfo_find(s, NULL, &m);
	(void)cgroup_parse_cpulist_count(s);
	free(s);
	return 0;
}
