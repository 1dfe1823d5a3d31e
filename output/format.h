/* format.h — the output formats every mode offers (--format). */
#ifndef THREADLAB_FORMAT_H
#define THREADLAB_FORMAT_H

enum format {
	FORMAT_TEXT,
	FORMAT_CSV,
	FORMAT_JSON, /* JSON Lines in batch mode, one document for a sweep */
};

/* "text", "csv", "json". */
const char *format_name(enum format f);

#endif
