/* privileges.h — the capabilities threadlab holds, and dropping those it
 * only needed to load its BPF programs.
 *
 * Loading the BPF collector needs CAP_BPF and CAP_PERFMON (or
 * CAP_SYS_ADMIN, which root has); reading it afterwards needs only the
 * descriptors.  So once the collector is chosen (collector.h) those three
 * are cleared from the effective, permitted and inheritable sets, and the
 * ambient set is emptied: a binary given cap_bpf,cap_perfmon+ep runs on as
 * an ordinary process, and nothing threadlab starts inherits them.  Root
 * keeps its other capabilities (reading other users' /proc files needs
 * CAP_SYS_PTRACE and CAP_DAC_READ_SEARCH); a command it launches gets root's
 * full set again at exec, as it would without threadlab. */
#ifndef THREADLAB_PRIVILEGES_H
#define THREADLAB_PRIVILEGES_H

#include <stdbool.h>

/* Clears CAP_BPF, CAP_PERFMON and CAP_SYS_ADMIN as above.  Returns 0 or
 * -errno (nothing to clear is 0). */
int privileges_drop_bpf(void);

/* Whether the effective set holds one of the three now. */
bool privileges_hold_bpf(void);

#endif
