/* serve.c — the HTTP endpoint (serve.h). */
#include "config.h"

#include "serve.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "auth.h"
#include "serve-admit.h"
#include "serve-impl.h"
#include "serve-conn.h"
#include "xalloc.h"
#include "metrics-all.h"

#define SERVE_CT_PROM	"text/plain; version=0.0.4; charset=utf-8"
#define SERVE_CT_OM	"application/openmetrics-text; version=1.0.0; charset=utf-8"
#define SERVE_TIMEOUT_S 10u
#define SERVE_MEMORY	((size_t)16384)
#define SERVE_PEM_MAX	(1 << 20)
#define SERVE_REALM	"threadlab"

static const char serve_index[] =
    "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>threadlab</title></head>\n"
    "<body><h1>threadlab</h1><p>Threads, CPU budget, throttling and diagnosis as "
    "metrics: <a href=\"/metrics\">/metrics</a></p></body></html>\n";

/* ---- parsing -------------------------------------------------------------- */

int serve_parse_listen(const char *spec, char *addr, size_t cap, int *port, char *err,
		       size_t errlen)
{
	const char *p = spec, *colon = NULL;
	char host[128] = SERVE_ADDR_DEFAULT;
	if (spec[0] == '[') {
		const char *close = strchr(spec, ']');
		if (!close || close[1] != ':' || (size_t)(close - spec - 1) >= sizeof(host)) {
			snprintf(err, errlen,
				 "--serve %s: an IPv6 address goes in brackets: [::1]:9864", spec);
			return -EINVAL;
		}
		memcpy(host, spec + 1, (size_t)(close - spec - 1));
		host[close - spec - 1] = '\0';
		p = close + 2;
	} else if ((colon = strrchr(spec, ':'))) {
		if ((size_t)(colon - spec) >= sizeof(host) || strchr(spec, ':') != colon) {
			snprintf(err, errlen, "--serve %s: not [ADDR:]PORT (IPv6 in brackets)",
				 spec);
			return -EINVAL;
		}
		memcpy(host, spec, (size_t)(colon - spec));
		host[colon - spec] = '\0';
		p = colon + 1;
	}
	char *end;
	errno = 0;
	long v = strtol(p, &end, 10);
	if (!*p || *end || errno || v < 0 || v > 65535) {
		snprintf(err, errlen, "--serve %s: the port must be a number 0-65535", spec);
		return -EINVAL;
	}
	if (strcmp(host, "localhost") == 0)
		snprintf(host, sizeof(host), "%s", SERVE_ADDR_DEFAULT);
	unsigned char buf[sizeof(struct in6_addr)];
	if (inet_pton(AF_INET, host, buf) != 1 && inet_pton(AF_INET6, host, buf) != 1) {
		snprintf(err, errlen, "--serve %s: '%s' is not a numeric IPv4 or IPv6 address",
			 spec, host);
		return -EINVAL;
	}
	snprintf(addr, cap, "%s", host);
	*port = (int)v;
	return 0;
}

enum serve_route serve_route(const char *url, const char *method)
{
	/* Any other method, on any target (CONNECT's is no path): 405. */
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return SERVE_NOT_ALLOWED;
	/* The absolute form ("GET http://host:port/metrics"), which a server
	 * must accept (RFC 9112, 3.2.2): its path. */
	if (strncasecmp(url, "http://", 7) == 0 || strncasecmp(url, "https://", 8) == 0) {
		const char *path = strchr(strstr(url, "://") + 3, '/');
		url = path ? path : "/";
	}
	bool metrics = strcmp(url, "/metrics") == 0, index = strcmp(url, "/") == 0;
	if (!metrics && !index)
		return SERVE_NOT_FOUND;
	return index ? SERVE_INDEX : SERVE_METRICS;
}

bool serve_wants_openmetrics(const char *accept)
{
	if (!accept)
		return false;
	double om = -1, text = -1;
	for (const char *p = accept; *p;) {
		size_t n = strcspn(p, ",");
		char range[256];
		size_t k = n < sizeof(range) - 1 ? n : sizeof(range) - 1;
		memcpy(range, p, k);
		range[k] = '\0';
		p += n + (p[n] == ',');
		char *type = range + strspn(range, " \t");
		size_t tl = strcspn(type, " \t;");
		double q = 1.0;
		for (char *s = strchr(type, ';'); s; s = strchr(s + 1, ';')) {
			char *v = s + 1 + strspn(s + 1, " \t");
			if ((v[0] == 'q' || v[0] == 'Q') && v[1] == '=')
				q = strtod(v + 2, NULL);
		}
		if (tl == 28 && strncasecmp(type, "application/openmetrics-text", 28) == 0)
			om = q > om ? q : om;
		else if (tl == 10 && strncasecmp(type, "text/plain", 10) == 0)
			text = q > text ? q : text;
	}
	return om > 0 && om >= text;
}

/* ---- the exposition ------------------------------------------------------ */

static void serve_blob_unref(void *cls)
{
	struct serve_blob *b = cls;
	pthread_mutex_lock(b->lock);
	bool last = --b->refs == 0;
	pthread_mutex_unlock(b->lock);
	if (last) {
		free(b->prom);
		free(b->om);
		free(b);
	}
}

/* What a rendering writes: the targets of a session, or the machine's
 * ranking. */
struct serve_what {
	const struct metrics_target *t;
	size_t n;
	const struct ranking *k;
	const struct metrics_opts *o;
};

static int serve_render(char **buf, size_t *len, enum metrics_format fmt,
			const struct serve_what *w)
{
	FILE *f = open_memstream(buf, len);
	if (!f)
		return -ENOMEM;
	int rc = w->k ? metrics_all_write_ranking(f, fmt, w->k, w->o)
		      : metrics_write(f, fmt, w->t, w->n, w->o);
	if (fclose(f) != 0 || rc < 0) {
		free(*buf);
		*buf = NULL;
		return -ENOMEM;
	}
	return 0;
}

static int serve_publish(struct serve *s, const struct serve_what *w)
{
	struct serve_blob *b = xcalloc(1, sizeof(*b));
	if (serve_render(&b->prom, &b->prom_len, METRICS_PROMETHEUS, w) < 0 ||
	    serve_render(&b->om, &b->om_len, METRICS_OPENMETRICS, w) < 0) {
		free(b->prom);
		free(b);
		return -ENOMEM;
	}
	b->refs = 1;
	b->lock = &s->lock;
	pthread_mutex_lock(&s->lock);
	struct serve_blob *old = s->current;
	s->current = b;
	pthread_mutex_unlock(&s->lock);
	if (old)
		serve_blob_unref(old);
	return 0;
}

int serve_publish_metrics(struct serve *s, const struct metrics_target *t, size_t n,
			  const struct metrics_opts *o)
{
	return serve_publish(s, &(struct serve_what){.t = t, .n = n, .o = o});
}

int serve_publish_ranking(struct serve *s, const struct ranking *k, const struct metrics_opts *o)
{
	return serve_publish(s, &(struct serve_what){.k = k, .o = o});
}

/* ---- requests ------------------------------------------------------------- */

static void serve_count(struct serve *s, unsigned long *c)
{
	pthread_mutex_lock(&s->lock);
	(*c)++;
	pthread_mutex_unlock(&s->lock);
}

static enum MHD_Result serve_text(struct MHD_Connection *c, unsigned code, const char *type,
				  const char *text, const char *allow)
{
	struct MHD_Response *r =
	    MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (allow)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	enum MHD_Result ret = MHD_queue_response(c, code, r);
	MHD_destroy_response(r);
	return ret;
}

static enum auth_result serve_authorized(struct serve *s, struct MHD_Connection *c)
{
	if (!s->auth)
		return AUTH_OK;
	char *pass = NULL;
	char *user = MHD_basic_auth_get_username_password(c, &pass);
	enum auth_result r = user && pass ? auth_check(s->auth, user, pass) : AUTH_DENIED;
	if (pass) {
		memset(pass, 0, strlen(pass));
		MHD_free(pass);
	}
	if (user)
		MHD_free(user);
	return r;
}

/* 429 with Retry-After: too many passwords to check (auth.h). */
static enum MHD_Result serve_auth_busy(struct serve *s, struct MHD_Connection *c)
{
	static const char text[] = "too many password checks: try again shortly\n";
	struct MHD_Response *r = MHD_create_response_from_buffer(sizeof(text) - 1, (void *)text,
								 MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	char after[24];
	snprintf(after, sizeof(after), "%ld", (long)auth_retry_after(s->auth) + 1);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, after);
	enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_TOO_MANY_REQUESTS, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result serve_metrics(struct serve *s, struct MHD_Connection *c)
{
	const char *accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Accept");
	bool om = serve_wants_openmetrics(accept);
	pthread_mutex_lock(&s->lock);
	struct serve_blob *b = s->current;
	if (b)
		b->refs++;
	pthread_mutex_unlock(&s->lock);
	if (!b) {
		serve_count(s, &s->counts.unavailable);
		return serve_text(c, MHD_HTTP_SERVICE_UNAVAILABLE, "text/plain; charset=utf-8",
				  "no sample yet: try again in a second\n", NULL);
	}
	/* No copy: the response frees its reference when it is done. */
	struct MHD_Response *r = MHD_create_response_from_buffer_with_free_callback_cls(
	    om ? b->om_len : b->prom_len, om ? b->om : b->prom, serve_blob_unref, b);
	if (!r) {
		serve_blob_unref(b);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, om ? SERVE_CT_OM : SERVE_CT_PROM);
	MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, "Accept");
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	serve_count(s, &s->counts.ok);
	return ret;
}

static enum MHD_Result serve_host_count(void *cls, enum MHD_ValueKind kind, const char *key,
					const char *value)
{
	(void)kind, (void)value;
	if (strcasecmp(key, MHD_HTTP_HEADER_HOST) == 0)
		++*(unsigned *)cls;
	return MHD_YES;
}

/* RFC 9112, 3.2: an HTTP/1.1 request without a Host header, or any request
 * with more than one, is answered 400. */
static bool serve_host_valid(struct MHD_Connection *c, const char *version)
{
	unsigned hosts = 0;
	MHD_get_connection_values(c, MHD_HEADER_KIND, serve_host_count, &hosts);
	return hosts == 1 || (hosts == 0 && strcmp(version, MHD_HTTP_VERSION_1_0) == 0);
}

static enum MHD_Result serve_handler(void *cls, struct MHD_Connection *c, const char *url,
				     const char *method, const char *version, const char *upload,
				     size_t *upload_size, void **req_cls)
{
	static int started;
	struct serve *s = cls;
	(void)upload;
	if (*req_cls == NULL) { /* the headers are in; a body may follow */
		*req_cls = &started;
		serve_conn_request_in(s, c);
		/* Nothing served takes a body: refused before it is read, and
		 * the connection closed after the answer. */
		if (serve_conn_has_body(c)) {
			enum serve_route r = serve_route(url, method);
			serve_count(s, r == SERVE_NOT_ALLOWED ? &s->counts.not_allowed
							      : &s->counts.body_refused);
			return serve_conn_refuse_body(c, r);
		}
		return MHD_YES;
	}
	if (*upload_size) { /* a body after all (none was announced): dropped */
		*upload_size = 0;
		return MHD_YES;
	}
	if (!serve_host_valid(c, version)) {
		serve_count(s, &s->counts.bad_request);
		return serve_text(c, MHD_HTTP_BAD_REQUEST, "text/plain; charset=utf-8",
				  "bad request: an HTTP/1.1 request needs one Host header\n", NULL);
	}
	enum auth_result auth = serve_authorized(s, c);
	if (auth == AUTH_BUSY) {
		serve_count(s, &s->counts.auth_busy);
		return serve_auth_busy(s, c);
	}
	if (auth != AUTH_OK) {
		serve_count(s, &s->counts.unauthorized);
		struct MHD_Response *r = MHD_create_response_from_buffer(
		    13, (void *)"unauthorized\n", MHD_RESPMEM_PERSISTENT);
		if (!r)
			return MHD_NO;
		enum MHD_Result ret = MHD_queue_basic_auth_fail_response(c, SERVE_REALM, r);
		MHD_destroy_response(r);
		return ret;
	}
	enum serve_route route = serve_route(url, method);
	if (route == SERVE_NOT_FOUND) {
		serve_count(s, &s->counts.not_found);
		return serve_text(c, MHD_HTTP_NOT_FOUND, "text/plain; charset=utf-8",
				  "not found: the metrics are at /metrics\n", NULL);
	}
	if (route == SERVE_NOT_ALLOWED) {
		serve_count(s, &s->counts.not_allowed);
		return serve_text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain; charset=utf-8",
				  "method not allowed: GET or HEAD\n", "GET, HEAD");
	}
	if (route == SERVE_INDEX) {
		serve_count(s, &s->counts.ok);
		return serve_text(c, MHD_HTTP_OK, "text/html; charset=utf-8", serve_index, NULL);
	}
	return serve_metrics(s, c);
}

/* libmicrohttpd's messages: nothing may reach the terminal the dashboard
 * owns, and a bad client is no news. */
static void serve_log(void *cls, const char *fmt, va_list ap)
{
	(void)cls, (void)fmt, (void)ap;
}

/* ---- start and stop --------------------------------------------------- */

static char *serve_read_pem(const char *what, const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > SERVE_PEM_MAX) {
		int e = fd < 0 ? errno : EINVAL;
		snprintf(err, errlen, "cannot read %s %s: %s", what, path,
			 fd >= 0 && !S_ISREG(st.st_mode) ? "not a file" : strerror(e));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	char *buf = xmalloc((size_t)st.st_size + 1);
	ssize_t n = read(fd, buf, (size_t)st.st_size);
	close(fd);
	if (n < 0) {
		snprintf(err, errlen, "cannot read %s %s: %s", what, path, strerror(errno));
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

/* The listening socket: ours, so that a port in use or a bad address gets
 * a precise message, and close-on-exec. */
static int serve_listen(const char *addr, int port, char *err, size_t errlen, int *bound)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	memset(&ss, 0, sizeof(ss));
	struct sockaddr_in *a4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&ss;
	if (inet_pton(AF_INET, addr, &a4->sin_addr) == 1) {
		a4->sin_family = AF_INET;
		a4->sin_port = htons((uint16_t)port);
		sl = sizeof(*a4);
	} else {
		inet_pton(AF_INET6, addr, &a6->sin6_addr);
		a6->sin6_family = AF_INET6;
		a6->sin6_port = htons((uint16_t)port);
		sl = sizeof(*a6);
	}
	int one = 1, fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		snprintf(err, errlen, "cannot listen on %s port %d: %s", addr, port,
			 strerror(errno));
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)); /* TIME_WAIT only */
	/* "::" is every address, IPv4 as well (as Prometheus's own exporters
	 * take it), whatever net.ipv6.bindv6only says; any other IPv6 address
	 * is that address only. */
	if (ss.ss_family == AF_INET6) {
		int v6only = !IN6_IS_ADDR_UNSPECIFIED(&a6->sin6_addr);
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof(v6only));
	}
	if (bind(fd, (struct sockaddr *)&ss, sl) < 0 || listen(fd, 64) < 0) {
		snprintf(err, errlen, "cannot listen on %s port %d: %s", addr, port,
			 strerror(errno));
		close(fd);
		return -1;
	}
	struct sockaddr_storage got;
	socklen_t gl = sizeof(got);
	*bound = port;
	if (getsockname(fd, (struct sockaddr *)&got, &gl) == 0)
		*bound = ntohs(got.ss_family == AF_INET ? ((struct sockaddr_in *)&got)->sin_port
							: ((struct sockaddr_in6 *)&got)->sin6_port);
	return fd;
}

struct serve *serve_start(const struct serve_config *c, char *err, size_t errlen)
{
	char addr[128];
	int port, bound;
	if (serve_parse_listen(c->listen, addr, sizeof(addr), &port, err, errlen) < 0)
		return NULL;
	if (!c->tls_cert != !c->tls_key) {
		snprintf(err, errlen, "--tls-cert and --tls-key go together");
		return NULL;
	}
	struct serve *s = xcalloc(1, sizeof(*s));
	pthread_mutex_init(&s->lock, NULL);
	s->ep = epoll_create1(EPOLL_CLOEXEC);
	s->admit.waiting = serve_conn_waiting;
	s->reaper_stop[0] = s->reaper_stop[1] = -1;
	if (c->tls_cert && (!(s->cert = serve_read_pem("--tls-cert", c->tls_cert, err, errlen)) ||
			    !(s->key = serve_read_pem("--tls-key", c->tls_key, err, errlen)))) {
		serve_stop(s);
		return NULL;
	}
	if (c->auth_file && !(s->auth = auth_load(c->auth_file, err, errlen))) {
		serve_stop(s);
		return NULL;
	}
	int fd = serve_listen(addr, port, err, errlen, &bound);
	if (fd < 0) {
		serve_stop(s);
		return NULL;
	}
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG;
	if (c->tls_cert)
		flags |= MHD_USE_TLS;
	/* The server's thread inherits this mask: every signal stays with the
	 * caller's loop. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (c->tls_cert)
		s->d = MHD_start_daemon(
		    flags, 0, NULL, NULL, serve_handler, s, MHD_OPTION_EXTERNAL_LOGGER, serve_log,
		    s, MHD_OPTION_LISTEN_SOCKET, fd, MHD_OPTION_CONNECTION_LIMIT, SERVE_ADMIT_SLOTS,
		    MHD_OPTION_NOTIFY_CONNECTION, serve_conn_notify, s,
		    MHD_OPTION_CONNECTION_TIMEOUT, SERVE_TIMEOUT_S,
		    MHD_OPTION_CONNECTION_MEMORY_LIMIT, SERVE_MEMORY, MHD_OPTION_HTTPS_MEM_CERT,
		    s->cert, MHD_OPTION_HTTPS_MEM_KEY, s->key, MHD_OPTION_END);
	else
		s->d = MHD_start_daemon(
		    flags, 0, NULL, NULL, serve_handler, s, MHD_OPTION_EXTERNAL_LOGGER, serve_log,
		    s, MHD_OPTION_LISTEN_SOCKET, fd, MHD_OPTION_CONNECTION_LIMIT, SERVE_ADMIT_SLOTS,
		    MHD_OPTION_NOTIFY_CONNECTION, serve_conn_notify, s,
		    MHD_OPTION_CONNECTION_TIMEOUT, SERVE_TIMEOUT_S,
		    MHD_OPTION_CONNECTION_MEMORY_LIMIT, SERVE_MEMORY, MHD_OPTION_END);
	struct epoll_event stop_ev = {.events = EPOLLIN | EPOLLHUP, .data.u64 = UINT64_MAX};
	if (s->ep >= 0 && pipe2(s->reaper_stop, O_CLOEXEC) == 0 &&
	    epoll_ctl(s->ep, EPOLL_CTL_ADD, s->reaper_stop[0], &stop_ev) == 0 && s->d)
		s->reaper_on = pthread_create(&s->reaper, NULL, serve_conn_reaper, s) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!s->d) {
		close(fd);
		if (c->tls_cert)
			snprintf(
			    err, errlen,
			    "cannot serve HTTPS with --tls-cert %s and --tls-key %s (not a PEM "
			    "certificate and its unencrypted key?)",
			    c->tls_cert, c->tls_key);
		else
			snprintf(err, errlen, "cannot start the HTTP server on %s port %d", addr,
				 port);
		serve_stop(s);
		return NULL;
	}
	bool v6 = strchr(addr, ':') != NULL;
	snprintf(s->url, sizeof(s->url), "%s://%s%s%s:%d/metrics", c->tls_cert ? "https" : "http",
		 v6 ? "[" : "", addr, v6 ? "]" : "", bound);
	return s;
}

bool serve_tls_available(void)
{
	return MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES;
}

const char *serve_library_version(void)
{
	return MHD_get_version();
}

const char *serve_url(const struct serve *s)
{
	return s->url;
}

void serve_counts(struct serve *s, struct serve_counts *out)
{
	pthread_mutex_lock(&s->lock);
	*out = s->counts;
	out->dropped_pending = s->admit.dropped_pending;
	out->dropped_header = s->admit.dropped_header;
	out->dropped_kept = s->admit.dropped_kept;
	out->dropped_hangup = s->admit.dropped_hangup;
	pthread_mutex_unlock(&s->lock);
}

void serve_stop(struct serve *s)
{
	if (!s)
		return;
	if (s->reaper_on) {
		close(s->reaper_stop[1]);
		s->reaper_stop[1] = -1;
		pthread_join(s->reaper, NULL);
	}
	if (s->d)
		MHD_stop_daemon(s->d); /* closes the listening socket too */
	for (int i = 0; i < 2; i++)
		if (s->reaper_stop[i] >= 0)
			close(s->reaper_stop[i]);
	if (s->ep >= 0)
		close(s->ep);
	if (s->current)
		serve_blob_unref(s->current);
	auth_free(s->auth);
	if (s->key) {
		memset(s->key, 0, strlen(s->key));
		free(s->key);
	}
	free(s->cert);
	pthread_mutex_destroy(&s->lock);
	free(s);
}
