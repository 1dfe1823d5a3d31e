/* spawn.c — fork and exec with exec's errno carried back (spawn.h). */
#define _GNU_SOURCE
#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <sys/wait.h>

static _Noreturn void spawn_child(const char *path, char *const argv[], const struct spawn_opts *o,
				  int report)
{
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	int e = 0;
	if (o && o->keep_fd >= 0 && fcntl(o->keep_fd, F_SETFD, 0) < 0)
		e = errno;
	else if (o && o->setup && o->setup(o->arg) != 0)
		e = errno ? errno : EPERM;
	else if (o && o->path)
		execvp(path, argv);
	else if (o && o->envp)
		execve(path, argv, o->envp);
	else
		execv(path, argv);
	if (!e)
		e = errno;
	ssize_t w = write(report, &e, sizeof(e));
	(void)w;
	_exit(127);
}

pid_t spawn_start(const char *path, char *const argv[], const struct spawn_opts *o)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(p[0]);
		close(p[1]);
		return -e;
	}
	if (pid == 0) {
		close(p[0]);
		spawn_child(path, argv, o, p[1]);
	}
	close(p[1]);
	int e = 0;
	ssize_t n;
	do
		n = read(p[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(p[0]);
	if (n == (ssize_t)sizeof(e)) {
		/* exec failed: the child exits at once; reap it here. */
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		return -(e ? e : ENOEXEC);
	}
	return pid;
}
