/* lab.c — the lab manager: control block, quota, start, apply, recover
 * and stop; the conversation with the anchor process is lab-bell.c's.
 *
 * Design (see lab.h for the process tree): threadlab writes settings into
 * the control block (control.h) under its epoch sequence lock; the helpers
 * apply them between GEMM calls.  Starting helpers and workers is the
 * anchor's job: threadlab rings it (lab-bell.c) when the settings need
 * processes started or stopped, and waits for its answer. */
#define _GNU_SOURCE
#include "lab-bell.h"
#include "lab-internal.h"
#include "xalloc.h"
#include "lab-find.h"
#include "lab-settings.h"
#include "lab-triad.h"
#include "launch.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* For lab_emergency_stop(): preformatted at start, read in signal handlers. */
static volatile sig_atomic_t g_pgid;
static volatile sig_atomic_t g_quota;
static char g_top[LAB_PATH_MAX], g_leaf[LAB_PATH_MAX];

static void sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

/* dir/name into out; false when it does not fit. */
static bool program_path(char *out, size_t cap, const char *dir, const char *name)
{
	return snprintf(out, cap, "%s/%s", dir, name) < (int)cap;
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

/* ---- settings into the control block ---------------------------------------- */

/* The helpers' build and spin setting for the anchor, as generation gen. */
static void set_generation(struct lab *lab, const struct lab_settings *s, uint32_t gen)
{
	const char *dir = lab_settings_blas_dir(s->blas);
	snprintf(lab->shm->helper_libdir, sizeof(lab->shm->helper_libdir), "%s", dir ? dir : "");
	atomic_store(&lab->shm->helper_spin_off, s->spin_off ? 1u : 0u);
	atomic_store(&lab->shm->helper_gen, gen);
}

/* The settings into the control block, under its sequence lock. */
static void write_settings(struct lab *lab, const struct lab_settings *s, bool quit)
{
	struct ctl_values v = {
	    .threads = (uint32_t)s->threads,
	    .streams = (uint32_t)s->streams,
	    .size = (uint32_t)s->size,
	    .precision = (uint32_t)s->precision,
	    .paused = s->paused ? 1u : 0u,
	    .quit = quit ? 1u : 0u,
	    .loaders = (uint32_t)s->loaders,
	    .prep_us = (uint32_t)s->prep_ms * 1000u,
	    .prefetch = (uint32_t)s->prefetch,
	    .kernel = (uint32_t)s->kernel,
	    .length = lab_triad_length(s->precision),
	};
	control_settings_write(&lab->ctl->settings, &v);
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

/* The anchor first, then the live helpers and the workers; returns how many. */
static size_t lab_processes(const struct lab *lab, pid_t *pids)
{
	size_t n = 0;
	pids[n++] = lab->anchor;
	for (int i = 0; i < CTL_MAX_STREAMS; i++) {
		pid_t pid = atomic_load(&lab->shm->helper_pid[i]);
		if (pid > 0 && !atomic_load(&lab->shm->helper_exited[i]))
			pids[n++] = pid;
	}
	unsigned nw = atomic_load(&lab->shm->nworkers);
	for (unsigned i = 0; i < nw && i < LAB_MAX_WORKERS; i++)
		pids[n++] = atomic_load(&lab->shm->worker_pid[i]);
	for (int k = 0; k < CTL_MAX_LOADERS; k++) {
		pid_t pid = atomic_load(&lab->shm->loader_pid[k]);
		if (pid > 0)
			pids[n++] = pid;
	}
	return n;
}

/* Puts the anchor and everything under it into the quota cgroup (made now
 * if needed; moving a process already there is harmless), then sets the
 * quota.  When a process cannot be moved, no quota is claimed: a new cgroup
 * the anchor never entered is removed, else the limit is lifted. */
static int quota_enable(struct lab *lab, double cpus, char *msg, size_t msglen)
{
	int rc;
	/* A cgroup removed under the lab (by a threadlab that took it for
	 * stale, as older ones judged by pid alone) is made again. */
	lab_quota_lost(&lab->quota);
	bool fresh = !lab->quota.created;
	if (fresh) {
		rc = lab_quota_create(&lab->quota, getpid(), msg, msglen);
		if (rc < 0)
			return rc;
	}
	pid_t pids[LAB_MAX_PIDS], bad = 0;
	rc = lab_quota_add_all(&lab->quota, pids, lab_processes(lab, pids), &bad);
	if (rc < 0) {
		snprintf(msg, msglen,
			 "cannot move %s %ld into %.150s: %s; the workload runs without a quota",
			 bad == lab->anchor ? "the anchor process" : "workload process", (long)bad,
			 lab->quota.leaf, strerror(-rc));
		char scratch[256];
		if (fresh && bad == lab->anchor)
			lab_quota_destroy(&lab->quota, 0);
		else
			lab_quota_set(&lab->quota, 0, scratch, sizeof(scratch));
	}
	if (lab->quota.created)
		emergency_arm(lab);
	return rc < 0 ? rc : lab_quota_set(&lab->quota, cpus, msg, msglen);
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
	rate_cache_init(&lab->rates);
	char dir[PATH_MAX];
	if (lab_find_programs_dir(dir, sizeof(dir), NULL) < 0 ||
	    !program_path(lab->gemm, sizeof(lab->gemm), dir, "threadlab-gemm") ||
	    !program_path(lab->burn, sizeof(lab->burn), dir, "threadlab-burn") ||
	    !program_path(lab->anchor_path, sizeof(lab->anchor_path), dir, "threadlab-anchor")) {
		snprintf(err, errlen,
			 "cannot find the workload programs (threadlab-anchor, threadlab-gemm, "
			 "threadlab-burn) in %s or next to this program: reinstall threadlab "
			 "or set THREADLAB_LIBEXECDIR to their directory",
			 lab_find_programs_configured_dir());
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
	set_generation(lab, s, 1);
	write_settings(lab, s, false);

	lab_quota_cleanup_stale();
	pid_t pid = lab_bell_spawn(lab, sv[1]);
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
	atomic_store(&lab->shm->want_loaders, (uint32_t)s->loaders);
	if (lab_bell_ring(lab, err, errlen) < 0) {
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
	int rc = 0;
	bool regen = s->blas != lab->set.blas || s->spin_off != lab->set.spin_off;
	lab->set = *s;
	write_settings(lab, s, false);
	/* Threads, size, precision, pause and the pipeline's prep and prefetch
	 * travel in the control block alone; new helper slots, another worker
	 * or loader count and another build or spin setting are the anchor's
	 * business. */
	uint32_t slots = atomic_load(&lab->shm->want_slots);
	bool anchor = regen || (uint32_t)s->streams > slots ||
		      atomic_load(&lab->shm->want_workers) != (uint32_t)s->workers ||
		      atomic_load(&lab->shm->want_loaders) != (uint32_t)s->loaders;
	if (anchor) {
		if ((uint32_t)s->streams > slots)
			atomic_store(&lab->shm->want_slots, (uint32_t)s->streams);
		atomic_store(&lab->shm->want_workers, (uint32_t)s->workers);
		atomic_store(&lab->shm->want_loaders, (uint32_t)s->loaders);
		if (regen)
			set_generation(lab, s, atomic_load(&lab->shm->helper_gen) + 1);
		rc = lab_bell_ring(lab, msg, msglen);
		if (rc < 0)
			return rc;
	}
	rc = apply_quota(lab, s->cpus, msg, msglen);
	if (rc == 0 && regen)
		snprintf(msg, msglen, "helpers restart with the %s build of OpenBLAS, spin %s",
			 lab_settings_blas_name(s->blas), s->spin_off ? "off" : "default");
	return rc;
}

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int lab_recover(struct lab *lab, char *msg, size_t msglen)
{
	char dummy[8];
	if (!msg) {
		msg = dummy;
		msglen = sizeof(dummy);
	}
	msg[0] = '\0';
	int st = 0;
	pid_t old = lab->anchor;
	if (old <= 0 || lab->anchor_gave_up)
		return lab->anchor_gave_up ? -EAGAIN : 0; /* said when it gave up */
	pid_t r = waitpid(old, &st, WNOHANG);
	if (r == 0 || (r < 0 && errno != ECHILD))
		return 0;
	char how[64];
	if (r < 0)
		snprintf(how, sizeof(how), "is gone");
	else if (WIFSIGNALED(st))
		snprintf(how, sizeof(how), "was killed by signal %d", WTERMSIG(st));
	else
		snprintf(how, sizeof(how), "exited with status %d", WEXITSTATUS(st));
	/* Its helpers die with it (PDEATHSIG); make sure of the rest. */
	kill(-old, SIGKILL);
	for (int i = 0; i < 100 && launch_group_alive(old); i++)
		sleep_ms(10);
	double now = mono_s();
	unsigned n = lab->anchor_restarts;
	if (n >= LAB_RESTART_MAX &&
	    now - lab->anchor_restart_t[n % LAB_RESTART_MAX] < LAB_RESTART_WINDOW_S) {
		lab->anchor_gave_up = true;
		g_pgid = 0;
		snprintf(msg, msglen,
			 "the lab's anchor (process %d) %s: not restarted, it was restarted %u "
			 "times within %d s: no more restarts",
			 (int)old, how, n, LAB_RESTART_WINDOW_S);
		return -EAGAIN;
	}
	lab_bell_forget(lab);
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		int e = errno;
		snprintf(msg, msglen, "the lab's anchor (process %d) %s: cannot restart it: %s",
			 (int)old, how, strerror(e));
		lab->anchor_gave_up = true;
		return -e;
	}
	close(lab->bell);
	lab->bell = sv[0];
	pid_t pid = lab_bell_spawn(lab, sv[1]);
	close(sv[1]);
	if (pid < 0) {
		snprintf(msg, msglen, "the lab's anchor (process %d) %s: cannot restart it: %s",
			 (int)old, how, strerror((int)-pid));
		lab->anchor_gave_up = true;
		lab->anchor = 0;
		g_pgid = 0;
		return (int)pid;
	}
	lab->anchor = pid;
	lab->anchor_restart_t[n % LAB_RESTART_MAX] = now;
	lab->anchor_restarts = n + 1;
	emergency_arm(lab);
	/* The new anchor joins the quota cgroup before it starts anything. */
	if (lab->quota.created && lab->set.cpus > 0)
		apply_quota(lab, lab->set.cpus, NULL, 0);
	set_generation(lab, &lab->set, atomic_load(&lab->shm->helper_gen) + 1);
	write_settings(lab, &lab->set, false);
	char why[256];
	int rc = lab_bell_ring(lab, why, sizeof(why));
	if (rc < 0) {
		snprintf(msg, msglen, "the lab's anchor (process %d) %s: restarted, but %s",
			 (int)old, how, why);
		return rc;
	}
	snprintf(msg, msglen,
		 "the lab's anchor (process %d) %s: restarted the workload (restart %u)", (int)old,
		 how, lab->anchor_restarts);
	return 1;
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

bool lab_keep_quota(struct lab *lab)
{
	if (!lab->quota.created || lab->set.cpus <= 0 || !lab_quota_lost(&lab->quota))
		return false;
	apply_quota(lab, lab->set.cpus, NULL, 0);
	return true;
}

bool lab_quota_cgroup(const struct lab *lab, const char **dir, int *version)
{
	if (!lab->quota.created)
		return false;
	*dir = lab->quota.top + 1; /* relative to "/" */
	*version = lab->quota.version;
	return true;
}
