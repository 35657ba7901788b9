#!/bin/sh
# A trainer that writes its own result.json early, in the attempt
# directory where it runs, and trains on.  hpod SIGKILLed while it runs,
# and a foreground hpoctl run SIGKILLed the same way and resumed, must
# take the trial back: not lost, not run twice, billed from its real
# start, its metric curve complete, and the trainer's file kept.  An
# attempt an older hpo-trial started (a result.json, no hpo-trial.json)
# is taken back from its result.json as before, and when its trainer
# replaced that with its own, followed through its wrapper's process,
# found by its token.  Before, the trainer's file replaced hpo-trial's
# record while it ran, and the restarted engine read that foreign file
# ("'token' must be a string"): the attempt lost and the trial run again
# beside the one still running.
. "$(dirname "$0")/lib.subr"

nap_workload
# Epochs 1-3, then wait for $T/go-CAMPAIGN, then epochs 4-6; a result.json
# of its own first, but in campaign "old".
cat >"$T/bin/nap.sh" <<SH
case \$PWD in
*-old/*) ;;
*) echo '{"accuracy": 1}' >result.json ;;
esac
ml() {
	echo ":::MLLOG {\"key\": \"eval_error\", \"value\": 0.\$1, \"metadata\": {\"epoch_num\": \$2}}"
}
ml 9 1; ml 8 2; ml 7 3
case \$PWD in
*-ko/*) go=$T/go-ko ;;
*-fg/*) go=$T/go-fg ;;
*-mix/*) go=$T/go-mix ;;
*) go=$T/go-old ;;
esac
while [ ! -e "\$go" ]; do sleep 0.1; done
ml 6 4; ml 5 5; ml 4 6
SH
# own NAME: $T/NAME.json, a campaign of one nap trial.
own() {
	cat >"$T/$1.json" <<JSON
{"name": "$1", "workload": "nap",
 "objective": {"metric": "eval_error", "goal": "min"},
 "space": {"value": {"type": "float", "min": 0.3, "max": 0.6}},
 "search": {"algorithm": "random", "seed": 1},
 "budget": {"max_trials": 1, "max_parallel": 1},
 "resources": {"cpus_per_task": 1}}
JSON
}
# q NAME COLUMNS: the attempts of campaign NAME.
q() {
	sql "select $2 from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = '$1'"
}
# mid NAME [TEXT]: wait (up to 30 s) until campaign NAME's trial has
# logged its first 3 epochs and its result.json holds TEXT (accuracy: the
# trainer's).
mid() {
	for _ in $(seq 1 300); do
		if [ "$(sql "select count(*) from metrics m join attempts a on a.id = m.attempt_id join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = '$1'")" -ge 3 ] &&
		    [ -n "$(q "$1" dir)" ] &&
		    grep -qs "${2:-accuracy}" "$(q "$1" dir)/result.json"; then
			return 0
		fi
		sleep 0.1
	done
	return 1
}
# taken_back NAME [old]: the checks after campaign NAME's restart; old:
# the trainer wrote no result.json.
taken_back() {
	touch "$T/go-$1"
	check "$1: the campaign finishes" wait_campaign "$1" 60
	dir=$(q "$1" a.dir | head -n 1)
	is "$1: its trial was taken back, not lost, not run twice" \
	    "$(q "$1" "count(*)") $(q "$1" "a.state || ' ' || t.state")" \
	    "1 completed completed"
	# The ledger's start is the spawn's, a few ms before hpo-trial's.
	start=$(jq -r .start "$dir/result.json") || start=0
	end=$(jq -r .end "$dir/result.json") || end=0
	is "$1: billed from the real start hpo-trial recorded ($start)" \
	    "$(q "$1" "abs(a.started - $start) < 1")" 1
	is "$1: to its end" "$(q "$1" "abs(a.ended - $end) < 1")" 1
	check "$1: which is before the kill" \
	    test "$(q "$1" "a.started < $KILLED_AT")" = 1
	is "$1: its metric curve is complete" \
	    "$(sql "select group_concat(step || '=' || value, ' ') from (select m.step, m.value from metrics m join attempts a on a.id = m.attempt_id join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = '$1' and m.key = 'eval_error' order by m.step)")" \
	    "1.0=0.9 2.0=0.8 3.0=0.7 4.0=0.6 5.0=0.5 6.0=0.4"
	[ "${2:-}" = old ] ||
	    is "$1: the trainer's file is kept" \
	    "$(cat "$dir/result.json.workload" 2>/dev/null)" '{"accuracy": 1}'
	is "$1: hpo-trial's record is in result.json" \
	    "$(jq -r '"\(.state) \(.exit_code)"' "$dir/result.json" || true)" \
	    "exited 0"
}

# The daemon, SIGKILLed.
own ko
start_daemon
check "ko: the campaign is submitted" "$HPOCTL" submit "$T/ko.json"
check "ko: the trial wrote its result.json and logged 3 epochs" mid ko
KILLED_AT=$(date +%s.%N)
kill_daemon
check "ko: the trial outlives the daemon" trials_alive
start_daemon
taken_back ko
check "the daemon stops" stop_daemon

# A foreground run, SIGKILLed and resumed.
own fg
"$HPOCTL" -f "$CONF" run -q "$T/fg.json" >/dev/null 2>"$T/fg.err" &
FG=$!
check "fg: the trial wrote its result.json and logged 3 epochs" mid fg
KILLED_AT=$(date +%s.%N)
kill -KILL "$FG"
wait "$FG" 2>/dev/null || true
"$HPOCTL" -f "$CONF" resume -q fg >/dev/null 2>>"$T/fg.err" &
FG=$!
taken_back fg
wait "$FG" 2>/dev/null || true

# An hpod upgraded while an older hpo-trial ran, which ended before the
# new hpod started: its attempt has a result.json, no hpo-trial.json.
own old
start_daemon
check "old: the campaign is submitted" "$HPOCTL" submit "$T/old.json"
check "old: the trial logged 3 epochs" mid old '"state":"running"'
KILLED_AT=$(date +%s.%N)
kill_daemon
touch "$T/go-old"
for _ in $(seq 1 300); do
	[ -e "$(q old a.dir)/ended" ] && break
	sleep 0.1
done
check "old: the trial ended while no hpod ran" test -e "$(q old a.dir)/ended"
rm "$(q old a.dir)/hpo-trial.json"
start_daemon
taken_back old old
check "the daemon stops" stop_daemon

# An older hpo-trial whose record the trainer replaced with its own
# result.json, running when the new hpod starts: it has no hpo-trial.json
# to read, but its wrapper is found by its token and followed to its end.
own mix
start_daemon
check "mix: the campaign is submitted" "$HPOCTL" submit "$T/mix.json"
check "mix: the trial wrote its result.json and logged 3 epochs" mid mix
KILLED_AT=$(date +%s.%N)
kill_daemon
rm "$(q mix a.dir)/hpo-trial.json"
start_daemon
taken_back mix
check "the daemon stops" stop_daemon
done_testing
