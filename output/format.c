/* format.c — names of the output formats. */
#include "config.h"

#include "format.h"

#include <stddef.h>

const char *const *format_names(void)
{
	static const char *const names[] = {
	    [FORMAT_TEXT] = "text", [FORMAT_CSV] = "csv", [FORMAT_JSON] = "json", NULL};
	return names;
}

const char *format_name(enum format f)
{
	return f >= FORMAT_TEXT && f <= FORMAT_JSON ? format_names()[f] : "text";
}
