/* options-args.c — the enumerated values of options (options-args.h). */
#include "config.h"

#include "options-args.h"

#include <string.h>

#include "labview.h"

const char *const *options_precision_values(void)
{
	static const char *const v[] = {[CTL_SINGLE] = "single", [CTL_DOUBLE] = "double", NULL};
	return v;
}

const char *const *options_spin_values(void)
{
	static const char *const v[] = {"default", "off", NULL};
	return v;
}

int options_choice(const char *const *values, const char *arg)
{
	for (int i = 0; values[i]; i++)
		if (strcmp(values[i], arg) == 0)
			return i;
	return -1;
}
