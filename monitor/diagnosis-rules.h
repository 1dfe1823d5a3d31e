/* diagnosis-rules.h — the verdict table as the faces see it
 * (diagnosis-rules.c): the exit status of a verdict, the machine's verdict
 * from its totals, and the rules' documentation.  Strings returned are
 * static. */
#ifndef THREADLAB_DIAGNOSIS_RULES_H
#define THREADLAB_DIAGNOSIS_RULES_H

#include "diagnosis.h"

/* The verdict table's first rule, for a caller that needs only it:
 * whether cpu CPUs in use and runnable threads read idle. */
bool diagnosis_rules_is_idle(double cpu, double runnable);
/* The machine's own verdict (idle, oversubscribed or fine) from its
 * runnable threads against its online CPUs, with the headline. */
enum verdict diagnosis_rules_machine(double runnable, double cpus_used, int online, char *headline,
				     size_t cap);
/* The exit status of --diagnose for d: 0 for fine and idle (strict: not
 * borderline), 1 for a problem found. */
int diagnosis_rules_exit_status(const struct diagnosis *d, bool strict);
/* One rule of the verdict table, for tests and the man page. */
struct diag_rule_doc {
	enum verdict verdict;
	const char *when; /* the condition, in words */
	const char *band; /* the band around its threshold, in words ("" none) */
};
const struct diag_rule_doc *diagnosis_rules(size_t *n);

#endif
