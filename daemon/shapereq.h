/*
 * shapereq.h: a submitted Slurm campaign waits for the controller's word
 * on its job (`sbatch --test-only`) before it is recorded (shapereq.c).
 */
#ifndef HPOD_SHAPEREQ_H
#define HPOD_SHAPEREQ_H

#include <sys/queue.h>

#include <uv.h>

#include "control.h"
#include "spec.h"

struct shapereq;
LIST_HEAD(shapereqs, shapereq);

/*
 * The controller answered, on the loop thread: refused is the error to
 * reply (naming the spec file, the campaign and the key), or NULL if the
 * job was not refused (taken, or no answer: logged).  The callee takes
 * the call (control_answer), s and w.
 */
typedef void	(*shapereq_cb)(void *arg, struct control_call *,
		    struct campaign_spec *s, struct workload *w,
		    const char *refused);

/*
 * From inside ctl's handler: if s (bound to w) is a Slurm campaign that
 * a controller can be asked about, defer the request, put the question
 * on list and return 0: cb follows, unless the client leaves first
 * (its connection closes): then sbatch is killed, s and w are freed, the
 * log says the submit was abandoned, and cb never runs.  Else return -1
 * (said in the log when no cluster could be asked): the caller goes on
 * without a word.
 */
int	 shapereq_start(uv_loop_t *, struct control *, struct shapereqs *list,
	    struct campaign_spec *s, struct workload *w, shapereq_cb cb,
	    void *arg);
/*
 * hpod stops: end every question on list (sbatch killed); each cb runs
 * now, not refused, so that its reply can go before the socket closes.
 */
void	 shapereq_stop(struct shapereqs *list);

#endif
