/*
 * pilot_file.c: the pilot file, dir/pilot.json: where hpod listens for a
 * campaign's agents and the campaign's secret.  The secret is made once
 * and kept across restarts (the agents of running pilots still hold it);
 * the address changes with each listener.
 */
#include <sys/random.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file.h"
#include "pilot_int.h"

/* A new secret: 32 random bytes as hex. */
static int
pilot_secret_new(char *hex, char *err, size_t errlen)
{
	unsigned char	 b[PILOT_SECRET_LEN / 2];
	size_t		 i;

	if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b)) {
		snprintf(err, errlen, "getrandom: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < sizeof(b); i++)
		snprintf(hex + 2 * i, 3, "%02x", b[i]);
	return 0;
}

/* Write text to path through a 0600 temporary file and a rename. */
static int
pilot_file_save(const char *path, const char *text, char *err, size_t errlen)
{
	char	 tmp[PATH_MAX];
	int	 fd;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp)) {
		snprintf(err, errlen, "%s: path too long", path);
		return -1;
	}
	unlink(tmp);
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) ==
	    -1) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	if (file_write_all(fd, text, strlen(text)) == -1 ||
	    file_write_all(fd, "\n", 1) == -1 || fsync(fd) == -1 ||
	    close(fd) == -1 || rename(tmp, path) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* Write the pilot file (see pilot_int.h). */
int
pilot_file_write(struct psched *ps, char *err, size_t errlen)
{
	struct pilot_addr	 old;
	char			*text;
	int			 rc;

	if (access(ps->file, F_OK) == 0) {
		if (pilot_addr_read(ps->file, &old, err, errlen) == -1)
			return -1;
		memcpy(ps->addr.secret, old.secret, sizeof(old.secret));
	} else if (errno != ENOENT) {
		snprintf(err, errlen, "%s: %s", ps->file, strerror(errno));
		return -1;
	} else if (pilot_secret_new(ps->addr.secret, err, errlen) == -1)
		return -1;
	if ((text = pilot_addr_render(&ps->addr)) == NULL) {
		snprintf(err, errlen, "%s: out of memory", ps->file);
		return -1;
	}
	rc = pilot_file_save(ps->file, text, err, errlen);
	free(text);
	return rc;
}
