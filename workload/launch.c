/* launch.c — start, reap and stop the monitored command (launch.h). */
#define _GNU_SOURCE
#include "launch.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "spawn.h"

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
	return 0;
}

int launch_start(struct launch *l, char *const argv[], enum launch_stdio io, char *err,
		 size_t errlen)
{
	memset(l, 0, sizeof(*l));
	struct launch_setup s = {.parent = getpid(), .io = io};
	struct spawn_opts o = {.keep_fd = -1, .path = true, .setup = launch_child_setup, .arg = &s};
	pid_t pid = spawn_start(argv[0], argv, &o);
	if (pid < 0) {
		snprintf(err, errlen, "cannot run '%s': %s", argv[0], strerror((int)-pid));
		return (int)pid;
	}
	l->pid = pid;
	launch_running = pid;
	return 0;
}

bool launch_reap(struct launch *l)
{
	if (!l->pid || l->reaped)
		return l->reaped;
	int st;
	if (waitpid(l->pid, &st, WNOHANG) != l->pid)
		return false;
	l->reaped = true;
	l->status = st;
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

/* Whether the command's process group still has a member. */
static bool launch_group_alive(pid_t pgid)
{
	return kill(-pgid, 0) == 0 || errno == EPERM;
}

void launch_stop(struct launch *l)
{
	if (!l->pid || l->stopped)
		return;
	/* The group, even when the command itself has ended: what it left
	 * running in the background goes too.  A pgid is not reused while
	 * any member of the group lives. */
	kill(-l->pid, SIGTERM);
	if (!l->reaped)
		kill(l->pid, SIGTERM); /* in case it left its group */
	launch_reap_wait(l, 500);
	for (int i = 0; i < 50 && launch_group_alive(l->pid); i++) {
		struct timespec ts = {0, 10 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	kill(-l->pid, SIGKILL);
	if (!l->reaped) {
		kill(l->pid, SIGKILL);
		while (waitpid(l->pid, &l->status, 0) < 0 && errno == EINTR)
			;
		l->reaped = true;
	}
	l->stopped = true;
	launch_running = 0;
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
