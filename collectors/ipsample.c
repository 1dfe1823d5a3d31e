/* ipsample.c — user instruction pointers of watched threads (ipsample.h).
 *
 * The ring is the kernel's perf mmap layout (linux/perf_event.h): a
 * control page, then 2^k data pages written by the kernel up to
 * data_head; we read from data_tail and store the new tail, with acquire
 * and release ordering as the header asks.  Records: PERF_RECORD_SAMPLE
 * (header, ip) and PERF_RECORD_LOST (header, id, lost). */
#include "config.h"

#include "ipsample.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "xalloc.h"

#define IPSAMPLE_DATA_PAGES 2 /* a power of two: 512 samples, 2 s at 100 % CPU */

struct ipwatch {
	pid_t tid;
	int fd;
	void *map; /* control page + data pages */
	size_t map_len;
};

struct ipsample {
	struct ipwatch w[IPSAMPLE_MAX];
	size_t n;
	long page;
};

struct ipsample *ipsample_new(void)
{
	struct ipsample *s = xcalloc(1, sizeof(*s));
	s->page = sysconf(_SC_PAGESIZE);
	if (s->page <= 0)
		s->page = 4096;
	return s;
}

static void ipwatch_close(struct ipwatch *w)
{
	if (w->map)
		munmap(w->map, w->map_len);
	if (w->fd >= 0)
		close(w->fd);
}

void ipsample_free(struct ipsample *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		ipwatch_close(&s->w[i]);
	free(s);
}

int ipsample_watched(const struct ipsample *s, pid_t tid)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->w[i].tid == tid)
			return 1;
	return 0;
}

size_t ipsample_count(const struct ipsample *s)
{
	return s->n;
}

int ipsample_watch(struct ipsample *s, pid_t tid)
{
	if (ipsample_watched(s, tid))
		return -EEXIST;
	if (s->n == IPSAMPLE_MAX)
		return -ENOSPC;
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.sample_period = IPSAMPLE_PERIOD_NS;
	a.sample_type = PERF_SAMPLE_IP;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.exclude_idle = 1;
	a.wakeup_events = 1u << 30; /* never woken: read on the caller's ticks */
	int fd = (int)syscall(SYS_perf_event_open, &a, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t len = (size_t)s->page * (1 + IPSAMPLE_DATA_PAGES);
	void *map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		int e = errno;
		close(fd);
		return -e;
	}
	s->w[s->n++] = (struct ipwatch){.tid = tid, .fd = fd, .map = map, .map_len = len};
	return 0;
}

void ipsample_unwatch(struct ipsample *s, pid_t tid)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->w[i].tid == tid) {
			ipwatch_close(&s->w[i]);
			s->w[i] = s->w[--s->n];
			return;
		}
}

/* Copies len bytes at ring offset off (wrapping) into out. */
static void ipsample_copy(const unsigned char *data, size_t size, uint64_t off, void *out,
			  size_t len)
{
	size_t at = (size_t)(off & (size - 1));
	size_t first = len < size - at ? len : size - at;
	memcpy(out, data + at, first);
	if (first < len)
		memcpy((unsigned char *)out + first, data, len - first);
}

ssize_t ipsample_read(struct ipsample *s, pid_t tid, uint64_t *ips, size_t cap, uint64_t *lost)
{
	struct ipwatch *w = NULL;
	for (size_t i = 0; i < s->n && !w; i++)
		if (s->w[i].tid == tid)
			w = &s->w[i];
	if (lost)
		*lost = 0;
	if (!w)
		return -ENOENT;
	struct perf_event_mmap_page *pg = w->map;
	const unsigned char *data = (const unsigned char *)w->map + s->page;
	size_t size = (size_t)s->page * IPSAMPLE_DATA_PAGES;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = pg->data_tail;
	size_t n = 0;
	while (tail + sizeof(struct perf_event_header) <= head) {
		struct perf_event_header h;
		ipsample_copy(data, size, tail, &h, sizeof(h));
		if (h.size < sizeof(h) || tail + h.size > head)
			break;
		if (h.type == PERF_RECORD_SAMPLE && h.size >= sizeof(h) + 8) {
			uint64_t ip;
			ipsample_copy(data, size, tail + sizeof(h), &ip, sizeof(ip));
			if (n < cap)
				ips[n++] = ip;
		} else if (h.type == PERF_RECORD_LOST && h.size >= sizeof(h) + 16 && lost) {
			uint64_t l[2];
			ipsample_copy(data, size, tail + sizeof(h), l, sizeof(l));
			*lost += l[1];
		}
		tail += h.size;
	}
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
	return (ssize_t)n;
}
