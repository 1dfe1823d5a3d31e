/* recording-parse.h — one recorded sample line into the model
 * (recording-parse.c; the types: recording-impl.h).  For monitor/ and the
 * tests: a struct recording_sample owns what it holds; init before use,
 * free once. */
#ifndef THREADLAB_RECORDING_PARSE_H
#define THREADLAB_RECORDING_PARSE_H

#include "recording-impl.h"

void recording_parse_sample_init(struct recording_sample *s);
void recording_parse_sample_free(struct recording_sample *s);
/* Parses one sample line (len bytes, no newline needed) into out.  Pure:
 * 0, or -EINVAL with the reason in err. */
int recording_parse_sample(const char *line, size_t len, struct recording_sample *out, char *err,
			   size_t errlen);

#endif
