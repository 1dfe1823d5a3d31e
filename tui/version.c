/* version.c — threadlab --version (version.h).
 *
 * One row per feature of the build: a name and a function writing its
 * value.  A feature configure decides is a config.h define (HAVE_BPF, from
 * ./configure --enable-bpf); one a library decides (TLS in libmicrohttpd),
 * or the machine (the OpenBLAS builds installed, where the helpers are), is
 * probed when asked.  A new feature is a new row. */
#include "config.h"

#include "version.h"

#include <limits.h>

#include "labview.h"
#include "recording.h"
#include "serve.h"

static void version_bpf(char *out, size_t cap)
{
#ifdef HAVE_BPF
	snprintf(out, cap, "yes (the bpf collector; needs root or CAP_BPF and CAP_PERFMON)");
#else
	snprintf(out, cap, "no (built without ./configure --enable-bpf)");
#endif
}

static void version_tls(char *out, size_t cap)
{
	snprintf(out, cap, "%s (libmicrohttpd %s)", serve_tls_available() ? "yes" : "no",
		 serve_library_version());
}

static void version_zstd(char *out, size_t cap)
{
	snprintf(out, cap, "yes (libzstd %s)", recording_zstd_version());
}

static void version_blas(char *out, size_t cap, enum settings_blas b, const char *package)
{
	const char *dir = settings_blas_dir(b);
	if (dir)
		snprintf(out, cap, "%s", dir);
	else
		snprintf(out, cap, "not installed (%s)", package);
}

static void version_pthreads(char *out, size_t cap)
{
	version_blas(out, cap, SETTINGS_BLAS_PTHREADS, "libopenblas0-pthread");
}

static void version_openmp(char *out, size_t cap)
{
	version_blas(out, cap, SETTINGS_BLAS_OPENMP, "libopenblas0-openmp");
}

static void version_helpers(char *out, size_t cap)
{
	char dir[PATH_MAX];
	const char *how = "";
	if (labview_programs_dir(dir, sizeof(dir), &how) == 0)
		snprintf(out, cap, "%s (%s)", dir, how);
	else
		snprintf(out, cap, "not found (looked in %s and next to this program)",
			 labview_programs_configured_dir());
}

static const struct {
	const char *name;
	void (*value)(char *out, size_t cap);
} version_features[] = {
    {"bpf", version_bpf},
    {"tls", version_tls},
    {"zstd", version_zstd},
    {"openblas pthreads", version_pthreads},
    {"openblas openmp", version_openmp},
    {"helpers", version_helpers},
};

void version_print(FILE *f)
{
	fprintf(f, "%s\n", PACKAGE_STRING);
	for (size_t i = 0; i < sizeof(version_features) / sizeof(version_features[0]); i++) {
		char v[PATH_MAX + 128];
		version_features[i].value(v, sizeof(v));
		fprintf(f, "%s: %s\n", version_features[i].name, v);
	}
}
