/* procinfo.c — MemAvailable, the CPU model, a process's facts and the list
 * of processes. */
#include "config.h"

#include "procinfo.h"

#include "cgroup.h"
#include "cgroup-parse.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xalloc.h"

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

int procinfo_stat(const struct sysroot *r, pid_t pid, struct stat_line *out)
{
	char rel[64], buf[1024];
	/* The leader's own line has the same fields but for the CPU times,
	 * which proc/PID/stat sums over every thread (10,000 threads: several
	 * ms of kernel time a read); a fixture tree may have only the latter. */
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/stat", (int)pid, (int)pid);
	ssize_t n = sysroot_read(r, rel, buf, sizeof(buf));
	if (n == -ENOENT) {
		snprintf(rel, sizeof(rel), "proc/%d/stat", (int)pid);
		n = sysroot_read(r, rel, buf, sizeof(buf));
	}
	if (n < 0)
		return n == -ENOENT ? -ESRCH : (int)n;
	return procparse_stat_line(buf, (size_t)n, out);
}

pid_t procinfo_live_thread(const struct sysroot *r, pid_t pid)
{
	char rel[64];
	snprintf(rel, sizeof(rel), "proc/%d/task", (int)pid);
	DIR *d = sysroot_opendir(r, rel);
	if (!d)
		return 0;
	pid_t live = 0;
	struct dirent *e;
	while (!live && (e = readdir(d))) {
		char *end;
		long tid = strtol(e->d_name, &end, 10);
		if (*end || tid <= 0 || tid == pid)
			continue;
		char srel[96], buf[1024];
		struct stat_line st;
		snprintf(srel, sizeof(srel), "proc/%d/task/%ld/stat", (int)pid, tid);
		ssize_t n = sysroot_read(r, srel, buf, sizeof(buf));
		if (n > 0 && procparse_stat_line(buf, (size_t)n, &st) == 0 && st.state != 'Z' &&
		    st.state != 'X')
			live = (pid_t)tid;
	}
	closedir(d);
	return live;
}

ssize_t procinfo_cmdline(const struct sysroot *r, pid_t pid, char *buf, size_t cap)
{
	char rel[64];
	snprintf(rel, sizeof(rel), "proc/%d/cmdline", (int)pid);
	ssize_t n = sysroot_read(r, rel, buf, cap);
	return n == -ENOENT ? -ESRCH : n;
}

int procinfo_vm_pages(const struct sysroot *r, pid_t pid, pid_t tid, unsigned long long *pages)
{
	char rel[64], buf[256];
	sysroot_proc_path(rel, sizeof(rel), pid, tid, "statm");
	ssize_t n = sysroot_read(r, rel, buf, sizeof(buf));
	if (n <= 0)
		return n < 0 ? (int)n : -ESRCH;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(buf, &end, 10);
	if (end == buf || errno)
		return -EINVAL;
	*pages = v;
	return 0;
}

int procinfo_exe(const struct sysroot *r, pid_t pid, char *buf, size_t cap)
{
	char rel[64];
	snprintf(rel, sizeof(rel), "proc/%d/exe", (int)pid);
	if (cap == 0)
		return -EINVAL;
	ssize_t n = readlinkat(r->fd, rel, buf, cap - 1);
	if (n < 0) {
		int e = errno;
		buf[0] = '\0';
		snprintf(rel, sizeof(rel), "proc/%d", (int)pid);
		return e == ENOENT && !sysroot_exists(r, rel) ? -ESRCH : -e;
	}
	buf[n] = '\0';
	return 0;
}

/* A small integer file under the root, or -1. */
static long procinfo_long(const struct sysroot *r, const char *rel)
{
	char buf[64];
	if (sysroot_read(r, rel, buf, sizeof(buf)) <= 0)
		return -1;
	char *e;
	long v = strtol(buf, &e, 10);
	return e == buf ? -1 : v;
}

int procinfo_physical_cores(const struct sysroot *r)
{
	char rel[128];
	long seen[1024][2];
	int n = 0;
	for (int cpu = 0; cpu < 1024; cpu++) {
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/topology/core_id", cpu);
		long core = procinfo_long(r, rel);
		if (core < 0) {
			snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d", cpu);
			if (!sysroot_exists(r, rel))
				break;
			continue; /* offline: no topology */
		}
		snprintf(rel, sizeof(rel),
			 "sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
		long pkg = procinfo_long(r, rel);
		bool dup = false;
		for (int i = 0; i < n && !dup; i++)
			dup = seen[i][0] == pkg && seen[i][1] == core;
		if (!dup && n < 1024) {
			seen[n][0] = pkg;
			seen[n][1] = core;
			n++;
		}
	}
	return n;
}

static int procinfo_pid_cmp(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
	return (x > y) - (x < y);
}

/* The numeric entries of the directory rel, sorted. */
static ssize_t procinfo_numeric(const struct sysroot *r, const char *rel, pid_t **out, size_t *cap)
{
	DIR *d = sysroot_opendir(r, rel);
	if (!d)
		return -errno;
	size_t n = 0;
	for (struct dirent *e; (e = readdir(d));) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		if (e->d_name[0] < '1' || e->d_name[0] > '9' || *end || pid > INT32_MAX)
			continue;
		*out = xreallocarray_grow(*out, cap, n + 1, sizeof(**out));
		(*out)[n++] = (pid_t)pid;
	}
	closedir(d);
	qsort(*out, n, sizeof(**out), procinfo_pid_cmp);
	return (ssize_t)n;
}

ssize_t procinfo_pids(const struct sysroot *r, pid_t **out, size_t *cap)
{
	return procinfo_numeric(r, "proc", out, cap);
}

ssize_t procinfo_tids(const struct sysroot *r, pid_t pid, pid_t **out, size_t *cap)
{
	char rel[48];
	snprintf(rel, sizeof(rel), "proc/%d/task", (int)pid);
	ssize_t n = procinfo_numeric(r, rel, out, cap);
	return n == -ENOENT ? -ESRCH : n;
}

int procinfo_cpus_allowed(const struct sysroot *r, pid_t pid, uint8_t *set, size_t bytes)
{
	char rel[48], buf[8192];
	snprintf(rel, sizeof(rel), "proc/%d/status", (int)pid);
	ssize_t n = sysroot_read(r, rel, buf, sizeof(buf));
	if (n < 0)
		return n == -ENOENT ? -ESRCH : (int)n;
	struct status_info st;
	if (procparse_status(buf, &st) < 0 || !st.cpus_allowed_list[0])
		return -EINVAL;
	memset(set, 0, bytes);
	return cgroup_parse_cpulist_set(st.cpus_allowed_list, set, bytes);
}
