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

#endif
