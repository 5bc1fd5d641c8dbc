# SPDX-License-Identifier: GPL-2.0
# bash completion for rdmablkctl. The commands and options come from
# rdmablkctl itself ("rdmablkctl __complete WORDS..."), so they are always
# those of the installed version; devices from /dev/rdmablk*.

_rdmablkctl()
{
	local cur prev words
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	words=("${COMP_WORDS[@]:1:COMP_CWORD-1}")

	case $prev in
	-o | --output)
		mapfile -t COMPREPLY < <(compgen -W 'text json' -- "$cur")
		return
		;;
	--socket | --key-file | --target-key-file)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return
		;;
	--hmac)
		mapfile -t COMPREPLY < <(compgen -W 'sha256 sha384 sha512' -- "$cur")
		return
		;;
	--policy)
		mapfile -t COMPREPLY < <(compgen -W 'queue-depth round-robin min-latency' -- "$cur")
		return
		;;
	esac

	local candidates w
	candidates=$("${COMP_WORDS[0]}" __complete "${words[@]}" 2>/dev/null) || return
	for w in "${words[@]}"; do
		case $w in
		detach | status | stat | reconnect | dev-set | set | path)
			if [[ $cur != -* ]]; then
				candidates+=$'\n'$(compgen -G '/dev/rdmablk[0-9]*'; compgen -G '/dev/rdmablk/*')
			fi
			break
			;;
		esac
	done
	mapfile -t COMPREPLY < <(compgen -W "$candidates" -- "$cur")
}
complete -F _rdmablkctl rdmablkctl
