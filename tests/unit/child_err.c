/*
 * child_err.c: run a function in a child and keep its stderr.
 */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child_err.h"

/* Run fn(arg) in a child, its stderr into buf (child_err.h). */
int
child_err(void (*fn)(void *), void *arg, char *buf, size_t len)
{
	int	 fd[2], status;
	size_t	 k;
	ssize_t	 n;
	pid_t	 pid;

	if (pipe(fd) == -1 || (pid = fork()) == -1)
		return -1;
	if (pid == 0) {
		dup2(fd[1], 2);
		close(fd[0]);
		fn(arg);
		_exit(0);
	}
	close(fd[1]);
	for (k = 0; k < len - 1 && (n = read(fd[0], buf + k, len - 1 - k)) > 0;
	    k += (size_t)n)
		;
	buf[k] = '\0';
	close(fd[0]);
	if (waitpid(pid, &status, 0) == -1)
		return -1;
	return status;
}
