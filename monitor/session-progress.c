/* session-progress.c — feed the job's output to its progress counter. */
#include "session-progress-impl.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "tail.h"
#include "xalloc.h"
#include "session-impl.h"
#include "session-progress.h"

/* How long a line may wait for the matcher thread, s (progress.h).  A line
 * matched late counts in a later tick, which the rate's average absorbs;
 * one that waited a second means the matcher cannot keep up (a slow
 * expression), not a busy machine (the matcher runs at nice +10, so a
 * loaded box delays it by tenths of a second: 200 ms dropped cheap lines
 * there). */
#define SESSION_PROGRESS_BUDGET_S 1.0

int session_progress_start(struct session *s, char *err, size_t errlen)
{
	const struct session_config *c = &s->cfg;
	if (!c->progress)
		return EXIT_OK;
	if (progress_init(&s->progress, c->progress, c->progress_rate, err, errlen) < 0)
		return EXIT_USAGE;
	int rc = progress_match_start(&s->progress, SESSION_PROGRESS_BUDGET_S);
	if (rc < 0) {
		snprintf(err, errlen, "--progress: cannot start the thread that matches lines: %s",
			 strerror(-rc));
		return EXIT_RUNTIME;
	}
	if (c->progress_file) {
		rc = tail_check(c->progress_file);
		if (rc < 0) {
			snprintf(err, errlen, "--progress-file %s: %s", c->progress_file,
				 rc == -EISDIR	 ? "is a directory: give the job's log file"
				 : rc == -EINVAL ? "not a regular file or a pipe"
				 : rc == -ENOTSUP
				     ? "a kernel file (/proc, /sys, a cgroup), made anew at each read, "
				       "not a log a job appends to"
				 : rc == -ENOENT ? "no such file (start the job first: its log is "
						   "followed from its end, through rotations)"
						 : strerror(-rc));
			progress_free(&s->progress);
			return EXIT_USAGE;
		}
		s->impl->tail = xcalloc(1, sizeof(*s->impl->tail));
		tail_open(s->impl->tail, c->progress_file);
	}
	return EXIT_OK;
}

void session_progress_drain(struct session *s)
{
	char buf[16384];
	size_t n;
	if (!s->progress.on)
		return;
	/* A bounded number of reads: a job printing without pause must not
	 * hold the tick. */
	for (int i = 0; i < 64 && (n = launch_read_output(&s->impl->child, buf, sizeof(buf))) > 0;
	     i++)
		progress_feed(&s->progress, buf, n);
	for (int i = 0;
	     s->impl->tail && i < 64 && (n = tail_read(s->impl->tail, buf, sizeof(buf))) > 0; i++)
		progress_feed(&s->progress, buf, n);
}

int session_progress_output_fd(const struct session *s)
{
	return s->progress.on && s->impl->child.out_open ? s->impl->child.out_fd : -1;
}

void session_progress_drain_output(struct session *s)
{
	session_progress_drain(s);
}

void session_progress_tick(struct session *s, double now)
{
	if (!s->progress.on)
		return;
	session_progress_drain(s);
	if (s->impl->child.reaped && !s->impl->child.out_open)
		progress_flush(&s->progress);
	progress_tick(&s->progress, now);
	if (s->progress.note_seq != s->impl->progress_note_seen) {
		s->impl->progress_note_seen = s->progress.note_seq;
		session_say(s, true, "%s", s->progress.note);
		s->progress.note[0] = '\0';
	}
}

void session_progress_free(struct session *s)
{
	progress_free(&s->progress);
	if (s->impl->tail) {
		tail_close(s->impl->tail);
		free(s->impl->tail);
		s->impl->tail = NULL;
	}
}
