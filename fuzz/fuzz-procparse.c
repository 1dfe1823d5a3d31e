/* fuzz-procparse.c — /proc/PID/task/TID/stat, schedstat and status. */
#include "config.h"

#include "fuzz.h"
#include "procparse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size);
	struct stat_line st;
	struct schedstat ss;
	struct status_info si;
	uint64_t v, iv;
	/* stat is parsed by length (comm may hold NUL-free junk); the others
	 * as strings */
	if (procparse_stat_line(s, size, &st) == 0 && st.name_len >= TASK_NAME_MAX)
		abort();
	(void)procparse_schedstat(s, &ss);
	(void)procparse_status(s, &si);
	(void)procparse_status_switches(s, strlen(s), &v, &iv);
	free(s);
	return 0;
}
