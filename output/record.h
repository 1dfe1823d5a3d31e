/* record.h — writing a session to a file: --record FILE.
 *
 * A header line, then one line per sample in the batch --format json
 * schema (report.h); recording.h (monitor/) reads it back.  Each line goes
 * out whole with one write(2), so a run killed at any moment leaves every
 * line but possibly the last intact.  FILE ending in ".zst" is compressed
 * with libzstd, one frame per line: a frame is as independent as a line,
 * readable without the others and without the frames after it. */
#ifndef THREADLAB_RECORD_H
#define THREADLAB_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "diagnosis.h"
#include "labview.h"
#include "model.h"
#include "recording.h"

struct record;

/* Creates (or truncates) path, mode 0644 less the umask; argv[0..argc) is
 * threadlab's own command line for the header (borrowed: it must outlive
 * r).  Returns NULL with a one-line message naming the file in err. */
struct record *record_open(const char *path, int argc, char **argv, char *err, size_t errlen);

/* The header line (h's command_line is not used: argv is written). */
int record_header(struct record *r, const struct recording_header *h);

/* record_open() and record_header() in one: NULL with the message in err
 * (the file is removed again when its header cannot be written). */
struct record *record_start(const char *path, int argc, char **argv,
			    const struct recording_header *h, char *err, size_t errlen);

/* One sample (w NULL outside the lab, diag NULL without a diagnosis).  0 or -errno (ENOSPC…); after
 * an error the file stays as it was before the call, less a torn tail. */
int record_sample(struct record *r, const struct model_sample *m, const struct workload_report *w,
		  const struct diagnosis *diag);

/* One sample already formatted as a batch JSON line (len bytes, its
 * newline included): batch --format json formats each sample once for
 * stdout and the recording both.  0 or -errno. */
int record_line(struct record *r, const char *line, size_t len);

/* Bytes written so far (compressed, for zstd) and lines. */
unsigned long long record_bytes(const struct record *r);
unsigned long record_lines(const struct record *r);

/* Closes the file.  0, or -errno of the close.  NULL is fine. */
int record_close(struct record *r);

#endif
