/* tl-test.h — what every cmocka test program includes.
 *
 * TL_SKIP prints the reason where the TAP log and the terminal show it,
 * then marks the test skipped (counted as skipped, not passed).  Below it,
 * small process and file helpers that need only libc and POSIX (include
 * this first: it asks for _GNU_SOURCE).  Helpers that need threadlab's own
 * headers live in tl-rates.h and tl-dash.h. */
#ifndef THREADLAB_TL_TEST_H
#define THREADLAB_TL_TEST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#define TL_SKIP(...)                                                                               \
	do {                                                                                       \
		printf("# SKIP: ");                                                                \
		printf(__VA_ARGS__);                                                               \
		printf("\n");                                                                      \
		fflush(stdout);                                                                    \
		fprintf(stderr, "SKIP: ");                                                         \
		fprintf(stderr, __VA_ARGS__);                                                      \
		fprintf(stderr, "\n");                                                             \
		skip();                                                                            \
	} while (0)

/* cmocka 1.1.5 compares floats only; doubles are compared with this. */
#define assert_near(a, b, eps) tl_check_near((a), (b), (eps), __LINE__)

static inline void tl_check_near(double a, double b, double eps, int line)
{
	if (!(__builtin_fabs(a - b) <= eps)) {
		print_error("line %d: %.12g is not %.12g (within %g)\n", line, a, b, eps);
		fail();
	}
}

/* This process's resident memory (/proc/self/status VmRSS), kB. */
static inline long tl_rss_kb(void)
{
	char line[256];
	long kb = 0;
	FILE *f = fopen("/proc/self/status", "re");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* Directory of the fixture trees: $THREADLAB_SRCDIR/tests/fixtures. */
static inline const char *tl_fixtures(void)
{
	static char buf[4096];
	const char *src = getenv("THREADLAB_SRCDIR");
	snprintf(buf, sizeof(buf), "%s/tests/fixtures", src ? src : ".");
	return buf;
}

/* Whether this machine can put a CPU quota on a child cgroup: root, and a
 * cpu controller that root can write (v1 cpu.cfs_quota_us at the mount's
 * root, or "cpu" among cgroup v2's controllers).  When it cannot, why
 * says so (for a SKIP); when it can, a test that found no quota cgroup
 * must fail, not skip. */
static inline bool tl_quota_capable(char *why, size_t cap)
{
	char buf[512] = "";
	if (geteuid() != 0) {
		snprintf(why, cap, "not root: no child cgroup can be made");
		return false;
	}
	if (access("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", W_OK) == 0 ||
	    access("/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", W_OK) == 0)
		return true;
	int fd = open("/sys/fs/cgroup/cgroup.controllers", O_RDONLY);
	if (fd >= 0) {
		ssize_t n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		buf[n > 0 ? n : 0] = '\0';
		for (char *t = strtok(buf, " \n"); t; t = strtok(NULL, " \n"))
			if (strcmp(t, "cpu") == 0)
				return true;
	}
	snprintf(why, cap, "no writable cpu controller (cgroup v1 cpu or v2 cpu) on this machine");
	return false;
}

/* Sleeps ms milliseconds, the whole of them even when a signal comes. */
static inline void tl_sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Polls cond every 5 ms for at most ms milliseconds: true once it holds.
 * For a condition a loaded box may delay (a margin of a few ms is not a
 * check): assert_true(TL_UNTIL(cond, 5000)). */
#define TL_UNTIL(cond, ms)                                                                          \
	({                                                                                         \
		bool tl_ok_ = false;                                                               \
		for (long tl_i_ = 0; tl_i_ <= (ms) / 5 && !(tl_ok_ = (cond)); tl_i_++)            \
			tl_sleep_ms(5);                                                            \
		tl_ok_;                                                                            \
	})

/* Seconds on the monotonic clock. */
static inline double tl_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Reads path into buf (at most cap - 1 bytes, NUL-terminated, "" on error).
 * Returns the bytes read, or -errno. */
static inline int tl_read_file(const char *path, char *buf, size_t cap)
{
	buf[0] = '\0';
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t n = 0;
	while (n < cap - 1) {
		ssize_t r = read(fd, buf + n, cap - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = errno;
			close(fd);
			buf[0] = '\0';
			return -err;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	return (int)n;
}

/* A file of the source tree ($THREADLAB_SRCDIR/rel: a document, the man
 * page) whole, NUL-terminated, in a buffer of 1 MiB the caller frees; the
 * test fails when it cannot be read. */
static inline char *tl_slurp_src(const char *rel)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s",
		 getenv("THREADLAB_SRCDIR") ? getenv("THREADLAB_SRCDIR") : ".", rel);
	char *buf = malloc(1 << 20);
	assert_non_null(buf);
	int n = tl_read_file(path, buf, 1 << 20);
	if (n < 0)
		fail_msg("cannot read %s: %s", path, strerror(-n));
	return buf;
}

/* Gone: no such process, or a zombie (or dead task) nobody reaped yet. */
static inline bool tl_pid_gone(pid_t pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (tl_read_file(path, buf, sizeof(buf)) <= 0)
		return true;
	char *p = strrchr(buf, ')');
	return p && (p[2] == 'Z' || p[2] == 'X');
}

/* Waits up to ms (in steps of 10) for pid to be gone; whether it is. */
static inline bool tl_wait_gone(pid_t pid, int ms)
{
	for (int i = 0; i < ms / 10 && !tl_pid_gone(pid); i++)
		tl_sleep_ms(10);
	return tl_pid_gone(pid);
}

/* n bytes of 'a' and 'b' drawn from seed (not 0), no NUL added: text an
 * expression like '(.{1,190}a){1,5}x' takes glibc long to match. */
static inline void tl_ab_text(char *s, size_t n, uint32_t seed)
{
	uint32_t x = seed * 2654435761u;
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		s[i] = (x >> 7) & 1 ? 'a' : 'b';
	}
}

/* Reaps child pid within ms (in steps of 10), its status in *status:
 * pid when it ended in time, else -1 after it was killed with SIGKILL and
 * reaped (a wait after a signal is never unbounded). */
static inline pid_t tl_reap_within(pid_t pid, int ms, int *status)
{
	for (int i = 0; i <= ms / 10; i++) {
		pid_t r = waitpid(pid, status, WNOHANG);
		if (r == pid)
			return pid;
		if (r < 0 && errno != EINTR)
			return -1;
		tl_sleep_ms(10);
	}
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	return -1;
}

/* fork() whose child is killed when the test dies: a failed assertion
 * leaves the test function before its own cleanup, and a child left
 * spinning would hold the harness's pipe open until its time limit. */
static inline pid_t tl_fork(void)
{
	pid_t parent = getpid();
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(0);
	}
	return pid;
}

/* A child running argv (execvp), killed when the test dies. */
static inline pid_t tl_start_child(const char *const argv[])
{
	pid_t pid = tl_fork();
	if (pid == 0) {
		execvp(argv[0], (char *const *)argv); /* execvp does not write them */
		_exit(127);
	}
	return pid;
}

/* Spins for ever: a busy thread's start routine, or a busy child's body. */
static inline void *tl_spin(void *arg)
{
	(void)arg;
	volatile unsigned long x = 0;
	for (;;)
		x++;
	return NULL;
}

/* Kills pid with SIGKILL and reaps it. */
static inline void tl_kill_reap(pid_t pid)
{
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

#endif
