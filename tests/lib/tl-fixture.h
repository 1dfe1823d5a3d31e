/* tl-fixture.h — a /proc and /sys tree a test writes under a temporary
 * root and changes between samples (test-machine.c, test-ranking.c).
 * tl_fixture_dir holds the root; tl_put writes a file, making its parents;
 * tl_put_stat writes a proc stat line with the fields the readers use. */
#ifndef THREADLAB_TL_FIXTURE_H
#define THREADLAB_TL_FIXTURE_H

#include "tl-test.h"

#include <sys/stat.h>

static char tl_fixture_dir[256];

/* A new empty root under /tmp, in tl_fixture_dir. */
static inline void tl_fixture_new(const char *stem)
{
	snprintf(tl_fixture_dir, sizeof(tl_fixture_dir), "/tmp/%s-XXXXXX", stem);
	assert_non_null(mkdtemp(tl_fixture_dir));
}

static void tl_put(const char *rel, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void tl_put(const char *rel, const char *fmt, ...)
{
	char path[512], dir[512];
	snprintf(path, sizeof(path), "%s/%s", tl_fixture_dir, rel);
	/* make the parents */
	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = dir + strlen(tl_fixture_dir) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(dir, 0755);
		*p = '/';
	}
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

/* A process's (or thread's) stat: parent, CPU ticks, threads, start time
 * (ticks), last CPU. */
static inline void tl_put_stat(const char *rel, int pid, const char *name, char state, int ppid,
			       unsigned long utime, int threads, unsigned long long start, int cpu)
{
	tl_put(rel,
	       "%d (%s) %c %d %d %d 0 -1 4194560 100 0 0 0 %lu 0 0 0 20 0 %d 0 %llu 10000000 500 "
	       "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 %d 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
	       pid, name, state, ppid, pid, pid, utime, threads, start, cpu);
}

/* The machine's CPU ticks (busy, and a large idle), its uptime and two
 * CPUs online. */
static inline void tl_put_machine(unsigned long busy_ticks, double uptime)
{
	tl_put("proc/stat", "cpu  %lu 0 0 %lu 0 0 0 0 0 0\ncpu0 1 0 0 1 0 0 0 0 0 0\n", busy_ticks,
	       100000ul);
	tl_put("proc/uptime", "%.2f 1.00\n", uptime);
	tl_put("sys/devices/system/cpu/online", "0-1\n");
}

static inline void tl_rm_tree(const char *dir)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

#endif
