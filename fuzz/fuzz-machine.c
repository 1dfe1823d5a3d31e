/* fuzz-machine.c — what the machine reader and the activity read: the
 * first line of proc/stat, proc/PID/cgroup, a thread's syscall and wchan,
 * and a library's ELF header, section and program headers and dynamic
 * symbols (the input's bytes taken as each in turn). */
#include "config.h"

#include "blocked.h"
#include "elfsym.h"
#include "fuzz.h"
#include "machine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size);
	uint64_t busy, total, value;
	char cg[256];
	long nr;
	unsigned long arg0;
	(void)machine_stat_parse(s, &busy, &total);
	(void)machine_cgroup_parse(s, cg, sizeof(cg));
	if (blocked_syscall_parse(s, &nr, &arg0) == 0)
		(void)blocked_of_syscall(nr, s);
	(void)blocked_of_wchan(s);
	struct elfsym_layout l;
	if (elfsym_header_parse(data, size, &l) == 0) {
		(void)elfsym_sections_parse(data, size, &l);
		(void)elfsym_segments_parse(data, size, &l);
	}
	(void)elfsym_lookup(data, size, s, size, "blas_cpu_number", &value);
	free(s);
	return 0;
}
