/* recording-impl.h — a recording read back (recording.h): its samples in
 * the collectors' and the workload's types, as the session's replay
 * (session-replay.c) and the tests take them; for monitor/ only. */
#ifndef THREADLAB_RECORDING_IMPL_H
#define THREADLAB_RECORDING_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "diagnosis.h"
#include "lab.h"
#include "labview.h"
#include "model-impl.h"
#include "recording.h"

/* One sample read back, in the collectors' and the workload's types. */
struct recording_sample {
	size_t index;		     /* among the samples, 0-based */
	unsigned long line;	     /* line number in the file, 1-based */
	struct snapshot snap;	     /* budget, cgroup, pressure, CPUs; no threads */
	struct snapshot_rates rates; /* threads owned: recording_parse_sample_free() */
	bool has_workload;	     /* a lab sample */
	struct workload_report work; /* its strings point into this struct */
	struct lab_status status;    /* what a face needs of the lab: settings, pids */
	bool has_diag;		     /* the sample has a "diagnosis" */
	struct diagnosis diag;
	char blas_config[ENVIRONMENT_INFO_LEN], blas_core[64], blas_variant[16];
};

struct recording;

/* Opens and indexes path.  Returns NULL with a one-line message naming the
 * file (and line) in err: no such file, not a recording, a newer format
 * version, no sample at all, a bad header. */
struct recording *recording_open(const char *path, char *err, size_t errlen);
void recording_close(struct recording *r);

const struct recording_header *recording_header(const struct recording *r);
/* Samples indexed (the header and a torn tail not counted). */
size_t recording_count(const struct recording *r);
/* What opening left out ("torn last line ignored"), "" when nothing. */
const char *recording_note(const struct recording *r);

/* Reads sample i into out (replacing its contents).  Returns 0, or -EINVAL
 * for a line that is not valid JSON or has wrong types, with a message
 * naming the file and line in err (the caller skips it), or -ERANGE when i
 * is not below recording_count(). */
int recording_read(struct recording *r, size_t i, struct recording_sample *out, char *err,
		   size_t errlen);

#endif
