/* format.c — names of the output formats. */
#include "config.h"

#include "format.h"

const char *format_name(enum format f)
{
	switch (f) {
	case FORMAT_CSV:
		return "csv";
	case FORMAT_JSON:
		return "json";
	default:
		return "text";
	}
}
