/* serve.h — the exporter's HTTP endpoint (--serve [ADDR:]PORT), through
 * libmicrohttpd.
 *
 * One libmicrohttpd thread (epoll) serves every connection; the caller's
 * loop never runs server code.  After each sample the caller renders the
 * exposition once in both formats (serve_publish_metrics) and the server
 * answers every scrape from that memory until the next: a scrape never
 * samples, never waits for the sampling loop, and costs the same however
 * often it comes.  The swap takes a reference count under a mutex held for
 * a few instructions; a response keeps its rendering alive until sent.
 *
 * Routes: GET and HEAD of /metrics (OpenMetrics 1.0.0 when the Accept
 * header asks for it, else the Prometheus text format 0.0.4) and of / (a
 * short HTML page linking to it); any other path 404; other methods on
 * those two paths 405.  Nothing served changes anything.  Limits
 * (serve-admit.h): a connection has SERVE_ADMIT_HEADER_S seconds for its
 * request's line and headers; room for connections whose request is not
 * in yet is kept apart from room for those that sent one, and a newcomer
 * makes room by dropping the oldest such of its own address or of the
 * address that has the most, so no client, nor many from many addresses,
 * can lock a scraper out; one whose client ends its side before its
 * request is whole is dropped at once; 10 s of inactivity; 16 KiB for a request's line
 * and headers (more gives 431 or 414).  A request that announces a body
 * (Content-Length, Transfer-Encoding) is answered at once, 413 (405 for
 * another method), before the body is read, and the connection closed.  With --tls-cert and
 * --tls-key it speaks HTTPS only (GnuTLS, through libmicrohttpd); with --basic-auth every request
 * needs the credentials of a user in the file (auth.h), else 401.
 *
 * Signals are blocked in the server's thread, so they reach the caller's
 * loop; the listening socket is close-on-exec, so no child inherits it. */
#ifndef THREADLAB_SERVE_H
#define THREADLAB_SERVE_H

#include <stdbool.h>
#include <stddef.h>

#include "metrics.h"

struct serve_config {
	const char *listen;   /* "[ADDR:]PORT" as given to --serve */
	const char *tls_cert; /* PEM files, both or neither */
	const char *tls_key;
	const char *auth_file; /* --basic-auth FILE, or NULL */
};

/* The address --serve listens on when only a port is given, and what
 * "localhost" stands for: the one source of that default (--help prints
 * it). */
#define SERVE_ADDR_DEFAULT "127.0.0.1"

/* Splits "[ADDR:]PORT" into a numeric address (SERVE_ADDR_DEFAULT when only
 * a port is given; "[::1]:9864" for IPv6; "localhost" is SERVE_ADDR_DEFAULT) and a
 * port 0-65535 (0: any free port).  Returns 0, or -EINVAL with a one-line
 * reason in err. */
int serve_parse_listen(const char *spec, char *addr, size_t cap, int *port, char *err,
		       size_t errlen);

/* Whether an Accept header asks for OpenMetrics text (with a q above 0 and
 * not below text/plain's).  NULL: no. */
bool serve_wants_openmetrics(const char *accept);
/* What a request for url by method gets: pure, so it can be fuzzed. */
enum serve_route { SERVE_INDEX, SERVE_METRICS, SERVE_NOT_FOUND, SERVE_NOT_ALLOWED };
enum serve_route serve_route(const char *url, const char *method);

struct serve;

/* Listens and starts the server thread.  Returns NULL with a one-line
 * reason in err: a bad address, a port in use, a certificate or key or
 * auth file that cannot be read or used. */
struct serve *serve_start(const struct serve_config *c, char *err, size_t errlen);

/* Whether this libmicrohttpd can serve HTTPS (--tls-cert), and its
 * version ("0.9.75"): for --version. */
bool serve_tls_available(void);
const char *serve_library_version(void);

/* "http://127.0.0.1:9864/metrics" (https with TLS; the real port when 0
 * was asked for). */
const char *serve_url(const struct serve *s);

/* Renders targets[0..n) in both formats and serves them from now on.
 * Returns 0, or -ENOMEM (the old rendering stays). */
int serve_publish_metrics(struct serve *s, const struct metrics_target *t, size_t n,
			  const struct metrics_opts *o);

/* The same for the machine's ranking (--serve --all). */
struct ranking;
int serve_publish_ranking(struct serve *s, const struct ranking *k, const struct metrics_opts *o);

/* Requests answered so far, by status class (for the tests and the
 * benchmark). */
struct serve_counts {
	unsigned long ok, bad_request, not_found, not_allowed, unauthorized, auth_busy, unavailable,
	    body_refused;
	/* connections dropped: to make room for a newcomer, headers late, to
	 * make room among the kept (serve-admit.h) */
	unsigned long dropped_pending, dropped_header, dropped_kept, dropped_hangup;
};
void serve_counts(struct serve *s, struct serve_counts *out);

/* Stops the thread, closes the socket and frees everything.  NULL is fine. */
void serve_stop(struct serve *s);

#endif
