/*
 * tail.c: incremental line reader for attempt output files.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tail.h"
#include "xmalloc.h"

/* Longest line kept; the rest of a longer one is dropped. */
#define TAIL_LINE_MAX	(4 * 1024 * 1024)

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

/* Pass the partial line on, and start a new one. */
static void
tail_emit(struct tail *t, tail_line_cb cb, void *arg)
{
	cb(arg, t->partial != NULL ? t->partial : "", t->plen, t->cut);
	t->plen = 0;
	t->cut = 0;
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

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return errno == ENOENT ? 0 : -1;
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
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
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
