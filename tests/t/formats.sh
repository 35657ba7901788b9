#!/bin/sh
# Each read command refuses a format it does not render, through the
# daemon and with --ledger alike: html is the report's, markdown and rcp
# the guideline table's.  Before, `hpoctl trials --format markdown` (or
# rcp, or html) printed the text table and exited 0, where status and
# report refused them.  Refused, they exit 64 (bad usage), as a refused
# command line does.
. "$(dirname "$0")/lib.subr"

write_campaign fm 1 1 1
check "a campaign runs" "$HPOCTL" -f "$CONF" run -q "$T/fm.json"
# refused HOW CMD FORMAT EXPECTED-ERROR
refused() {
	how=$1 cmd=$2 fmt=$3 want=$4
	if [ "$how" = ledger ]; then
		set -- "$HPOCTL" "$cmd" --ledger "$LEDGER" --format "$fmt"
	else
		set -- "$HPOCTL" "$cmd" --format "$fmt"
	fi
	[ "$cmd" = status ] || set -- "$@" fm
	rc=0
	"$@" >"$T/out" 2>"$T/err" || rc=$?
	is "$cmd --format $fmt ($how) is refused" "$rc $(cat "$T/err")" \
	    "64 hpoctl: $want"
	is "  and prints nothing" "$(wc -c <"$T/out")" 0
}
start_daemon
for how in ledger daemon; do
	for fmt in markdown rcp; do
		for cmd in status trials; do
			refused $how $cmd $fmt "--format $fmt is for the guideline table (report --table)"
		done
	done
	for cmd in status trials; do
		refused $how $cmd html "--format html is for the report"
	done
done
check "trials --format csv is rendered" sh -c \
    "'$HPOCTL' trials --ledger '$LEDGER' --format csv fm | grep -q '^trial,state,'"
done_testing
