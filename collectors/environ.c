/* environ.c — a process's initial environment (environ.h). */
#include "config.h"

#include "environ.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xalloc.h"

ssize_t environ_read(const struct sysroot *r, pid_t pid, char **buf, bool *truncated)
{
	return environ_read_via(r, pid, 0, buf, truncated);
}

ssize_t environ_read_via(const struct sysroot *r, pid_t pid, pid_t tid, char **buf, bool *truncated)
{
	char rel[96];
	sysroot_proc_path(rel, sizeof(rel), pid, tid, "environ");
	return sysroot_read_alloc(r, rel, 8192, ENVIRON_MAX + 1, buf, truncated);
}

const char *environ_get(const char *buf, size_t len, const char *name)
{
	size_t k = strlen(name);
	for (const char *p = buf, *end = buf + len; p < end;) {
		const char *z = memchr(p, '\0', (size_t)(end - p));
		size_t n = z ? (size_t)(z - p) : (size_t)(end - p);
		if (n > k && memcmp(p, name, k) == 0 && p[k] == '=')
			return p + k + 1;
		p += n + 1;
	}
	return NULL;
}
