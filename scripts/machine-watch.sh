#!/usr/bin/env bash
# Every few minutes, one line on what the machine gave: how busy its CPUs were (and how much
# time the hypervisor took: steal), the load, the memory in use and the processes that have
# used the most CPU. A CI log then tells a slow machine from slow tests.
# Usage: scripts/machine-watch.sh [SECONDS]   (runs until killed)
set -u
every=${1:-300}
start=$(date +%s)
cpu() { awk '/^cpu / {print $2+$3+$4+$7+$8, $9, $2+$3+$4+$5+$6+$7+$8+$9}' /proc/stat; }
read -r busy0 steal0 total0 < <(cpu)
while sleep "$every"; do
    read -r busy steal total < <(cpu)
    span=$(( total - total0 > 0 ? total - total0 : 1 ))
    read -r one five _ < /proc/loadavg
    memory=$(awk '/^MemTotal/ {t=$2} /^MemAvailable/ {a=$2}
        END {printf "%.1f of %.1f GiB", (t-a)/1048576, t/1048576}' /proc/meminfo)
    eaters=$(ps -eo cputime=,etime=,comm= --sort=-cputime | head -3 |
        awk '{printf "%s%s (%s CPU in %s)", sep, $3, $1, $2; sep=", "}')
    printf '\n[machine +%dm] CPU busy %d%%, steal %d%%; load %s %s on %s cores; memory in use %s; most CPU: %s\n' \
        $(( ($(date +%s) - start) / 60 )) $(( 100 * (busy - busy0) / span )) \
        $(( 100 * (steal - steal0) / span )) "$one" "$five" "$(nproc)" "$memory" "$eaters" >&2
    busy0=$busy steal0=$steal total0=$total
done
