/* serve-conn.h — the exporter's connections (serve-conn.c): who is kept, who
 * is dropped, and a body refused before it is read; for serve.c. */
#ifndef THREADLAB_SERVE_CONN_H
#define THREADLAB_SERVE_CONN_H

#include "serve-impl.h"

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
