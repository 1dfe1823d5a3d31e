/* serve-impl.h — the exporter's state, shared by serve.c (requests,
 * start, stop) and serve-conn.c (connections); internal to output/. */
#ifndef THREADLAB_SERVE_IMPL_H
#define THREADLAB_SERVE_IMPL_H

#include <microhttpd.h>
#include <pthread.h>
#include <stdbool.h>

#include "serve-admit.h"
#include "serve.h"

/* One rendering in both formats, shared by reference count. */
struct serve_blob {
	int refs;
	char *prom, *om;
	size_t prom_len, om_len;
	pthread_mutex_t *lock; /* the server's: guards refs */
};

struct serve {
	struct MHD_Daemon *d;
	pthread_mutex_t lock; /* current and the counts */
	struct serve_blob *current;
	struct auth *auth;
	char *cert, *key; /* PEM, alive as long as the daemon */
	char url[192];
	struct serve_counts counts;
	struct serve_admit admit; /* under lock */
	pthread_t reaper;	  /* drops connections whose headers are late */
	bool reaper_on;
	int reaper_stop[2]; /* a pipe: closing its write end stops the reaper */
	int ep;		    /* epoll of the pending connections' hang-ups, or -1 */
};

/* c's request headers are all in (the handler's first call). */
void serve_conn_request_in(struct serve *s, struct MHD_Connection *c);
/* Whether c's request announces a body (Content-Length above 0, or any
 * Transfer-Encoding). */
bool serve_conn_has_body(struct MHD_Connection *c);
/* The answer to a request with a body: 413, or 405 when r says the method
 * is not allowed; the connection closes after it. */
enum MHD_Result serve_conn_refuse_body(struct MHD_Connection *c, enum serve_route r);
/* libmicrohttpd's MHD_OPTION_NOTIFY_CONNECTION: the table of
 * serve-admit.h (cls is the struct serve). */
void serve_conn_notify(void *cls, struct MHD_Connection *c, void **ctx,
		       enum MHD_ConnectionNotificationCode code);
/* serve-admit.h's waiting(): a whole request unread in fd's socket. */
bool serve_conn_waiting(int fd);
/* The reaper thread (arg is the struct serve): hang-ups and late headers. */
void *serve_conn_reaper(void *arg);

#endif
