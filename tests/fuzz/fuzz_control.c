/*
 * fuzz_control.c: libFuzzer target for the control socket's protocol, on
 * a real socket and event loop: the input is what one client writes before
 * it half-closes; the target checks that the client gets one reply line
 * per request line it sent, and then end-of-file
 * (make fuzz; build/fuzz/fuzz_control -max_total_time=60).
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <uv.h>

#include "control.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* A handler of the daemon's shape: a reply from the request's members. */
static void
fuzz_handler(void *arg, const cJSON *req, cJSON *reply)
{
	const cJSON	*c = cJSON_GetObjectItemCaseSensitive(req, "cmd");
	const cJSON	*n = cJSON_GetObjectItemCaseSensitive(req, "size");
	char		*big;
	size_t		 k;

	if (strcmp(c->valuestring, "big") == 0 && cJSON_IsNumber(n) &&
	    n->valuedouble > 0 && n->valuedouble < 4e6) {
		k = (size_t)n->valuedouble;
		if ((big = malloc(k + 1)) == NULL)
			abort();
		memset(big, 'x', k);
		big[k] = '\0';
		cJSON_AddTrueToObject(reply, "ok");
		cJSON_AddStringToObject(reply, "output", big);
		free(big);
		return;
	}
	cJSON_AddTrueToObject(reply, "ok");
	cJSON_AddStringToObject(reply, "output", c->valuestring);
}

/* The socket's directory, removed at exit. */
static char	fuzz_dir[] = "/tmp/fuzz_control.XXXXXX";

static void
fuzz_cleanup(void)
{
	char	 path[108];

	snprintf(path, sizeof(path), "%s/s", fuzz_dir);
	unlink(path);
	rmdir(fuzz_dir);
}

/* The socket, made once per process. */
static const char *
fuzz_socket(uv_loop_t **loopp)
{
	static char		 path[108];
	static uv_loop_t	*loop;
	char			 err[256];

	if (loop == NULL) {
		if (mkdtemp(fuzz_dir) == NULL)
			abort();
		atexit(fuzz_cleanup);
		snprintf(path, sizeof(path), "%s/s", fuzz_dir);
		loop = uv_default_loop();
		if (control_open(loop, path, fuzz_handler, NULL, err,
		    sizeof(err)) == NULL) {
			fprintf(stderr, "fuzz_control: %s\n", err);
			abort();
		}
	}
	*loopp = loop;
	return path;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct sockaddr_un	 sun;
	uv_loop_t		*loop;
	const char		*path = fuzz_socket(&loop);
	char			 buf[65536];
	size_t			 off = 0, lines = 0, replies = 0, i;
	ssize_t			 n;
	int			 fd, eof = 0;

	/* Requests are the complete lines, and a last one without '\n'. */
	for (i = 0; i < len; i++)
		lines += data[i] == '\n';
	if (len > 0 && data[len - 1] != '\n')
		lines++;
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", path);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0)) == -1 ||
	    connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1)
		abort();
	while (!eof) {
		if (off < len) {
			n = write(fd, data + off, len - off);
			if (n > 0)
				off += (size_t)n;
			else if (errno != EAGAIN)
				abort();
			if (off == len)
				shutdown(fd, SHUT_WR);
		} else if (len == 0 && off == 0) {
			shutdown(fd, SHUT_WR);
			off = 1;
		}
		uv_run(loop, UV_RUN_NOWAIT);
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			for (i = 0; i < (size_t)n; i++)
				replies += buf[i] == '\n';
		if (n == 0)
			eof = 1;
		else if (errno != EAGAIN)
			abort();
	}
	close(fd);
	/* Every request answered (a too long one ends the connection). */
	if (replies != lines && len < (16 << 20))
		abort();
	return 0;
}
