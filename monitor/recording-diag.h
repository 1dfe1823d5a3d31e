/* recording-diag.h — the "diagnosis" of a recorded sample, internal to
 * monitor/ (recording-parse.c calls it). */
#ifndef THREADLAB_RECORDING_DIAG_H
#define THREADLAB_RECORDING_DIAG_H

#include "diagnosis.h"
#include "recording-json.h"

/* Fills d from the object o; a wrong type fails p (recording-json.h). */
void recording_diag_parse(struct recording_json *p, json_object *o, struct diagnosis *d);

#endif
