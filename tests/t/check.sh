#!/bin/sh
# hpoctl check: validation happens before anything runs, and errors name
# the file and the key.
. "$(dirname "$0")/lib.subr"

for f in "$TOP"/etc/campaigns/*.json; do
	check "shipped example $(basename "$f") is valid" "$HPOCTL" check "$f"
done
write_campaign ok 2 1 2
check "a good spec passes" "$HPOCTL" check "$T/ok.json"

# bad NAME SED-EXPRESSION EXPECTED-MESSAGE
bad() {
	sed "$2" "$T/ok.json" >"$T/$1.json"
	rc=0
	"$HPOCTL" check "$T/$1.json" 2>"$T/err.txt" >/dev/null || rc=$?
	is "$1: rejected" "$rc" 1
	if grep -qF "$T/$1.json: $3" "$T/err.txt"; then
		ok "$1: message names file and key"
	else
		not_ok "$1: message names file and key"
		echo "#   got: $(cat "$T/err.txt")"
	fi
}
bad unknown-key 's/"budget"/"budgte"/' 'budgte: unknown key'
bad wrong-type 's/"min": 0.001/"min": "small"/' 'space.lr.min: expected a number'
bad empty-range 's/"max": 0.5/"max": 0.001/' 'space.lr: empty range'
bad min-gt-max 's/"max": 0.5/"max": 0.0001/' 'space.lr: min (0.001) must be <= max (0.0001)'
bad log-nonpositive 's/"min": 0.001/"min": 0/' 'space.lr.min: must be > 0 for scale "log"'
bad no-cap 's/"max_trials": 2, //' 'budget.max_trials: required'
bad sbatch-own 's/"resources": {/"backend": "slurm", "resources": {"sbatch_extra": ["--nice=1", "--job-name=x"], /' \
    'resources.sbatch_extra[1]: "--job-name=x": --job-name is set by hpod itself'
bad sbatch-short 's/"resources": {/"backend": "slurm", "resources": {"sbatch_extra": ["-p gpu"], /' \
    'resources.sbatch_extra[0]: "-p gpu": expected a long sbatch option'
# With no cluster to ask, sbatch_extra passes the spec's own checks and
# check says the controller was not asked.
sed 's/"resources": {/"backend": "slurm", "resources": {"sbatch_extra": ["--nice=1"], /' \
    "$T/ok.json" >"$T/extra.json"
rc=0
SLURM_CONF=$T/none.conf "$HPOCTL" check "$T/extra.json" >"$T/out.txt" || rc=$?
is "sbatch_extra without a cluster: passes" "$rc" 0
check "saying the controller was not asked, and why" grep -q \
    "extra.json: sbatch_extra not checked with the controller: slurm: SLURM_CONF=$T/none.conf" \
    "$T/out.txt"
bad bad-goal 's/"goal": "min"/"goal": "down"/' 'objective.goal: expected "min" or "max"'
bad nul-name 's/"name": "ok"/"name": "a\\u0000\/..\/x"/' 'name: a NUL character (\u0000) is not allowed in a string'
bad nul-nested 's/"scale": "log"/"scale": "lo\\u0000g"/' 'space.lr.scale: a NUL character (\u0000) is not allowed in a string'
sed 's/"name": "ok",/"name": "ok", "description": "dir\\\\u0000",/' "$T/ok.json" \
    >"$T/bs.json"
check "an escaped backslash before u0000 is no NUL" "$HPOCTL" check "$T/bs.json"
# minicosmo logs eval_error and train_loss: every trial of this one would
# run to its end with no value.
bad unknown-metric 's/"metric": "eval_error"/"metric": "eval_accuracy"/' \
    "objective.metric: 'eval_accuracy' is not logged by workload 'minicosmo' ($TOP/workloads/minicosmo.json), which logs eval_error, train_loss"
# What the proxy trainers refuse (exit 64), every trial would fail on.
bad fixed-epochs 's/"epochs": 2,/"epochs": -3,/' \
    "fixed.epochs: -3 is not legal for workload 'minicosmo' ($TOP/workloads/minicosmo.json): must be >= 1 (allowed: whole numbers in [1, 10000])"
bad fixed-momentum 's/"epochs": 2,/"epochs": 2, "momentum": 1,/' \
    "fixed.momentum: 1 is not legal for workload 'minicosmo' ($TOP/workloads/minicosmo.json): must be < 1 (allowed: numbers in [0, 1))"
bad space-lr 's/"max": 0.5/"max": 2000/' \
    "space.lr.max: 2000 is not legal for workload 'minicosmo' ($TOP/workloads/minicosmo.json): must be <= 1000 (allowed: numbers in (0, 1000])"
bad target-negative 's/"target": 0.35/"target": -1/' \
    "objective.target: -1 is not legal for workload 'minicosmo' ($TOP/workloads/minicosmo.json): must be >= 0"
bad unused-parameter 's/"fixed": {/"fixed": {"colour": 1, /' "fixed.colour: not used by workload 'minicosmo'"
# A workload found beside the program's directory is named by a clean
# path, not BINDIR/../workloads/NAME.json.
mkdir -p "$T/inst/bin" "$T/inst/workloads"
cp "$HPOCTL" "$T/inst/bin/"
cp "$TOP/workloads/minicosmo.json" "$T/inst/workloads/"
rc=0
(unset HPOD_WORKLOAD_PATH; "$T/inst/bin/hpoctl" check "$T/ok.json") \
    >"$T/out.txt" 2>&1 || rc=$?
is "a workload beside the program: found" "$rc" 0
check "  and named by its clean path" grep -qF \
    "workload 'minicosmo' ($(cd "$T/inst/workloads" && pwd -P)/minicosmo.json)" \
    "$T/out.txt"
check "  without .." sh -c "! grep -q '/\.\./' '$T/out.txt'"
rc=0
"$HPOCTL" check "$T/missing.json" 2>"$T/err.txt" || rc=$?
is "a missing file is reported" "$rc" 1
check "with its name" grep -q "missing.json: No such file" "$T/err.txt"
sed 's/"workload": "minicosmo"/"workload": "nosuch"/' "$T/ok.json" >"$T/nw.json"
rc=0
"$HPOCTL" check "$T/nw.json" 2>"$T/err.txt" || rc=$?
is "an unknown workload is reported" "$rc" 1
check "by name" grep -q "workload 'nosuch' not found" "$T/err.txt"
check "  naming the spec file and key" grep -q \
    "^hpoctl: $T/nw.json: workload: workload 'nosuch' not found" "$T/err.txt"
printf '{"name": "a\000b"}' >"$T/nulbyte.json"
rc=0
"$HPOCTL" check "$T/nulbyte.json" 2>"$T/err.txt" || rc=$?
is "a raw NUL byte in a spec is refused" "$rc" 1
check "  named by offset" grep -q "$T/nulbyte.json: a NUL byte at offset 11" \
    "$T/err.txt"
# Usage errors exit 64 and say what is expected.
rc=0
"$HPOCTL" 2>"$T/err.txt" || rc=$?
is "hpoctl with no command exits 64" "$rc" 64
check "and prints the usage" grep -q "^usage: hpoctl" "$T/err.txt"
# One of a thing is said in the singular.
sed '/"batch_size"/d; s/"log"},/"log"}/' "$T/ok.json" >"$T/one.json"
sed -i 's/"max_trials": 2/"max_trials": 1/' "$T/one.json"
is "one parameter, one trial: singular" \
    "$("$HPOCTL" check "$T/one.json" | sed 's/.*), //')" \
    "1 parameter, random search, 1 trial, local backend"
rc=0
"$HPOCTL" frobnicate 2>/dev/null || rc=$?
is "an unknown command exits 64" "$rc" 64
rc=0
"$HPOCTL" report --ledger "$T/x.db" --format xml x 2>"$T/err.txt" || rc=$?
is "an unknown format exits 64" "$rc" 64
check "and names the option" grep -q -- "--format: expected text, json, csv, markdown, rcp or html, got 'xml'" "$T/err.txt"
rc=0
"$HPOCTL" report --ledger "$T/none.db" x 2>"$T/err.txt" || rc=$?
is "reading a ledger that does not exist fails" "$rc" 1
check "and names it" grep -q "none.db" "$T/err.txt"
check "without creating it" test ! -e "$T/none.db"
rc=0
"$HPOD" -x 2>"$T/err.txt" || rc=$?
is "hpod with a bad option exits 64" "$rc" 64
check "and prints its usage" grep -q "^usage: hpod \[-dnvV\] \[-f file\]" "$T/err.txt"
printf 'ledger = relative.db\n' >"$T/bad.conf"
rc=0
"$HPOD" -n -f "$T/bad.conf" 2>"$T/err.txt" || rc=$?
is "hpod -n rejects a bad configuration" "$rc" 1
check "naming file, line and key" grep -q "bad.conf:1: ledger: must be an absolute path" "$T/err.txt"
# A local campaign whose program cannot run here (a script without its
# execute bit): check said ok and nothing else, and every trial failed.
mkdir -p "$T/ownwl"
printf '#!/bin/sh\n' >"$T/ownwl/train.sh"
cat >"$T/ownwl/own.json" <<JSON
{"name": "own", "program": "$T/ownwl/train.sh", "args": ["{lr}"],
 "objective": {"metric": "loss", "goal": "min"}}
JSON
cat >"$T/own.json" <<JSON
{"name": "own", "workload": "ownwl/own.json",
 "space": {"lr": {"type": "float", "min": 0.1, "max": 1}},
 "budget": {"max_trials": 1}}
JSON
rc=0
"$HPOCTL" check "$T/own.json" >"$T/out.txt" 2>&1 || rc=$?
is "a program that cannot run here is no error of the spec" "$rc" 0
check "but a warning naming the spec, key and why" grep -q \
    "own.json: warning: .*own.json: program: '$T/ownwl/train.sh' cannot be run on this machine: Permission denied; the local backend runs it here" \
    "$T/out.txt"
chmod +x "$T/ownwl/train.sh"
is "none once it can" "$("$HPOCTL" check "$T/own.json" 2>&1 | grep -c warning || true)" 0
done_testing
