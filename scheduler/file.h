/*
 * file.h: small files written atomically and read whole (result.json,
 * job.json).
 */
#ifndef HPOD_FILE_H
#define HPOD_FILE_H

#include <stddef.h>

/* Write all of len bytes of buf to fd.  Return 0, or -1 with errno set. */
int	 file_write_all(int fd, const char *buf, size_t len);
/*
 * Write text and a newline to path atomically: a temporary file beside it,
 * fsync, rename, fsync of the directory.  Return 0, or -1 with errno set.
 */
int	 file_save(const char *path, const char *text);
/*
 * Write files[0] with text files[1], files[2] with files[3], ... (NULL
 * after the last text) as file_save() does, but flushing the file system
 * twice in all rather than twice per file.  Return 0, or -1 with errno
 * set and *failed the index in files of the path that could not be
 * written; no temporary file is left, and a file is either its old self
 * or its new content.
 */
int	 file_save_all(char *const *files, size_t *failed);
/*
 * Read all of path (at most max bytes) into a NUL-terminated malloc'ed
 * buffer.  Return 0, 1 if there is no such file, -1 with err naming the
 * file otherwise.
 */
int	 file_slurp(const char *path, size_t max, char **bufp, size_t *lenp,
	    char *err, size_t errlen);

#endif
