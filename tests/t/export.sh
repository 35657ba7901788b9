#!/bin/sh
# hpoctl export --format optuna: a real campaign with pruned trials,
# written as an Optuna RDB study, loads in Debian's python3-optuna with
# the ledger's trials, states, values, parameters, distributions and
# intermediate values; an existing file is never replaced.
. "$(dirname "$0")/lib.subr"

PY=/usr/bin/python3
if ! "$PY" -c 'import optuna' 2>/dev/null; then
	echo "1..0 # SKIP python3-optuna is not installed (apt-get install python3-optuna)"
	exit 0
fi

cat >"$T/ex.json" <<JSON
{
  "name": "ex",
  "workload": "minicosmo",
  "objective": {"metric": "eval_error", "goal": "min", "target": 0.35},
  "space": {
    "lr": {"type": "float", "min": 0.001, "max": 0.5, "scale": "log"},
    "warmup_epochs": {"type": "int", "min": 0, "max": 1},
    "batch_size": {"type": "choice", "values": [32, 64]}
  },
  "fixed": {"epochs": 4, "train_samples": 256, "eval_samples": 128},
  "search": {"algorithm": "random", "seed": 7,
    "stopper": {"algorithm": "asha", "min_resource": 1, "eta": 3}},
  "budget": {"max_trials": 6, "max_parallel": 2},
  "resources": {"cpus_per_task": 1, "time_limit": "00:05:00"}
}
JSON
"$HPOCTL" -f "$CONF" run -q "$T/ex.json" >/dev/null || true
check "the campaign pruned a trial" test "$(sql "select count(*) from trials where state = 'pruned'")" -ge 1

rc=0
"$HPOCTL" export --format optuna --ledger "$LEDGER" -o "$T/study.db" ex \
    2>"$T/err.txt" || rc=$?
is "export exits 0" "$rc" 0
sed 's/^/#   /' "$T/err.txt"

# The comparison: the ledger read with SQL, the study through Optuna.
cat >"$T/compare.py" <<'PY'
import math, sqlite3, sys, json
import optuna
optuna.logging.set_verbosity(optuna.logging.WARNING)
ledger, study_db = sys.argv[1], sys.argv[2]
db = sqlite3.connect("file:%s?mode=ro" % ledger, uri=True)
cid, metric = db.execute("select id, metric from campaigns where name = 'ex'").fetchone()
trials = db.execute("select id, number, state, has_best, best, params_json "
                    "from trials where campaign_id = ? order by number", (cid,)).fetchall()
study = optuna.load_study(study_name="ex", storage="sqlite:///" + study_db)
ot = {t.number: t for t in study.trials}
states = {"completed": "COMPLETE", "pruned": "PRUNED", "failed": "FAIL",
          "cancelled": "FAIL", "running": "RUNNING", "pending": "WAITING"}
def say(name, ok):
    print("%s %s" % ("ok" if ok else "FAIL", name))
say("trial count %d" % len(trials), len(ot) == len(trials))
say("direction", study.direction == optuna.study.StudyDirection.MINIMIZE)
bad = []
for tid, num, state, has_best, best, pj in trials:
    t = ot[num]
    if t.state.name != states[state]:
        bad.append("trial %d state %s vs %s" % (num, t.state.name, state))
    if state == "completed" and t.value != best:
        bad.append("trial %d value %r vs %r" % (num, t.value, best))
    if json.loads(pj) != t.params:
        bad.append("trial %d params %r vs %s" % (num, t.params, pj))
    att = db.execute("select max(m.attempt_id) from metrics m join attempts a "
                     "on a.id = m.attempt_id where a.trial_id = ? and m.key = ?",
                     (tid, metric)).fetchone()[0]
    # The points the search acted on: none logged late, past a prune.
    pts = dict(db.execute("select cast(round(step) as integer), value from metrics "
                          "where attempt_id = ? and key = ? and late is null order by step",
                          (att, metric)).fetchall())
    if pts != t.intermediate_values:
        bad.append("trial %d intermediate %r vs %r" % (num, t.intermediate_values, pts))
    if state == "pruned" and pts and t.value != pts[max(pts)]:
        bad.append("trial %d pruned value %r" % (num, t.value))
    if t.user_attrs.get("hpod_state") != state:
        bad.append("trial %d hpod_state" % num)
say("every trial: state, value, params, intermediate values " + "; ".join(bad), not bad)
lbest = db.execute("select min(best) from trials where campaign_id = ? and "
                   "state = 'completed' and has_best", (cid,)).fetchone()[0]
say("best value %r" % lbest, study.best_value == lbest)
d = study.trials[0].distributions
say("distributions %r" % d,
    d["lr"] == optuna.distributions.FloatDistribution(0.001, 0.5, log=True) and
    d["warmup_epochs"] == optuna.distributions.IntDistribution(0, 1) and
    d["batch_size"] == optuna.distributions.CategoricalDistribution([32, 64]))
say("study attributes", study.user_attrs.get("hpod_campaign") == "ex" and
    study.user_attrs.get("hpod_target") == 0.35)
# And it can go on: a new trial is suggested in the same space (in a copy).
import shutil
shutil.copy(study_db, study_db + ".copy")
t = optuna.load_study(study_name="ex", storage="sqlite:///" + study_db + ".copy").ask()
say("the study can be continued", t.number == len(trials) and
    0.001 <= t.suggest_float("lr", 0.001, 0.5, log=True) <= 0.5)
PY
"$PY" "$T/compare.py" "$LEDGER" "$T/study.db" >"$T/compare.out" 2>&1 || true
while read -r verdict desc; do
	case $verdict in
	ok) ok "optuna: $desc" ;;
	FAIL) not_ok "optuna: $desc" ;;
	*) not_ok "optuna: $verdict $desc" ;;
	esac
done <"$T/compare.out"
check "optuna: the comparison ran to its end" grep -q 'continued' "$T/compare.out"

# The README's two Python examples run on this ledger and study.
readme_example() {
	awk -v h="$1" '$0 == h {f = 1} f && /^```python/ {g = 1; next}
	    g && /^```/ {exit} g' "$TOP/README.md" |
	    sed "s/\"demo\"/\"ex\"/; s/'demo'/'ex'/; s#sqlite:///study.db#sqlite:///$T/study.db#;
	    s#file:ledger.db#file:$LEDGER#" >"$T/example.py"
	(cd "$T" && "$PY" example.py) >"$T/example.out" 2>&1 || { sed "s/^/#   /" "$T/example.out"; return 1; }
}
rc=0
readme_example '### Export to Optuna' || rc=$?
is "README: the Optuna example runs" "$rc" 0
check "... and prints the best value" grep -q "^$("$PY" -c "import optuna; optuna.logging.set_verbosity(0); print(optuna.load_study(study_name='ex', storage='sqlite:///$T/study.db').best_value)") " "$T/example.out"
if "$PY" -c 'import pandas' 2>/dev/null; then
	rc=0
	readme_example '### Read the ledger with pandas' || rc=$?
	is "README: the pandas example runs" "$rc" 0
	sed 's/^/#   /' "$T/example.out"
	check "... and sums the cost by attempt state" grep -q '^pruned ' \
	    "$T/example.out"
else
	ok "# SKIP README's pandas example: python3-pandas is not installed"
fi

# Never replaces a file; bad usage is refused with a reason.
echo keep >"$T/keep.db"
rc=0
"$HPOCTL" export --format optuna --ledger "$LEDGER" -o "$T/keep.db" ex \
    2>"$T/err.txt" || rc=$?
is "an existing file: exit 1" "$rc" 1
is "... and it is left alone" "$(cat "$T/keep.db")" keep
check "... and the error names it" grep -q "keep.db: exists" "$T/err.txt"
rc=0
"$HPOCTL" export --format csv --ledger "$LEDGER" -o "$T/x.db" ex \
    2>"$T/err.txt" || rc=$?
is "--format csv: exit 64" "$rc" 64
check "... and the error says what is expected" \
    grep -q "hpoctl export: --format: expected optuna, got 'csv'" "$T/err.txt"
rc=0
"$HPOCTL" export --format optuna --ledger "$LEDGER" -o "$T/x.db" nope \
    2>"$T/err.txt" || rc=$?
is "an unknown campaign: exit 1" "$rc" 1
check "... no file is left" test ! -e "$T/x.db"
check "... no temporary file is left" sh -c "! ls '$T' | grep -q tmp-"

done_testing
