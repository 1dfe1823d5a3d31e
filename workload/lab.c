/* lab.c — the lab manager: control block, anchor process, quota, status.
 *
 * Design (see lab.h for the process tree): threadlab writes settings into
 * the control block (control.h) and bumps its epoch; the helpers apply them
 * between GEMM calls.  Starting helpers and workers is the anchor's job, so
 * that everything the lab runs descends from one process the collectors can
 * follow; threadlab asks it over a socketpair ("bell") and waits for its
 * one-byte answer, so that pids are known when lab_apply() returns.  A
 * socketpair rather than a pipe: send(MSG_NOSIGNAL) never raises SIGPIPE in
 * threadlab when the anchor has gone, and closing threadlab's end (or its
 * death) gives the anchor EOF. */
#define _GNU_SOURCE
#include "lab-internal.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef PKGLIBEXECDIR
#define PKGLIBEXECDIR "/usr/local/libexec/threadlab"
#endif

#define BELL_TIMEOUT_MS 5000

extern char **environ;

/* For lab_emergency_stop(): preformatted at start, read in signal handlers. */
static volatile sig_atomic_t g_pgid;
static volatile sig_atomic_t g_quota;
static char g_top[LAB_PATH_MAX], g_leaf[LAB_PATH_MAX];

static void sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

/* ---- finding the programs ------------------------------------------------ */

static bool exe_in(const char *dir, const char *name, char *out, size_t cap)
{
	if (!dir || !*dir)
		return false;
	if (snprintf(out, cap, "%s/%s", dir, name) >= (int)cap)
		return false;
	return access(out, X_OK) == 0;
}

/* $THREADLAB_LIBEXECDIR, next to /proc/self/exe (the build directory), its
 * parent (tests/ and bench/ of the build directory), $THREADLAB_BUILDDIR,
 * then the installed PKGLIBEXECDIR. */
static bool find_program(const char *name, char *out, size_t cap)
{
	if (exe_in(getenv("THREADLAB_LIBEXECDIR"), name, out, cap))
		return true;
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		char *dir = dirname(self);
		if (exe_in(dir, name, out, cap))
			return true;
		char up[PATH_MAX];
		snprintf(up, sizeof(up), "%s", dir);
		if (exe_in(dirname(up), name, out, cap))
			return true;
	}
	if (exe_in(getenv("THREADLAB_BUILDDIR"), name, out, cap))
		return true;
	return exe_in(PKGLIBEXECDIR, name, out, cap);
}

/* ---- talking to the anchor ------------------------------------------------- */

/* Rings the bell and waits for the anchor's answer; reports exec failures. */
static int ring(struct lab *lab, char *msg, size_t msglen)
{
	char b = 'b';
	if (send(lab->bell, &b, 1, MSG_NOSIGNAL) != 1) {
		snprintf(msg, msglen, "the lab's anchor process has gone (%s)", strerror(errno));
		return -EPIPE;
	}
	struct pollfd p = {.fd = lab->bell, .events = POLLIN};
	int rc;
	do
		rc = poll(&p, 1, BELL_TIMEOUT_MS);
	while (rc < 0 && errno == EINTR);
	if (rc == 0) {
		snprintf(msg, msglen, "the lab's anchor process did not answer in %d ms",
			 BELL_TIMEOUT_MS);
		return -ETIMEDOUT;
	}
	if (recv(lab->bell, &b, 1, 0) != 1) {
		snprintf(msg, msglen, "the lab's anchor process has gone");
		return -EPIPE;
	}
	int e = atomic_load(&lab->shm->spawn_errno);
	if (e) {
		snprintf(msg, msglen, "cannot start a workload process (%s or %s): %s", lab->gemm,
			 lab->burn, strerror(e));
		return -e;
	}
	return 0;
}

static void *map_memfd(const char *name, size_t size, int *fd)
{
	*fd = memfd_create(name, MFD_CLOEXEC);
	if (*fd < 0)
		return NULL;
	if (ftruncate(*fd, (off_t)size) < 0) {
		close(*fd);
		return NULL;
	}
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
	if (p == MAP_FAILED) {
		close(*fd);
		return NULL;
	}
	return p;
}

/* fork + immediate exec: threadlab holds no OpenBLAS pool, and the child
 * only calls async-signal-safe functions before execve. */
static pid_t spawn_anchor(struct lab *lab, int peer)
{
	char ctl[16] = "3", shm[16] = "4", bell[16] = "5", parent[24];
	snprintf(parent, sizeof(parent), "%ld", (long)getpid());
	char *argv[] = {(char *)"threadlab-anchor",
			(char *)"--ctl-fd",
			ctl,
			(char *)"--lab-fd",
			shm,
			(char *)"--bell-fd",
			bell,
			(char *)"--reply-fd",
			bell,
			(char *)"--gemm",
			lab->gemm,
			(char *)"--burn",
			lab->burn,
			(char *)"--parent",
			parent,
			NULL};
	size_t n = 0;
	while (environ[n])
		n++;
	char **envp = xcalloc(n + 2, sizeof(*envp));
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!lab->set.spin_off || strncmp(environ[i], "OPENBLAS_THREAD_TIMEOUT=", 24) != 0)
			envp[k++] = environ[i];
	/* Idle OpenBLAS threads then wait 2^(4+1) cycles instead of ~2^28. */
	if (lab->set.spin_off)
		envp[k++] = (char *)"OPENBLAS_THREAD_TIMEOUT=1";
	envp[k] = NULL;

	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		int a = fcntl(lab->ctl_fd, F_DUPFD, 10);
		int b = fcntl(lab->shm_fd, F_DUPFD, 10);
		int c = fcntl(peer, F_DUPFD, 10);
		if (a < 0 || b < 0 || c < 0 || dup2(a, 3) < 0 || dup2(b, 4) < 0 || dup2(c, 5) < 0)
			_exit(127);
		close_range(6, ~0U, 0);
		execve(lab->anchor_path, argv, envp);
		_exit(127);
	}
	int e = errno;
	free(envp);
	if (pid < 0)
		return -e;
	setpgid(pid, pid); /* also here: no race with the first kill(-pgid) */
	return pid;
}

/* ---- settings into the control block ---------------------------------------- */

static void write_settings(struct lab *lab, const struct lab_settings *s, bool quit)
{
	struct ctl_settings *c = &lab->ctl->settings;
	atomic_store(&c->threads, (uint32_t)s->threads);
	atomic_store(&c->streams, (uint32_t)s->streams);
	atomic_store(&c->size, (uint32_t)s->size);
	atomic_store(&c->precision, (uint32_t)s->precision);
	atomic_store(&c->paused, s->paused ? 1u : 0u);
	atomic_store(&c->quit, quit ? 1u : 0u);
	atomic_fetch_add_explicit(&c->epoch, 1, memory_order_release);
}

static void emergency_arm(struct lab *lab)
{
	g_quota = 0;
	if (lab->quota.created) {
		snprintf(g_top, sizeof(g_top), "%s", lab->quota.top);
		snprintf(g_leaf, sizeof(g_leaf), "%s", lab->quota.leaf);
		g_quota = 1;
	}
	g_pgid = lab->anchor;
}

/* Moves the anchor and everything under it into a new quota cgroup. */
static int quota_enable(struct lab *lab, double cpus, char *msg, size_t msglen)
{
	int rc;
	if (!lab->quota.created) {
		rc = lab_quota_create(&lab->quota, getpid(), msg, msglen);
		if (rc < 0)
			return rc;
		rc = lab_quota_add(&lab->quota, lab->anchor);
		for (int i = 0; rc == 0 && i < CTL_MAX_STREAMS; i++) {
			pid_t pid = atomic_load(&lab->shm->helper_pid[i]);
			if (pid > 0 && !atomic_load(&lab->shm->helper_exited[i]))
				lab_quota_add(&lab->quota, pid);
		}
		unsigned nw = atomic_load(&lab->shm->nworkers);
		for (unsigned i = 0; rc == 0 && i < nw; i++)
			lab_quota_add(&lab->quota, atomic_load(&lab->shm->worker_pid[i]));
		if (rc < 0) {
			snprintf(msg, msglen, "cannot move the workload into %.150s: %s",
				 lab->quota.leaf, strerror(-rc));
			lab_quota_destroy(&lab->quota, 0);
			return rc;
		}
		emergency_arm(lab);
	}
	return lab_quota_set(&lab->quota, cpus, msg, msglen);
}

static int apply_quota(struct lab *lab, double cpus, char *msg, size_t msglen)
{
	lab->quota_error[0] = '\0';
	int rc = 0;
	if (cpus > 0)
		rc = quota_enable(lab, cpus, lab->quota_error, sizeof(lab->quota_error));
	else if (lab->quota.created)
		rc = lab_quota_set(&lab->quota, 0, lab->quota_error, sizeof(lab->quota_error));
	if (rc < 0 && msg)
		snprintf(msg, msglen, "%s", lab->quota_error);
	return rc;
}

/* ---- start, apply, stop ------------------------------------------------------ */

struct lab *lab_start(const struct lab_settings *s, char *err, size_t errlen)
{
	int rc = lab_settings_check(s, err, errlen);
	if (rc < 0) {
		errno = -rc;
		return NULL;
	}
	struct lab *lab = xcalloc(1, sizeof(*lab));
	lab->set = *s;
	lab->ctl_fd = lab->shm_fd = lab->bell = -1;
	tp_cache_init(&lab->rates);
	if (!find_program("threadlab-gemm", lab->gemm, sizeof(lab->gemm)) ||
	    !find_program("threadlab-burn", lab->burn, sizeof(lab->burn)) ||
	    !find_program("threadlab-anchor", lab->anchor_path, sizeof(lab->anchor_path))) {
		snprintf(err, errlen,
			 "cannot find the workload programs (threadlab-gemm, threadlab-burn, "
			 "threadlab-anchor) next to this program or in %s: reinstall threadlab "
			 "or set THREADLAB_LIBEXECDIR",
			 PKGLIBEXECDIR);
		free(lab);
		errno = ENOENT;
		return NULL;
	}
	lab->ctl = map_memfd("threadlab-ctl", sizeof(*lab->ctl), &lab->ctl_fd);
	lab->shm = lab->ctl ? map_memfd("threadlab-lab", sizeof(*lab->shm), &lab->shm_fd) : NULL;
	int sv[2] = {-1, -1};
	if (!lab->shm || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		snprintf(err, errlen, "cannot set up the workload's shared memory: %s",
			 strerror(errno));
		goto fail;
	}
	lab->bell = sv[0];
	lab->ctl->magic = CTL_MAGIC;
	lab->ctl->version = CTL_VERSION;
	lab->ctl->spin_off = s->spin_off;
	lab->shm->magic = LAB_SHM_MAGIC;
	write_settings(lab, s, false);

	lab_quota_cleanup_stale();
	pid_t pid = spawn_anchor(lab, sv[1]);
	close(sv[1]);
	if (pid < 0) {
		snprintf(err, errlen, "cannot start %s: %s", lab->anchor_path, strerror(-pid));
		goto fail;
	}
	lab->anchor = pid;
	emergency_arm(lab);
	/* The anchor waits for the bell: it joins the cgroup before any child. */
	if (s->cpus > 0)
		apply_quota(lab, s->cpus, NULL, 0);
	atomic_store(&lab->shm->want_slots, (uint32_t)s->streams);
	atomic_store(&lab->shm->want_workers, (uint32_t)s->workers);
	if (ring(lab, err, errlen) < 0) {
		lab_stop(lab);
		errno = EIO;
		return NULL;
	}
	return lab;
fail:
	if (lab->bell >= 0)
		close(lab->bell);
	if (lab->shm)
		munmap(lab->shm, sizeof(*lab->shm));
	if (lab->ctl)
		munmap(lab->ctl, sizeof(*lab->ctl));
	if (lab->shm_fd >= 0)
		close(lab->shm_fd);
	if (lab->ctl_fd >= 0)
		close(lab->ctl_fd);
	free(lab);
	errno = EIO;
	return NULL;
}

int lab_apply(struct lab *lab, const struct lab_settings *s, char *msg, size_t msglen)
{
	char dummy[8];
	if (!msg) {
		msg = dummy;
		msglen = sizeof(dummy);
	}
	msg[0] = '\0';
	int rc = lab_settings_check(s, msg, msglen);
	if (rc < 0)
		return rc;
	bool spin = lab->set.spin_off;
	lab->set = *s;
	lab->set.spin_off = spin;
	write_settings(lab, s, false);
	uint32_t slots = atomic_load(&lab->shm->want_slots);
	if ((uint32_t)s->streams > slots)
		atomic_store(&lab->shm->want_slots, (uint32_t)s->streams);
	atomic_store(&lab->shm->want_workers, (uint32_t)s->workers);
	rc = ring(lab, msg, msglen);
	if (rc < 0)
		return rc;
	rc = apply_quota(lab, s->cpus, msg, msglen);
	if (rc == 0 && s->spin_off != spin)
		snprintf(msg, msglen, "the spin setting applies at start only: unchanged");
	return rc;
}

static bool anchor_exited(pid_t pid)
{
	siginfo_t si = {0};
	return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0 || si.si_pid == pid;
}

void lab_stop(struct lab *lab)
{
	if (!lab)
		return;
	if (lab->anchor > 0) {
		write_settings(lab, &lab->set, true);
		close(lab->bell); /* EOF: the anchor kills its children and exits */
		lab->bell = -1;
		for (int i = 0; i < 100 && !anchor_exited(lab->anchor); i++)
			sleep_ms(10);
		/* The anchor is a zombie or alive: its pgid cannot be reused yet. */
		kill(-lab->anchor, SIGKILL);
		while (waitpid(lab->anchor, NULL, 0) < 0 && errno == EINTR)
			;
		for (int i = 0; i < 100 && kill(-lab->anchor, 0) == 0; i++)
			sleep_ms(10);
		g_pgid = 0;
		lab->anchor = 0;
	}
	if (lab->quota.created)
		lab_quota_destroy(&lab->quota, 2000);
	g_quota = 0;
	if (lab->bell >= 0)
		close(lab->bell);
	munmap(lab->shm, sizeof(*lab->shm));
	munmap(lab->ctl, sizeof(*lab->ctl));
	close(lab->shm_fd);
	close(lab->ctl_fd);
	free(lab);
}

void lab_emergency_stop(void)
{
	pid_t pgid = (pid_t)g_pgid;
	if (pgid > 0)
		kill(-pgid, SIGKILL);
	if (!g_quota)
		return;
	/* Tasks leave the cgroup once they have exited: retry for a moment. */
	struct timespec step = {0, 10 * 1000 * 1000};
	for (int i = 0; i < 50; i++) {
		if (strcmp(g_leaf, g_top) != 0)
			rmdir(g_leaf);
		if (rmdir(g_top) == 0 || errno == ENOENT)
			break;
		nanosleep(&step, NULL);
	}
	g_quota = 0;
}

pid_t lab_root_pid(const struct lab *lab)
{
	return lab ? lab->anchor : 0;
}

const char *lab_helper_path(const struct lab *lab)
{
	return lab ? lab->gemm : NULL;
}

bool lab_quota_cgroup(const struct lab *lab, const char **dir, int *version)
{
	if (!lab->quota.created)
		return false;
	*dir = lab->quota.top + 1; /* relative to "/" */
	*version = lab->quota.version;
	return true;
}
