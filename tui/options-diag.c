/* options-diag.c — --no-tree and --strict (options-diag.h). */
#include "config.h"

#include "options-diag.h"

#include "options-tune.h"
#include "options.h"

int options_diag_one(struct options *o, int c)
{
	if (c == OPT_NO_TREE)
		o->no_tree = true;
	else if (c == OPT_STRICT)
		o->strict = true;
	return EXIT_OK;
}

int options_diag_check(const struct options *o, char *err, size_t errlen)
{
	if (o->no_tree && o->tree)
		return options_err(err, errlen, "--tree and --no-tree exclude each other");
	if (o->no_tree && !o->command)
		return options_err(err, errlen,
				   "--no-tree is for -- CMD, which follows its process tree by "
				   "default (-p PID follows one process unless --tree)");
	return EXIT_OK;
}

void options_diag_session(const struct options *o, struct session_config *c)
{
	/* A launched command is the root of what it starts: DataLoader
	 * workers, make's children. */
	if (o->command && !o->no_tree)
		c->tree = true;
	c->hysteresis = o->mode != MODE_DIAGNOSE;
}
