/* fuzz-runtimes.c — /proc/PID/maps and /proc/PID/environ, as the
 * diagnosis reads them. */
#include "config.h"

#include "environ.h"
#include "fuzz.h"
#include "maps.h"

static void fuzz_file(const struct maps_line *l, void *arg)
{
	size_t *n = arg;
	*n += strlen(l->path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size);
	struct maps_line l;
	size_t n = 0;
	const char *nl = memchr(s, '\n', size);
	(void)maps_line_parse(s, nl ? (size_t)(nl - s) : size, &l);
	(void)maps_files(s, size, fuzz_file, &n);
	/* environ: NUL-separated NAME=VALUE, by length */
	(void)environ_get(s, size, "OMP_NUM_THREADS");
	(void)environ_get(s, size, "");
	free(s);
	return 0;
}
