/*
 * file.c: atomic small-file writes and whole-file reads (see file.h).
 */
#include <sys/stat.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file.h"

/* Write all of len bytes of buf to fd, resuming after EINTR. */
int
file_write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len > 0) {
		if ((n = write(fd, buf, len)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Make the last rename in path's directory durable; failure loses nothing. */
static void
file_sync_dir(const char *path)
{
	char dir[PATH_MAX], *slash;
	int fd;

	snprintf(dir, sizeof(dir), "%s", path);
	if ((slash = strrchr(dir, '/')) == NULL)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) != -1) {
		fsync(fd);
		close(fd);
	}
}

/* Write text to path atomically: temporary file, fsync, rename. */
int
file_save(const char *path, const char *text)
{
	char tmp[PATH_MAX];
	int fd, saved;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd == -1)
		return -1;
	if (file_write_all(fd, text, strlen(text)) == -1 ||
	    file_write_all(fd, "\n", 1) == -1 || fsync(fd) == -1) {
		saved = errno;
		close(fd);
		unlink(tmp);
		errno = saved;
		return -1;
	}
	if (close(fd) == -1 || rename(tmp, path) == -1) {
		saved = errno;
		unlink(tmp);
		errno = saved;
		return -1;
	}
	file_sync_dir(path);
	return 0;
}

/* Read all of path into a NUL-terminated buffer; 1 if it does not exist. */
int
file_slurp(const char *path, size_t max, char **bufp, size_t *lenp,
    char *err, size_t errlen)
{
	struct stat st;
	char *buf;
	size_t len = 0, size;
	ssize_t n = 0;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		if (errno == ENOENT)
			return 1;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if ((size_t)st.st_size > max) {
		snprintf(err, errlen, "%s: too large", path);
		close(fd);
		return -1;
	}
	size = (size_t)st.st_size;
	if ((buf = malloc(size + 1)) == NULL) {
		snprintf(err, errlen, "%s: out of memory", path);
		close(fd);
		return -1;
	}
	while (len < size) {
		if ((n = read(fd, buf + len, size - len)) == -1) {
			if (errno == EINTR)
				continue;
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			close(fd);
			free(buf);
			return -1;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return 0;
}
