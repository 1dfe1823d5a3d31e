/* serve-admit.h — which connections the exporter keeps (serve.h).
 *
 * A scraper must always get a connection, whoever else connects: slow
 * clients that never finish their headers (one byte a second), many of
 * them from many addresses, must not lock it out, nor clients that hold a
 * connection with a body nobody asked for.  So connections are of two
 * kinds, each with room of its own:
 *   - pending: accepted, its request's headers not all in.  At most
 *     SERVE_ADMIT_PENDING_ADDR from one address and SERVE_ADMIT_PENDING in
 *     all; a new one past either drops the oldest pending one of that
 *     address, else of the addresses with the most, so a newcomer always
 *     gets in and sends its request at once; one whose whole request is
 *     already in its socket, not yet read, is never dropped.  One still pending after
 *     SERVE_ADMIT_HEADER_S is dropped (serve_admit_expired), and one whose
 *     client ended its side first at once (serve_admit_hangup).
 *   - kept: it sent a whole request (keep-alive after it).  At most
 *     SERVE_ADMIT_KEPT_ADDR from one address and SERVE_ADMIT_KEPT in all;
 *     past either the one that sent its last request longest ago is
 *     dropped.
 * Both together stay below SERVE_ADMIT_SLOTS, the server's own limit, so
 * the server never refuses at accept.  Pure bookkeeping over a table: the
 * caller (serve.c) holds its lock, and shuts down the sockets of the
 * connections dropped (their fds come back), which makes libmicrohttpd
 * close them. */
#ifndef THREADLAB_SERVE_ADMIT_H
#define THREADLAB_SERVE_ADMIT_H

#include <stdbool.h>
#include <stddef.h>

#define SERVE_ADMIT_SLOTS	 128
#define SERVE_ADMIT_PENDING	 32
#define SERVE_ADMIT_PENDING_ADDR 4
#define SERVE_ADMIT_KEPT	 64
#define SERVE_ADMIT_KEPT_ADDR	 8
#define SERVE_ADMIT_HEADER_S	 3.0 /* s for a request's line and headers */
#define SERVE_ADMIT_DROPS	 4   /* fds one call may drop at most */

struct serve_conn {
	bool used;
	bool kept;		/* sent a whole request */
	bool dropped;		/* its socket was shut down: gone soon, counted nowhere */
	unsigned char addr[16]; /* IPv4 or IPv6 address bytes */
	size_t addr_len;
	int fd;
	unsigned gen; /* tells this connection from a later one in the slot */
	double since; /* when it was accepted, or sent its last request (kept), s */
};

struct serve_admit {
	struct serve_conn c[SERVE_ADMIT_SLOTS];
	/* Whether fd holds a whole request the server has not read yet: such a
	 * pending connection is never the one dropped (a scraper's request
	 * waits in its socket while the server accepts a burst of others).
	 * NULL: none does. */
	bool (*waiting)(int fd);
	unsigned gen;
	unsigned long dropped_pending; /* made room for a newcomer */
	unsigned long dropped_header;  /* headers not in within SERVE_ADMIT_HEADER_S */
	unsigned long dropped_kept;    /* made room among the kept */
	unsigned long dropped_hangup;  /* ended their side before a whole request */
};

/* A new connection from addr (addr_len bytes) on fd at now (s): its slot,
 * or NULL when the table is full (the caller closes it).  The fds of the
 * connections dropped for it go to drop (*ndrop of them). */
struct serve_conn *serve_admit_open(struct serve_admit *a, const void *addr, size_t addr_len,
				    int fd, double now, int drop[SERVE_ADMIT_DROPS], size_t *ndrop);

/* c's request headers are all in at now: it is kept from now on.  The fds
 * of the kept connections dropped for it go to drop. */
void serve_admit_request(struct serve_admit *a, struct serve_conn *c, double now,
			 int drop[SERVE_ADMIT_DROPS], size_t *ndrop);

/* c is closed: its slot is free. */
void serve_admit_close(struct serve_admit *a, struct serve_conn *c);

/* Drops the pending connection in slot i if it is still generation gen
 * (its client ended its side before its request was whole).  Returns its
 * fd, or -1 when that connection has gone or sent its request. */
int serve_admit_hangup(struct serve_admit *a, size_t i, unsigned gen);

/* The pending connections older than SERVE_ADMIT_HEADER_S at now: marked
 * dropped, their fds into out (at most cap).  Returns how many. */
size_t serve_admit_expired(struct serve_admit *a, double now, int *out, size_t cap);

/* Connections of each kind not dropped (for the tests). */
unsigned serve_admit_count(const struct serve_admit *a, bool kept);

#endif
