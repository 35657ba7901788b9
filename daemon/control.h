/*
 * control.h: hpod's control socket: a Unix stream socket in a 0700
 * directory; each request and each reply is one JSON object on one line.
 */
#ifndef HPOD_CONTROL_H
#define HPOD_CONTROL_H

#include <stddef.h>

#include <cjson/cJSON.h>
#include <uv.h>

struct control;

/*
 * Answer one request: fill reply (an object) with "ok" and "output" or
 * "error".  Runs on the loop thread.
 */
typedef void	(*control_handler)(void *arg, const cJSON *req, cJSON *reply);

/*
 * Listen on path (its directory is created 0700).  A live daemon already
 * on the socket is an error; a stale socket file is replaced.
 */
struct control	*control_open(uv_loop_t *, const char *path, control_handler,
		    void *arg, char *err, size_t errlen);
/*
 * A request answered later, off the handler (a slow report computed on a
 * worker thread): inside the handler, control_defer() takes the request
 * over, and the handler leaves reply empty; control_answer(), on the loop
 * thread, sends the reply (or drops it if the client has gone) and frees
 * the call.  A connection answers no further request meanwhile, so that
 * its replies keep the order of its requests (it reads on, up to the
 * next whole request, only to see its client leave); other connections
 * go on.
 */
struct control_call;
struct control_call *control_defer(struct control *);
/*
 * Have gone(arg) run, once, on the loop thread, if the connection of a
 * deferred request closes before its reply: its client closed it (one
 * that only shut down its writing side is still answered), or
 * control_close().  The call is still the caller's: control_answer()
 * drops the reply then and frees the call; gone may call it.
 */
void		 control_watch(struct control_call *, void (*gone)(void *),
		    void *arg);
/*
 * A reply NULL (memory ran out building it) or not whole (without "ok",
 * or its "output" or "error") is sent as {"ok": false, "error": "out of
 * memory"}, for control_answer() as for a handler's.
 */
void		 control_answer(struct control_call *, cJSON *reply);
/*
 * A reply {"ok": true, "output": text} or {"ok": false, "error": text},
 * whole, or NULL if memory ran out; the caller deletes it.
 */
cJSON		*control_reply_new(int ok, const char *text);

/* Stop listening, close every connection, unlink the socket; free. */
void		 control_close(struct control *);

#endif
