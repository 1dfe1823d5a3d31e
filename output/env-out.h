/* env-out.h — the environment record (environment.h) as text lines or a
 * JSON object: the sweep tables' header, the experiment log's rows.
 * Strings from the system go through text_safe() for text and the JSON
 * writer for JSON. */
#ifndef THREADLAB_ENV_OUT_H
#define THREADLAB_ENV_OUT_H

#include <stdio.h>

#include "environment.h"
#include "json-out.h"

/* "key:" padded to one width after lead, so values line up. */
void env_out_key(FILE *f, const char *lead, const char *key);

/* cpu, budget, openblas (with ", spin SPIN" when spin is not NULL), env,
 * kernel and date lines, each after lead ("" or "# "). */
void env_out_text(FILE *f, const char *lead, const struct env_record *e, const char *spin);

/* The record's members into the object open in j (no braces); blas_spin
 * after the OpenBLAS members when spin is not NULL. */
void env_out_json_members(struct json_out *j, const struct env_record *e, const char *spin);

#endif
