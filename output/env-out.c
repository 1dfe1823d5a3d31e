/* env-out.c — the environment record as text or JSON (env-out.h). */
#include "env-out.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "text-safe.h"

static const char *safe(const char *s, char *buf, size_t cap)
{
	if (!s)
		return "-";
	text_safe(s, strlen(s), buf, cap);
	return buf;
}

void env_out_key(FILE *f, const char *lead, const char *key)
{
	fprintf(f, "%s%s:%*s", lead, key, (int)(9 - strlen(key)), "");
}

/* The three variables always, unset or not; any other only when set. */
static void env_out_vars(FILE *f, const struct env_record *e)
{
	static const char *const always[] = {"OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
					     "MKL_NUM_THREADS"};
	char a[1024];
	const char *sp = "";
	for (size_t i = 0; i < e->nvars; i++) {
		bool shown = false;
		for (size_t k = 0; k < sizeof(always) / sizeof(always[0]); k++)
			shown |= strcmp(e->vars[i].name, always[k]) == 0;
		if (!shown && !e->vars[i].value)
			continue;
		fprintf(f, "%s%s=%s", sp, e->vars[i].name, safe(e->vars[i].value, a, sizeof(a)));
		sp = " ";
	}
	fputc('\n', f);
}

void env_out_text(FILE *f, const char *lead, const struct env_record *e, const char *spin)
{
	char a[1024], b[1024];
	env_out_key(f, lead, "cpu");
	fprintf(f, "%s\n", safe(e->cpu_model, a, sizeof(a)));
	env_out_key(f, lead, "budget");
	fprintf(f, "online %d, affinity %d, quota ", e->online, e->affinity);
	if (e->quota_cpus > 0)
		fprintf(f, "%.2f", e->quota_cpus);
	else
		fputs("none", f);
	fprintf(f, ", effective %.2f CPUs\n", e->effective);
	env_out_key(f, lead, "openblas");
	if (e->blas_config[0] || spin)
		fprintf(f, "%s (core %s, %s)", safe(e->blas_config, a, sizeof(a)),
			safe(e->blas_core, b, sizeof(b)),
			*e->blas_variant ? e->blas_variant : "unknown");
	else
		fputs("not known outside the lab", f);
	if (spin)
		fprintf(f, ", spin %s", spin);
	fputc('\n', f);
	env_out_key(f, lead, "env");
	env_out_vars(f, e);
	env_out_key(f, lead, "kernel");
	fprintf(f, "%s\n", safe(e->kernel, a, sizeof(a)));
	env_out_key(f, lead, "date");
	fprintf(f, "%s\n", e->date);
}

void env_out_json_members(struct json_out *j, const struct env_record *e, const char *spin)
{
	json_out_kstr(j, "cpu_model", e->cpu_model);
	json_out_kint(j, "online", e->online);
	json_out_kint(j, "affinity", e->affinity);
	json_out_knum(j, "quota_cpus", e->quota_cpus > 0 ? e->quota_cpus : (double)NAN, 3);
	json_out_knum(j, "effective_cpus", e->effective, 3);
	json_out_kstr(j, "openblas_config", e->blas_config);
	json_out_kstr(j, "openblas_core", e->blas_core);
	json_out_kstr(j, "openblas_variant", e->blas_variant);
	if (spin)
		json_out_kstr(j, "blas_spin", spin);
	for (size_t i = 0; i < e->nvars; i++)
		json_out_kstr(j, e->vars[i].name, e->vars[i].value);
	json_out_kstr(j, "host", e->host);
	json_out_kstr(j, "kernel", e->kernel);
	json_out_kstr(j, "date", e->date);
}
