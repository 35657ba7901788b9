/*
 * resume.c: the campaign a foreground engine takes back (see resume.h).
 */
#include <sys/file.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "resume.h"
#include "state.h"
#include "xmalloc.h"

/* The recorded spec of a campaign that may be taken back, or NULL. */
struct campaign_spec *
resume_spec(struct ledger *l, const char *path, const char *name,
    int64_t *id, char *err, size_t errlen)
{
	struct ledger_campaign	 c;
	struct campaign_spec	*s = NULL;

	memset(&c, 0, sizeof(c));
	switch (ledger_campaign_find(l, name, &c)) {
	case 0:
		break;
	case 1:
		snprintf(err, errlen, "%s: no campaign '%s'", path, name);
		return NULL;
	default:
		snprintf(err, errlen, "%s: %s", path, ledger_error(l));
		return NULL;
	}
	if (campaign_state_parse(c.state) != CAMPAIGN_RUNNING)
		snprintf(err, errlen, "%s: campaign '%s' (id %lld) is %s: "
		    "nothing to take back", path, c.name, (long long)c.id,
		    c.state);
	else if (c.driver == NULL || strcmp(c.driver, "foreground") != 0)
		snprintf(err, errlen, "%s: campaign '%s' (id %lld) belongs to "
		    "the daemon, which runs it, or takes it back when it "
		    "starts: follow, cancel or change it through the daemon "
		    "(hpoctl watch, cancel or budget, without --ledger)",
		    path, c.name, (long long)c.id);
	else if (c.spec_json == NULL)
		snprintf(err, errlen, "%s: campaign '%s' (id %lld): no spec "
		    "recorded", path, c.name, (long long)c.id);
	else if ((s = spec_parse_recorded(c.spec_json, strlen(c.spec_json),
	    c.spec_path != NULL ? c.spec_path : c.name, err, errlen)) != NULL)
		*id = c.id;
	ledger_campaign_release(&c);
	return s;
}

/*
 * The lock file of campaign id of the ledger at path (malloc'ed), named
 * after the ledger's real path: every way of naming it locks one file.
 */
static char *
resume_lock_path(const char *path, int64_t id)
{
	char	*real = realpath(path, NULL), *p;

	p = xasprintf("%s.%lld.lock", real != NULL ? real : path,
	    (long long)id);
	free(real);
	return p;
}

/* Lock campaign id for this process; the descriptor, or -1 with err. */
int
resume_lock(const char *path, int64_t id, const char *name, char *err,
    size_t errlen)
{
	char	*lock = resume_lock_path(path, id), pid[32] = "";
	ssize_t	 n;
	int	 fd;

	if ((fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600)) == -1) {
		snprintf(err, errlen, "%s: %s", lock, strerror(errno));
		free(lock);
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) == -1) {
		if (errno != EWOULDBLOCK)
			snprintf(err, errlen, "%s: %s", lock, strerror(errno));
		else {
			if ((n = read(fd, pid, sizeof(pid) - 1)) > 0)
				pid[strcspn(pid, "\n")] = '\0';
			/* Its holder writes its pid just after locking. */
			snprintf(err, errlen, "%s: campaign '%s' (id %lld) is "
			    "still run by %s%s (%s is locked): stop it first",
			    path, name, (long long)id, *pid ? "process " :
			    "another process", pid, lock);
		}
		close(fd);
		free(lock);
		return -1;
	}
	snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) == -1 ||
	    write(fd, pid, strlen(pid)) != (ssize_t)strlen(pid)) {
		snprintf(err, errlen, "%s: %s", lock, strerror(errno));
		close(fd);
		free(lock);
		return -1;
	}
	free(lock);
	return fd;
}

/* Remove the lock file of a campaign that ended, then release the lock. */
void
resume_unlock(int fd, const char *path, int64_t id)
{
	char	*lock;

	if (fd == -1)
		return;
	lock = resume_lock_path(path, id);
	unlink(lock);
	free(lock);
	close(fd);
}
