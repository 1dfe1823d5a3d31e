/* lab-anchor.c — threadlab-anchor: the parent of the lab's processes.
 *
 * threadlab execs one anchor per lab (see lab.h for why: the collectors
 * follow the anchor with tree = true and see every helper and worker and
 * nothing of threadlab).  The anchor is single-threaded and links no
 * OpenBLAS, so it may fork; it leads its own process group (threadlab sets
 * it up), sleeps in poll() and only acts when threadlab rings its bell
 * (protocol in lab-anchor.h) or a child exits.
 *
 * A helper that dies unexpectedly (a signal, a non-zero exit) is started
 * again in its slot, within a budget of LAB_RESTART_MAX restarts per slot
 * per LAB_RESTART_WINDOW_S seconds (lab-anchor.h); a helper that keeps
 * dying is then left dead, and threadlab reports it FAILED.
 *
 * It goes, killing its children first (SIGTERM, then SIGKILL after 300 ms),
 * when the bell pipe reaches EOF, on SIGTERM/SIGINT/SIGHUP, and when
 * threadlab dies (PR_SET_PDEATHSIG SIGTERM).  Helpers get --parent <anchor>
 * and die with it in any case. */
#define _GNU_SOURCE
#include "lab-anchor.h"
#include "lab-workers.h"
#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct anchor {
	struct lab_shm *shm;
	struct ctl_block *ctl; /* only for the ring's slots (lab-anchor.h) */
	int ctl_fd, bell_fd, reply_fd;
	const char *gemm, *burn;
	bool stopping;	      /* shutting down: reap, never restart */
	uint32_t dead;	      /* bit i: helper i died unexpectedly, restart pending */
	uint32_t dead_loader; /* bit k: loader k died unexpectedly, restart pending */
	double restart_t[CTL_MAX_STREAMS][LAB_RESTART_MAX];	   /* ring of the last restarts, s */
	double loader_restart_t[CTL_MAX_LOADERS][LAB_RESTART_MAX]; /* the same for loaders */
	uint32_t gen;	/* helper environment generation in effect */
	char **envp;	  /* the helpers' environment for gen; NULL: the anchor's */
	char *path_entry; /* its LD_LIBRARY_PATH entry (the rest is borrowed) */
};

extern char **environ;

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int arg_int(const char *s, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end || v < 0)
		return -EINVAL;
	*out = v;
	return 0;
}

/* A loader is gone: its half-filled slots go back to EMPTY. */
static void anchor_loader_gone(struct anchor *a, int k)
{
	atomic_store(&a->shm->loader_pid[k], 0);
	if (!a->ctl)
		return;
	struct ctl_pipe *p = &a->ctl->pipe;
	atomic_store(&p->loader[k].pid, 0);
	for (unsigned i = 0; i < CTL_RING_SLOTS; i++) {
		struct ctl_slot *s = &p->slot[i];
		if (atomic_load(&s->owner) == (uint32_t)k + 1 &&
		    atomic_load(&s->state) == CTL_SLOT_FILLING) {
			atomic_store(&s->owner, 0);
			atomic_store(&s->state, CTL_SLOT_EMPTY);
		}
	}
	atomic_fetch_add(&p->empty_seq, 1);
	control_futex_wake(&p->empty_seq);
}

/* Whether slot n-th restart fits the budget: fewer than LAB_RESTART_MAX,
 * or the oldest of the last LAB_RESTART_MAX is LAB_RESTART_WINDOW_S old. */
static bool restart_allowed(const double ring[LAB_RESTART_MAX], unsigned n, double now)
{
	return n < LAB_RESTART_MAX || now - ring[n % LAB_RESTART_MAX] >= LAB_RESTART_WINDOW_S;
}

/* A helper is gone: a batch it was taking goes back as EMPTY. */
static void anchor_helper_gone(struct anchor *a, int i)
{
	if (!a->ctl)
		return;
	struct ctl_pipe *p = &a->ctl->pipe;
	for (unsigned k = 0; k < CTL_RING_SLOTS; k++) {
		struct ctl_slot *s = &p->slot[k];
		if (atomic_load(&s->owner) == CTL_SLOT_TAKER + (uint32_t)i &&
		    atomic_load(&s->state) == CTL_SLOT_TAKEN) {
			atomic_store(&s->owner, 0);
			atomic_store(&s->state, CTL_SLOT_EMPTY);
		}
	}
	atomic_fetch_add(&p->empty_seq, 1);
	control_futex_wake(&p->empty_seq);
}

static void anchor_reap(struct anchor *a)
{
	int status;
	pid_t pid;
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		if (lab_workers_reaped(a->shm, pid))
			continue;
		for (int k = 0; k < CTL_MAX_LOADERS; k++) {
			if (atomic_load(&a->shm->loader_pid[k]) != pid)
				continue;
			anchor_loader_gone(a, k);
			atomic_store(&a->shm->loader_status[k], status);
			if (!a->stopping)
				a->dead_loader |= 1u << k;
		}
		for (int i = 0; i < CTL_MAX_STREAMS; i++) {
			if (atomic_load(&a->shm->helper_pid[i]) != pid)
				continue;
			anchor_helper_gone(a, i);
			atomic_store(&a->shm->helper_status[i], status);
			bool clean = WIFEXITED(status) && WEXITSTATUS(status) == 0;
			/* Not marked exited when a restart follows: no FAILED flicker. */
			if (clean || a->stopping)
				atomic_store(&a->shm->helper_exited[i], 1);
			else
				a->dead |= 1u << i;
		}
	}
}

static int anchor_start_helper(struct anchor *a, int slot)
{
	char fd[16], stream[16], parent[24];
	snprintf(fd, sizeof(fd), "%d", a->ctl_fd);
	snprintf(stream, sizeof(stream), "%d", slot);
	snprintf(parent, sizeof(parent), "%ld", (long)getpid());
	char *argv[] = {(char *)"threadlab-gemm",
			(char *)"--ctl-fd",
			fd,
			(char *)"--stream",
			stream,
			(char *)"--parent",
			parent,
			NULL};
	struct spawn_opts o = {.keep_fd = a->ctl_fd, .envp = a->envp};
	pid_t pid = spawn_start(a->gemm, argv, &o);
	if (pid < 0)
		return (int)pid;
	atomic_store(&a->shm->helper_exited[slot], 0);
	atomic_store(&a->shm->helper_pid[slot], (int32_t)pid);
	return 0;
}

/* Restarts the helpers that died unexpectedly, within the budget. */
static void anchor_restart_dead(struct anchor *a)
{
	for (int i = 0; a->dead && i < CTL_MAX_STREAMS; i++) {
		if (!(a->dead & (1u << i)))
			continue;
		a->dead &= ~(1u << i);
		unsigned n = atomic_load(&a->shm->helper_restarts[i]);
		double now = mono_s(), *oldest = &a->restart_t[i][n % LAB_RESTART_MAX];
		int rc = -EAGAIN;
		/* The count goes up before the new pid is published: a reader
		 * that sees the new pid sees it counted. */
		if (restart_allowed(a->restart_t[i], n, now)) {
			atomic_store(&a->shm->helper_restarts[i], n + 1);
			rc = anchor_start_helper(a, i);
		}
		if (rc < 0) {
			atomic_store(&a->shm->helper_restarts[i], n);
			if (rc != -EAGAIN)
				atomic_store(&a->shm->helper_restart_errno[i], -rc);
			atomic_store(&a->shm->helper_gave_up[i], 1);
			atomic_store(&a->shm->helper_exited[i], 1);
			continue;
		}
		*oldest = now;
	}
}

static int anchor_start_loader(struct anchor *a, int k)
{
	char fd[16], idx[16], parent[24];
	snprintf(fd, sizeof(fd), "%d", a->ctl_fd);
	snprintf(idx, sizeof(idx), "%d", k);
	snprintf(parent, sizeof(parent), "%ld", (long)getpid());
	char *argv[] = {(char *)"threadlab-burn", (char *)"--loader", idx,    (char *)"--ctl-fd",
			fd,			  (char *)"--parent", parent, NULL};
	struct spawn_opts o = {.keep_fd = a->ctl_fd};
	pid_t pid = spawn_start(a->burn, argv, &o);
	if (pid < 0)
		return (int)pid;
	atomic_store(&a->shm->loader_pid[k], (int32_t)pid);
	return 0;
}

static void anchor_restart_loaders(struct anchor *a)
{
	unsigned want = atomic_load(&a->shm->want_loaders);
	for (int k = 0; a->dead_loader && k < CTL_MAX_LOADERS; k++) {
		if (!(a->dead_loader & (1u << k)))
			continue;
		a->dead_loader &= ~(1u << k);
		if ((unsigned)k >= want)
			continue; /* no longer wanted: nothing to restart */
		unsigned n = atomic_load(&a->shm->loader_restarts[k]);
		double now = mono_s();
		if (!restart_allowed(a->loader_restart_t[k], n, now)) {
			atomic_store(&a->shm->loader_gave_up[k], 1);
			continue;
		}
		/* Counted before the new pid is published (as for helpers). */
		atomic_store(&a->shm->loader_restarts[k], n + 1);
		if (anchor_start_loader(a, k) < 0) {
			atomic_store(&a->shm->loader_restarts[k], n);
			atomic_store(&a->shm->loader_gave_up[k], 1);
			continue;
		}
		a->loader_restart_t[k][n % LAB_RESTART_MAX] = now;
	}
}

/* Loaders [0, want) running (a gave-up slot stays dead), the others killed. */
static int anchor_set_loaders(struct anchor *a, unsigned want)
{
	int err = 0;
	if (want > CTL_MAX_LOADERS)
		want = CTL_MAX_LOADERS;
	for (int k = CTL_MAX_LOADERS - 1; k >= (int)want; k--) {
		pid_t pid = atomic_load(&a->shm->loader_pid[k]);
		atomic_store(&a->shm->loader_gave_up[k], 0); /* wanted again later: try again */
		if (pid <= 0)
			continue;
		kill(pid, SIGKILL);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		anchor_loader_gone(a, k);
		a->dead_loader &= ~(1u << k);
	}
	for (unsigned k = 0; k < want; k++) {
		if (atomic_load(&a->shm->loader_pid[k]) > 0 ||
		    atomic_load(&a->shm->loader_gave_up[k]) || (a->dead_loader & (1u << k)))
			continue;
		int rc = anchor_start_loader(a, (int)k);
		if (rc < 0 && !err)
			err = -rc;
	}
	return err;
}

static bool env_is(const char *e, const char *name)
{
	size_t n = strlen(name);
	return strncmp(e, name, n) == 0 && e[n] == '=';
}

/* The helpers' environment for the generation in shm: the anchor's, with
 * the library directory in front of LD_LIBRARY_PATH and the spin setting. */
static void anchor_build_env(struct anchor *a)
{
	char dir[sizeof(a->shm->helper_libdir)];
	memcpy(dir, a->shm->helper_libdir, sizeof(dir));
	dir[sizeof(dir) - 1] = '\0';
	bool spin_off = atomic_load(&a->shm->helper_spin_off) != 0;
	free(a->envp);
	free(a->path_entry);
	a->envp = NULL;
	a->path_entry = NULL;
	size_t n = 0;
	while (environ[n])
		n++;
	a->envp = calloc(n + 4, sizeof(*a->envp));
	if (!a->envp)
		return; /* the anchor's own environment, then */
	size_t k = 0;
	const char *old = "";
	for (size_t i = 0; i < n; i++) {
		const char *e = environ[i];
		if (env_is(e, "LD_LIBRARY_PATH"))
			old = e + strlen("LD_LIBRARY_PATH=");
		else if (!spin_off ||
			 (!env_is(e, "OPENBLAS_THREAD_TIMEOUT") && !env_is(e, "OMP_WAIT_POLICY")))
			a->envp[k++] = environ[i];
	}
	if (asprintf(&a->path_entry, "LD_LIBRARY_PATH=%s%s%s", dir, *dir && *old ? ":" : "",
		     old) < 0)
		a->path_entry = NULL;
	else if (*dir || *old)
		a->envp[k++] = a->path_entry;
	if (spin_off) {
		/* Idle OpenBLAS threads then wait 2^(4+1) cycles instead of ~2^28;
		 * libgomp's sleep at once instead of spinning first. */
		a->envp[k++] = (char *)"OPENBLAS_THREAD_TIMEOUT=1";
		a->envp[k++] = (char *)"OMP_WAIT_POLICY=PASSIVE";
	}
	a->envp[k] = NULL;
}

/* A new generation: every started helper again, with the new environment. */
static int anchor_regenerate(struct anchor *a, uint32_t gen)
{
	int err = 0;
	anchor_build_env(a);
	a->gen = gen;
	if (a->ctl)
		atomic_store(&a->ctl->blas_info_ready, 0);
	for (int i = 0; i < CTL_MAX_STREAMS; i++) {
		pid_t pid = atomic_load(&a->shm->helper_pid[i]);
		if (pid <= 0 || atomic_load(&a->shm->helper_exited[i]))
			continue;
		kill(pid, SIGKILL);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		anchor_helper_gone(a, i);
		a->dead &= ~(1u << i);
		int rc = anchor_start_helper(a, i);
		if (rc < 0) {
			atomic_store(&a->shm->helper_restart_errno[i], -rc);
			atomic_store(&a->shm->helper_gave_up[i], 1);
			atomic_store(&a->shm->helper_exited[i], 1);
			if (!err)
				err = -rc;
		}
	}
	atomic_store(&a->shm->gen_done, gen);
	return err;
}

static void anchor_reconcile(struct anchor *a)
{
	int err = 0;
	uint64_t req = atomic_load_explicit(&a->shm->req_seq, memory_order_acquire);
	uint32_t gen = atomic_load(&a->shm->helper_gen);
	if (gen != a->gen)
		err = anchor_regenerate(a, gen);
	unsigned want = atomic_load(&a->shm->want_slots);
	if (want > CTL_MAX_STREAMS)
		want = CTL_MAX_STREAMS;
	for (unsigned i = 0; i < want; i++) {
		if (atomic_load(&a->shm->helper_pid[i]) != 0)
			continue;
		int rc = anchor_start_helper(a, (int)i);
		if (rc < 0 && !err)
			err = -rc;
	}
	int rc = lab_workers_set(a->shm, a->burn, atomic_load(&a->shm->want_workers));
	if (rc < 0 && !err)
		err = -rc;
	rc = anchor_set_loaders(a, atomic_load(&a->shm->want_loaders));
	if (rc > 0 && !err)
		err = rc;
	atomic_store(&a->shm->spawn_errno, err);
	atomic_store_explicit(&a->shm->done_seq, req, memory_order_release);
	char b = 'r';
	ssize_t w = write(a->reply_fd, &b, 1);
	(void)w;
}

static bool anchor_has_children(void)
{
	return waitid(P_ALL, 0, &(siginfo_t){0}, WEXITED | WNOHANG | WNOWAIT) == 0 ||
	       errno != ECHILD;
}

/* Signals the whole group when the anchor leads it (threadlab makes it so),
 * else each child it knows. */
static void anchor_kill_all(struct anchor *a, int sig)
{
	if (getpgrp() == getpid()) {
		kill(0, sig);
		return;
	}
	for (int i = 0; i < CTL_MAX_STREAMS; i++) {
		pid_t pid = atomic_load(&a->shm->helper_pid[i]);
		if (pid > 0 && !atomic_load(&a->shm->helper_exited[i]))
			kill(pid, sig);
	}
	unsigned n = atomic_load(&a->shm->nworkers);
	for (unsigned i = 0; i < n && i < LAB_MAX_WORKERS; i++)
		kill(atomic_load(&a->shm->worker_pid[i]), sig);
	for (int k = 0; k < CTL_MAX_LOADERS; k++) {
		pid_t pid = atomic_load(&a->shm->loader_pid[k]);
		if (pid > 0)
			kill(pid, sig);
	}
}

/* Kills every child: SIGTERM, up to 300 ms, then SIGKILL; reaps them all. */
static void anchor_shutdown(struct anchor *a)
{
	signal(SIGTERM, SIG_IGN);
	a->stopping = true;
	anchor_kill_all(a, SIGTERM);
	struct timespec step = {0, 10 * 1000 * 1000};
	for (int i = 0; i < 30; i++) {
		anchor_reap(a);
		if (!anchor_has_children())
			return;
		nanosleep(&step, NULL);
	}
	anchor_kill_all(a, SIGKILL); /* may end the anchor itself: nothing is left to do */
	for (int i = 0; i < 100 && anchor_has_children(); i++) {
		anchor_reap(a);
		nanosleep(&step, NULL);
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	struct anchor a = {.ctl_fd = -1, .bell_fd = -1, .reply_fd = -1};
	long lab_fd = -1, parent = 0, v;
	for (int i = 1; i + 1 < argc; i += 2) {
		const char *k = argv[i], *val = argv[i + 1];
		if (strcmp(k, "--gemm") == 0)
			a.gemm = val;
		else if (strcmp(k, "--burn") == 0)
			a.burn = val;
		else if (arg_int(val, &v) < 0)
			goto usage;
		else if (strcmp(k, "--ctl-fd") == 0)
			a.ctl_fd = (int)v;
		else if (strcmp(k, "--lab-fd") == 0)
			lab_fd = v;
		else if (strcmp(k, "--bell-fd") == 0)
			a.bell_fd = (int)v;
		else if (strcmp(k, "--reply-fd") == 0)
			a.reply_fd = (int)v;
		else if (strcmp(k, "--parent") == 0)
			parent = v;
		else
			goto usage;
	}
	if (argc % 2 == 0 || a.ctl_fd < 0 || lab_fd < 0 || a.bell_fd < 0 || a.reply_fd < 0 ||
	    !a.gemm || !a.burn || parent <= 0)
		goto usage;

	prctl(PR_SET_NAME, "tl-anchor", 0, 0, 0);
	if (prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0) < 0 || getppid() != (pid_t)parent)
		return 1;
	sigset_t mask;
	/* Dispositions survive exec: an ignored SIGTERM would never reach signalfd. */
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	signal(SIGPIPE, SIG_IGN);
	int sfd = signalfd(-1, &mask, SFD_CLOEXEC);
	int e = sfd < 0 ? errno : 0;
	a.shm = mmap(NULL, sizeof(*a.shm), PROT_READ | PROT_WRITE, MAP_SHARED, (int)lab_fd, 0);
	if (a.shm == MAP_FAILED || a.shm->magic != LAB_SHM_MAGIC) {
		/* stderr is /dev/null under threadlab: this is for a run by hand. */
		fprintf(stderr, "threadlab-anchor: bad descriptors: %s\n", strerror(errno));
		return 1;
	}
	if (sfd < 0) {
		atomic_store(&a.shm->spawn_errno, e); /* threadlab's only channel */
		return 1;
	}
	/* Only the control block goes on, and only to the helpers and loaders
	 * (spawn_start keeps it). */
	close((int)lab_fd);
	void *ctl = mmap(NULL, sizeof(*a.ctl), PROT_READ | PROT_WRITE, MAP_SHARED, a.ctl_fd, 0);
	a.ctl = ctl == MAP_FAILED ? NULL : ctl;
	fcntl(a.bell_fd, F_SETFD, FD_CLOEXEC);
	fcntl(a.reply_fd, F_SETFD, FD_CLOEXEC);
	fcntl(a.ctl_fd, F_SETFD, FD_CLOEXEC);

	for (;;) {
		struct pollfd p[2] = {{.fd = a.bell_fd, .events = POLLIN},
				      {.fd = sfd, .events = POLLIN}};
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[1].revents & POLLIN) {
			struct signalfd_siginfo si;
			while (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
				if (si.ssi_signo != SIGCHLD)
					goto out;
				anchor_reap(&a);
				anchor_restart_dead(&a);
				anchor_restart_loaders(&a);
				break;
			}
		}
		if (p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			char buf[64];
			ssize_t n = read(a.bell_fd, buf, sizeof(buf));
			if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
				break;
			if (n > 0)
				anchor_reconcile(&a);
		}
	}
out:
	anchor_shutdown(&a);
	free(a.envp);
	free(a.path_entry);
	return 0;
usage:
	fprintf(stderr, "usage: threadlab-anchor --ctl-fd N --lab-fd N --bell-fd N --reply-fd N "
			"--gemm PATH --burn PATH --parent PID\n"
			"(started by threadlab; not meant to be run by hand)\n");
	return 2;
}
