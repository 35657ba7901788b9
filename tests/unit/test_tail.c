/*
 * test_tail.c: tail_read() passes a line longer than one read whole, once,
 * and then holds no buffer of its size: an attempt followed to its end
 * kept the largest line it ever printed (up to 4 MiB) until then.
 */
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tail.h"
#include "tap.h"

/* What the lines passed on were. */
struct seen {
	size_t	 n;
	size_t	 len[4];
	int	 cut;
};

/* Count a line (a tail_line_cb). */
static void
line(void *arg, const char *p, size_t len, int cut)
{
	struct seen	*s = arg;

	(void)p;
	if (s->n < 4)
		s->len[s->n] = len;
	s->n++;
	s->cut |= cut;
}

int
main(void)
{
	char		 path[] = "/tmp/hpod-test-tail.XXXXXX";
	struct tail	 t;
	struct seen	 s;
	size_t		 big = 1 << 20, i;
	FILE		*f;
	int		 fd;

	if ((fd = mkstemp(path)) == -1 || (f = fdopen(fd, "w")) == NULL) {
		perror(path);
		return 1;
	}
	for (i = 0; i < big; i++)
		fputc('x', f);
	fputs("\nshort\n", f);
	fclose(f);
	memset(&t, 0, sizeof(t));
	memset(&s, 0, sizeof(s));
	tap_ok(tail_read(&t, path, SIZE_MAX, 0, line, &s) ==
	    (ssize_t)big + 7, "the whole file is read");
	tap_ok(s.n == 2 && s.len[0] == big && s.len[1] == 5 && !s.cut,
	    "a 1 MiB line is passed on whole, then the next: %zu lines, "
	    "the first of %zu bytes", s.n, s.len[0]);
	tap_ok(t.partial == NULL || malloc_usable_size(t.partial) <=
	    64 * 1024 + 64, "no buffer of the long line is kept (%zu bytes)",
	    t.partial != NULL ? malloc_usable_size(t.partial) : 0);
	tail_release(&t);
	unlink(path);
	return tap_done();
}
