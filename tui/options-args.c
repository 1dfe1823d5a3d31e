/* options-args.c — the kinds of option values and --list-options
 * (options-args.h). */
#include "config.h"

#include "options-args.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "collector.h"
#include "format.h"
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

enum options_kind {
	OPTIONS_KIND_VALUE, /* anything: a number, a list, a regex, an address */
	OPTIONS_KIND_ENUM,
	OPTIONS_KIND_PID,
	OPTIONS_KIND_FILE,
	OPTIONS_KIND_DIR,
	OPTIONS_KIND_HIDDEN, /* not listed */
};

/* The options whose value is more than "a value" (or that are hidden); an
 * option with no value is "none".  Keyed by long name: a name missing from
 * the parser's table makes --list-options fail. */
static const struct {
	const char *name;
	enum options_kind kind;
	options_values_fn *values;
} options_kinds[] = {
    {"pid", OPTIONS_KIND_PID, NULL},
    {"format", OPTIONS_KIND_ENUM, format_names},
    {"precision", OPTIONS_KIND_ENUM, options_precision_values},
    {"kernel", OPTIONS_KIND_ENUM, labview_kernel_names},
    {"blas", OPTIONS_KIND_ENUM, labview_blas_names},
    {"blas-spin", OPTIONS_KIND_ENUM, options_spin_values},
    {"collector", OPTIONS_KIND_ENUM, collector_want_names},
    {"root", OPTIONS_KIND_DIR, NULL},
    {"record", OPTIONS_KIND_FILE, NULL},
    {"replay", OPTIONS_KIND_FILE, NULL},
    {"tour-notes", OPTIONS_KIND_FILE, NULL},
    {"tls-cert", OPTIONS_KIND_FILE, NULL},
    {"tls-key", OPTIONS_KIND_FILE, NULL},
    {"basic-auth", OPTIONS_KIND_FILE, NULL},
    {"progress-file", OPTIONS_KIND_FILE, NULL},
    {"log", OPTIONS_KIND_FILE, NULL},
    {"list-options", OPTIONS_KIND_HIDDEN, NULL},
};
#define OPTIONS_NKINDS (sizeof(options_kinds) / sizeof(options_kinds[0]))

int options_list_print(FILE *f, const struct option *table)
{
	static const char *const kind_names[] = {
	    [OPTIONS_KIND_VALUE] = "value", [OPTIONS_KIND_ENUM] = "enum",
	    [OPTIONS_KIND_PID] = "pid",	    [OPTIONS_KIND_FILE] = "file",
	    [OPTIONS_KIND_DIR] = "dir",
	};
	int rc = 0;
	for (size_t k = 0; k < OPTIONS_NKINDS; k++) {
		const struct option *o = table;
		while (o->name && strcmp(o->name, options_kinds[k].name) != 0)
			o++;
		if (!o->name) {
			fprintf(stderr, "threadlab: --list-options: no option --%s in the table\n",
				options_kinds[k].name);
			rc = -EINVAL;
		}
	}
	for (const struct option *o = table; o->name; o++) {
		size_t k = 0;
		while (k < OPTIONS_NKINDS && strcmp(options_kinds[k].name, o->name) != 0)
			k++;
		if (k < OPTIONS_NKINDS && options_kinds[k].kind == OPTIONS_KIND_HIDDEN)
			continue;
		char shortname[3] = "-";
		if (!o->flag && o->val > 0 && o->val < 128 && isalnum(o->val))
			snprintf(shortname, sizeof(shortname), "-%c", o->val);
		const char *kind = o->has_arg == no_argument ? "none"
				   : k < OPTIONS_NKINDS	     ? kind_names[options_kinds[k].kind]
							     : "value";
		fprintf(f, "--%s\t%s\t%s\t", o->name, shortname, kind);
		if (k < OPTIONS_NKINDS && options_kinds[k].values) {
			const char *const *v = options_kinds[k].values();
			for (int i = 0; v[i]; i++)
				fprintf(f, "%s%s", i ? " " : "", v[i]);
		} else {
			fputc('-', f);
		}
		fputc('\n', f);
	}
	return rc;
}
