#!/bin/sh
# The tunable ranges of the proxies' workload specs are those their
# trainers accept: for every bound a spec declares, the trainer takes the
# value on it and refuses (exit 64, naming the option) the one just
# outside, so that hpoctl check refuses exactly what every trial would.
# A value is known taken when the trainer goes on to the next option, a
# sentinel it refuses: no training runs.
. "$(dirname "$0")/lib.subr"

# cases SPEC: "OPTION VALUE take|refuse" for every bound of its tunable
# parameters, the option being the argument before {PARAM} in its args.
cases() {
	perl -MJSON::PP -e '
	local $/; open(my $f, "<", $ARGV[0]) or die "$ARGV[0]: $!";
	my $w = decode_json(<$f>);
	my %opt; my @a = @{$w->{args}};
	for my $i (1 .. $#a) { $opt{$1} = $a[$i - 1] if $a[$i] =~ /^\{(\w+)\}$/ }
	for my $p (sort keys %{$w->{tunable}}) {
		my $t = $w->{tunable}{$p}; my $o = $opt{$p} or die "$p: no option";
		# A step outside a bound v that prints differently from v.
		my $d = sub { $t->{integer} ? 1 : abs($_[0]) > 1 ?
		    abs($_[0]) * 1e-6 : 1e-6 };
		if ($t->{values}) {
			print "$o $_ take\n" for @{$t->{values}};
			print "$o nosuch refuse\n";
		}
		if (exists $t->{min}) {
			print "$o $t->{min} take\n";
			print "$o ", $t->{min} - $d->($t->{min}), " refuse\n";
			print "$o ", $t->{min} + 0.5, " refuse\n" if $t->{integer};
		}
		if (exists $t->{max}) {
			print "$o $t->{max} take\n";
			print "$o ", $t->{max} + $d->($t->{max}), " refuse\n";
		}
		if (exists $t->{above}) {
			print "$o $t->{above} refuse\n";
			print "$o ", $t->{above} + $d->($t->{above}), " take\n";
		}
		if (exists $t->{below}) {
			print "$o $t->{below} refuse\n";
			print "$o ", $t->{below} - $d->($t->{below}), " take\n";
		}
		print "$o 1000000000000000 take\n" unless $t->{values} ||
		    exists $t->{max} || exists $t->{below};
	}' "$1"
}

for p in minicosmo minicam; do
	spec=$TOP/workloads/$p.json
	cases "$spec" >"$T/$p.cases"
	check "$p: its spec declares ranges" test -s "$T/$p.cases"
	while read -r opt val want; do
		# The sentinel: an option the trainer refuses once it got there.
		sentinel=--epochs; [ "$opt" = --epochs ] && sentinel=--lr
		rc=0
		"$BUILD/$p" "$opt" "$val" "$sentinel" 0 >/dev/null \
		    2>"$T/err" || rc=$?
		got=refuse
		grep -q "^$p: $sentinel '0'" "$T/err" && got=take
		if [ "$rc" = 64 ] && [ "$got" = "$want" ]; then
			ok "$p $opt $val: $want"
		else
			not_ok "$p $opt $val: $want"
			echo "#   exit $rc: $(cat "$T/err")"
		fi
	done <"$T/$p.cases"
done
done_testing
