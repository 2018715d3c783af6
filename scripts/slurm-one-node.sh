#!/usr/bin/env bash
# A one-node Slurm cluster on this machine: for the Slurm runner's test
# (cmd/hexlearn/loop_slurm_test.go) and for trying 'hexlearn loop --runner slurm' by hand.
#
#   scripts/slurm-one-node.sh install   # Debian's slurm-wlm and munge, if missing
#   scripts/slurm-one-node.sh start     # install, configure, start; waits until the node is idle
#   scripts/slurm-one-node.sh stop      # cancels the cluster's jobs, stops its daemons
#   scripts/slurm-one-node.sh status    # exit 0 if the cluster answers
#
# Everything lives in one state directory, $HEXLEARN_SLURM_DIR (default
# /tmp/hexlearn-slurm): slurm.conf for this host (its CPUs and memory, from slurmd -C),
# a munge key and socket, the daemons' spool, logs and pid files. Nothing under /etc is
# written. The daemons listen on 127.0.0.1, slurmctld on $HEXLEARN_SLURM_PORT (default
# 6817) and slurmd on the port after it. Slurm's commands find the cluster through
# SLURM_CONF: 'start' prints the line to export.
#
# Exit status: 0 done; 1 failed; 3 Slurm cannot start here (not root, no apt-get, the
# packages cannot be installed, the ports are taken by another Slurm). The last line on
# stderr says why. Only the daemons started from the state directory are ever stopped,
# by the ids in their pid files.
set -uo pipefail

state=${HEXLEARN_SLURM_DIR:-/tmp/hexlearn-slurm}
port=${HEXLEARN_SLURM_PORT:-6817}
conf=$state/slurm.conf

cannot() { echo "slurm-one-node: cannot start Slurm here: $*" >&2; exit 3; }
fail() { echo "slurm-one-node: $*" >&2; exit 1; }

installed() {
	command -v sbatch >/dev/null && command -v slurmctld >/dev/null && command -v slurmd >/dev/null &&
		command -v munged >/dev/null && command -v sinfo >/dev/null
}

install() {
	installed && return 0
	[ "$(id -u)" = 0 ] || cannot "Slurm is not installed and installing it needs root"
	command -v apt-get >/dev/null || cannot "Slurm is not installed and there is no apt-get"
	# Keep the packages' scripts from starting the system's own daemons.
	local policy=/usr/sbin/policy-rc.d made=
	if [ ! -e $policy ]; then
		printf '#!/bin/sh\nexit 101\n' >$policy && chmod 755 $policy && made=1
	fi
	local log=$state/apt.log
	mkdir -p "$state"
	local args=(-y -q --no-install-recommends slurm-wlm munge)
	if ! DEBIAN_FRONTEND=noninteractive apt-get install "${args[@]}" >"$log" 2>&1; then
		DEBIAN_FRONTEND=noninteractive apt-get update -q >>"$log" 2>&1
		DEBIAN_FRONTEND=noninteractive apt-get install "${args[@]}" >>"$log" 2>&1
	fi
	[ -n "$made" ] && rm -f $policy
	installed || cannot "apt-get install slurm-wlm munge failed: $(tail -n 1 "$log")"
}

# alive PIDFILE: the daemon whose id the file holds is running.
alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# listening PORT: something accepts connections on 127.0.0.1:PORT.
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

configure() {
	local node cpus mem line
	node=$(hostname -s)
	# slurmd -C reads this host's real CPUs, sockets, cores and memory.
	line=$(slurmd -C 2>/dev/null | head -n 1)
	if [[ $line != NodeName=* ]]; then
		cpus=$(nproc)
		mem=$(awk '/^MemTotal:/ {print int($2 / 1024)}' /proc/meminfo)
		line="NodeName=$node CPUs=$cpus RealMemory=$mem"
	fi
	line=$(sed "s/^NodeName=[^ ]*/NodeName=$node/" <<<"$line")
	mkdir -p "$state"/{ctld,slurmd,munge,log}
	chmod 700 "$state" "$state/munge"
	cat >"$conf" <<CONF
# A one-node cluster written by scripts/slurm-one-node.sh for $node.
ClusterName=hexlearn
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$state/munge/munge.socket
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/slurmd
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SchedulerParameters=sched_min_interval=0
$line NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
	if [ ! -s "$state/munge/munge.key" ]; then
		head -c 1024 /dev/urandom >"$state/munge/munge.key" && chmod 400 "$state/munge/munge.key"
	fi
}

start() {
	[ "$(id -u)" = 0 ] || cannot "the daemons must run as root (uid $(id -u))"
	install
	export SLURM_CONF=$conf
	if alive "$state/slurmctld.pid" && alive "$state/slurmd.pid" && alive "$state/munge/munged.pid"; then
		echo "export SLURM_CONF=$conf"
		return 0
	fi
	stop_daemons
	for p in "$port" $((port + 1)); do
		listening "$p" && cannot "port $p is in use (another Slurm? set HEXLEARN_SLURM_PORT)"
	done
	configure
	munged --force --key-file="$state/munge/munge.key" --socket="$state/munge/munge.socket" \
		--pid-file="$state/munge/munged.pid" --log-file="$state/log/munged.log" \
		--seed-file="$state/munge/munged.seed" 2>>"$state/log/start.log" ||
		fail "munged did not start: $(tail -n 1 "$state/log/start.log")"
	slurmctld -c -f "$conf" 2>>"$state/log/start.log" ||
		fail "slurmctld did not start: $(tail -n 1 "$state/log/slurmctld.log" 2>/dev/null)"
	slurmd -f "$conf" -N "$(hostname -s)" 2>>"$state/log/start.log" ||
		fail "slurmd did not start: $(tail -n 1 "$state/log/slurmd.log" 2>/dev/null)"
	local i
	for ((i = 0; i < 300; i++)); do
		case $(sinfo -h -o %T 2>/dev/null) in
		idle*) echo "export SLURM_CONF=$conf"; return 0 ;;
		esac
		sleep 0.1
	done
	fail "the node did not become idle in 30 s: $(sinfo -h -o '%T %E' 2>&1 | head -n 1); see $state/log"
}

# stop_daemons: TERM the daemons named by the pid files, all at once; KILL those still
# running after 5 s.
stop_daemons() {
	local f pids=() i p
	for f in "$state/slurmd.pid" "$state/slurmctld.pid" "$state/munge/munged.pid"; do
		if alive "$f"; then
			pids+=("$(cat "$f")")
			kill "${pids[-1]}" 2>/dev/null
		fi
		rm -f "$f"
	done
	for ((i = 0; i < 50; i++)); do
		local running=
		for p in "${pids[@]}"; do
			kill -0 "$p" 2>/dev/null && running=1
		done
		[ -z "$running" ] && return 0
		sleep 0.1
	done
	for p in "${pids[@]}"; do
		kill -9 "$p" 2>/dev/null
	done
}

stop() {
	[ -d "$state" ] || return 0
	export SLURM_CONF=$conf
	if alive "$state/slurmctld.pid" && [ -n "$(squeue -h -o %i 2>/dev/null)" ]; then
		scancel --full $(squeue -h -o %F | sort -u) 2>/dev/null
		for ((i = 0; i < 50; i++)); do
			[ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
			sleep 0.1
		done
	fi
	stop_daemons
}

case ${1:-} in
install) install ;;
start) start ;;
stop) stop ;;
status) SLURM_CONF=$conf scontrol ping >/dev/null 2>&1 ;;
*) echo "usage: $0 install|start|stop|status" >&2; exit 2 ;;
esac
