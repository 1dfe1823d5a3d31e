/* export.c — the exporter beside a mode (export.h). */
#include "config.h"

#include "export.h"

#include <stdio.h>
#include <string.h>

#include "face.h"

int export_start(struct export *e, const struct options *o)
{
	char err[512];
	memset(e, 0, sizeof(*e));
	e->mo.max_threads = (size_t)o->metrics_max_threads;
	e->mo.max_processes = (size_t)o->metrics_max_processes;
	if (!o->serve)
		return EXIT_OK;
	struct serve_config c = {
	    .listen = o->serve,
	    .tls_cert = o->tls_cert,
	    .tls_key = o->tls_key,
	    .auth_file = o->basic_auth,
	};
	e->srv = serve_start(&c, err, sizeof(err));
	if (!e->srv) {
		face_say(err);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

void export_say(const struct export *e, const struct options *o)
{
	if (e->srv)
		fprintf(stderr, "threadlab: serving %s%s\n", serve_url(e->srv),
			o->basic_auth ? " (basic auth)" : "");
}

void export_targets(struct export *e, const struct metrics_target *t, size_t n)
{
	if (!e->srv)
		return;
	e->mo.samples++;
	serve_publish_metrics(e->srv, t, n, &e->mo);
}

void export_session(struct export *e, const struct session *s)
{
	struct metrics_target t = {s, metrics_mode(s)};
	export_targets(e, &t, 1);
}

void export_ranking(struct export *e, const struct ranking *k)
{
	if (!e->srv)
		return;
	e->mo.samples++;
	serve_publish_ranking(e->srv, k, &e->mo);
}

void export_stop(struct export *e)
{
	serve_stop(e->srv);
	e->srv = NULL;
}
