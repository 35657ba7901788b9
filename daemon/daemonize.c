/*
 * daemonize.c: background hpod after its start-up is known to have
 * succeeded (see daemonize.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemonize.h"

/* The byte the child writes when it is ready. */
#define DAEMONIZE_READY	'R'

/* In the parent: wait for the child's word, then exit with its outcome. */
static void __attribute__((noreturn))
daemonize_wait(int fd, pid_t child)
{
	ssize_t	 n;
	char	 c;
	int	 status;

	do
		n = read(fd, &c, 1);
	while (n == -1 && errno == EINTR);
	if (n == 1 && c == DAEMONIZE_READY)
		_exit(0);
	/* The child failed: it said why on stderr; reap it and fail too. */
	while (waitpid(child, &status, 0) == -1 && errno == EINTR)
		;
	_exit(1);
}

/* Fork; the parent never returns. */
int
daemonize_begin(char *err, size_t errlen)
{
	int	 p[2];
	pid_t	 pid;

	if (pipe2(p, O_CLOEXEC) == -1) {
		snprintf(err, errlen, "daemon: pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	if ((pid = fork()) == -1) {
		snprintf(err, errlen, "daemon: fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid > 0) {
		close(p[1]);
		daemonize_wait(p[0], pid);
	}
	close(p[0]);
	if (setsid() == -1 || chdir("/") == -1) {
		snprintf(err, errlen, "daemon: %s", strerror(errno));
		close(p[1]);
		return -1;
	}
	return p[1];
}

/* Detach the standard streams and release the parent. */
int
daemonize_ready(int fd, char *err, size_t errlen)
{
	const char	 c = DAEMONIZE_READY;
	int		 null, i, rc = 0;

	if ((null = open("/dev/null", O_RDWR | O_CLOEXEC)) == -1) {
		snprintf(err, errlen, "daemon: /dev/null: %s",
		    strerror(errno));
		return -1;
	}
	fflush(NULL);
	for (i = 0; i <= 2; i++)
		if (dup2(null, i) == -1)
			rc = -1;
	close(null);
	if (rc == -1 || write(fd, &c, 1) != 1) {
		snprintf(err, errlen, "daemon: %s", strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}
