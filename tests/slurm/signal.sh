#!/bin/sh
# Jobs signalled from outside (scancel --signal): USR1 to the batch shell
# is forwarded to the workload, which dies of it: the attempt fails, its
# signal recorded and named in hpod's log (not just "slurm FAILED");
# scancel --full --signal=KILL is Slurm's cancel: cancelled, not retried,
# billed the run time scontrol shows.
. "$(dirname "$0")/lib.subr"

start_daemon
sleep_campaign sig 300 2 2
check "submit sig" "$HPOCTL" submit "$T/sig.json"
check "both run" wait_sql "select count(*) from $(of sig) and a.started is not null" 2 30
usr=$(job_of sig 0 0)
kill=$(job_of sig 1 0)
sleep 1
check "scancel -b -s USR1 $usr" scancel -b -s USR1 "$usr"
check "scancel -f -s KILL $kill" scancel -f -s KILL "$kill"
check "sig ends" wait_campaign sig 60
is "USR1: failed, signal 10" \
    "$(sql "select a.state || ' ' || a.signal from $(of sig) and t.number = 0")" \
    "failed 10"
check "the log names the signal" grep -q \
    "campaign sig: trial 0: failed: slurm FAILED, signal 10, no eval_error reported" \
    "$T/hpod.log"
is "KILL: cancelled, one attempt" \
    "$(sql "select group_concat(a.state) || ' ' || t.state from $(of sig) and t.number = 1")" \
    "cancelled cancelled"
run=$(scontrol show job "$kill" | sed -n 's/.*RunTime=\([0-9:]*\).*/\1/p' |
    awk -F: '{ print $1 * 3600 + $2 * 60 + $3 }')
is "KILL: billed scontrol's RunTime" \
    "$(sql "select cast(a.ended - a.started as int) from $(of sig) and t.number = 1")" \
    "$run"
check "the daemon stops" stop_daemon
done_testing
