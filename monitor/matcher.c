/* matcher.c — a pattern matched on a thread of its own (matcher.h).
 *
 * One ring of bytes holds the records: a header (size, text length, the
 * time put, the answer) and the text.  Three counters of bytes, never
 * wrapped, say who owns what: the owner writes records up to head, the
 * matcher answers them in place up to done, and the owner reads answers
 * up to taken, which frees their room.  head is the owner's to move and
 * done the matcher's, so neither ever waits for the other; the matcher
 * sleeps on a semaphore when it has caught up.  A record that does not
 * fit before the ring's end leaves a wrap mark there (or, with less room
 * than a header, nothing) and starts at 0. */
#include "config.h"

#include "matcher.h"

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "stop.h"
#include "xalloc.h"

#define MATCHER_WRAP UINT32_MAX /* len of a wrap mark */
#define MATCHER_NICE 10		/* below the thread that samples */

struct matcher_rec {
	uint32_t size; /* of the record, text and padding included */
	uint32_t len;  /* of the text; MATCHER_WRAP for a wrap mark */
	double t_put;
	struct matcher_result r;
	/* the text follows */
};

#define MATCHER_HDR ((sizeof(struct matcher_rec) + 7) & ~(size_t)7)

struct matcher {
	struct pattern *re;
	matcher_fn *fn;
	double budget_s;
	char *ring;
	size_t cap;
	_Atomic size_t head; /* the owner's */
	_Atomic size_t done; /* the matcher's */
	size_t taken;	     /* the owner's alone */
	size_t put, answered;
	_Atomic bool stop, busy, waiting;
	_Atomic uint64_t longest_ns;
	_Atomic int refs; /* the owner and the thread; the last frees */
	sem_t wake;
	pthread_t thread;
};

static void matcher_release(struct matcher *m)
{
	if (atomic_fetch_sub(&m->refs, 1) != 1)
		return;
	pattern_free(m->re);
	sem_destroy(&m->wake);
	free(m->ring);
	free(m);
}

/* The record at byte counter at, or NULL where the ring wraps (*skip then
 * holds the bytes to skip). */
static struct matcher_rec *matcher_rec_at(const struct matcher *m, size_t at, size_t *skip)
{
	size_t off = at % m->cap;
	*skip = m->cap - off;
	if (*skip < MATCHER_HDR)
		return NULL;
	struct matcher_rec *rec = (struct matcher_rec *)(void *)(m->ring + off);
	if (rec->len == MATCHER_WRAP) {
		*skip = rec->size;
		return NULL;
	}
	return rec;
}

static void matcher_answer(struct matcher *m, struct matcher_rec *rec)
{
	double t0 = stop_now();
	if (m->budget_s > 0 && t0 - rec->t_put > m->budget_s) {
		rec->r.status = MATCHER_LATE;
		return;
	}
	rec->r.value = 0;
	rec->r.len = 0;
	rec->r.status = m->fn(m->re, (const char *)rec + MATCHER_HDR, rec->len, &rec->r);
	uint64_t ns = (uint64_t)((stop_now() - t0) * 1e9);
	if (ns > atomic_load_explicit(&m->longest_ns, memory_order_relaxed))
		atomic_store_explicit(&m->longest_ns, ns, memory_order_relaxed);
}

static void *matcher_run(void *arg)
{
	struct matcher *m = arg;
	errno = 0;
	int prio = getpriority(PRIO_PROCESS, (id_t)gettid());
	if (errno == 0)
		setpriority(PRIO_PROCESS, (id_t)gettid(),
			    prio + MATCHER_NICE > 19 ? 19 : prio + MATCHER_NICE);
	for (;;) {
		atomic_store(&m->busy, true);
		if (atomic_load(&m->stop))
			break;
		size_t d = atomic_load_explicit(&m->done, memory_order_relaxed);
		if (d != atomic_load(&m->head)) {
			size_t skip;
			struct matcher_rec *rec = matcher_rec_at(m, d, &skip);
			if (rec) {
				matcher_answer(m, rec);
				skip = rec->size;
			}
			atomic_store_explicit(&m->done, d + skip, memory_order_release);
			continue;
		}
		atomic_store(&m->busy, false);
		/* Asleep only after saying so and looking once more: a put in
		 * between either is seen here or sees waiting and posts. */
		atomic_store(&m->waiting, true);
		if (atomic_load(&m->stop) || d != atomic_load(&m->head)) {
			atomic_store(&m->waiting, false);
			continue;
		}
		while (sem_wait(&m->wake) < 0 && errno == EINTR)
			;
	}
	atomic_store(&m->busy, false);
	matcher_release(m);
	return NULL;
}

struct matcher *matcher_start(struct pattern *re, matcher_fn *fn, size_t queue_bytes,
			      size_t text_max, double budget_s)
{
	struct matcher *m = xcalloc(1, sizeof(*m));
	size_t rec_max = (MATCHER_HDR + text_max + 1 + 7) & ~(size_t)7;
	m->cap = ((queue_bytes > 2 * rec_max ? queue_bytes : 2 * rec_max) + 7) & ~(size_t)7;
	m->ring = xmalloc(m->cap);
	m->re = re;
	m->fn = fn;
	m->budget_s = budget_s;
	atomic_init(&m->refs, 2);
	sem_init(&m->wake, 0, 0);
	/* Signals go to the threads that handle them, never to this one. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int rc = pthread_create(&m->thread, NULL, matcher_run, m);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		atomic_init(&m->refs, 1);
		matcher_release(m);
		errno = rc;
		return NULL;
	}
	return m;
}

int matcher_put(struct matcher *m, uint64_t tag, const char *text, size_t len, double now)
{
	size_t size = (MATCHER_HDR + len + 1 + 7) & ~(size_t)7; /* and a NUL */
	size_t h = atomic_load_explicit(&m->head, memory_order_relaxed);
	size_t end = m->cap - h % m->cap;
	if (size > m->cap / 2 || h + (size <= end ? size : end + size) - m->taken > m->cap)
		return -EAGAIN;
	if (size > end) {
		if (end >= MATCHER_HDR) {
			struct matcher_rec *w =
			    (struct matcher_rec *)(void *)(m->ring + h % m->cap);
			w->size = (uint32_t)end;
			w->len = MATCHER_WRAP;
		}
		h += end;
	}
	struct matcher_rec *rec = (struct matcher_rec *)(void *)(m->ring + h % m->cap);
	rec->size = (uint32_t)size;
	rec->len = (uint32_t)len;
	rec->t_put = now;
	memset(&rec->r, 0, sizeof(rec->r));
	rec->r.tag = tag;
	memcpy((char *)rec + MATCHER_HDR, text, len);
	((char *)rec)[MATCHER_HDR + len] = '\0';
	atomic_store(&m->head, h + size);
	m->put++;
	if (atomic_exchange(&m->waiting, false))
		sem_post(&m->wake);
	return 0;
}

bool matcher_take(struct matcher *m, struct matcher_result *r, const char **text, size_t *len)
{
	size_t d = atomic_load_explicit(&m->done, memory_order_acquire);
	while (m->taken != d) {
		size_t skip;
		const struct matcher_rec *rec = matcher_rec_at(m, m->taken, &skip);
		if (!rec) {
			m->taken += skip;
			continue;
		}
		*r = rec->r;
		if (text) {
			*text = (const char *)rec + MATCHER_HDR;
			*len = rec->len;
		}
		m->taken += rec->size;
		m->answered++;
		return true;
	}
	return false;
}

size_t matcher_pending(const struct matcher *m)
{
	return m->put - m->answered;
}

bool matcher_busy(const struct matcher *m)
{
	return atomic_load(&m->busy) && atomic_load(&m->done) != atomic_load(&m->head);
}

double matcher_longest(const struct matcher *m)
{
	return (double)atomic_load(&m->longest_ns) / 1e9;
}

void matcher_stop(struct matcher *m)
{
	if (!m)
		return;
	atomic_store(&m->stop, true);
	sem_post(&m->wake);
	/* Idle, it ends at once (it sees stop before any other match);
	 * busy, it is left to finish and free. */
	if (!atomic_load(&m->busy))
		pthread_join(m->thread, NULL);
	else
		pthread_detach(m->thread);
	matcher_release(m);
}
