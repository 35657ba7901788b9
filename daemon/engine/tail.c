/*
 * tail.c: incremental line reader for attempt output files.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tail.h"
#include "xmalloc.h"

/* Longest line kept; the rest of a longer one is dropped. */
#define TAIL_LINE_MAX	(4 * 1024 * 1024)

/* Largest buffer kept once its line is passed on. */
#define TAIL_KEEP	(64 * 1024)

/* Append bytes to the partial line, up to TAIL_LINE_MAX. */
static void
tail_keep(struct tail *t, const char *p, size_t n)
{
	char	*np;

	if (t->plen + n > TAIL_LINE_MAX) {
		t->cut = 1;
		n = TAIL_LINE_MAX - t->plen;
	}
	if (n == 0)
		return;
	np = xreallocarray(t->partial, t->plen + n + 1, 1);
	t->partial = np;
	memcpy(t->partial + t->plen, p, n);
	t->plen += n;
	t->partial[t->plen] = '\0';
}

/*
 * Pass the partial line on, and start a new one.  A long line's buffer
 * goes with it: kept, every attempt followed could hold up to 4 MiB to
 * its end.
 */
static void
tail_emit(struct tail *t, tail_line_cb cb, void *arg)
{
	cb(arg, t->partial != NULL ? t->partial : "", t->plen, t->cut);
	if (t->plen > TAIL_KEEP) {
		free(t->partial);
		t->partial = NULL;
	}
	t->plen = 0;
	t->cut = 0;
}

/* The first n bytes of s, a string of their own. */
static char *
tail_name(const char *s, size_t n)
{
	char	*name;

	name = xmalloc(n + 1);
	memcpy(name, s, n);
	name[n] = '\0';
	return name;
}

/*
 * Open path to read, following no symbolic link past its first trusted
 * bytes (a directory: the attempt's), and only a regular file: -1 with
 * errno, ELOOP for a link or what is not a regular file.  The trainer
 * may make such a link, and hpod, maybe another user, would read with
 * its own rights what it points to; a FIFO would block the loop.
 */
static int
tail_open(const char *path, size_t trusted)
{
	struct stat	 sb;
	const char	*p, *slash, *last;
	char		*name;
	int		 dfd, fd = -1, flags;

	if (trusted == 0 || trusted > strlen(path))
		trusted = (last = strrchr(path, '/')) != NULL ?
		    (size_t)(last - path) : 0;
	name = tail_name(path, trusted);
	dfd = open(trusted > 0 ? name : *path == '/' ? "/" : ".",
	    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(name);
	for (p = path + trusted; dfd != -1; p = slash) {
		p += strspn(p, "/");
		slash = p + strcspn(p, "/");
		flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC;
		flags |= *slash != '\0' ? O_DIRECTORY : O_NONBLOCK;
		name = tail_name(p, slash - p);
		fd = openat(dfd, name, flags);
		free(name);
		close(dfd);
		if (fd == -1 && errno == ENOTDIR && *slash != '\0')
			errno = ELOOP;
		if (fd == -1 || *slash == '\0')
			break;
		dfd = fd;
	}
	if (dfd == -1 || fd == -1)
		return -1;
	if (fstat(fd, &sb) == -1 || !S_ISREG(sb.st_mode)) {
		close(fd);
		errno = ELOOP;
		return -1;
	}
	return fd;
}

/* Read new bytes and split them into lines. */
ssize_t
tail_read(struct tail *t, const char *path, size_t max, int final,
    tail_line_cb cb, void *arg)
{
	char	 buf[65536];
	ssize_t	 n, total = 0;
	char	*p, *nl;
	int	 fd;

	if ((fd = tail_open(path, t->trusted)) == -1)
		return errno == ENOENT ? 0 : errno == ELOOP ? -2 : -1;
	while ((size_t)total < max) {
		n = pread(fd, buf, sizeof(buf), t->offset);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == -1)
				total = -1;
			break;
		}
		t->offset += n;
		total += n;
		for (p = buf; p < buf + n; p = nl + 1) {
			nl = memchr(p, '\n', buf + n - p);
			if (nl == NULL) {
				tail_keep(t, p, buf + n - p);
				break;
			}
			if (t->plen > 0 || t->cut) {
				tail_keep(t, p, nl - p);
				tail_emit(t, cb, arg);
			} else
				cb(arg, p, nl - p, 0);
		}
	}
	close(fd);
	if (final && (t->plen > 0 || t->cut))
		tail_emit(t, cb, arg);
	return total;
}

/* Free the partial line. */
void
tail_release(struct tail *t)
{
	free(t->partial);
	t->partial = NULL;
	t->plen = 0;
	t->cut = 0;
}

/*
 * The last non-blank line of path, within its last 1 KiB, into buf
 * (size > 0): control bytes made '?', cut to fit.  "" if there is none
 * or the file cannot be read.
 */
void
tail_last_line(const char *path, char *buf, size_t size)
{
	char	 b[1024];
	ssize_t	 n;
	off_t	 end;
	size_t	 i, e, s, k;
	int	 fd;

	buf[0] = '\0';
	if ((fd = tail_open(path, 0)) == -1)
		return;
	end = lseek(fd, 0, SEEK_END);
	if (end < 0 || lseek(fd, end > (off_t)sizeof(b) ?
	    end - (off_t)sizeof(b) : 0, SEEK_SET) < 0 ||
	    (n = read(fd, b, sizeof(b))) <= 0) {
		close(fd);
		return;
	}
	close(fd);
	e = (size_t)n;
	while (e > 0 && (b[e - 1] == '\n' || b[e - 1] == '\r' ||
	    b[e - 1] == ' ' || b[e - 1] == '\t'))
		e--;
	for (s = e; s > 0 && b[s - 1] != '\n'; s--)
		;
	for (i = s, k = 0; i < e && k + 1 < size; i++, k++)
		buf[k] = (unsigned char)b[i] < 0x20 || b[i] == 0x7f ? '?' :
		    b[i];
	buf[k] = '\0';
}
