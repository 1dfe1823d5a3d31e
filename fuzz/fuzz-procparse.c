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
	if (stat_line_parse(s, size, &st) == 0 && st.name_len >= TASK_NAME_MAX)
		abort();
	(void)schedstat_parse(s, &ss);
	(void)status_parse(s, &si);
	(void)status_switches_parse(s, strlen(s), &v, &iv);
	free(s);
	return 0;
}
