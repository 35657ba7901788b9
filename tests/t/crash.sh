#!/bin/sh
# Crash consistency: hpod SIGKILLed again and again during a campaign (at
# the test-only pause points between "attempt recorded" and "submitted",
# between "submitted" and "job id recorded", and between an attempt's end
# and its trial's new state, and at moments just after a restart), then a foreground `hpoctl run` killed the same
# way and taken back by `hpoctl resume`, one killed again and again at the
# pause point after-mkdir (a new attempt's directory made, nothing
# submitted), the same on the replay backend, one killed at after-claim
# (its run directory made, its record not yet) and run again, and one
# ended by `hpoctl cancel --ledger`.  At the end every process that ran is exactly
# one attempt, every attempt that ran is costed from its result.json, and
# nothing is left running; a failed run prints the ledger's campaigns,
# trials, attempts and last events to stderr (crash_diag).
#
# HPOD_CRASH_TRIALS, HPOD_CRASH_KILLS and HPOD_CRASH_EPOCHS make it bigger
# (make soak).
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/crash.subr"

TRIALS=${HPOD_CRASH_TRIALS:-60}
KILLS=${HPOD_CRASH_KILLS:-24}
EPOCHS=${HPOD_CRASH_EPOCHS:-6}
FGTRIALS=${HPOD_CRASH_FG_TRIALS:-12}
FGKILLS=${HPOD_CRASH_FG_KILLS:-6}
PAR=3

# spec NAME TRIALS EPOCHS: a campaign whose target nobody reaches.
spec() {
	cat >"$T/$1.json" <<JSON
{"name": "$1", "workload": "minicosmo",
 "objective": {"metric": "eval_error", "goal": "min", "target": 0.0001},
 "space": {"lr": {"type": "float", "min": 0.001, "max": 0.5, "scale": "log"},
           "batch_size": {"type": "choice", "values": [32, 64]}},
 "fixed": {"epochs": $3, "warmup_epochs": 0, "train_samples": 128,
           "eval_samples": 64},
 "search": {"algorithm": "random", "seed": 5},
 "budget": {"max_trials": $2, "max_parallel": $PAR},
 "resources": {"cpus_per_task": 1, "time_limit": "00:05:00"}}
JSON
}

spec cr "$TRIALS" "$EPOCHS"
start_daemon
"$HPOCTL" submit "$T/cr.json" >/dev/null
# The first kill: right after the submit.
kill_daemon
KILLED=1
crash_loop cr "$KILLS" "$HPOD" -d -v -f "$CONF"
check "hpod was SIGKILLed at least 20 times ($KILLED)" test "$KILLED" -ge 20
DKILLED=$KILLED
check "hpoctl resume leaves a campaign of the daemon to the daemon" \
    sh -c "! '$HPOCTL' -f '$CONF' resume cr 2>'$T/resume.err'"
# At length (make soak) the kills may outlast the campaign: then it is
# refused as finished.
if [ "$(campaign_state cr)" = running ]; then
	check "and says so" grep -q "campaign 'cr'.*belongs to the daemon" \
	    "$T/resume.err"
else
	check "and says so (finished)" grep -q "campaign 'cr'.*is finished" \
	    "$T/resume.err"
fi
check "so does hpoctl cancel --ledger" \
    sh -c "! '$HPOCTL' cancel --ledger '$LEDGER' cr 2>/dev/null"
check "hpoctl resume of no such campaign fails" \
    sh -c "! '$HPOCTL' -f '$CONF' resume nope 2>'$T/resume.err'"
check "and names the ledger" grep -q "$LEDGER: no campaign 'nope'" "$T/resume.err"
start_daemon
check "the campaign finishes after the last restart" wait_campaign cr 300
check "the daemon stops" stop_daemon
is "the campaign finished" "$(campaign_state cr)" finished
evidence cr "$TRIALS"
echo "# cr: $TRIALS trials, hpod SIGKILLed $DKILLED times:" \
    "$(q cr 'count(*)') attempts," \
    "$(q cr 'count(*)' "and a.reason like 'never started%'") recorded but never started," \
    "$(grep -c 'cr: trial .* re-adopted' "$T/hpod.log") re-adoptions," \
    "$(wc -l <"$T/cr.results") ran, $(awk '{ s += $3 - $2 } END { printf "%.1f", s }' "$T/cr.results") CPU-s"

# A foreground run killed: hpoctl resume takes it back, killed again.
spec fg "$FGTRIALS" 2
KILLED=0
HPOD_TEST_PAUSE=after-submit "$HPOCTL" -f "$CONF" run -q "$T/fg.json" \
    >>"$T/crash.out" 2>>"$T/hpod.log" &
pid=$!
settle "$pid" || true
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
is "a killed hpoctl run leaves its campaign running" "$(campaign_state fg)" running
crash_loop fg "$FGKILLS" "$HPOCTL" -f "$CONF" resume -q fg
check "hpoctl resume was SIGKILLed too ($KILLED)" test "$KILLED" -ge 3
if [ "$(campaign_state fg)" = running ]; then
	check "hpoctl resume finishes the campaign" \
	    "$HPOCTL" -f "$CONF" resume -q fg
else
	ok "hpoctl resume finished the campaign between kills"
fi
is "the foreground campaign finished" "$(campaign_state fg)" finished
evidence fg "$FGTRIALS"
echo "# fg: $FGTRIALS trials, hpoctl run/resume SIGKILLed $((KILLED + 1)) times:" \
    "$(q fg 'count(*)') attempts, $(wc -l <"$T/fg.results") ran"
check "hpoctl resume refuses a finished campaign" \
    sh -c "! '$HPOCTL' -f '$CONF' resume fg 2>'$T/resume.err'"
check "and says why" grep -q "campaign 'fg'.*finished" "$T/resume.err"

# Killed at the pause point after-mkdir (a new attempt's directory made,
# nothing submitted), the first time in `hpoctl run` at its first trial,
# then in each resume: the resume must neither stop the campaign on that
# directory nor lose the trial.
spec md 6 2
KILLED=0
for k in 1 2 3 4; do
	[ "$(campaign_state md)" = finished ] && break
	case $k in
	1) set -- run -q "$T/md.json" ;;
	*) set -- resume -q md ;;
	esac
	kill_at after-mkdir "$@" && KILLED=$((KILLED + 1))
done
is "md: hpoctl run/resume were SIGKILLed after-mkdir 4 times" "$KILLED" 4
check "md: hpoctl resume finishes the campaign" \
    "$HPOCTL" -f "$CONF" resume -q md
is "md: no attempt directory stopped the campaign" \
    "$(sql "select count(*) from events e join campaigns c on c.id = e.campaign_id where c.name = 'md' and e.message like '%exists already%'")" 0
is "the md campaign finished" "$(campaign_state md)" finished
evidence md 6

# The same kill on the replay backend, whose jobs live and die with the
# process and whose attempts are not committed one by one: the resume
# moves the lost attempt's directory aside and runs the campaign to its end.
cat >"$T/table.json" <<'JSON'
{"format": "hpod-replay-1", "workload": "minicosmo",
 "metric": "eval_error", "goal": "min",
 "params": [{"name": "lr", "scale": "log"}], "fixed": {"epochs": 1},
 "runs": [{"x": [0.01], "seed": 0, "start_s": 1, "status": 0,
   "epoch_s": [10], "values": [0.5]}]}
JSON
cat >"$T/rp.json" <<JSON
{"name": "rp", "workload": "minicosmo",
 "objective": {"metric": "eval_error", "goal": "min"},
 "space": {"lr": {"type": "float", "min": 0.001, "max": 0.1, "scale": "log"}},
 "fixed": {"epochs": 1}, "search": {"algorithm": "random", "seed": 1},
 "budget": {"max_trials": 5, "max_parallel": 2},
 "backend": "replay", "replay": {"table": "$T/table.json"}}
JSON
check "rp: hpoctl run paused after-mkdir" kill_at after-mkdir run -q "$T/rp.json"
check "rp: hpoctl resume finishes the replay campaign" \
    "$HPOCTL" -f "$CONF" resume -q rp
is "rp: it finished with its 5 trials, each completed once" \
    "$(campaign_state rp) $(q rp "count(*) || ' ' || count(distinct t.id)" "and a.state = 'completed'")" \
    "finished 5 5"
is "rp: the lost attempt's directory was moved aside" \
    "$(find "$RUNS" -path '*-rp/trial-0000/attempt-0.unrecorded-*' -name params.json | wc -l)" 1

# Killed at the pause point after-claim (a new campaign's run directory
# made, its record not yet committed): nothing of the campaign is kept,
# and running it again takes the empty directory it left.
spec cl 2 1
check "cl: hpoctl run paused after-claim" kill_at after-claim run -q "$T/cl.json"
is "cl: nothing of the campaign is recorded" "$(campaign_state cl)" ""
check "cl: hpoctl run runs it again, in the empty directory left" \
    "$HPOCTL" -f "$CONF" run -q "$T/cl.json"
is "cl: it finished" "$(campaign_state cl)" finished

# A killed foreground run ended with hpoctl cancel --ledger.
spec cx 6 40
"$HPOCTL" -f "$CONF" run -q "$T/cx.json" >>"$T/crash.out" 2>>"$T/hpod.log" &
pid=$!
for _ in $(seq 1 300); do
	[ "$(q cx 'count(*)' 'and a.started > 0')" -ge 2 ] && break
	sleep 0.1
done
check "hpoctl resume leaves a live hpoctl run its campaign" \
    sh -c "! '$HPOCTL' -f '$CONF' resume cx 2>'$T/resume.err'"
check "and names its process" grep -q "campaign 'cx' (id [0-9]*) is still run by process $pid" "$T/resume.err"
check "so does hpoctl cancel --ledger, however the ledger is named" \
    sh -c "! '$HPOCTL' cancel --ledger '$T/state/./ledger.db' cx 2>/dev/null"
is "the campaign still runs" "$(campaign_state cx)" running
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
check "hpoctl cancel --ledger ends a campaign no daemon owns" \
    sh -c "'$HPOCTL' cancel --ledger '$LEDGER' cx 2>>'$T/hpod.log'"
is "it is cancelled" "$(campaign_state cx)" cancelled
is "cx: every attempt ended" "$(q cx 'count(*)' 'and a.ended is null')" 0
results cx | cut -d' ' -f1 >"$T/cx.ran"
q cx a.token 'and a.started > 0 order by a.token' >"$T/cx.costed"
check "cx: every process that ran is one costed attempt" \
    cmp "$T/cx.ran" "$T/cx.costed"
check "the lock files of ended campaigns are gone" \
    test -z "$(find "$T/state" -name '*.db.*.lock')"

check "PRAGMA integrity_check: ok" \
    test "$(sql 'pragma integrity_check')" = ok
no_process_left
[ "$TAPFAIL" -eq 0 ] || crash_diag
done_testing
