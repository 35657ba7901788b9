/*
 * client.c: a blocking control-socket client for hpoctl.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "client.h"
#include "file.h"

/* The longest reply accepted. */
#define CLIENT_REPLY_MAX	(64 << 20)

/* Exchange one request and one reply with the daemon. */
int
client_request(const char *path, const cJSON *req, cJSON **reply, char *err,
    size_t errlen)
{
	struct sockaddr_un	 sun;
	char			*text, *buf = NULL, *nbuf, *nl = NULL;
	size_t			 len = 0, cap = 0;
	ssize_t			 n;
	int			 fd;

	*reply = NULL;
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path)) {
		snprintf(err, errlen, "socket path '%s' is too long", path);
		return -1;
	}
	strcpy(sun.sun_path, path);
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1 ||
	    connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == -1) {
		snprintf(err, errlen, "cannot reach hpod at %s: %s (is it "
		    "running? use --ledger to read results without it)", path,
		    strerror(errno));
		if (fd != -1)
			close(fd);
		return -1;
	}
	text = cJSON_PrintUnformatted(req);
	if (file_write_all(fd, text, strlen(text)) == -1 ||
	    file_write_all(fd, "\n", 1) == -1) {
		snprintf(err, errlen, "write to %s: %s", path, strerror(errno));
		cJSON_free(text);
		close(fd);
		return -1;
	}
	cJSON_free(text);
	while (nl == NULL) {
		if (len + 65536 + 1 > cap) {
			cap = cap ? cap * 2 : 131072;
			if (cap > CLIENT_REPLY_MAX) {
				snprintf(err, errlen, "reply from %s is too "
				    "long", path);
				break;
			}
			if ((nbuf = realloc(buf, cap)) == NULL) {
				snprintf(err, errlen, "reply from %s: out of "
				    "memory", path);
				break;
			}
			buf = nbuf;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			snprintf(err, errlen, "hpod at %s closed the "
			    "connection without a reply", path);
			break;
		}
		nl = memchr(buf + len, '\n', n);
		len += n;
	}
	close(fd);
	if (nl != NULL) {
		*nl = '\0';
		if ((*reply = cJSON_Parse(buf)) == NULL)
			snprintf(err, errlen, "hpod sent a malformed reply");
	}
	free(buf);
	return *reply != NULL ? 0 : -1;
}
