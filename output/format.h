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
/* Every format's name, NULL-terminated; a name's index is its enum format
 * (--format's values). */
const char *const *format_names(void);

#endif
