/* serve-admit.c — the exporter's connection table (serve-admit.h). */
#include "config.h"

#include "serve-admit.h"

#include <string.h>

static bool serve_admit_live(const struct serve_conn *c, bool kept)
{
	return c->used && !c->dropped && c->kept == kept;
}

static bool serve_admit_same(const struct serve_conn *c, const void *addr, size_t len)
{
	return c->addr_len == len && memcmp(c->addr, addr, len) == 0;
}

/* Live connections of a kind, from addr (NULL: from anywhere). */
static unsigned serve_admit_of(const struct serve_admit *a, bool kept, const void *addr, size_t len)
{
	unsigned n = 0;
	for (size_t i = 0; i < SERVE_ADMIT_SLOTS; i++)
		n += serve_admit_live(&a->c[i], kept) &&
		     (!addr || serve_admit_same(&a->c[i], addr, len));
	return n;
}

unsigned serve_admit_count(const struct serve_admit *a, bool kept)
{
	return serve_admit_of(a, kept, NULL, 0);
}

/* The oldest live connection of a kind from addr, other than but; with
 * addr NULL, the oldest of those from the addresses that have the most. */
static struct serve_conn *serve_admit_oldest(struct serve_admit *a, bool kept, const void *addr,
					     size_t len, const struct serve_conn *but)
{
	unsigned most = 0, k[SERVE_ADMIT_SLOTS] = {0};
	for (size_t i = 0; i < SERVE_ADMIT_SLOTS && !addr; i++) {
		const struct serve_conn *c = &a->c[i];
		if (c != but && serve_admit_live(c, kept))
			k[i] = serve_admit_of(a, kept, c->addr, c->addr_len);
		most = k[i] > most ? k[i] : most;
	}
	struct serve_conn *old = NULL;
	for (size_t i = 0; i < SERVE_ADMIT_SLOTS; i++) {
		struct serve_conn *c = &a->c[i];
		if (c == but || !serve_admit_live(c, kept))
			continue;
		if (addr ? !serve_admit_same(c, addr, len) : k[i] != most)
			continue;
		if (!kept && a->waiting && a->waiting(c->fd))
			continue;
		if (!old || c->since < old->since)
			old = c;
	}
	return old;
}

static void serve_admit_drop(struct serve_conn *c, unsigned long *count, int *drop, size_t *ndrop)
{
	if (!c || *ndrop >= SERVE_ADMIT_DROPS)
		return;
	c->dropped = true;
	drop[(*ndrop)++] = c->fd;
	(*count)++;
}

/* Makes room for c (of its kind) under the per-address and total limits. */
static void serve_admit_room(struct serve_admit *a, struct serve_conn *c, int *drop, size_t *ndrop)
{
	bool kept = c->kept;
	unsigned per = kept ? SERVE_ADMIT_KEPT_ADDR : SERVE_ADMIT_PENDING_ADDR;
	unsigned all = kept ? SERVE_ADMIT_KEPT : SERVE_ADMIT_PENDING;
	unsigned long *count = kept ? &a->dropped_kept : &a->dropped_pending;
	struct serve_conn *v;
	while (*ndrop < SERVE_ADMIT_DROPS && serve_admit_of(a, kept, c->addr, c->addr_len) > per &&
	       (v = serve_admit_oldest(a, kept, c->addr, c->addr_len, c)))
		serve_admit_drop(v, count, drop, ndrop);
	while (*ndrop < SERVE_ADMIT_DROPS && serve_admit_of(a, kept, NULL, 0) > all &&
	       (v = serve_admit_oldest(a, kept, NULL, 0, c)))
		serve_admit_drop(v, count, drop, ndrop);
}

struct serve_conn *serve_admit_open(struct serve_admit *a, const void *addr, size_t addr_len,
				    int fd, double now, int drop[SERVE_ADMIT_DROPS], size_t *ndrop)
{
	*ndrop = 0;
	struct serve_conn *c = NULL;
	for (size_t i = 0; i < SERVE_ADMIT_SLOTS && !c; i++)
		if (!a->c[i].used)
			c = &a->c[i];
	if (!c)
		return NULL;
	memset(c, 0, sizeof(*c));
	c->used = true;
	c->addr_len = addr_len < sizeof(c->addr) ? addr_len : sizeof(c->addr);
	memcpy(c->addr, addr, c->addr_len);
	c->fd = fd;
	c->gen = ++a->gen;
	c->since = now;
	serve_admit_room(a, c, drop, ndrop);
	return c;
}

void serve_admit_request(struct serve_admit *a, struct serve_conn *c, double now,
			 int drop[SERVE_ADMIT_DROPS], size_t *ndrop)
{
	*ndrop = 0;
	c->since = now;
	if (c->kept || c->dropped)
		return;
	c->kept = true;
	serve_admit_room(a, c, drop, ndrop);
}

void serve_admit_close(struct serve_admit *a, struct serve_conn *c)
{
	(void)a;
	memset(c, 0, sizeof(*c));
}

int serve_admit_hangup(struct serve_admit *a, size_t i, unsigned gen)
{
	struct serve_conn *c = i < SERVE_ADMIT_SLOTS ? &a->c[i] : NULL;
	if (!c || c->gen != gen || !serve_admit_live(c, false))
		return -1;
	c->dropped = true;
	a->dropped_hangup++;
	return c->fd;
}

size_t serve_admit_expired(struct serve_admit *a, double now, int *out, size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; i < SERVE_ADMIT_SLOTS && n < cap; i++) {
		struct serve_conn *c = &a->c[i];
		if (serve_admit_live(c, false) && now - c->since > SERVE_ADMIT_HEADER_S) {
			c->dropped = true;
			out[n++] = c->fd;
			a->dropped_header++;
		}
	}
	return n;
}
