#!/bin/sh
# The guideline table of a pilot campaign: its rows and total are the
# trials' cost, and the pilots' idle time, in no row, is stated with it so
# that the two add up to the report's cost.  Before, the table's total
# was short of the report's by the idle time, and said nothing of it.
. "$(dirname "$0")/lib.subr"

write_campaign tp 3 2 1 0.01
jq '. + {"dispatch": "pilot", "pilot": {"count": 1, "cpus": 2}}' \
    "$T/tp.json" >"$T/tp.tmp" && mv "$T/tp.tmp" "$T/tp.json"
check "a pilot campaign runs" "$HPOCTL" run -q --ledger "$LEDGER" \
    --run-dir "$RUNS" "$T/tp.json"
"$HPOCTL" report --ledger "$LEDGER" --format json tp >"$T/report.json"
"$HPOCTL" report --ledger "$LEDGER" --table --format json tp >"$T/table.json"
"$HPOCTL" report --ledger "$LEDGER" --table tp >"$T/table.txt"
check "the pilots idled" jq -e '.cost.by_outcome.pilot_idle.node_hours > 0' \
    "$T/report.json"
is "the table's pilot idle is the report's" \
    "$(jq .total.pilot_idle.node_hours "$T/table.json")" \
    "$(jq .cost.by_outcome.pilot_idle.node_hours "$T/report.json")"
for k in node_hours gpu_hours cpu_hours; do
	check "table total + pilot idle = the report's $k" awk \
	    -v a="$(jq ".total.$k + .total.pilot_idle.$k" "$T/table.json")" \
	    -v b="$(jq ".cost.$k" "$T/report.json")" \
	    'BEGIN { d = a - b; exit !(d < 1e-12 && d > -1e-12) }'
done
check "the text says it" grep -q "^pilot idle: [0-9.]* node-hours.*in no row, in the campaign's cost ($(jq -r '.cost.node_hours * 10000 | round / 10000 | tostring' "$T/report.json")[0-9]* node-hours in all)" "$T/table.txt"
# Markdown joins lines with no blank one between them into one paragraph:
# the pilot idle line must not run into the total's.
"$HPOCTL" report --ledger "$LEDGER" --table --format markdown tp >"$T/table.md"
is "Markdown: the pilot idle line is a paragraph of its own" \
    "$(awk '/^pilot idle: / { print "[" prev "]" } { prev = $0 }' "$T/table.md")" \
    "[]"
check "... after the total's" grep -q "^total: " "$T/table.md"
done_testing
