/* record.c — the recording writer (record.h). */
#include "config.h"

#include "record.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "json-out.h"
#include "report.h"
#include "xalloc.h"

struct record {
	int fd;
	char path[1024];
	ZSTD_CCtx *cctx; /* NULL: plain */
	FILE *mem;	 /* the line being formatted */
	char *line;
	size_t line_len;
	void *z;
	size_t z_cap;
	unsigned long long bytes;
	unsigned long lines;
	int argc;
	char **argv;
};

static bool record_zst(const char *path)
{
	size_t n = strlen(path);
	return n > 4 && strcmp(path + n - 4, ".zst") == 0;
}

struct record *record_open(const char *path, int argc, char **argv, char *err, size_t errlen)
{
	struct record *r = xcalloc(1, sizeof(*r));
	r->argc = argc;
	r->argv = argv;
	snprintf(r->path, sizeof(r->path), "%s", path);
	r->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (r->fd < 0) {
		snprintf(err, errlen, "cannot write the recording %s: %s", path, strerror(errno));
		free(r);
		return NULL;
	}
	r->mem = open_memstream(&r->line, &r->line_len);
	if (!r->mem) {
		snprintf(err, errlen, "cannot write the recording %s: %s", path, strerror(errno));
		close(r->fd);
		free(r);
		return NULL;
	}
	if (record_zst(path)) {
		r->cctx = ZSTD_createCCtx();
		if (!r->cctx) {
			snprintf(err, errlen, "cannot write the recording %s: zstd failed", path);
			record_close(r);
			return NULL;
		}
		/* Level 3 (zstd's default): fast enough to run every tick. */
		ZSTD_CCtx_setParameter(r->cctx, ZSTD_c_compressionLevel, 3);
		ZSTD_CCtx_setParameter(r->cctx, ZSTD_c_checksumFlag, 1);
	}
	return r;
}

static int record_write_all(struct record *r, const void *p, size_t n)
{
	const char *c = p;
	size_t done = 0;
	while (done < n) {
		ssize_t w = write(r->fd, c + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			int e = errno;
			/* Drop a torn tail: the file keeps only whole lines. */
			if (done && ftruncate(r->fd, (off_t)r->bytes) == 0)
				lseek(r->fd, (off_t)r->bytes, SEEK_SET);
			return -e;
		}
		done += (size_t)w;
	}
	r->bytes += n;
	return 0;
}

/* Sends the line formatted in r->mem: as is, or as one zstd frame. */
static int record_flush_line(struct record *r)
{
	if (fflush(r->mem) != 0)
		return -ENOMEM;
	size_t n = r->line_len;
	int rc;
	if (r->cctx) {
		size_t need = ZSTD_compressBound(n);
		if (need > r->z_cap) {
			r->z = xrealloc(r->z, need);
			r->z_cap = need;
		}
		size_t z = ZSTD_compress2(r->cctx, r->z, r->z_cap, r->line, n);
		rc = ZSTD_isError(z) ? -EIO : record_write_all(r, r->z, z);
	} else {
		rc = record_write_all(r, r->line, n);
	}
	rewind(r->mem);
	if (rc == 0)
		r->lines++;
	return rc;
}

int record_header(struct record *r, const struct recording_header *h)
{
	struct json_out j;
	json_out_init(&j, r->mem, 0);
	json_out_object(&j);
	json_out_kint(&j, "threadlab_recording", RECORDING_VERSION);
	json_out_kstr(&j, "threadlab_version", h->threadlab_version);
	json_out_kstr(&j, "host", h->host);
	json_out_kstr(&j, "kernel", h->kernel);
	json_out_kstr(&j, "cpu_model", h->cpu_model);
	json_out_kint(&j, "online_cpus", h->online);
	json_out_key(&j, "openblas");
	json_out_object(&j);
	json_out_kstr(&j, "config", h->blas_config);
	json_out_kstr(&j, "core", h->blas_core);
	json_out_kstr(&j, "variant", h->blas_variant);
	json_out_end(&j);
	json_out_key(&j, "env");
	json_out_object(&j);
	for (size_t i = 0; i < h->nvars; i++)
		json_out_kstr(&j, h->vars[i].name, h->vars[i].set ? h->vars[i].value : NULL);
	json_out_end(&j);
	json_out_key(&j, "command_line");
	json_out_array(&j);
	for (int i = 0; i < r->argc; i++)
		json_out_str(&j, r->argv[i]);
	json_out_end(&j);
	json_out_kstr(&j, "start_time", h->start_time);
	json_out_kstr(&j, "mode", h->mode);
	json_out_key(&j, "target");
	json_out_object(&j);
	json_out_kint(&j, "pid", h->pid);
	json_out_kstr(&j, "name", h->target);
	json_out_kbool(&j, "tree", h->tree);
	json_out_end(&j);
	json_out_knum(&j, "interval", h->interval, 3);
	json_out_end(&j);
	json_out_newline(&j);
	return record_flush_line(r);
}

struct record *record_start(const char *path, int argc, char **argv,
			    const struct recording_header *h, char *err, size_t errlen)
{
	struct record *r = record_open(path, argc, argv, err, errlen);
	if (!r)
		return NULL;
	int rc = record_header(r, h);
	if (rc < 0) {
		snprintf(err, errlen, "cannot write the recording %s: %s", path, strerror(-rc));
		record_close(r);
		unlink(path);
		return NULL;
	}
	return r;
}

int record_sample(struct record *r, const struct model_sample *m, const struct workload_report *w,
		  const struct diagnosis *diag)
{
	report_sample(r->mem, FORMAT_JSON, m, w, diag, false);
	return record_flush_line(r);
}

int record_line(struct record *r, const char *line, size_t len)
{
	fwrite(line, 1, len, r->mem);
	return record_flush_line(r);
}

unsigned long long record_bytes(const struct record *r)
{
	return r->bytes;
}

unsigned long record_lines(const struct record *r)
{
	return r->lines;
}

int record_close(struct record *r)
{
	if (!r)
		return 0;
	int rc = 0;
	if (r->mem)
		fclose(r->mem);
	free(r->line);
	free(r->z);
	ZSTD_freeCCtx(r->cctx);
	if (r->fd >= 0 && close(r->fd) < 0)
		rc = -errno;
	free(r);
	return rc;
}
