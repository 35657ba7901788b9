#!/bin/sh
# The target stopper sees a trial cancelled (hpoctl cancel --trial) or
# pruned as ended at once, not only at its job's end, which on the local
# backend (and Slurm) comes a grace period later: its leader rule judges
# an ended trial at step / leader (2) and one running beside it at step /
# leader_running (here 100: a running trial leads nobody).  Trial A
# reports 0.3 at epoch 1 and is cancelled, or reports it again at epoch 2
# and is pruned (no progress in the grace period of 2 epochs); it ignores
# SIGTERM (its job ends at the wrapper's SIGKILL, 10 s later).  Meanwhile
# trial B reports 0.5 at epoch 2 (0.6 at 1), worse than A by epoch 1: B
# is pruned at once.  Before, A still counted as running until its end,
# and B, which reports nothing more, ran to its end and completed.  (The
# replay backend ends a cancelled job at once: tests/t/stop-async.sh.)
. "$(dirname "$0")/lib.subr"

mkdir -p "$T/wl" "$T/bin"
export HPOD_WORKLOAD_PATH="$T/wl:$HPOD_WORKLOAD_PATH"
cat >"$T/wl/two.json" <<JSON
{"name": "two", "program": "sh", "args": ["$T/bin/two.sh", "{campaign}", "{value}"]}
JSON
MLLOG=':::MLLOG {"namespace": "", "time_ms": 0, "event_type": "POINT_IN_TIME", "key": "eval_error", "value": %s, "metadata": {"file": "t", "epoch_num": %s}}\n'
# $T/NAME/a: made by trial A; $T/NAME/termed: A got its SIGTERM;
# $T/NAME/go: B may report its epoch 2.
cat >"$T/bin/two.sh" <<SH
d="$T/\$1"
if mkdir "\$d/a" 2>/dev/null; then
	trap 'touch "\$d/termed"' TERM
	printf '$MLLOG' 0.3 1
	[ -e "\$d/prune" ] && printf '$MLLOG' 0.3 2
	i=0
	while [ \$i -lt 600 ]; do sleep 0.1; i=\$((i + 1)); done
else
	printf '$MLLOG' 0.6 1
	while [ ! -e "\$d/go" ]; do sleep 0.1; done
	printf '$MLLOG' 0.5 2
	i=0
	while [ \$i -lt 200 ]; do sleep 0.1; i=\$((i + 1)); done
fi
SH
printf 'local_cpus = 2\n' >>"$CONF"

# campaign NAME: $T/NAME.json, two trials at once under the target
# stopper, and its folder $T/NAME.
campaign() {
	mkdir "$T/$1"
	cat >"$T/$1.json" <<JSON
{"name": "$1", "workload": "two",
 "objective": {"metric": "eval_error", "goal": "min", "target": 0.01},
 "space": {"value": {"type": "float", "min": 0.3, "max": 0.6}},
 "search": {"algorithm": "random", "seed": 1,
     "stopper": {"algorithm": "target", "max_resource": 10,
         "warmup_steps": 2, "leader": 2, "leader_running": 100}},
 "budget": {"max_trials": 2, "max_parallel": 2},
 "resources": {"cpus_per_task": 1}}
JSON
}

# qs NAME EXPR [WHERE]: the query of EXPR over campaign NAME's trials t
# (and the metrics m of their attempts a); q runs it.
qs() {
	echo "select $2 from trials t join campaigns c on c.id = t.campaign_id left join attempts a on a.trial_id = t.id left join metrics m on m.attempt_id = a.id where c.name = '$1' ${3:-}"
}
q() {
	sql "$(qs "$@")"
}

# scenario NAME HOW: campaign NAME, its trial A ended by HOW (cancel or
# prune) while its job runs on, then B's epoch 2.
scenario() {
	campaign "$1"
	[ "$2" = prune ] && touch "$T/$1/prune"
	check "$1: the campaign is submitted" "$HPOCTL" submit "$T/$1.json"
	wait_count 2 30 "$(qs "$1" "count(*)" "and m.step = 1")"
	a=$(q "$1" t.number "and m.step = 1 and m.value = 0.3")
	b=$(q "$1" t.number "and m.step = 1 and m.value = 0.6")
	is "$1: both trials reported their first epoch" "$a$b" \
	    "$(echo "$a$b" | grep -x '[01][01]')"
	[ "$2" = cancel ] && "$HPOCTL" cancel --trial "$a" "$1" >/dev/null
	for _ in $(seq 1 100); do
		[ -e "$T/$1/termed" ] && break
		sleep 0.1
	done
	is "$1: A was sent its SIGTERM ($2), which it ignores: it runs on" \
	    "$([ -e "$T/$1/termed" ] && echo yes) $(q "$1" "distinct t.state" "and t.number = $a")" \
	    "yes running"
	touch "$T/$1/go"
	wait_count 1 60 "$(qs "$1" "count(distinct t.id)" "and t.number = $b and t.state not in ('pending', 'running')")"
	is "$1: B, behind A's epoch 1 at its epoch 2, was pruned" \
	    "$(q "$1" "distinct t.state" "and t.number = $b")" pruned
	check "$1: the campaign ends" wait_campaign "$1" 60
	is "$1: B was pruned while A still ran, A's end logged after it" \
	    "$(grep "campaign $1:" "$T/hpod.log" | grep -o -e "trial $b: pruned by target at epoch 2" -e "trial $a: $3," | tr '\n' ' ')" \
	    "trial $b: pruned by target at epoch 2 trial $a: $3, "
}

start_daemon
scenario sc cancel cancelled
scenario sp prune pruned
check "hpod stops cleanly" stop_daemon
done_testing
