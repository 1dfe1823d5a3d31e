/* privileges.c — drop the capabilities BPF loading needed (privileges.h).
 *
 * libcap (Debian's libcap2): its cap_get_proc / cap_set_proc pair is the
 * maintained way to edit the three sets together, without hand-rolled
 * capset structures of a given version. */
#include "config.h"

#include "privileges.h"

#include <errno.h>
#include <sys/capability.h>

static const cap_value_t privileges_bpf[] = {CAP_BPF, CAP_PERFMON, CAP_SYS_ADMIN};
#define PRIVILEGES_N (int)(sizeof(privileges_bpf) / sizeof(privileges_bpf[0]))

bool privileges_hold_bpf(void)
{
	cap_t c = cap_get_proc();
	bool held = false;
	if (!c)
		return false;
	for (int i = 0; i < PRIVILEGES_N; i++) {
		cap_flag_value_t v = CAP_CLEAR;
		if (cap_get_flag(c, privileges_bpf[i], CAP_EFFECTIVE, &v) == 0 && v == CAP_SET)
			held = true;
	}
	cap_free(c);
	return held;
}

int privileges_drop_bpf(void)
{
	cap_t c = cap_get_proc();
	if (!c)
		return -errno;
	int rc = 0;
	if (cap_set_flag(c, CAP_EFFECTIVE, PRIVILEGES_N, privileges_bpf, CAP_CLEAR) != 0 ||
	    cap_set_flag(c, CAP_PERMITTED, PRIVILEGES_N, privileges_bpf, CAP_CLEAR) != 0 ||
	    cap_set_flag(c, CAP_INHERITABLE, PRIVILEGES_N, privileges_bpf, CAP_CLEAR) != 0 ||
	    cap_set_proc(c) != 0)
		rc = -errno;
	cap_free(c);
	/* Nothing threadlab starts inherits a capability through the ambient set. */
	if (rc == 0 && CAP_AMBIENT_SUPPORTED() && cap_reset_ambient() != 0)
		rc = -errno;
	return rc;
}
