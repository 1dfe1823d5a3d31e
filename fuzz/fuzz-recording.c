/* fuzz-recording.c — the recording reader: a header or sample line, and a
 * whole file opened, indexed and every sample read back. */
#define _GNU_SOURCE 1
#include "config.h"

#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "recording-impl.h"
#include "recording-parse.h"
#include "recording-header.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	struct recording_header h;
	struct recording_sample smp;
	memset(&h, 0, sizeof(h));
	recording_parse_sample_init(&smp);
	(void)recording_header_parse((const char *)data, size, &h, err, sizeof(err));
	(void)recording_parse_sample((const char *)data, size, &smp, err, sizeof(err));

	int fd = memfd_create("fuzz-recording", 0);
	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	struct recording *r = recording_open(path, err, sizeof(err));
	if (r) {
		size_t n = recording_count(r);
		for (size_t i = 0; i < n && i < 64; i++)
			(void)recording_read(r, i, &smp, err, sizeof(err));
		recording_close(r);
	}
	close(fd);
	recording_parse_sample_free(&smp);
	return 0;
}
