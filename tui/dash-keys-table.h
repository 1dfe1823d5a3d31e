/* dash-keys-table.h — the dashboard's one key table (dash-keys-table.c):
 * every command with its keys, modes, help line and key-bar entry.  The
 * table and its names are static and constant. */
#ifndef THREADLAB_DASH_KEYS_TABLE_H
#define THREADLAB_DASH_KEYS_TABLE_H

#include "dash-keys-impl.h"

/* The key table, in the order keys are looked up and help is shown. */
extern const struct dash_keys_cmd dash_keys_table[];
extern const size_t dash_keys_table_ncmds;
/* The names the help lines give keys that are not one character. */
struct dash_keys_name {
	const char *name;
	int key;
};
extern const struct dash_keys_name dash_keys_table_names[];
extern const size_t dash_keys_table_nnames;

#endif
