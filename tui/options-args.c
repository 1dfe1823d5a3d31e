/* options-args.c — the values of options: enumerated names, numbers,
 * lists and the knobs' ranges (options-args.h). */
#include "config.h"

#include "options-args.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knobs.h"
#include "labview.h"
#include "options.h"

const char *const *options_args_precision_values(void)
{
	static const char *const v[] = {
	    [SETTINGS_SINGLE] = "single", [SETTINGS_DOUBLE] = "double", NULL};
	return v;
}

const char *const *options_args_spin_values(void)
{
	static const char *const v[] = {"default", "off", NULL};
	return v;
}

int options_args_choice(const char *const *values, const char *arg)
{
	for (int i = 0; values[i]; i++)
		if (strcmp(values[i], arg) == 0)
			return i;
	return -1;
}

bool options_args_long_int(const char *s, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

bool options_args_double(const char *s, double lo, double hi, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

long options_args_knob_lo(enum knob_id k)
{
	return (long)knobs_get(k)->min;
}

long options_args_knob_hi(enum knob_id k)
{
	return (long)knobs_get(k)->max;
}

size_t options_args_list(const char *s, long lo, long hi, int *list)
{
	size_t n = 0;
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", s);
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		long a, b;
		char *dash = strchr(tok, '-');
		if (dash) {
			*dash = '\0';
			if (!options_args_long_int(tok, lo, hi, &a) ||
			    !options_args_long_int(dash + 1, lo, hi, &b) || b < a)
				return 0;
		} else if (options_args_long_int(tok, lo, hi, &a)) {
			b = a;
		} else {
			return 0;
		}
		for (long v = a; v <= b; v++) {
			if (n == OPT_LIST_MAX)
				return 0;
			list[n++] = (int)v;
		}
	}
	return n;
}
