#!/bin/sh
# Memory running out while hpod answers a request on its loop (reading
# it, the submit's spec and workload files, the reply) is that request's
# error "out of memory", never the end of the daemon nor a wrong error
# ("JSON syntax error" for a spec cJSON had no memory to read).
# HPOD_TEST_FAIL_ALLOC=control:N (hpod(8)) fails the Nth allocation of
# each control request as if memory ran out: for N from 1 until five
# submits in a row get through, a new hpod is asked to submit a
# campaign; its answer must be the submit's success or "out of memory",
# and hpod must go on running and exit 0 (with no leak under ASan's
# leak check, `make check`).  Before, hpod died at the allocation of the
# spec's text (strlen of NULL) and called the spec not JSON.
. "$(dirname "$0")/lib.subr"

write_campaign cs 1 1 1
bad= n=0 errors=0 through=0 row=0
while [ "$row" -lt 5 ] && [ "$n" -lt 1000 ]; do
	n=$((n + 1))
	# The last round's trial may still write into its attempt's
	# directory (rm -rf then fails: "Directory not empty").
	stop_trials
	rm -rf "$T/state" "$SOCK"
	: >"$T/hpod.log"
	HPOD_TEST_FAIL_ALLOC=control:$n "$HPOD" -d -v -f "$CONF" \
	    2>>"$T/hpod.log" &
	DPID=$!
	for _ in $(seq 1 200); do
		grep -q "listening on" "$T/hpod.log" && break
		sleep 0.05
	done
	rc=0
	"$HPOCTL" submit "$T/cs.json" >"$T/out" 2>"$T/err" || rc=$?
	if [ "$rc" = 0 ] && grep -q "submitted as id" "$T/out"; then
		through=$((through + 1)) row=$((row + 1))
	elif grep -q "^hpoctl: out of memory$" "$T/err"; then
		errors=$((errors + 1)) row=0
	else
		bad="$bad $n($(head -c 200 "$T/err"))" row=0
	fi
	if ! kill -0 "$DPID" 2>/dev/null; then
		bad="$bad $n(hpod ended: $(tail -n 3 "$T/hpod.log"))"
		wait "$DPID" || true
		DPID=
		continue
	fi
	stop_daemon || bad="$bad $n(hpod did not exit 0)"
done
echo "# control:1 to $n: $errors submits answered out of memory," \
    "$through got through"
is "each submit got through or was answered 'out of memory'" \
    "$(echo "$bad" | cut -c1-600)" ""
check "memory ran out in the first ones" test "$errors" -gt 100
check "the last five got through" test "$row" = 5
done_testing
