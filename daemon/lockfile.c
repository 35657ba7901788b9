/*
 * lockfile.c: the daemon's lock on its ledger (see lockfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "lockfile.h"

/* The lock file's path: the ledger's, with ".lock" added. */
static int
lockfile_path(const char *ledger, char *buf, size_t len)
{
	if (snprintf(buf, len, "%s.lock", ledger) >= (int)len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/* Read the pid written in an open lock file; 0 if there is none. */
static pid_t
lockfile_read_pid(int fd)
{
	char	 buf[32];
	ssize_t	 n;
	long	 pid;

	if ((n = pread(fd, buf, sizeof(buf) - 1, 0)) <= 0)
		return 0;
	buf[n] = '\0';
	pid = strtol(buf, NULL, 10);
	return pid > 0 ? (pid_t)pid : 0;
}

/*
 * Replace the lock file's content with our pid: only a courtesy for the
 * message a second hpod prints, so a failure to write it is ignored.
 */
void
lockfile_set_pid(int fd)
{
	char	 buf[32];
	int	 n;

	n = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) == -1 || pwrite(fd, buf, (size_t)n, 0) != n)
		return;
}

/* Take the ledger's lock; see lockfile.h. */
int
lockfile_take(const char *ledger, char *err, size_t errlen)
{
	char	 path[4096];
	pid_t	 pid;
	int	 fd;

	if (lockfile_path(ledger, path, sizeof(path)) == -1 ||
	    (fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600)) == -1) {
		snprintf(err, errlen, "ledger '%s': cannot open its lock file "
		    "'%s.lock': %s%s", ledger, ledger, strerror(errno),
		    errno == EROFS || errno == EACCES ? " (hpod must be able "
		    "to write the ledger and its directory)" : "");
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) == -1) {
		if (errno == EWOULDBLOCK && (pid = lockfile_read_pid(fd)) > 0)
			snprintf(err, errlen, "ledger '%s' is in use by another "
			    "hpod (pid %ld, lock file '%s'); one hpod per ledger",
			    ledger, (long)pid, path);
		else if (errno == EWOULDBLOCK)
			snprintf(err, errlen, "ledger '%s' is in use by another "
			    "hpod (lock file '%s'); one hpod per ledger", ledger,
			    path);
		else
			snprintf(err, errlen, "ledger '%s': cannot lock '%s': %s",
			    ledger, path, strerror(errno));
		close(fd);
		return -1;
	}
	lockfile_set_pid(fd);
	return fd;
}
