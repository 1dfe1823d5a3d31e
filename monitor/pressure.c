/* pressure.c — the notes for a cgroup pressure that is not known
 * (pressure.h). */
#include "pressure.h"

#include <string.h>

static const char *const pressure_notes[] = {
    [MODEL_PSI_WHY_V1] = "cgroup v1 has no pressure file: the system's is system.psi_some_avg10",
    [MODEL_PSI_WHY_ROOT] = "the root cgroup: its pressure is the system's (system.psi_some_avg10)",
};

const char *pressure_note(enum model_psi_why why)
{
	return why > MODEL_PSI_WHY_NONE && why <= MODEL_PSI_WHY_ROOT ? pressure_notes[why] : NULL;
}

enum model_psi_why pressure_why_of(const char *note)
{
	for (int w = MODEL_PSI_WHY_V1; w <= MODEL_PSI_WHY_ROOT; w++)
		if (note && strcmp(note, pressure_notes[w]) == 0)
			return (enum model_psi_why)w;
	return MODEL_PSI_WHY_NONE;
}
