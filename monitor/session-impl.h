/* session-impl.h — what a session (session.h) keeps to sample its target:
 * the collectors' sampler, snapshots and rates, the launched command, the
 * lab manager and its status, the recording replayed, the diagnosis's
 * window and machine reader.  For monitor/ (and its tests) only: a face
 * reads the session's public fields, in the model's types.
 *
 * session_start() allocates it, session_stop() frees it; model.h's sample
 * (s->model) is made from cur and rates at every tick that sampled. */
#ifndef THREADLAB_SESSION_IMPL_H
#define THREADLAB_SESSION_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "activity-impl.h"
#include "census-impl.h"
#include "diagnosis-input.h"
#include "lab.h"
#include "labview-impl.h"
#include "launch.h"
#include "model-impl.h"
#include "neighbours-impl.h"
#include "recording-impl.h"
#include "sampler.h"
#include "session.h"
#include "settings-lab.h"
#include "sysroot.h"
#include "tail.h"
#include "thread-groups-impl.h"
#include "window.h"

struct session_replay_note;

struct session_impl {
	struct sysroot root;
	struct sampler *sampler;
	struct snapshot prev, cur;   /* cur is the newest sample */
	struct thread_set spare;     /* prev's arrays once cur replaced it: the next fill's */
	struct snapshot_rates rates; /* prev -> cur (valid when s->have_rates) */
	bool warming;		     /* heap_huge_begin() until the first rates */

	struct launch child;	     /* launch mode: the command */
	struct tail *tail;	     /* cfg.progress_file followed, or NULL */
	unsigned progress_note_seen; /* progress.note_seq said as a message */

	struct lab *lab;	      /* lab mode */
	struct lab_status lab_status; /* read at every tick and by session_lab_poll() */

	/* replay */
	struct recording *rec;
	bool replay_end;			  /* a tick found no sample after replay_pos */
	struct recording_sample rs;		  /* the sample shown */
	struct session_replay_note *replay_notes; /* per sample, for seeking */
	char replay_target[512];		  /* the recorded target's name, raw */

	/* the diagnosis */
	struct window window;		   /* its window (cfg.diag_window > 0) */
	struct neighbours neighbours;	   /* the rest of the machine, on its cadence */
	struct activity_tracker *activity; /* what each thread does */
	double *act_secs;		   /* per thread of rates: seconds per activity */
	size_t act_cap;
	double unfollowed_at; /* when s->unfollowed was counted */
	double guarded_at;    /* when the command's strays were last told to the guard */

	/* What the session has reported already. */
	unsigned restarts_seen[CTL_MAX_STREAMS];
	unsigned loader_restarts_seen[CTL_MAX_LOADERS];
	char lab_event[192]; /* an anchor restart, for the next sample's "error" */
	char error_seen[192];
};

/* session_stop() but for the private part: everything is stopped and
 * freed, and impl->child still says how the launched command ended (the
 * command sweep reads it); session_stop() then frees the rest.  Safe to
 * call twice. */
void session_halt(struct session *s);

/* A new message for the faces (session.c): s->message, its seq moved on. */
void session_say(struct session *s, bool bad, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
