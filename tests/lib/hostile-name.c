/* hostile-name.c — a process whose thread names attack a terminal.
 *
 * For the end-to-end tests: names carrying ESC sequences, BEL, a raw C1
 * byte, invalid UTF-8, quotes, backslashes and a newline are written to
 * /proc/self/task/TID/comm (the kernel keeps the bytes as they are); then
 * it sleeps until killed.
 * Prints "ready" on stdout once every name is set. */
#include "config.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *const hostile_names[] = {
    "\x1b[31mRED\x07", /* colour and bell */
    "\x9b"
    "2J\x1b]0;pw",	   /* raw C1 CSI, then an OSC title */
    "bad\xff\xfe\xc2\x9b", /* invalid UTF-8 and encoded C1 */
    "q\"uo\\te\\",	   /* quotes and backslashes: the metrics' escapes */
    "new\nline\r",	   /* a newline: ends a line of most formats */
};
#define HOSTILE_N (sizeof(hostile_names) / sizeof(hostile_names[0]))

static int hostile_set(pid_t tid, const char *name)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", (int)tid);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, name, strlen(name));
	close(fd);
	return n < 0 ? -1 : 0;
}

static void *hostile_thread(void *arg)
{
	hostile_set((pid_t)syscall(SYS_gettid), arg);
	for (;;)
		pause();
	return NULL;
}

int main(void)
{
	pthread_t t[HOSTILE_N - 1];
	for (size_t i = 0; i < HOSTILE_N - 1; i++)
		if (pthread_create(&t[i], NULL, hostile_thread, (void *)hostile_names[i + 1]) != 0)
			return 1;
	if (hostile_set(getpid(), hostile_names[0]) < 0)
		return 1;
	usleep(100000);
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}
