/* proctree.c — processes and their descendants, through libproc2.
 *
 * libproc2 is used here, once per tick at process level, because its reap
 * of every process is what finding a tree needs; it is not used per thread
 * (see threads.c). */
#include "config.h"

#include "proctree.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libproc2/pids.h>

#include "xalloc.h"

struct proc_link {
	pid_t pid;	/* PIDS_ID_PID */
	pid_t ppid;	/* PIDS_ID_PPID, stat field 4 */
	uint64_t began; /* PIDS_TICS_BEGAN, stat field 22 */
};

static int link_by_ppid(const void *a, const void *b)
{
	const struct proc_link *x = a, *y = b;
	return x->ppid < y->ppid ? -1 : x->ppid > y->ppid;
}

ssize_t proctree_descendants(const struct sysroot *r, pid_t pid, pid_t **out, size_t *cap)
{
	if (!r->live)
		return -ENOTSUP;
	enum pids_item items[] = {PIDS_ID_PID, PIDS_ID_PPID, PIDS_TICS_BEGAN};
	enum { I_PID, I_PPID, I_BEGAN };
	struct pids_info *info = NULL;
	int rc = procps_pids_new(&info, items, 3);
	if (rc < 0)
		return rc;
	struct pids_fetch *f = procps_pids_reap(info, PIDS_FETCH_TASKS_ONLY);
	if (!f) {
		rc = errno ? -errno : -EIO;
		procps_pids_unref(&info);
		return rc;
	}

	size_t n = (size_t)f->counts->total;
	struct proc_link *v = xcalloc(n ? n : 1, sizeof(*v));
	uint64_t root_began = 0;
	bool found = false;
	for (size_t i = 0; i < n; i++) {
		struct pids_stack *s = f->stacks[i];
		v[i].pid = PIDS_VAL(I_PID, s_int, s, info);
		v[i].ppid = PIDS_VAL(I_PPID, s_int, s, info);
		v[i].began = PIDS_VAL(I_BEGAN, ull_int, s, info);
		if (v[i].pid == pid) {
			found = true;
			root_began = v[i].began;
		}
	}
	procps_pids_unref(&info);
	if (!found) {
		free(v);
		return -ESRCH;
	}
	qsort(v, n, sizeof(*v), link_by_ppid);

	/* Breadth first from pid; *out doubles as the queue. */
	size_t count = 0;
	*out = xreallocarray_grow(*out, cap, 1, sizeof(**out));
	(*out)[count++] = pid;
	for (size_t head = 0; head < count; head++) {
		struct proc_link key = {.ppid = (*out)[head]};
		struct proc_link *hit = bsearch(&key, v, n, sizeof(*v), link_by_ppid);
		if (!hit)
			continue;
		while (hit > v && hit[-1].ppid == key.ppid)
			hit--;
		for (; hit < v + n && hit->ppid == key.ppid; hit++) {
			/* A child cannot start before the root: guards against a racing reuse. */
			if (hit->pid == pid || hit->began < root_began)
				continue;
			*out = xreallocarray_grow(*out, cap, count + 1, sizeof(**out));
			(*out)[count++] = hit->pid;
		}
	}
	free(v);
	return (ssize_t)count;
}

int proctree_check(const struct sysroot *r, pid_t pid)
{
	char rel[64];
	if (pid <= 0)
		return -ESRCH;
	snprintf(rel, sizeof(rel), "proc/%d/task", (int)pid);
	int fd = sysroot_openat(r, rel, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return fd == -ENOENT ? -ESRCH : fd;
	close(fd);
	return 0;
}

int proctree_name(pid_t pid, char *buf, size_t cap)
{
	if (cap == 0)
		return -EINVAL;
	enum pids_item items[] = {PIDS_CMD};
	struct pids_info *info = NULL;
	int rc = procps_pids_new(&info, items, 1);
	if (rc < 0)
		return rc;
	unsigned want = (unsigned)pid;
	struct pids_fetch *f = procps_pids_select(info, &want, 1, PIDS_SELECT_PID);
	if (!f || f->counts->total < 1) {
		procps_pids_unref(&info);
		return -ESRCH;
	}
	const char *name = PIDS_VAL(0, str, f->stacks[0], info);
	snprintf(buf, cap, "%s", name ? name : "");
	procps_pids_unref(&info);
	return 0;
}
