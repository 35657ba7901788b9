# hpoctl.bash: bash completion for hpoctl(1).
#
# Source it from ~/.bashrc, or install it as
# /usr/share/bash-completion/completions/hpoctl.
#
# Completes the commands, their options, campaign spec files (*.json) for
# run, check, render and submit, the formats of --format, and campaign names for
# status, trials, report, watch and cancel (asked of the daemon, or read
# from the ledger given with --ledger), and result logs or their
# directories for mllog.

_hpoctl_campaigns()
{
	local i ledger=
	local -a global=()

	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-f|-s)
			if ((i < cmd_index)); then
				global+=("${COMP_WORDS[i]}" "${COMP_WORDS[i + 1]}")
			fi
			;;
		--ledger|-l)
			ledger=${COMP_WORDS[i + 1]}
			;;
		esac
	done
	if [[ -n $ledger ]]; then
		hpoctl "${global[@]}" status --ledger "$ledger" --format csv \
		    2>/dev/null | awk -F, 'NR > 1 { print $2 }'
	else
		hpoctl "${global[@]}" status --format csv 2>/dev/null |
		    awk -F, 'NR > 1 { print $2 }'
	fi
}

_hpoctl()
{
	local cur prev cmd= cmd_index=0 i
	local commands="run check render submit status trials report watch
	    export cancel budget ping mllog rcp-check resume"

	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}

	# Find the command: the first word that is not a global option.
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-f|-s)
			((i++))
			;;
		-*)
			;;
		*)
			cmd=${COMP_WORDS[i]}
			cmd_index=$i
			break
			;;
		esac
	done

	# Arguments of options.
	case $prev in
	-f|-s)
		if [[ -z $cmd ]]; then
			COMPREPLY=($(compgen -f -- "$cur"))
			return
		fi
		;;
	--ledger|-l|--output|-o)
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	--run-dir|-r)
		COMPREPLY=($(compgen -d -- "$cur"))
		return
		;;
	--format|-F)
		if [[ $cmd == export ]]; then
			COMPREPLY=($(compgen -W "optuna" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "text json csv markdown rcp html" \
			    -- "$cur"))
		fi
		return
		;;
	--metric)
		COMPREPLY=($(compgen -W "eval_error eval_accuracy" -- "$cur"))
		return
		;;
	--target|--trial|--study|--max-trials|--max-node-hours|--max-gpu-hours|--max-wall-time)
		return
		;;
	--state|-t)
		COMPREPLY=($(compgen -W "pending running completed failed
		    pruned cancelled" -- "$cur"))
		return
		;;
	esac

	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "-f -s --help --version" \
			    -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$commands" -- "$cur"))
		fi
		return
	fi

	case $cmd in
	run)
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "-q --quiet --ledger --run-dir
			    --format" -- "$cur"))
			return
		fi
		;;
	check|submit)
		;;
	render)
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--trial --format --run-dir" \
			    -- "$cur"))
			return
		fi
		;;
	status|trials|report)
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--ledger --format --output --table
			    --state --noheader --parsable --fields --help" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(_hpoctl_campaigns)" -- "$cur"))
		fi
		return
		;;
	watch)
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--interval --ledger" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(_hpoctl_campaigns)" -- "$cur"))
		fi
		return
		;;
	export)
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--format --ledger --study --output" \
			    -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(_hpoctl_campaigns)" -- "$cur"))
		fi
		return
		;;
	cancel|budget)
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--trial --ledger --max-trials --max-node-hours
			    --max-gpu-hours --max-wall-time --help" \
			    -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(_hpoctl_campaigns)" -- "$cur"))
		fi
		return
		;;
	mllog)
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--json --summary --table
			    --format --metric --target --maximize --minimize" \
			    -- "$cur"))
		elif [[ $prev == --format ]]; then
			COMPREPLY=($(compgen -W "text json csv markdown rcp" \
			    -- "$cur"))
		elif [[ " ${COMP_WORDS[*]} " == *" --summary "* ||
		    " ${COMP_WORDS[*]} " == *" --table "* ]]; then
			compopt -o filenames 2>/dev/null
			COMPREPLY=($(compgen -d -- "$cur"))
		else
			compopt -o filenames 2>/dev/null
			COMPREPLY=($(compgen -f -- "$cur"))
		fi
		return
		;;
	rcp-check)
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--json --full --runs --metric
			    --target --maximize --minimize" -- "$cur"))
		else
			compopt -o filenames 2>/dev/null
			COMPREPLY=($(compgen -f -- "$cur"))
		fi
		return
		;;
	*)
		return
		;;
	esac

	# run, check, render and submit take campaign specs: directories and *.json.
	compopt -o filenames 2>/dev/null
	COMPREPLY=($(compgen -d -- "$cur") $(compgen -f -X '!*.json' -- "$cur"))
}

complete -F _hpoctl hpoctl
