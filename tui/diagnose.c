/* diagnose.c — threadlab --diagnose: the verdict for scripts.
 *
 * One session samples the target every interval (the census needs the
 * processes while they live), with a diagnosis window longer than the run,
 * so the verdict covers everything from the first sample to the last. */
#include "config.h"

#include "diagnose.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "diagnosis-out.h"
#include "face.h"
#include "json-out.h"
#include "session.h"
#include "text-safe.h"
#include "diagnosis-rules.h"

static void diagnose_json(const struct session *s, double seconds)
{
	char target[512];
	struct json_out j;
	json_out_init(&j, stdout, 0);
	session_target_name(s, target, sizeof(target));
	json_out_object(&j);
	json_out_key(&j, "target");
	json_out_object(&j);
	json_out_kint(&j, "pid", s->target);
	json_out_kstr(&j, "name", target);
	json_out_kbool(&j, "tree", s->tree);
	json_out_end(&j);
	json_out_knum(&j, "seconds", seconds, 3);
	json_out_key(&j, "diagnosis");
	diagnosis_out_json(&j, &s->diag);
	json_out_end(&j);
	json_out_newline(&j);
}

int diagnose_run(const struct options *o)
{
	double seconds = o->seconds_set ? o->seconds : OPTIONS_DIAGNOSE_SECONDS_DEFAULT;
	double step = o->interval_set ? o->interval : seconds / 5 < 1 ? seconds / 5 : 1;
	struct session s;
	struct session_config c;
	char err[512];
	options_session_config(o, &c);
	c.diag_window = 4 * seconds; /* never rolls: the window is the whole run */
	stop_install(NULL);
	int rc = session_start(&s, &c, err, sizeof(err));
	if (rc != EXIT_OK) {
		face_say(err);
		session_stop(&s);
		return EXIT_USAGE;
	}
	double end = stop_now() + seconds;
	bool gone = false;
	while (!stop_signal && !gone) {
		double left = end - stop_now();
		if (left <= 0)
			break;
		stop_sleep_until(stop_now() + (left < step ? left : step));
		gone = session_tick(&s) < 0;
	}
	if (!s.have_diag) {
		face_say(gone ? "the target ended before it could be diagnosed"
			      : "interrupted before the first interval");
		session_stop(&s);
		return EXIT_USAGE;
	}
	if (gone)
		face_say("the target ended: the diagnosis covers its life until then");
	if (o->format == FORMAT_JSON)
		diagnose_json(&s, s.diag.window_s);
	else
		diagnosis_out_text(stdout, &s.diag);
	int verdict_rc = diagnosis_rules_exit_status(&s.diag, o->strict);
	session_stop(&s);
	face_say_stopped(&s);
	return diagnose_flushed(verdict_rc);
}

int diagnose_flushed(int rc)
{
	if (fflush(stdout) == EOF || ferror(stdout)) {
		/* 1 would read as "a problem found": an error is 2. */
		char m[160];
		snprintf(m, sizeof(m), "cannot write the output: %s", strerror(errno));
		face_say(m);
		return EXIT_USAGE;
	}
	return rc;
}
