/* serve-conn.c — the exporter's connections: who is kept, who is dropped
 * (serve-admit.h), and a body refused before it is read (serve-impl.h). */
#include "config.h"

#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>

#include "serve-admit.h"
#include "serve-impl.h"
#include "serve-conn.h"

static double serve_conn_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Shuts down the sockets of dropped connections: libmicrohttpd sees the end
 * and closes them.  Under s->lock, so an fd is still the connection's: the
 * server says a connection closed (serve_notify, which takes the lock)
 * before it closes its socket. */
static void serve_conn_drop(const int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		shutdown(fds[i], SHUT_RDWR);
}

/* c's headers are all in: it is kept from now on (serve-admit.h). */
void serve_conn_request_in(struct serve *s, struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
	    MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	int drop[SERVE_ADMIT_DROPS];
	size_t n = 0;
	pthread_mutex_lock(&s->lock);
	struct serve_conn *conn = ci ? ci->socket_context : NULL;
	if (conn && !conn->kept && s->ep >= 0)
		epoll_ctl(s->ep, EPOLL_CTL_DEL, conn->fd, NULL);
	if (conn)
		serve_admit_request(&s->admit, conn, serve_conn_now(), drop, &n);
	serve_conn_drop(drop, n);
	pthread_mutex_unlock(&s->lock);
}

/* Whether the request announces a body (Content-Length above 0, or any
 * Transfer-Encoding). */
bool serve_conn_has_body(struct MHD_Connection *c)
{
	const char *len =
	    MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
	const char *te =
	    MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING);
	return te || (len && strspn(len, " 0") != strlen(len));
}

enum MHD_Result serve_conn_refuse_body(struct MHD_Connection *c, enum serve_route r)
{
	const char *text = r == SERVE_NOT_ALLOWED ? "method not allowed: GET or HEAD\n"
						  : "no request body is taken here\n";
	struct MHD_Response *resp =
	    MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	if (!resp)
		return MHD_NO;
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
	if (r == SERVE_NOT_ALLOWED)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	enum MHD_Result ret = MHD_queue_response(
	    c, r == SERVE_NOT_ALLOWED ? MHD_HTTP_METHOD_NOT_ALLOWED : MHD_HTTP_CONTENT_TOO_LARGE,
	    resp);
	MHD_destroy_response(resp);
	return ret;
}

/* Whether fd's socket holds the end of a request's headers not read yet
 * (a peek: the server's reads are not disturbed). */
bool serve_conn_waiting(int fd)
{
	char buf[4096];
	ssize_t n = recv(fd, buf, sizeof(buf), MSG_PEEK | MSG_DONTWAIT);
	return n >= 4 && memmem(buf, (size_t)n, "\r\n\r\n", 4) != NULL;
}

/* A connection opened or closed: the table of serve-admit.h. */
void serve_conn_notify(void *cls, struct MHD_Connection *c, void **ctx,
		       enum MHD_ConnectionNotificationCode code)
{
	struct serve *s = cls;
	if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
		pthread_mutex_lock(&s->lock);
		struct serve_conn *conn = *ctx;
		if (conn && s->ep >= 0)
			epoll_ctl(s->ep, EPOLL_CTL_DEL, conn->fd, NULL);
		if (conn)
			serve_admit_close(&s->admit, conn);
		pthread_mutex_unlock(&s->lock);
		*ctx = NULL;
		return;
	}
	const union MHD_ConnectionInfo *fi =
	    MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	const union MHD_ConnectionInfo *ai =
	    MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	if (!fi)
		return;
	unsigned char addr[16] = {0};
	size_t len = 0;
	if (ai && ai->client_addr && ai->client_addr->sa_family == AF_INET) {
		memcpy(addr, &((const struct sockaddr_in *)(const void *)ai->client_addr)->sin_addr,
		       4);
		len = 4;
	} else if (ai && ai->client_addr && ai->client_addr->sa_family == AF_INET6) {
		memcpy(addr,
		       &((const struct sockaddr_in6 *)(const void *)ai->client_addr)->sin6_addr,
		       16);
		len = 16;
	}
	int drop[SERVE_ADMIT_DROPS];
	size_t n = 0;
	pthread_mutex_lock(&s->lock);
	struct serve_conn *conn =
	    serve_admit_open(&s->admit, addr, len, fi->connect_fd, serve_conn_now(), drop, &n);
	serve_conn_drop(drop, n);
	if (!conn)
		shutdown(fi->connect_fd, SHUT_RDWR);
	/* A client that ends its side before its request is whole (garbage
	 * and a half-close) is dropped at once, not after the budget. */
	if (conn && s->ep >= 0) {
		struct epoll_event ev = {.events = EPOLLRDHUP,
					 .data.u64 =
					     (uint64_t)(conn - s->admit.c) << 32 | conn->gen};
		epoll_ctl(s->ep, EPOLL_CTL_ADD, conn->fd, &ev);
	}
	pthread_mutex_unlock(&s->lock);
	*ctx = conn;
}

/* Drops the pending connections whose client hung up at once, and a few
 * times a second those whose request's headers have not all come within
 * SERVE_ADMIT_HEADER_S.  The stop pipe is in the epoll set too. */
void *serve_conn_reaper(void *arg)
{
	struct serve *s = arg;
	for (;;) {
		struct epoll_event ev[16];
		int k = epoll_wait(s->ep, ev, 16, 250);
		int fds[SERVE_ADMIT_SLOTS];
		pthread_mutex_lock(&s->lock);
		for (int i = 0; i < k; i++) {
			if (ev[i].data.u64 == UINT64_MAX) {
				pthread_mutex_unlock(&s->lock);
				return NULL;
			}
			int fd = serve_admit_hangup(&s->admit, (size_t)(ev[i].data.u64 >> 32),
						    (unsigned)ev[i].data.u64);
			if (fd >= 0) {
				epoll_ctl(s->ep, EPOLL_CTL_DEL, fd, NULL);
				shutdown(fd, SHUT_RDWR);
			}
		}
		size_t n = serve_admit_expired(&s->admit, serve_conn_now(), fds, SERVE_ADMIT_SLOTS);
		for (size_t i = 0; i < n; i++)
			epoll_ctl(s->ep, EPOLL_CTL_DEL, fds[i], NULL);
		serve_conn_drop(fds, n);
		pthread_mutex_unlock(&s->lock);
	}
}
