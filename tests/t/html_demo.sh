#!/bin/sh
# The HTML report of the demo (etc/campaigns/demo.json) and of the scaling
# demo (etc/campaigns/scaling-minicosmo.json), run smaller (12 trials, 8
# epochs of 256 samples, a target of 0.35 they reach, three batch sizes and
# two seeds, so the test takes a minute or two, not the demos' many) but
# with their spaces, search and layout: in headless Chromium at
# 1280 px nothing overflows (html_measure.js measures every element in the
# page), every number equals the JSON report's, the demo's importance is
# drawn and in the JSON, and a screenshot of each is kept in
# $BUILD/artefacts/report-demo.png and report-scaling.png.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/html.subr"

if ! command -v chromium >/dev/null 2>&1; then
	echo "1..0 # SKIP chromium is not installed (make deps installs it)"
	exit 0
fi

small='.budget.max_trials = 12 | .fixed.epochs = 8 |
    .fixed.train_samples = 256 | .fixed.eval_samples = 128 |
    .objective.target = 0.35'
jq "$small" "$TOP/etc/campaigns/demo.json" >"$T/demo.json"
jq "$small"' | .batch_sizes = [16, 32, 64] | .scaling.trials_per_batch = 2 |
    .scaling.seeds = 2' "$TOP/etc/campaigns/scaling-minicosmo.json" \
    >"$T/scaling.json"
check "the demo runs" "$HPOCTL" -f "$CONF" run -q "$T/demo.json"
check "the scaling demo runs" "$HPOCTL" -f "$CONF" run -q "$T/scaling.json"

mkdir -p "$BUILD/artefacts"
# page NAME CAMPAIGN: render, measure and compare the campaign's page.
page() {
	"$HPOCTL" report --ledger "$LEDGER" --format json "$2" >"$T/$1.report"
	"$HPOCTL" report --ledger "$LEDGER" --table --format json "$2" \
	    >"$T/$1.table"
	"$HPOCTL" trials --ledger "$LEDGER" --format json "$2" >"$T/$1.trials"
	"$HPOCTL" report --ledger "$LEDGER" --format html -o "$T/$1.html" "$2"
	html_measure "$1" "$T/$1.html"
	sed 's/^/#   /' "$T/$1.measure"
	is "$1: measured in a 1280 px window" \
	    "$(sed -n 's/^window //p' "$T/$1.measure")" 1280
	check "$1: every element measured" test "$(sed -n 's/^elements //p' \
	    "$T/$1.measure")" -ge 200
	is "$1: nothing overflows the window" \
	    "$(sed -n 's/^overflow //p' "$T/$1.measure")" 0
	is "$1: the page does not scroll sideways" \
	    "$(sed -n 's/^root //p' "$T/$1.measure")" \
	    "$(sed -n 's/^width //p' "$T/$1.measure")"
	html_marked "$T/$1.dom" >"$T/$1.marked"
	html_compare "$T/$1.marked" "$T/$1.report" "$T/$1.table" \
	    "$T/$1.trials" >"$T/$1.compare"
	sed '$d' "$T/$1.compare"
	is "$1: every number on the page equals its JSON value" \
	    "$(tail -1 "$T/$1.compare")" 0
	is "$1: no numeric cell holds an unmarked number" \
	    "$(html_unmarked "$T/$1.dom")" ""
	chrome --screenshot="$T/$1.png" --window-size=1280,6000 \
	    "file://$T/$1.html" >/dev/null || true
	is "$1: a PNG screenshot" \
	    "$(head -c 8 "$T/$1.png" | od -An -c | tr -d ' ')" '211PNG\r\n032\n'
	cp "$T/$1.png" "$BUILD/artefacts/report-$1.png"
}
page demo demo
page scaling scaling-minicosmo

# The measure finds an overflow: the demo's page with one element too wide.
sed 's|<h2 id="headline">|<div id="too-wide" style="width:1400px">x</div>&|' \
    "$T/demo.m.html" >"$T/wide.m.html"
chrome --window-size=1280,2000 --dump-dom "file://$T/wide.m.html" \
    >"$T/wide.dom" || true
check "an element 1400 px wide is found overflowing" \
    grep -q '^div#too-wide right [0-9]* scrollWidth 1400$' "$T/wide.dom"

# The demo's 12 trials: the importance is in the JSON and on the page.
n=$(jq '.importance.trials' "$T/demo.report")
check "the demo has the trials importance needs ($n)" test "$n" -ge 8
is "an importance per parameter in the JSON" \
    "$(jq -c '.importance.params | keys' "$T/demo.report")" \
    '["batch_size","lr","warmup_epochs"]'
is "a bar and a cell per parameter on the page, marked" \
    "$(grep -c '^importance\.params\.' "$T/demo.marked")" 6
is "the scaling demo: a guideline row per batch size" \
    "$(jq '.rows | length' "$T/scaling.table")" \
    "$(sed -n '/<table id="guideline">/,/<\/table>/p' "$T/scaling.dom" |
    grep -c '^<tr><td')"
done_testing
