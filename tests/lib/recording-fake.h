/* recording-fake.h — what test-recording and test-recording-hostile
 * share: a temporary directory for their files, a lab sample made by hand
 * and a recording of such samples. */
#ifndef THREADLAB_RECORDING_FAKE_H
#define THREADLAB_RECORDING_FAKE_H

#include "recording-impl.h"
#include "session-impl.h"

/* The tests' directory, made by recording_fake_setup (a cmocka group
 * setup) and removed with what is in it by recording_fake_teardown. */
extern char recording_fake_dir[];
int recording_fake_setup(void **state);
int recording_fake_teardown(void **state);
/* name in that directory (one of four static buffers, in turn). */
const char *recording_fake_path(const char *name);

/* A lab sample with two threads (one with a hostile name) and a workload. */
struct recording_fake {
	struct snapshot snap;
	struct snapshot_rates rates;
	struct thread_rate t[3];
	struct workload_report w;
};

/* Sample i (its time, throttling and rates move with i). */
void recording_fake_make(struct recording_fake *f, int i);
/* The sample as batch JSON, one line (malloc'd). */
char *recording_fake_json(const struct snapshot *s, const struct snapshot_rates *r,
			  const struct workload_report *w);
/* A recording of n such samples at path (.zst: compressed). */
void recording_fake_write(const char *path, int n);

#endif
