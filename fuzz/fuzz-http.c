/* fuzz-http.c — what an HTTP client hands the exporter: the request path
 * and method (routing), the Accept header, and an --serve spec.  Input:
 * "METHOD\nPATH\nACCEPT..." */
#include "config.h"

#include "fuzz.h"
#include "serve.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size);
	char path[4096], accept[8192], addr[256], err[256];
	char *p = fuzz_split(s, path, sizeof(path));
	char *a = fuzz_split(p, accept, sizeof(accept));
	char *nl = strchr(s, '\n');
	if (nl)
		*nl = '\0';
	nl = strchr(p, '\n');
	if (nl)
		*nl = '\0';
	enum serve_route r = serve_route(p, s);
	if (r != SERVE_NOT_FOUND && strcmp(p, "/") != 0 && strcmp(p, "/metrics") != 0)
		abort(); /* only the two paths are served */
	(void)serve_wants_openmetrics(a);
	(void)serve_wants_openmetrics(s);
	int port;
	(void)serve_parse_listen(s, addr, sizeof(addr), &port, err, sizeof(err));
	free(s);
	return 0;
}
