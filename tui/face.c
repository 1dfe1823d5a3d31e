/* face.c — what the sampling faces share (face.h). */
#include "config.h"

#include "face.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stop.h"
#include "text-safe.h"

void face_say(const char *m)
{
	char safe[3 * 1024];
	text_safe(m, strlen(m), safe, sizeof(safe));
	fprintf(stderr, "threadlab: %s\n", safe);
}

int face_record_start(const struct options *o, const struct session *s, struct record **rec)
{
	*rec = NULL;
	if (!o->record)
		return EXIT_OK;
	struct recording_header h;
	char err[512];
	session_recording_header(s, o->interval, &h);
	*rec = record_start(o->record, o->argc, o->argv, &h, err, sizeof(err));
	if (!*rec) {
		face_say(err);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int face_session_start(const struct options *o, struct session *s, struct record **rec)
{
	struct session_config c;
	char err[512];
	if (rec)
		*rec = NULL;
	options_session_config(o, &c);
	int rc = session_start(s, &c, err, sizeof(err));
	if (rc != EXIT_OK) {
		face_say(err);
		session_stop(s);
		return rc;
	}
	if (rec && face_record_start(o, s, rec) != EXIT_OK) {
		session_stop(s);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

bool face_record_sample(struct record **rec, const struct options *o, const struct session *s,
			const char *line, size_t len)
{
	if (!*rec)
		return true;
	int rc = line ? record_line(*rec, line, len)
		      : record_sample(*rec, &s->model, s->kind == SESSION_LAB ? &s->work : NULL,
				      s->have_diag ? &s->diag : NULL);
	if (rc >= 0)
		return true;
	char m[PATH_MAX + 160];
	snprintf(m, sizeof(m), "cannot write the recording %s: %s; recording stops (exit status 1)",
		 o->record, strerror(-rc));
	face_say(m);
	record_close(*rec);
	*rec = NULL;
	return false;
}

bool face_record_close(struct record *rec, const struct options *o)
{
	if (!rec || record_close(rec) >= 0)
		return true;
	char m[PATH_MAX + 80];
	snprintf(m, sizeof(m), "cannot close the recording %s (exit status 1)", o->record);
	face_say(m);
	return false;
}

void face_say_news(const struct session *s, unsigned *seen)
{
	if (s->message_seq == *seen)
		return;
	*seen = s->message_seq;
	if (s->message_bad && s->message[0])
		face_say(s->message);
}

bool face_session_end(struct session *s, struct record *rec, const struct options *o)
{
	bool ok = face_record_close(rec, o);
	session_stop(s);
	face_say_stopped(s);
	return ok;
}

void face_say_ended(const struct session *s)
{
	char m[192];
	if (s->kind == SESSION_LAUNCH) {
		char st[128];
		snprintf(m, sizeof(m), "the command %s", session_child_status(s, st, sizeof(st)));
	} else if (s->kind == SESSION_LAB && s->gone_why[0]) {
		return; /* said already, as the session's message, with the last signal */
	} else if (s->kind == SESSION_LAB) {
		snprintf(m, sizeof(m), "the lab workload (anchor process %d) has gone",
			 (int)s->target);
	} else {
		snprintf(m, sizeof(m), "process %d exited", (int)s->target);
	}
	face_say(m);
}

void face_say_stopped(const struct session *s)
{
	char m[160];
	if (s->orphans_stopped <= 0)
		return;
	snprintf(m, sizeof(m),
		 "stopped %d process%s the command had moved out of its group (setsid)",
		 s->orphans_stopped, s->orphans_stopped == 1 ? "" : "es");
	face_say(m);
}

FILE *face_out_begin(struct face_out *fo)
{
	memset(fo, 0, sizeof(*fo));
	fo->f = open_memstream(&fo->buf, &fo->len);
	return fo->f ? fo->f : stdout;
}

/* false when the output ended, with *rc set on a real failure. */
static bool face_out_failed(int err, int *rc)
{
	if (err != EPIPE && err != EINTR) {
		fprintf(stderr, "threadlab: cannot write the output: %s\n", strerror(err));
		*rc = EXIT_RUNTIME;
	}
	return false;
}

bool face_out_end(struct face_out *fo, int *rc)
{
	if (!fo->f)
		return fflush(stdout) == EOF || ferror(stdout) ? face_out_failed(errno, rc) : true;
	int err = fclose(fo->f) == 0 ? 0 : ENOMEM;
	fo->f = NULL;
	/* Whatever went through stdio before comes first. */
	if (!err && fflush(stdout) == EOF)
		err = errno;
	for (size_t at = 0; !err && at < fo->len;) {
		ssize_t n = write(STDOUT_FILENO, fo->buf + at, fo->len - at);
		if (n < 0 && errno == EINTR && !stop_signal)
			continue;
		if (n < 0)
			err = errno;
		else if (stop_signal)
			err = EINTR;
		else
			at += (size_t)n;
	}
	free(fo->buf);
	return err ? face_out_failed(err, rc) : true;
}

bool face_ranking_tick(struct ranking *k, double now, unsigned *seen)
{
	bool ticked = ranking_tick(k, now);
	if (k->note_seq != *seen) {
		face_say(k->note);
		*seen = k->note_seq;
	}
	return ticked;
}

int face_ranking_open(const struct options *o, struct ranking *k, double now)
{
	char err[512];
	int rc = ranking_open(k, o->root, o->kernel_threads, now, err, sizeof(err));
	if (rc == 0)
		return EXIT_OK;
	face_say(err);
	return rc == -ENOENT || rc == -ENOTDIR ? EXIT_USAGE : EXIT_RUNTIME;
}
