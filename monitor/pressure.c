/* pressure.c — the notes for a cgroup pressure that is not known
 * (pressure.h). */
#include "pressure.h"

#include <string.h>

static const char *const pressure_notes[] = {
    [PSI_WHY_V1] = "cgroup v1 has no pressure file: the system's is system.psi_some_avg10",
    [PSI_WHY_ROOT] = "the root cgroup: its pressure is the system's (system.psi_some_avg10)",
};

const char *pressure_note(enum psi_why why)
{
	return why > PSI_WHY_NONE && why <= PSI_WHY_ROOT ? pressure_notes[why] : NULL;
}

enum psi_why pressure_why_of(const char *note)
{
	for (int w = PSI_WHY_V1; w <= PSI_WHY_ROOT; w++)
		if (note && strcmp(note, pressure_notes[w]) == 0)
			return (enum psi_why)w;
	return PSI_WHY_NONE;
}
