/* recording.h — a recorded session, read back: replay's source.
 *
 * A recording is JSON Lines: a header line (what the session was: machine,
 * BLAS, thread variables, command line, start time, mode, target), then one
 * line per sample in exactly the batch --format json schema (output/
 * report.c writes both), so a batch JSON file is a recording without a
 * header.  FILE.zst is the same compressed with zstd, one frame per line, so
 * a run that was killed leaves a file readable up to its last whole frame,
 * and one line can be decompressed without the others.
 *
 * Opening indexes every line (plain: the newlines of the mapped file; zstd:
 * each frame decompressed once) without parsing it, so that reading any
 * sample later costs one line's parse.  A torn last line (no newline) or a
 * cut last frame is left out with a note.  JSON is parsed with json-c.
 *
 * Names are raw bytes: bytes that are not UTF-8 were written as \udcXX
 * each ("surrogateescape"), which json-c alone would read as U+FFFD; the
 * parser keeps them apart (recording-parse.c), so they replay as the very
 * bytes that were recorded. */
#ifndef THREADLAB_RECORDING_H
#define THREADLAB_RECORDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "environment.h"

#define RECORDING_VERSION  1 /* the header's "threadlab_recording" */
/* What a file may make threadlab hold: a sample line of at most
 * RECORDING_LINE_MAX bytes is parsed (one of 100,000 threads is about 16
 * MiB); a zstd frame may inflate to RECORDING_FRAME_MAX bytes, and all of
 * a file's frames together to RECORDING_DECODED_MAX while it is indexed.
 * Past them a line is skipped and named, and the file is read up to the
 * frame that went past, with a note. */
#define RECORDING_LINE_MAX    ((size_t)64 << 20)
#define RECORDING_FRAME_MAX   ((size_t)256 << 20)
#define RECORDING_DECODED_MAX ((size_t)16 << 30)
#define RECORDING_ARGS_LEN 2048

/* The header line.  Writers fill it with session_recording_header(); the
 * reader fills it from the file (present false: a batch JSON file). */
struct recording_header {
	bool present;
	int version; /* RECORDING_VERSION of the writer */
	char threadlab_version[32];
	char host[256];
	char kernel[256];
	char cpu_model[256];
	int online;
	char blas_config[ENVIRONMENT_INFO_LEN], blas_core[64], blas_variant[16];
	size_t nvars;
	struct {
		char name[32];
		char value[256];
		bool set; /* false: the variable was unset */
	} vars[ENVIRONMENT_VARS_MAX];
	char command_line[RECORDING_ARGS_LEN]; /* threadlab's argv, joined by spaces */
	char start_time[64];		       /* ISO 8601 UTC */
	char mode[16];			       /* "lab", "attach", "command", "sweep" */
	int pid;			       /* the target */
	char target[512];		       /* its name or command line, raw */
	bool tree;
	double interval; /* s between samples as asked for */
};

/* Fills h for a writer: the environment record e, the mode ("lab",
 * "attach", "command", "sweep"), the target and the sampling interval;
 * the start time is now. */
void recording_header_fill(struct recording_header *h, const struct env_record *e, const char *mode,
			   int pid, const char *target, bool tree, double interval);

/* The version of the libzstd FILE.zst recordings use ("1.5.4"). */
const char *recording_zstd_version(void);

#endif
