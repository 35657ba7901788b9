#!/bin/sh
# Batch-size scaling campaigns through the real engine and proxy trainer:
# every batch size gets its tuning trials and confirmation runs; each
# larger batch size starts from the best configuration below it with the
# learning rate moved by the declared rule; confirmation runs repeat the
# chosen configuration with distinct seeds after its tuning ended; and a
# daemon restart in the middle changes no decision.
. "$(dirname "$0")/lib.subr"

# scaling_campaign NAME: batch sizes 16, 32, 64; 3 tuning trials and 3
# confirmation runs each, linear lr rule, one trial at a time.
scaling_campaign() {
	cat >"$T/$1.json" <<JSON
{
  "name": "$1",
  "workload": "minicosmo",
  "objective": {"metric": "eval_error", "goal": "min", "target": 0.16},
  "space": {
    "lr": {"type": "float", "min": 0.003, "max": 0.3, "scale": "log"},
    "warmup_epochs": {"type": "int", "min": 0, "max": 1}
  },
  "fixed": {"epochs": 5, "train_samples": 256, "eval_samples": 128},
  "batch_sizes": [64, 16, 32],
  "scaling": {"lr_rule": "linear", "trials_per_batch": 3, "seeds": 3,
              "min_successes": 2},
  "search": {"algorithm": "random", "seed": 5},
  "budget": {"max_trials": 18, "max_parallel": 1},
  "resources": {"cpus_per_task": 1, "time_limit": "00:05:00"}
}
JSON
}

# q CAMPAIGN SQL-WHERE: count trials of the campaign matching a condition.
q() {
	sql "select count(*) from trials t join campaigns c on c.id = t.campaign_id where c.name = '$1' and ($2)"
}

scaling_campaign straight
"$HPOCTL" -f "$CONF" run -q "$T/straight.json" >/dev/null 2>"$T/straight.err"
is "campaign finished" "$(sql "select state from campaigns where name = 'straight'")" finished
is "its end says why" "$(sql "select count(*) from events e join campaigns c on c.id = e.campaign_id where c.name = 'straight' and message like '%every batch size tuned and confirmed%'")" 1
for b in 16 32 64; do
	is "batch $b: 3 tuning trials" "$(q straight "t.batch_size = $b and t.role in ('search', 'transfer')")" 3
	ntuned=$(q straight "t.batch_size = $b and t.role <> 'confirm' and t.has_best and t.state not in ('failed', 'cancelled')")
	if [ "$ntuned" -gt 0 ]; then
		is "batch $b: 3 confirmation runs" "$(q straight "t.batch_size = $b and t.role = 'confirm'")" 3
	fi
done
is "batch 16 starts from its own search" "$(q straight "t.batch_size = 16 and t.role = 'transfer'")" 0

# Each transfer names its source; lr = source lr x (B / B_source).
sql "select message from events e join campaigns c on c.id = e.campaign_id where c.name = 'straight' and message like '%starts from trial%'" >"$T/transfers"
is "batches 32 and 64 start from a smaller one" "$(wc -l <"$T/transfers" | tr -d ' ')" 2
while read -r line; do
	src=$(echo "$line" | sed -n 's/.*starts from trial \([0-9]*\) .*/\1/p')
	to=$(echo "$line" | sed -n 's/.*batch size \([0-9]*\): starts.*/\1/p')
	from=$(echo "$line" | sed -n 's/.*(batch size \([0-9]*\)).*/\1/p')
	num=$(echo "$line" | sed -n 's/^trial \([0-9]*\):.*/\1/p')
	srclr=$(sql "select json_extract(t.params_json, '\$.lr') from trials t join campaigns c on c.id = t.campaign_id where c.name = 'straight' and t.number = $src")
	newlr=$(sql "select json_extract(t.params_json, '\$.lr') from trials t join campaigns c on c.id = t.campaign_id where c.name = 'straight' and t.number = $num")
	is "trial $num is the transfer, at batch $to" \
	    "$(sql "select role || ' ' || batch_size from trials t join campaigns c on c.id = t.campaign_id where c.name = 'straight' and t.number = $num")" "transfer $to"
	check "trial $num: lr $newlr = min(0.3, $srclr x $to / $from)" awk -v a="$newlr" -v b="$srclr" -v t="$to" -v f="$from" \
	    'BEGIN { w = b * t / f; if (w > 0.3) w = 0.3; d = a - w; if (d < 0) d = -d; exit !(d <= 1e-12 * w) }'
	check "trial $num: its source is a smaller batch size" test "$from" -lt "$to"
done <"$T/transfers"

# Confirmation runs: one configuration per batch size, the source's,
# distinct seeds, created after every tuning trial of it ended.
for b in 16 32 64; do
	n=$(q straight "t.batch_size = $b and t.role = 'confirm'")
	[ "$n" -gt 0 ] || continue
	is "batch $b: confirmation runs share one configuration" \
	    "$(sql "select count(distinct params_json) from trials t join campaigns c on c.id = t.campaign_id where c.name = 'straight' and t.batch_size = $b and t.role = 'confirm'")" 1
	is "batch $b: with distinct seeds" \
	    "$(sql "select count(distinct seed) from trials t join campaigns c on c.id = t.campaign_id where c.name = 'straight' and t.batch_size = $b and t.role = 'confirm'")" "$n"
	is "batch $b: the configuration of a tuning trial of its own" \
	    "$(sql "select count(*) from trials t join campaigns c on c.id = t.campaign_id where c.name = 'straight' and t.batch_size = $b and t.role <> 'confirm' and t.params_json = (select params_json from trials u where u.campaign_id = c.id and u.batch_size = $b and u.role = 'confirm' limit 1)")" 1
	is "batch $b: confirmed after its tuning ended" \
	    "$(sql "select (select min(t.created) from trials t join campaigns c on c.id = t.campaign_id where c.name = 'straight' and t.batch_size = $b and t.role = 'confirm') >= (select max(a.ended) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'straight' and t.batch_size = $b and t.role <> 'confirm')")" 1
	# The chosen one reached the target in the fewest epochs (if any did).
	want=$(sql "select t.params_json from trials t join campaigns c on c.id = t.campaign_id join attempts a on a.trial_id = t.id join metrics m on m.attempt_id = a.id where c.name = 'straight' and t.batch_size = $b and t.role <> 'confirm' and t.state not in ('failed', 'cancelled') and m.key = 'eval_error' and m.value <= 0.16 group by t.id order by min(m.step), t.best, t.number limit 1")
	if [ -n "$want" ]; then
		is "batch $b: the trial that met the target first is confirmed" \
		    "$(sql "select params_json from trials t join campaigns c on c.id = t.campaign_id where c.name = 'straight' and t.batch_size = $b and t.role = 'confirm' limit 1")" "$want"
	fi
done

# Its report page: learning curves per batch size, confirmation runs
# dashed; its Optuna export: the batch size a categorical of the sizes.
"$HPOCTL" report --ledger "$LEDGER" --format html -o "$T/page.html" straight
is "the page: a learning-curve figure per batch size" \
    "$(grep -c '<figure class="plot-curves">' "$T/page.html")" 3
is "the page: confirmation runs' curves dashed" \
    "$(grep -c '<polyline class="curve" [^>]*stroke-dasharray' "$T/page.html")" \
    "$(sql "select count(distinct m.attempt_id) from metrics m join attempts a on a.id = m.attempt_id join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'straight' and t.role = 'confirm' and m.key = 'eval_error'")"
if /usr/bin/python3 -c 'import optuna' 2>/dev/null; then
	"$HPOCTL" export --format optuna --ledger "$LEDGER" -o "$T/study.db" straight
	is "the Optuna export: every trial, the batch size a categorical" \
	    "$(/usr/bin/python3 -c "import optuna; optuna.logging.set_verbosity(0)
s = optuna.load_study(study_name='straight', storage='sqlite:///$T/study.db')
print(len(s.trials), sorted(s.trials[0].distributions['batch_size'].choices))")" \
	    "$(q straight 1) [16, 32, 64]"
else
	ok "# SKIP the Optuna export: python3-optuna is not installed"
fi

# The same campaign in the daemon, stopped and restarted in the middle.
scaling_campaign restarted
start_daemon
"$HPOCTL" submit "$T/restarted.json" >/dev/null
for _ in $(seq 1 600); do
	[ "$(q restarted "1")" -ge 9 ] && break
	sleep 0.1
done
check "SIGTERM during trial 9 or later" stop_daemon
start_daemon
check "the campaign finishes after the restart" wait_campaign restarted 180
check "the daemon stops" stop_daemon
trials() {
	sql "select group_concat(x, ' ') from (select t.role || ':' || t.batch_size || ':' || t.params_json || ':' || t.seed as x from trials t join campaigns c on c.id = t.campaign_id where c.name = '$1' order by t.number)"
}
is "interrupted and uninterrupted campaigns take the same decisions" \
    "$(trials restarted)" "$(trials straight)"
is "no trial was created twice" "$(q restarted "1")" "$(q straight "1")"
done_testing
