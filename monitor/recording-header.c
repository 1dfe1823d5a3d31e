/* recording-header.c — a recording's header line into its struct. */
#include "config.h"

#include "recording-impl.h"
#include "recording-header.h"
#include "recording-json.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int recording_header_parse(const char *line, size_t len, struct recording_header *h, char *err,
			   size_t errlen)
{
	struct recording_json p = {err, errlen, false};
	memset(h, 0, sizeof(*h));
	json_object *o = recording_json_parse(line, len, err, errlen);
	if (!o)
		return -EINVAL;
	json_object *v = NULL;
	if (!json_object_object_get_ex(o, "threadlab_recording", &v)) {
		json_object_put(o);
		return 0;
	}
	h->present = true;
	h->version = (int)recording_json_int(&p, o, "threadlab_recording", 0);
	if (!p.bad && h->version > RECORDING_VERSION) {
		snprintf(err, errlen,
			 "recording format %d is newer than this threadlab reads (%d): use a newer "
			 "threadlab",
			 h->version, RECORDING_VERSION);
		json_object_put(o);
		return -ENOTSUP;
	}
	if (!p.bad && h->version < 1)
		recording_json_fail(&p, "not a format version:", "threadlab_recording");
	recording_json_str(&p, o, "threadlab_version", h->threadlab_version,
			   sizeof(h->threadlab_version), NULL);
	recording_json_str(&p, o, "host", h->host, sizeof(h->host), NULL);
	recording_json_str(&p, o, "kernel", h->kernel, sizeof(h->kernel), NULL);
	recording_json_str(&p, o, "cpu_model", h->cpu_model, sizeof(h->cpu_model), NULL);
	h->online = (int)recording_json_int(&p, o, "online_cpus", 0);
	json_object *blas = recording_json_typed(&p, o, "openblas", json_type_object, false);
	recording_json_str(&p, blas, "config", h->blas_config, sizeof(h->blas_config), NULL);
	recording_json_str(&p, blas, "core", h->blas_core, sizeof(h->blas_core), NULL);
	recording_json_str(&p, blas, "variant", h->blas_variant, sizeof(h->blas_variant), NULL);
	json_object *env = recording_json_typed(&p, o, "env", json_type_object, false);
	if (env) {
		json_object_object_foreach(env, key, val)
		{
			if (h->nvars == ENVIRONMENT_VARS_MAX)
				break;
			snprintf(h->vars[h->nvars].name, sizeof(h->vars[0].name), "%s", key);
			h->vars[h->nvars].set = val != NULL;
			if (val && !json_object_is_type(val, json_type_string))
				recording_json_fail(&p, "not a string:", key);
			else if (val)
				recording_json_str_of(val, h->vars[h->nvars].value,
						      sizeof(h->vars[0].value), NULL);
			h->nvars++;
		}
	}
	json_object *args = recording_json_typed(&p, o, "command_line", json_type_array, false);
	size_t off = 0;
	for (size_t i = 0; args && i < json_object_array_length(args); i++) {
		json_object *a = json_object_array_get_idx(args, i);
		if (!json_object_is_type(a, json_type_string)) {
			recording_json_fail(&p, "not a string:", "command_line[]");
			break;
		}
		char arg[sizeof(h->command_line)];
		size_t alen = 0;
		recording_json_str_of(a, arg, sizeof(arg), &alen);
		if (off + (off > 0) + alen >= sizeof(h->command_line))
			break;
		if (off)
			h->command_line[off++] = ' ';
		memcpy(h->command_line + off, arg, alen + 1);
		off += alen;
	}
	recording_json_str(&p, o, "start_time", h->start_time, sizeof(h->start_time), NULL);
	recording_json_str(&p, o, "mode", h->mode, sizeof(h->mode), NULL);
	json_object *t = recording_json_typed(&p, o, "target", json_type_object, false);
	h->pid = (int)recording_json_int(&p, t, "pid", 0);
	recording_json_str(&p, t, "name", h->target, sizeof(h->target), NULL);
	h->tree = recording_json_bool(&p, t, "tree", false);
	h->interval = recording_json_num(&p, o, "interval", true, 1, 1);
	if (!p.bad && (h->interval <= 0 || h->interval > RECORDING_INTERVAL_MAX))
		recording_json_fail(&p, "out of range:", "interval");
	json_object_put(o);
	return p.bad ? -EINVAL : 1;
}
