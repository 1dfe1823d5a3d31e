/* launch.c — start, reap and stop the monitored command (launch.h). */
#define _GNU_SOURCE
#include "launch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lab-quota.h"
#include "spawn.h"
#include "xalloc.h"

extern char **environ;

static volatile pid_t launch_running; /* for launch_emergency_stop() */
static struct rlimit launch_nofile_orig;
static bool launch_nofile_raised;

void launch_raise_nofile(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur >= rl.rlim_max)
		return;
	launch_nofile_orig = rl;
	rl.rlim_cur = rl.rlim_max < 65536 ? rl.rlim_max : 65536;
	if (rl.rlim_cur > launch_nofile_orig.rlim_cur && setrlimit(RLIMIT_NOFILE, &rl) == 0)
		launch_nofile_raised = true;
}

struct launch_setup {
	pid_t parent;
	enum launch_stdio io;
	int out_w; /* LAUNCH_STDIO_PIPE: the pipe's write end */
	char *const *envp;
};

/* In the child, before exec. */
static int launch_child_setup(void *arg)
{
	const struct launch_setup *s = arg;
	/* The command must not outlive threadlab (no stray process). */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != s->parent)
		_exit(127);
	/* Its own process group: stopping it stops what it started too. */
	setpgid(0, 0);
	if (s->io == LAUNCH_STDIO_STDERR) {
		dup2(STDERR_FILENO, STDOUT_FILENO);
	} else if (s->io == LAUNCH_STDIO_PIPE) {
		int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (fd >= 0)
			dup2(fd, STDIN_FILENO);
		dup2(s->out_w, STDOUT_FILENO);
		dup2(s->out_w, STDERR_FILENO);
	} else {
		int fd = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (fd >= 0) {
			dup2(fd, STDIN_FILENO);
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
			close(fd);
		}
	}
	if (launch_nofile_raised)
		setrlimit(RLIMIT_NOFILE, &launch_nofile_orig);
	/* A pointer assignment is async-signal-safe; execvp reads environ. */
	if (s->envp)
		environ = (char **)s->envp;
	return 0;
}

/* The guard: a process of its own that outlives a SIGKILLed threadlab
 * and then SIGKILLs the process groups of the commands still running, and
 * the processes they moved out of their groups (setsid) that threadlab
 * told it of.  threadlab tells it over a pipe: each group started and
 * stopped, and each such process (its PID, group and start time, so that
 * a PID used again by another program is spared); end of file on the pipe
 * means threadlab has gone. */
enum launch_guard_kind { LAUNCH_GUARD_START = 1, LAUNCH_GUARD_STOP, LAUNCH_GUARD_WATCH };

struct launch_guard_msg {
	int32_t kind;  /* launch_guard_kind */
	int32_t group; /* the command's group (START, STOP; WATCH: whose it is) */
	int32_t pid;   /* WATCH: a process outside the group */
	int32_t pgid;  /* WATCH: its group then */
	uint64_t start; /* WATCH: its start time (clock ticks since boot) */
};

#define LAUNCH_GUARD_GROUPS  64
#define LAUNCH_GUARD_WATCHED 256

static int launch_guard_fd = -1;
static pid_t launch_guard_pid;

/* Field 22 of /proc/PID/stat, the start time (and field 4, the parent,
 * into *ppid when not NULL); 0 when it cannot be read. */
static uint64_t launch_proc_stat(pid_t pid, pid_t *ppid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	const char *p = strrchr(buf, ')');
	unsigned long long start = 0;
	int parent = 0;
	/* after the name: state, the parent (4), fields 5 to 21, then 22 */
	if (!p || sscanf(p + 1, " %*c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d "
			       "%*d %*d %*d %llu",
			 &parent, &start) != 2)
		return 0;
	if (ppid)
		*ppid = parent;
	return start;
}

static uint64_t launch_proc_start(pid_t pid)
{
	return launch_proc_stat(pid, NULL);
}

static _Noreturn void launch_guard_run(int fd)
{
	pid_t groups[LAUNCH_GUARD_GROUPS];
	struct launch_guard_msg w[LAUNCH_GUARD_WATCHED], m;
	size_t n = 0, nw = 0;
	setpgid(0, 0); /* a Ctrl-C or hang-up of threadlab's group spares it */
	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	for (int i = 0; i < 1024; i++)
		if (i != fd)
			close(i);
	while (read(fd, &m, sizeof(m)) == (ssize_t)sizeof(m)) {
		if (m.kind == LAUNCH_GUARD_START && n < LAUNCH_GUARD_GROUPS)
			groups[n++] = m.group;
		/* full: the slots of processes that have ended are taken again */
		for (size_t i = 0; m.kind == LAUNCH_GUARD_WATCH && nw == LAUNCH_GUARD_WATCHED && i < nw;
		     i++)
			if (launch_proc_start(w[i].pid) != w[i].start)
				w[i--] = w[--nw];
		if (m.kind == LAUNCH_GUARD_WATCH && nw < LAUNCH_GUARD_WATCHED)
			w[nw++] = m;
		if (m.kind != LAUNCH_GUARD_STOP)
			continue;
		/* stopped with all it left: nothing of it to watch */
		for (size_t i = 0; i < n; i++)
			if (groups[i] == m.group)
				groups[i--] = groups[--n];
		for (size_t i = 0; i < nw; i++)
			if (w[i].group == m.group)
				w[i--] = w[--nw];
	}
	for (size_t i = 0; i < n; i++)
		kill(-groups[i], SIGKILL);
	for (size_t i = 0; i < nw; i++) {
		if (launch_proc_start(w[i].pid) != w[i].start)
			continue; /* gone, or its PID another's now */
		kill(w[i].pid, SIGKILL);
		if (w[i].pgid == w[i].pid) /* it led a group of its own (setsid) */
			kill(-w[i].pgid, SIGKILL);
	}
	_exit(0);
}

static void launch_guard_send(const struct launch_guard_msg *m)
{
	int p[2];
	if (launch_guard_fd < 0 && pipe2(p, O_CLOEXEC) == 0) {
		pid_t pid = fork();
		if (pid == 0)
			launch_guard_run(p[0]);
		close(p[0]);
		if (pid > 0) {
			launch_guard_fd = p[1];
			launch_guard_pid = pid;
		} else
			close(p[1]);
	}
	if (launch_guard_fd >= 0 && write(launch_guard_fd, m, sizeof(*m)) < 0)
		return; /* no guard: PR_SET_PDEATHSIG still stops the command itself */
}

static void launch_guard_tell(int kind, pid_t group)
{
	launch_guard_send(&(struct launch_guard_msg){.kind = kind, .group = group});
}

/* The processes told of, so that each is told once. */
static struct {
	pid_t pid;
	uint64_t start;
} launch_watched[LAUNCH_GUARD_WATCHED];
static size_t launch_nwatched;

void launch_guard_watch(const struct launch *l, pid_t pid, const pid_t *tree, size_t ntree)
{
	if (!l->pid || l->stopped || pid <= 0 || pid == launch_guard_pid || pid == getpid())
		return;
	pid_t ppid = 0;
	uint64_t start = launch_proc_stat(pid, &ppid);
	pid_t pgid = getpgid(pid);
	if (!start || pgid < 0 || pgid == l->pid)
		return; /* gone, or in the command's group: killed with it */
	/* Still what the scan found: its parent is threadlab or in the tree
	 * (a PID freed and taken by another program since has neither). */
	bool ours = ppid == getpid();
	for (size_t i = 0; i < ntree && !ours; i++)
		ours = tree[i] == ppid;
	if (!ours)
		return;
	size_t slot = launch_nwatched;
	for (size_t i = 0; i < launch_nwatched; i++) {
		if (launch_watched[i].pid == pid && launch_watched[i].start == start)
			return; /* told already */
		if (launch_watched[i].pid == pid)
			slot = i; /* its PID taken again: the slot is free */
	}
	/* Full: the slot of one that has ended (read only then). */
	for (size_t i = 0; slot == LAUNCH_GUARD_WATCHED && i < launch_nwatched; i++)
		if (launch_proc_start(launch_watched[i].pid) != launch_watched[i].start)
			slot = i;
	if (slot == LAUNCH_GUARD_WATCHED)
		return; /* 256 strays alive at once: the rest go untold */
	if (slot == launch_nwatched)
		launch_nwatched++;
	launch_watched[slot].pid = pid;
	launch_watched[slot].start = start;
	launch_guard_send(&(struct launch_guard_msg){
	    .kind = LAUNCH_GUARD_WATCH, .group = l->pid, .pid = pid, .pgid = pgid, .start = start});
}

static double launch_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The command's own cgroup under a CPU quota. */
static int launch_quota(struct launch *l, double cpus, char *err, size_t errlen)
{
	l->quota = xcalloc(1, sizeof(*l->quota));
	lab_quota_cleanup_stale(); /* left by a threadlab that was SIGKILLed */
	int rc = lab_quota_create(l->quota, getpid(), err, errlen);
	if (rc == 0)
		rc = lab_quota_set(l->quota, cpus, err, errlen);
	if (rc < 0) {
		lab_quota_destroy(l->quota, 1000);
		free(l->quota);
		l->quota = NULL;
	}
	return rc;
}

int launch_quota_check(double cpus, char *err, size_t errlen)
{
	struct launch l;
	memset(&l, 0, sizeof(l));
	int rc = launch_quota(&l, cpus, err, errlen);
	if (rc == 0) {
		lab_quota_destroy(l.quota, 1000);
		free(l.quota);
	}
	return rc;
}

int launch_start_with(struct launch *l, char *const argv[], const struct launch_opts *lo, char *err,
		      size_t errlen)
{
	memset(l, 0, sizeof(*l));
	l->out_fd = -1;
	struct launch_setup s = {.parent = getpid(), .io = lo->io, .out_w = -1, .envp = lo->envp};
	int p[2] = {-1, -1};
	if (lo->cpus > 0 && launch_quota(l, lo->cpus, err, errlen) < 0)
		return -EPERM;
	if (lo->io == LAUNCH_STDIO_PIPE) {
		if (pipe2(p, O_CLOEXEC) < 0) {
			snprintf(err, errlen, "cannot make a pipe: %s", strerror(errno));
			return -errno;
		}
		/* Room for a second or two of a chatty job between ticks. */
		fcntl(p[0], F_SETPIPE_SZ, 1 << 20);
		s.out_w = p[1];
	}
	struct spawn_opts o = {.keep_fd = -1, .path = true, .setup = launch_child_setup, .arg = &s};
	pid_t pid = spawn_start(argv[0], argv, &o);
	if (p[1] >= 0)
		close(p[1]);
	if (pid < 0) {
		if (p[0] >= 0)
			close(p[0]);
		snprintf(err, errlen, "cannot run '%s': %s", argv[0], strerror((int)-pid));
		if (l->quota) {
			lab_quota_destroy(l->quota, 1000);
			free(l->quota);
			l->quota = NULL;
		}
		return (int)pid;
	}
	if (p[0] >= 0) {
		fcntl(p[0], F_SETFL, O_NONBLOCK);
		l->out_fd = p[0];
		l->out_open = true;
	}
	l->pid = pid;
	l->started = launch_now();
	launch_running = pid;
	launch_guard_tell(LAUNCH_GUARD_START, pid);
	if (l->quota)
		lab_quota_add(l->quota, pid);
	return 0;
}

int launch_start(struct launch *l, char *const argv[], enum launch_stdio io, char *err,
		 size_t errlen)
{
	struct launch_opts o = {.io = io};
	return launch_start_with(l, argv, &o, err, errlen);
}

size_t launch_read_output(struct launch *l, char *buf, size_t cap)
{
	if (!l->out_open)
		return 0;
	ssize_t n;
	while ((n = read(l->out_fd, buf, cap)) < 0 && errno == EINTR)
		;
	if (n > 0)
		return (size_t)n;
	if (n == 0 || errno != EAGAIN) {
		close(l->out_fd);
		l->out_open = false;
		l->out_fd = -1;
	}
	return 0;
}

bool launch_reap(struct launch *l)
{
	if (!l->pid || l->reaped)
		return l->reaped;
	/* Its status, the zombie kept (WNOWAIT): launch_stop() signals its
	 * group by the command's PID, which must stay taken until then (a PID
	 * reused by another process's group leader would get the signals). */
	siginfo_t si;
	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)l->pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0 ||
	    si.si_pid != l->pid)
		return false;
	l->reaped = true;
	l->zombie = true;
	if (si.si_code == CLD_EXITED)
		l->status = (si.si_status & 0xff) << 8;
	else
		l->status = (si.si_status & 0x7f) | (si.si_code == CLD_DUMPED ? 0x80 : 0);
	launch_running = 0;
	return true;
}

void launch_reap_wait(struct launch *l, int ms)
{
	for (int i = 0; l->pid && !l->reaped && i <= ms / 10; i++) {
		if (launch_reap(l))
			break;
		struct timespec ts = {0, 10 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
}

bool launch_group_alive(pid_t pgid)
{
	if (kill(-pgid, 0) < 0 && errno != EPERM)
		return false;
	DIR *d = opendir("/proc");
	if (!d)
		return true;
	bool alive = false;
	struct dirent *e;
	while (!alive && (e = readdir(d)) != NULL) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		if (*end || pid <= 0 || pid == pgid)
			continue;
		char path[64], buf[512];
		snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		ssize_t n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		/* pid (comm) state ppid pgrp ...: after the last ')'. */
		char *p = strrchr(buf, ')');
		char state;
		int ppid, pgrp;
		if (p && sscanf(p + 1, " %c %d %d", &state, &ppid, &pgrp) == 3 && pgrp == pgid &&
		    state != 'Z')
			alive = true;
	}
	closedir(d);
	return alive;
}

void launch_stop(struct launch *l)
{
	if (!l->pid || l->stopped)
		return;
	/* The group, even when the command itself has ended: what it left
	 * running in the background goes too.  A pgid is not reused while
	 * any member of the group lives. */
	l->left_behind = l->reaped && launch_group_alive(l->pid);
	kill(-l->pid, SIGTERM);
	if (!l->reaped)
		kill(l->pid, SIGTERM); /* in case it left its group */
	launch_reap_wait(l, 500);
	for (int i = 0; i < 50 && launch_group_alive(l->pid); i++) {
		struct timespec ts = {0, 10 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	if (!l->reaped || launch_group_alive(l->pid))
		l->sigterm_ignored = true;
	kill(-l->pid, SIGKILL);
	if (!l->reaped) {
		kill(l->pid, SIGKILL);
		while (waitpid(l->pid, &l->status, 0) < 0 && errno == EINTR)
			;
		l->reaped = true;
	} else if (l->zombie) {
		/* The group has been signalled: the PID may go now. */
		while (waitpid(l->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	l->zombie = false;
	if (l->quota) {
		/* Whatever the command started and moved out of its group. */
		lab_quota_destroy(l->quota, 1000);
		free(l->quota);
		l->quota = NULL;
	}
	launch_guard_tell(LAUNCH_GUARD_STOP, l->pid);
	launch_nwatched = 0; /* what it left is stopped by the caller */
	l->stopped = true;
	launch_running = 0;
}

void launch_close_output(struct launch *l)
{
	if (l->out_open) {
		close(l->out_fd);
		l->out_open = false;
		l->out_fd = -1;
	}
}

void launch_adopt_orphans(void)
{
	prctl(PR_SET_CHILD_SUBREAPER, 1);
}

int launch_stop_orphans(const pid_t *pids, size_t n)
{
	int stopped = 0;
	for (size_t i = 0; i < n; i++) {
		if (pids[i] <= 0 || pids[i] == getpid() || pids[i] == launch_guard_pid)
			continue;
		/* An adopted child that already ended is reaped, not counted. */
		if (waitpid(pids[i], NULL, WNOHANG) == pids[i])
			continue;
		if (kill(pids[i], SIGKILL) == 0)
			stopped++;
	}
	/* Ours (adopted) are reaped; others' children are their parents'. */
	for (size_t i = 0; i < n; i++)
		if (pids[i] > 0 && pids[i] != getpid() && pids[i] != launch_guard_pid)
			while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
				;
	return stopped;
}

void launch_emergency_stop(int sig)
{
	pid_t pid = launch_running;
	if (pid > 0)
		kill(-pid, sig);
}

const char *launch_status_text(const struct launch *l, char *buf, size_t cap)
{
	if (!l->pid || !l->reaped)
		snprintf(buf, cap, "%s", "");
	else if (WIFEXITED(l->status))
		snprintf(buf, cap, "exited with status %d", WEXITSTATUS(l->status));
	else if (WIFSIGNALED(l->status))
		snprintf(buf, cap, "killed by signal %d (%s)", WTERMSIG(l->status),
			 strsignal(WTERMSIG(l->status)));
	else
		snprintf(buf, cap, "ended");
	return buf;
}
