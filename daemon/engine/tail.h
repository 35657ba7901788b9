/*
 * tail.h: follow a growing file (an attempt's stdout) line by line.
 */
#ifndef HPOD_TAIL_H
#define HPOD_TAIL_H

#include <stddef.h>
#include <sys/types.h>

struct tail {
	off_t	 offset;	/* bytes consumed so far */
	char	*partial;	/* an incomplete last line, owned */
	size_t	 plen;
	int	 cut;		/* the partial line is longer than kept */
	size_t	 trusted;	/* links are followed in path's first
				   trusted bytes only (0: its directory) */
};

/* One line, without its newline; cut: only its first 4 MiB. */
typedef void	(*tail_line_cb)(void *arg, const char *line, size_t len,
		    int cut);

/*
 * Read what was appended to path since the last call and pass every
 * complete line to cb, once, however long (at most max bytes per call;
 * final: also pass an unterminated last line).  Of a line longer than
 * 4 MiB, cb gets the first 4 MiB and cut set.  A missing file is not
 * an error.  Return the number of bytes read, -1 on a read error, or -2
 * when path is not a regular file or a symbolic link is met past its
 * first t->trusted bytes: nothing is read.
 */
ssize_t	 tail_read(struct tail *, const char *path, size_t max, int final,
	    tail_line_cb, void *arg);
void	 tail_release(struct tail *);

/*
 * The last non-blank line of the file at path (an attempt's stderr, to
 * say why it failed) into buf, at most size - 1 bytes; "" if none, or
 * if path is a symbolic link or not a regular file.
 */
void	 tail_last_line(const char *path, char *buf, size_t size);

#endif
