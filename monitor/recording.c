/* recording.c — open, index and read a recording (recording.h).
 *
 * The file is mapped, not read: a one-hour recording of a 1,000-thread
 * process is hundreds of megabytes, and the index only needs the line
 * boundaries.  Plain files are indexed with memchr over the mapping.  zstd
 * files are walked frame by frame (ZSTD_findFrameCompressedSize) and each
 * frame decompressed once to find its lines; reading a line later
 * decompresses its frame again (the last frame is kept, so stepping through
 * a frame of many lines — a file compressed by the zstd tool in one frame —
 * does not redo it).  A plain file longer than the address space left
 * (ulimit -v) is read in chunks for its line boundaries instead, and each
 * line read when it is asked for.  The header line, when present, is
 * line 1. */
#include "config.h"

#include "recording-impl.h"
#include "recording-parse.h"
#include "recording-header.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "xalloc.h"

struct recording_line {
	size_t frame;	    /* zstd: the frame's index; plain: unused */
	size_t off, len;    /* plain: in the file; zstd: in the decompressed frame */
	unsigned long line; /* 1-based line number */
};

struct recording_frame {
	size_t off, len; /* compressed bytes in the file */
	bool cut;	 /* the file ends inside it: decoded up to the cut */
};

struct recording {
	char path[1024];
	const unsigned char *map;
	int fd;	/* a plain file too large to map (ulimit -v): read by line; else -1 */
	size_t size;
	bool zstd;
	struct recording_frame *frames;
	size_t nframes, frames_cap;
	struct recording_line *lines; /* samples only */
	size_t nlines, lines_cap;
	struct recording_header header;
	char note[256];
	/* zstd: the frame decompressed last */
	ZSTD_DCtx *dctx;
	size_t cached; /* frame index + 1; 0 none */
	char *buf;
	size_t buf_len, buf_cap;
};

void recording_header_fill(struct recording_header *h, const struct env_record *e, const char *mode,
			   int pid, const char *target, bool tree, double interval)
{
	memset(h, 0, sizeof(*h));
	h->present = true;
	h->version = RECORDING_VERSION;
	snprintf(h->threadlab_version, sizeof(h->threadlab_version), "%s", PACKAGE_VERSION);
	snprintf(h->host, sizeof(h->host), "%s", e->host);
	snprintf(h->kernel, sizeof(h->kernel), "%s", e->kernel);
	snprintf(h->cpu_model, sizeof(h->cpu_model), "%s", e->cpu_model);
	h->online = e->online;
	snprintf(h->blas_config, sizeof(h->blas_config), "%s", e->blas_config);
	snprintf(h->blas_core, sizeof(h->blas_core), "%s", e->blas_core);
	snprintf(h->blas_variant, sizeof(h->blas_variant), "%s", e->blas_variant);
	for (size_t i = 0; i < e->nvars && i < ENVIRONMENT_VARS_MAX; i++) {
		snprintf(h->vars[i].name, sizeof(h->vars[i].name), "%s", e->vars[i].name);
		h->vars[i].set = e->vars[i].value != NULL;
		snprintf(h->vars[i].value, sizeof(h->vars[i].value), "%s",
			 e->vars[i].value ? e->vars[i].value : "");
	}
	h->nvars = e->nvars;
	snprintf(h->start_time, sizeof(h->start_time), "%s", e->date);
	snprintf(h->mode, sizeof(h->mode), "%s", mode);
	h->pid = pid;
	snprintf(h->target, sizeof(h->target), "%s", target ? target : "");
	h->tree = tree;
	h->interval = interval;
}

static const unsigned char recording_zstd_magic[4] = {0x28, 0xb5, 0x2f, 0xfd};

/* Line number line, len bytes at off (of frame), first its first byte:
 * indexed unless it is empty (nothing, or a lone '\r'). */
static void recording_add_line(struct recording *r, size_t frame, size_t off, size_t len,
			       char first, unsigned long line)
{
	if (len == 0 || (len == 1 && first == '\r'))
		return;
	r->lines = xreallocarray_grow(r->lines, &r->lines_cap, r->nlines + 1, sizeof(*r->lines));
	r->lines[r->nlines++] = (struct recording_line){frame, off, len, line};
}

/* The notes of a file that ends inside its last line, or its last zstd
 * frame, after line lineno. */
static void recording_note_torn(struct recording *r, unsigned long lineno)
{
	snprintf(r->note, sizeof(r->note), "line %lu has no end: ignored", lineno + 1);
}

static void recording_note_cut(struct recording *r, unsigned long lineno)
{
	snprintf(r->note, sizeof(r->note),
		 "the file is cut in a zstd frame after line %lu: the rest is ignored", lineno);
}

/* Decompresses frame i into r->buf.  0, or -EINVAL (corrupt), -EFBIG
 * (it inflates past RECORDING_FRAME_MAX), -ENOMEM (no memory for it: a
 * file is input, so this is said, not fatal).  A frame whose header
 * declares its size (zstd writes it unless it compressed a stream) is
 * refused at once when that is past the cap, and otherwise decoded into a
 * buffer of that size, not grown to it by doubling; the decoder fails a
 * frame whose data does not match what it declared. */
static int recording_inflate(struct recording *r, size_t i)
{
	if (r->cached == i + 1)
		return 0;
	const struct recording_frame *f = &r->frames[i];
	unsigned long long declared = ZSTD_getFrameContentSize(r->map + f->off, f->len);
	size_t want = 0; /* the capacity the declared size needs; 0 unknown */
	if (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared != ZSTD_CONTENTSIZE_ERROR) {
		if (declared > RECORDING_FRAME_MAX)
			return -EFBIG;
		want = (size_t)declared + ZSTD_DStreamOutSize();
	}
	ZSTD_DCtx_reset(r->dctx, ZSTD_reset_session_only);
	ZSTD_inBuffer in = {r->map + f->off, f->len, 0};
	r->buf_len = 0;
	r->cached = 0;
	for (;;) {
		if (r->buf_cap - r->buf_len < ZSTD_DStreamOutSize()) {
			size_t cap = r->buf_cap ? r->buf_cap * 2 : 2 * ZSTD_DStreamOutSize();
			if (want > cap)
				cap = want;
			if (r->buf_len >= RECORDING_FRAME_MAX)
				return -EFBIG;
			if (cap > RECORDING_FRAME_MAX + ZSTD_DStreamOutSize())
				cap = RECORDING_FRAME_MAX + ZSTD_DStreamOutSize();
			char *b = realloc(r->buf, cap);
			if (!b)
				return -ENOMEM;
			r->buf = b;
			r->buf_cap = cap;
		}
		ZSTD_outBuffer out = {r->buf, r->buf_cap, r->buf_len};
		size_t rc = ZSTD_decompressStream(r->dctx, &out, &in);
		if (ZSTD_isError(rc))
			return -EINVAL;
		r->buf_len = out.pos;
		if (rc == 0)
			break;
		if (r->buf_len > RECORDING_FRAME_MAX)
			return -EFBIG;
		if (in.pos == in.size && out.pos < out.size) {
			if (f->cut)
				break; /* what the cut left */
			return -EINVAL; /* the frame ends before its data */
		}
	}
	r->cached = i + 1;
	return 0;
}

/* The text of line (frame, off, len) of the file (for zstd, inflated), or
 * NULL with why it cannot be had in why: too long to parse, no memory for
 * its frame, corrupt. */
static const char *recording_text(struct recording *r, const struct recording_line *l, char *why,
				  size_t cap)
{
	if (l->len > RECORDING_LINE_MAX) {
		snprintf(why, cap, "a line of %zu MiB, over the %zu MiB a sample may take: skipped",
			 l->len >> 20, RECORDING_LINE_MAX >> 20);
		return NULL;
	}
	if (!r->zstd && r->map)
		return (const char *)r->map + l->off;
	if (!r->zstd) { /* read, not mapped: the line into buf */
		if (r->buf_cap < l->len + 1) {
			char *b = realloc(r->buf, l->len + 1);
			if (!b) {
				snprintf(why, cap, "out of memory for a line of %zu bytes", l->len);
				return NULL;
			}
			r->buf = b;
			r->buf_cap = l->len + 1;
		}
		ssize_t n = pread(r->fd, r->buf, l->len, (off_t)l->off);
		if (n != (ssize_t)l->len) {
			snprintf(why, cap, "cannot be read: %s", n < 0 ? strerror(errno) : "cut");
			return NULL;
		}
		return r->buf;
	}
	int rc = recording_inflate(r, l->frame);
	if (rc < 0) {
		snprintf(why, cap, "%s",
			 rc == -ENOMEM ? "out of memory for its zstd frame" : "corrupt zstd data");
		return NULL;
	}
	return r->buf + l->off;
}

/* Lines of a buffer: every complete one (ending in '\n'); a tail without a
 * newline is torn.  Returns the bytes of that torn tail. */
static size_t recording_split(struct recording *r, const char *p, size_t n, size_t frame,
			      size_t base, unsigned long *lineno)
{
	size_t off = 0;
	while (off < n) {
		const char *nl = memchr(p + off, '\n', n - off);
		if (!nl)
			return n - off;
		size_t len = (size_t)(nl - (p + off));
		++*lineno;
		recording_add_line(r, frame, base + off, len, p[off], *lineno);
		off += len + 1;
	}
	return 0;
}

/* A plain file read in chunks, for the line boundaries only (no mapping:
 * the address space is short of the file's length). */
static void recording_index_read(struct recording *r)
{
	size_t cap = (size_t)4 << 20, off = 0, start = 0;
	char *chunk = xmalloc(cap), first = 0;
	unsigned long lineno = 0;
	while (off < r->size) {
		ssize_t n = pread(r->fd, chunk, cap, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(r->note, sizeof(r->note), "cannot read past byte %zu (%s): the rest is ignored",
				 off, strerror(errno));
			free(chunk);
			return;
		}
		if (n == 0)
			break; /* shorter than it was: as if cut */
		for (size_t i = 0; i < (size_t)n;) {
			if (off + i == start)
				first = chunk[i];
			const char *nl = memchr(chunk + i, '\n', (size_t)n - i);
			if (!nl)
				break;
			size_t end = off + (size_t)(nl - chunk), len = end - start;
			++lineno;
			recording_add_line(r, 0, start, len, first, lineno);
			start = end + 1;
			i = (size_t)(nl - chunk) + 1;
		}
		off += (size_t)n;
	}
	free(chunk);
	if (start < off)
		recording_note_torn(r, lineno);
}

static int recording_index_zstd(struct recording *r, char *err, size_t errlen)
{
	unsigned long lineno = 0;
	size_t off = 0, decoded = 0;
	r->dctx = ZSTD_createDCtx();
	if (!r->dctx) {
		snprintf(err, errlen, "%s: cannot start zstd", r->path);
		return -ENOMEM;
	}
	while (off < r->size) {
		size_t len = ZSTD_findFrameCompressedSize(r->map + off, r->size - off);
		/* A frame the file ends in (a copy cut short, a writer killed,
		 * or zstd's one frame of a whole file): what it holds up to the
		 * cut is read, as of a plain file cut in a line. */
		bool cut = ZSTD_isError(len) &&
			   ZSTD_getFrameContentSize(r->map + off, r->size - off) !=
			       ZSTD_CONTENTSIZE_ERROR;
		if (ZSTD_isError(len) && !cut) {
			recording_note_cut(r, lineno);
			break;
		}
		if (cut)
			len = r->size - off;
		r->frames = xreallocarray_grow(r->frames, &r->frames_cap, r->nframes + 1,
					       sizeof(*r->frames));
		r->frames[r->nframes] = (struct recording_frame){off, len, cut};
		int irc = recording_inflate(r, r->nframes);
		if (irc == 0 && decoded + r->buf_len > RECORDING_DECODED_MAX)
			irc = -E2BIG;
		if (irc < 0) {
			snprintf(
			    r->note, sizeof(r->note),
			    "zstd frame %zu %s: the file is read up to line %lu", r->nframes + 1,
			    irc == -EFBIG    ? "inflates past 256 MiB"
			    : irc == -ENOMEM ? "needs more memory than there is (out of memory)"
			    : irc == -E2BIG  ? "takes the file past 16 GiB inflated"
					     : "is corrupt",
			    lineno);
			r->cached = 0;
			break;
		}
		decoded += r->buf_len;
		size_t torn = recording_split(r, r->buf, r->buf_len, r->nframes, 0, &lineno);
		r->nframes++;
		off += len;
		if (cut) {
			recording_note_cut(r, lineno);
			break;
		}
		if (torn) {
			recording_note_torn(r, lineno);
			break;
		}
	}
	if (r->nframes == 0 && r->size > 0) {
		snprintf(err, errlen, "%s: not a zstd file threadlab can read", r->path);
		return -EINVAL;
	}
	return 0;
}

/* Line 1: the header, if it is one (then it leaves the sample index). */
static int recording_take_header(struct recording *r, char *err, size_t errlen)
{
	char why[256];
	if (r->nlines == 0)
		return 0;
	const char *t = recording_text(r, &r->lines[0], why, sizeof(why));
	if (!t) {
		snprintf(err, errlen, "%s:%lu: %s", r->path, r->lines[0].line, why);
		return -EINVAL;
	}
	int rc = recording_header_parse(t, r->lines[0].len, &r->header, why, sizeof(why));
	unsigned long l = r->lines[0].line;
	if (rc == -ENOTSUP)
		snprintf(err, errlen, "%s:%lu: %s", r->path, l, why);
	else if (rc < 0 &&
		 (strncmp(why, "not JSON", 8) == 0 || strncmp(why, "not a JSON", 10) == 0))
		snprintf(err, errlen, "%s:%lu: not a threadlab recording (%s)", r->path, l, why);
	else if (rc < 0)
		snprintf(err, errlen, "%s:%lu: bad recording header: %s", r->path, l, why);
	if (rc < 0)
		return rc;
	if (rc == 1)
		memmove(r->lines, r->lines + 1, --r->nlines * sizeof(*r->lines));
	return 0;
}

const char *recording_zstd_version(void)
{
	return ZSTD_versionString();
}

struct recording *recording_open(const char *path, char *err, size_t errlen)
{
	struct recording *r = xcalloc(1, sizeof(*r));
	snprintf(r->path, sizeof(r->path), "%s", path);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		free(r);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		close(fd);
		free(r);
		return NULL;
	}
	r->size = (size_t)st.st_size;
	r->fd = -1;
	unsigned char magic[4] = {0};
	if (r->size) {
		void *m = mmap(NULL, r->size, PROT_READ, MAP_PRIVATE, fd, 0);
		int e = errno;
		/* Too long for the address space left (ulimit -v): a plain file
		 * is read by line instead; a zstd file's frames need the map. */
		if (m == MAP_FAILED && e == ENOMEM && pread(fd, magic, 4, 0) == 4 &&
		    memcmp(magic, recording_zstd_magic, 4) != 0) {
			r->fd = fd;
			recording_index_read(r);
		} else if (m == MAP_FAILED) {
			snprintf(err, errlen, "%s: %s%s", path, strerror(e),
				 e == ENOMEM ? " (mapping the file needs as much address space "
					       "as it is long: see ulimit -v)"
					     : "");
			close(fd);
			free(r);
			return NULL;
		} else {
			r->map = m;
			madvise(m, r->size, MADV_SEQUENTIAL);
		}
	}
	if (r->fd < 0)
		close(fd);
	r->zstd = r->map && r->size >= 4 && memcmp(r->map, recording_zstd_magic, 4) == 0;
	int rc = 0;
	if (r->zstd) {
		rc = recording_index_zstd(r, err, errlen);
	} else if (r->map) {
		unsigned long lineno = 0;
		size_t torn = recording_split(r, (const char *)r->map, r->size, 0, 0, &lineno);
		if (torn)
			recording_note_torn(r, lineno);
	}
	if (rc == 0)
		rc = recording_take_header(r, err, errlen);
	if (rc == 0 && r->nlines == 0) {
		if (r->header.present)
			snprintf(err, errlen, "%s: a recording without samples", path);
		else if (r->size == 0)
			snprintf(err, errlen, "%s: empty: not a threadlab recording", path);
		else
			snprintf(err, errlen,
				 "%s: no complete line in its %zu bytes%s: not a threadlab "
				 "recording",
				 path, r->size, r->zstd ? " (zstd)" : "");
		rc = -EINVAL;
	}
	/* The first sample must read, or this is not a recording at all. */
	if (rc == 0 && !r->header.present) {
		struct recording_sample s;
		char why[256];
		recording_parse_sample_init(&s);
		const char *t = recording_text(r, &r->lines[0], why, sizeof(why));
		if (!t || recording_parse_sample(t, r->lines[0].len, &s, why, sizeof(why)) < 0) {
			snprintf(err, errlen, "%s:%lu: not a threadlab recording (%s)", path,
				 r->lines[0].line, why);
			rc = -EINVAL;
		}
		recording_parse_sample_free(&s);
	}
	if (rc < 0) {
		recording_close(r);
		return NULL;
	}
	if (r->map)
		madvise((void *)r->map, r->size, MADV_RANDOM);
	return r;
}

void recording_close(struct recording *r)
{
	if (!r)
		return;
	if (r->map)
		munmap((void *)r->map, r->size);
	if (r->fd >= 0)
		close(r->fd);
	ZSTD_freeDCtx(r->dctx);
	free(r->frames);
	free(r->lines);
	free(r->buf);
	free(r);
}

const struct recording_header *recording_header(const struct recording *r)
{
	return &r->header;
}

size_t recording_count(const struct recording *r)
{
	return r->nlines;
}

const char *recording_note(const struct recording *r)
{
	return r->note;
}

int recording_read(struct recording *r, size_t i, struct recording_sample *out, char *err,
		   size_t errlen)
{
	char why[256];
	if (i >= r->nlines)
		return -ERANGE;
	const struct recording_line *l = &r->lines[i];
	const char *t = recording_text(r, l, why, sizeof(why));
	if (!t) {
		snprintf(err, errlen, "%s:%lu: %s", r->path, l->line, why);
		return -EINVAL;
	}
	if (recording_parse_sample(t, l->len, out, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s:%lu: %s", r->path, l->line, why);
		return -EINVAL;
	}
	out->index = i;
	out->line = l->line;
	return 0;
}
