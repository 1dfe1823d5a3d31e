/* recording-header.h — a recording's header line into its struct
 * (recording-header.c; the types: recording-impl.h).  For monitor/. */
#ifndef THREADLAB_RECORDING_HEADER_H
#define THREADLAB_RECORDING_HEADER_H

#include "recording-impl.h"

/* Parses a header line into h: 1 when it is one, 0 when the line is not a
 * header (a sample), -EINVAL for a header with wrong types, -ENOTSUP for a
 * newer version (err says so). */
int recording_header_parse(const char *line, size_t len, struct recording_header *h, char *err,
			   size_t errlen);

#endif
