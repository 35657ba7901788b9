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

/* The temporary file beside path; -1 with errno set if too long. */
static int
file_tmp_name(char *tmp, size_t len, const char *path)
{
	if (snprintf(tmp, len, "%s.tmp", path) >= (int)len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/*
 * Write text and a newline to the temporary file tmp, fsync'ed if sync;
 * -1 with errno set (and no temporary file left).
 */
static int
file_write_tmp(const char *tmp, const char *text, int sync)
{
	int fd, saved;

	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd == -1)
		return -1;
	if (file_write_all(fd, text, strlen(text)) == -1 ||
	    file_write_all(fd, "\n", 1) == -1 || (sync && fsync(fd) == -1)) {
		saved = errno;
		close(fd);
		unlink(tmp);
		errno = saved;
		return -1;
	}
	if (close(fd) == -1) {
		saved = errno;
		unlink(tmp);
		errno = saved;
		return -1;
	}
	return 0;
}

/* Write text to path atomically: temporary file, fsync, rename. */
int
file_save(const char *path, const char *text)
{
	char tmp[PATH_MAX];
	int saved;

	if (file_tmp_name(tmp, sizeof(tmp), path) == -1 ||
	    file_write_tmp(tmp, text, 1) == -1)
		return -1;
	if (rename(tmp, path) == -1) {
		saved = errno;
		unlink(tmp);
		errno = saved;
		return -1;
	}
	file_sync_dir(path);
	return 0;
}

/*
 * Flush the file systems of the directories of files[0], files[2], ...
 * (each once, by syncfs(2)); -1 with errno set and *failed the index of
 * the path whose file system could not be flushed.
 */
static int
file_sync_fs(char *const *files, size_t *failed)
{
	struct stat st;
	dev_t last = 0;
	char dir[PATH_MAX], *slash;
	size_t i;
	int fd, rc, saved, have = 0;

	for (i = 0; files[i] != NULL; i += 2) {
		snprintf(dir, sizeof(dir), "%s", files[i]);
		if ((slash = strrchr(dir, '/')) == NULL)
			snprintf(dir, sizeof(dir), ".");
		else if (slash == dir)
			dir[1] = '\0';
		else
			*slash = '\0';
		if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1 ||
		    fstat(fd, &st) == -1) {
			saved = errno;
			if (fd != -1)
				close(fd);
			errno = saved;
			*failed = i;
			return -1;
		}
		if (have && st.st_dev == last) {
			close(fd);
			continue;
		}
		rc = syncfs(fd);
		saved = errno;
		close(fd);
		if (rc == -1) {
			errno = saved;
			*failed = i;
			return -1;
		}
		have = 1;
		last = st.st_dev;
	}
	return 0;
}

/* Rename every temporary file; the index where it stopped. */
static size_t
file_rename_all(char *const *files)
{
	char tmp[PATH_MAX];
	size_t i;

	for (i = 0; files[i] != NULL; i += 2) {
		file_tmp_name(tmp, sizeof(tmp), files[i]);
		if (rename(tmp, files[i]) == -1)
			break;
	}
	return i;
}

/*
 * Write many files atomically, with two flushes in all rather than two
 * fsyncs per file: every temporary file, one syncfs, every rename, one
 * syncfs for the directories.
 */
int
file_save_all(char *const *files, size_t *failed)
{
	char tmp[PATH_MAX];
	size_t i, j, end;
	int saved;

	for (i = 0; files[i] != NULL; i += 2)
		if (file_tmp_name(tmp, sizeof(tmp), files[i]) == -1 ||
		    file_write_tmp(tmp, files[i + 1], 0) == -1)
			break;
	end = i;
	if (files[i] != NULL || file_sync_fs(files, &i) == -1 ||
	    (i = file_rename_all(files)) != end) {
		/* Remove the temporary files that are left. */
		saved = errno;
		*failed = i;
		for (j = 0; j < end; j += 2) {
			file_tmp_name(tmp, sizeof(tmp), files[j]);
			unlink(tmp);
		}
		errno = saved;
		return -1;
	}
	file_sync_fs(files, &i);
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
