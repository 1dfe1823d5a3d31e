/* tl-ctl.h — tests that drive workload helpers (threadlab-gemm) through a
 * bare control block (control.h), without lab.c: a memfd block, helpers
 * exec'd from $THREADLAB_BUILDDIR, settings written through the sequence
 * lock the way lab.c writes them. */
#ifndef THREADLAB_TL_CTL_H
#define THREADLAB_TL_CTL_H

#include "tl-test.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "control.h"

struct tl_ctl {
	int fd;
	struct ctl_block *ctl;
	pid_t pid[2];
	int nhelpers;
};

/* A fresh control block in a memfd the helpers inherit (no CLOEXEC). */
static inline void tl_ctl_open(struct tl_ctl *l)
{
	memset(l, 0, sizeof(*l));
	l->fd = memfd_create("tl-test-ctl", 0);
	assert_true(l->fd >= 0);
	assert_int_equal(ftruncate(l->fd, sizeof(struct ctl_block)), 0);
	void *p =
	    mmap(NULL, sizeof(struct ctl_block), PROT_READ | PROT_WRITE, MAP_SHARED, l->fd, 0);
	assert_true(p != MAP_FAILED);
	l->ctl = p;
	l->ctl->magic = CTL_MAGIC;
	l->ctl->version = CTL_VERSION;
}

/* Starts threadlab-gemm for stream on the block; its pid (remembered for
 * tl_ctl_close). */
static inline pid_t tl_ctl_spawn(struct tl_ctl *l, unsigned stream)
{
	char path[4096], fd[16], idx[16], parent[16];
	const char *b = getenv("THREADLAB_BUILDDIR");
	snprintf(path, sizeof(path), "%s/threadlab-gemm", b ? b : ".");
	snprintf(fd, sizeof(fd), "%d", l->fd);
	snprintf(idx, sizeof(idx), "%u", stream);
	snprintf(parent, sizeof(parent), "%d", (int)getpid());
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		execl(path, "threadlab-gemm", "--ctl-fd", fd, "--stream", idx, "--parent", parent,
		      (char *)NULL);
		_exit(127);
	}
	l->pid[l->nhelpers++] = pid;
	return pid;
}

/* Writes settings through the sequence lock; the new epoch. */
static inline uint64_t tl_ctl_write(struct ctl_settings *s, uint32_t threads, uint32_t streams,
				    uint32_t size, uint32_t precision, uint32_t paused)
{
	struct ctl_values v = {threads, streams, size, precision, paused, 0, 0, 0, 1, CTL_GEMM, 0};
	return control_settings_write(s, &v);
}

/* Waits until stream i applied epoch; 0 or -ETIMEDOUT. */
static inline int tl_ctl_wait_applied(struct tl_ctl *l, int i, uint64_t epoch, long ms)
{
	for (long t = 0; t <= ms; t += 2) {
		if (atomic_load(&l->ctl->stream[i].applied_epoch) == epoch)
			return 0;
		tl_sleep_ms(2);
	}
	return -ETIMEDOUT;
}

/* Asks the helpers to quit, kills any still there after 2 s, reaps them
 * and unmaps the block. */
static inline void tl_ctl_close(struct tl_ctl *l)
{
	atomic_store(&l->ctl->settings.quit, 1);
	for (int i = 0; i < l->nhelpers; i++) {
		if (!tl_wait_gone(l->pid[i], 2000))
			kill(l->pid[i], SIGKILL);
		waitpid(l->pid[i], NULL, 0);
	}
	munmap(l->ctl, sizeof(struct ctl_block));
	close(l->fd);
}

#endif
