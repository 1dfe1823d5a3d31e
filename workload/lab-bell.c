/* lab-bell.c — threadlab's side of the conversation with the lab's anchor
 * (lab-bell.h): starting the anchor, ringing its bell and waiting for its
 * answer, and forgetting a dead anchor's children before a restart.
 *
 * Design (see lab.h for the process tree): starting helpers and workers is
 * the anchor's job, so that everything the lab runs descends from one
 * process the collectors can follow; threadlab numbers each request
 * (req_seq in lab-anchor.h), rings the anchor over a socketpair ("bell")
 * and waits until the anchor says it handled that number, so that pids are
 * known when lab_apply() returns, and a late answer to an earlier request
 * that timed out is never taken for the current one.  A socketpair rather
 * than a pipe: send(MSG_NOSIGNAL) never raises SIGPIPE in threadlab when
 * the anchor has gone, and closing threadlab's end (or its death) gives the
 * anchor EOF.
 *
 * The workload's processes get /dev/null as stdin, stdout and stderr: what
 * they have to say goes through the shared blocks (a helper's error, the
 * anchor's spawn_errno), never onto threadlab's screen or its JSON. */
#define _GNU_SOURCE
#include "lab-bell.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BELL_TIMEOUT_MS 5000

static long elapsed_ms(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long)(t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/* Rings the bell with a new request number and waits until the anchor has
 * handled that request; reports exec failures.  Answers to earlier requests
 * (one that timed out) are read and dropped. */
int lab_bell_ring(struct lab *lab, char *msg, size_t msglen)
{
	char buf[64];
	while (recv(lab->bell, buf, sizeof(buf), MSG_DONTWAIT) > 0)
		;
	uint64_t req = atomic_load_explicit(&lab->shm->req_seq, memory_order_relaxed) + 1;
	atomic_store_explicit(&lab->shm->req_seq, req, memory_order_release);
	if (send(lab->bell, "b", 1, MSG_NOSIGNAL) != 1) {
		snprintf(msg, msglen, "the lab's anchor process has gone (%s)", strerror(errno));
		return -EPIPE;
	}
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (atomic_load_explicit(&lab->shm->done_seq, memory_order_acquire) < req) {
		long left = BELL_TIMEOUT_MS - elapsed_ms(&t0);
		struct pollfd p = {.fd = lab->bell, .events = POLLIN};
		int rc = left > 0 ? poll(&p, 1, (int)left) : 0;
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc == 0) {
			snprintf(msg, msglen, "the lab's anchor process did not answer in %d ms",
				 BELL_TIMEOUT_MS);
			return -ETIMEDOUT;
		}
		ssize_t got = rc > 0 ? recv(lab->bell, buf, sizeof(buf), MSG_DONTWAIT) : -1;
		if (rc < 0 || got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) {
			int e = atomic_load(&lab->shm->spawn_errno);
			snprintf(msg, msglen, "the lab's anchor process has gone%s%s%s",
				 e ? " (last error: " : "", e ? strerror(e) : "", e ? ")" : "");
			return -EPIPE;
		}
	}
	int e = atomic_load(&lab->shm->spawn_errno);
	if (e) {
		snprintf(msg, msglen, "cannot start a workload process (%s or %s): %s", lab->gemm,
			 lab->burn, strerror(e));
		return -e;
	}
	return 0;
}

/* fork + immediate exec: threadlab holds no OpenBLAS pool, and the child
 * only calls async-signal-safe functions before execve. */
pid_t lab_bell_spawn(struct lab *lab, int peer)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0)
		return -errno;
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
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		/* Above 10 first, so that no source is overwritten by another's dup2. */
		int a = fcntl(lab->ctl_fd, F_DUPFD, 10);
		int b = fcntl(lab->shm_fd, F_DUPFD, 10);
		int c = fcntl(peer, F_DUPFD, 10);
		int d = fcntl(null, F_DUPFD, 10);
		if (a < 0 || b < 0 || c < 0 || d < 0 || dup2(d, 0) < 0 || dup2(d, 1) < 0 ||
		    dup2(d, 2) < 0 || dup2(a, 3) < 0 || dup2(b, 4) < 0 || dup2(c, 5) < 0)
			_exit(127);
		close_range(6, ~0U, 0);
		execv(lab->anchor_path, argv);
		_exit(127);
	}
	int e = errno;
	close(null);
	if (pid < 0)
		return -e;
	setpgid(pid, pid); /* also here: no race with the first kill(-pgid) */
	return pid;
}

/* Forgets the dead anchor's children: the new anchor starts them afresh.
 * Nothing else writes these fields now (the anchor is the only writer and
 * it is dead), and the counters that carry on stay. */
void lab_bell_forget(struct lab *lab)
{
	struct lab_shm *shm = lab->shm;
	for (int i = 0; i < CTL_MAX_STREAMS; i++) {
		atomic_store(&shm->helper_pid[i], 0);
		atomic_store(&shm->helper_exited[i], 0);
		atomic_store(&shm->helper_gave_up[i], 0);
		atomic_store(&shm->helper_restart_errno[i], 0);
		atomic_store(&lab->ctl->stream[i].applied_epoch, 0);
		atomic_store(&lab->ctl->stream[i].state, CTL_STREAM_STARTING);
	}
	atomic_store(&shm->nworkers, 0);
	for (int i = 0; i < LAB_MAX_WORKERS; i++)
		atomic_store(&shm->worker_pid[i], 0);
	for (int k = 0; k < CTL_MAX_LOADERS; k++) {
		atomic_store(&shm->loader_pid[k], 0);
		atomic_store(&shm->loader_gave_up[k], 0);
		atomic_store(&lab->ctl->pipe.loader[k].pid, 0);
	}
	for (unsigned i = 0; i < CTL_RING_SLOTS; i++) {
		atomic_store(&lab->ctl->pipe.slot[i].owner, 0);
		atomic_store(&lab->ctl->pipe.slot[i].state, CTL_SLOT_EMPTY);
	}
	atomic_store(&shm->gen_done, 0);
	atomic_store(&shm->spawn_errno, 0);
	atomic_store(&lab->ctl->blas_info_ready, 0);
	atomic_store(&shm->done_seq, atomic_load(&shm->req_seq));
}
