/* procinfo.c — MemAvailable, the CPU model and a task's thread group. */
#include "config.h"

#include "procinfo.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int procinfo_meminfo_parse(const char *buf, unsigned long long *avail)
{
	for (const char *l = buf; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		unsigned long long kb;
		char unit[8];
		if (strncmp(l, "MemAvailable:", 13) != 0)
			continue;
		if (sscanf(l + 13, "%llu %7s", &kb, unit) != 2 || strcmp(unit, "kB") != 0 ||
		    kb > ~0ull / 1024)
			return -EINVAL;
		*avail = kb * 1024ull;
		return 0;
	}
	return -EINVAL;
}

unsigned long long procinfo_mem_available(const struct sysroot *r)
{
	char buf[8192];
	unsigned long long avail = 0;
	if (sysroot_read(r, "proc/meminfo", buf, sizeof(buf)) < 0 ||
	    procinfo_meminfo_parse(buf, &avail) < 0)
		return 0;
	return avail;
}

/* The value of the first line starting with key (then blanks and ':'). */
static size_t procinfo_cpuinfo_key(const char *buf, const char *key, char *out, size_t cap)
{
	size_t klen = strlen(key);
	for (const char *l = buf; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (strncmp(l, key, klen) != 0)
			continue;
		const char *v = l + klen;
		while (*v == ' ' || *v == '\t')
			v++;
		if (*v != ':')
			continue;
		v++;
		while (*v == ' ' || *v == '\t')
			v++;
		size_t n = strcspn(v, "\n");
		if (n >= cap)
			n = cap - 1;
		memcpy(out, v, n);
		out[n] = '\0';
		return n;
	}
	return 0;
}

size_t procinfo_cpuinfo_model(const char *buf, char *out, size_t cap)
{
	static const char *const keys[] = {"model name", "Processor", "cpu model"};
	if (cap == 0)
		return 0;
	out[0] = '\0';
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		size_t n = procinfo_cpuinfo_key(buf, keys[i], out, cap);
		if (n)
			return n;
	}
	return 0;
}

void procinfo_cpu_model(const struct sysroot *r, char *out, size_t cap)
{
	/* cpuinfo repeats every CPU: the first one is all we need. */
	char buf[16384];
	if (cap)
		out[0] = '\0';
	if (sysroot_read(r, "proc/cpuinfo", buf, sizeof(buf)) >= 0)
		procinfo_cpuinfo_model(buf, out, cap);
}

int procinfo_tgid(const struct sysroot *r, pid_t pid)
{
	char rel[64], buf[1024];
	if (pid <= 0)
		return -ESRCH;
	snprintf(rel, sizeof(rel), "proc/%d/status", (int)pid);
	/* Tgid is among the first lines: the head of the file is enough. */
	ssize_t n = sysroot_read(r, rel, buf, sizeof(buf));
	if (n < 0)
		return n == -ENOENT ? -ESRCH : (int)n;
	for (const char *l = buf; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		char *end;
		if (strncmp(l, "Tgid:", 5) != 0)
			continue;
		errno = 0;
		long v = strtol(l + 5, &end, 10);
		if (errno || end == l + 5 || (*end != '\n' && *end != '\0') || v <= 0 ||
		    v > INT32_MAX)
			return -EINVAL;
		return (int)v;
	}
	return -EINVAL;
}
