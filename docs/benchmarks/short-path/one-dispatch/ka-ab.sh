#!/usr/bin/env bash
# A/B of UCX's keepalive: A = on (UCX_KEEPALIVE_INTERVAL=20s, UCX's default), B = the new default (off); YCSB A, alternating; $1 neighbours (none|busy:2) $2 last pair $3 transports $4 first pair
cd /work/main
n=$1; pairs=$2; tr=$3; out=/tmp/s13/ka-$n; mkdir -p $out
nb=(); [[ $n != none ]] && nb=(--neighbours $n)
for i in $(seq ${4:-1} $pairs); do
  for side in $( (( i % 2 )) && echo "A B" || echo "B A"); do
    if [[ $side == A ]]; then export UCX_KEEPALIVE_INTERVAL=20s; else unset UCX_KEEPALIVE_INTERVAL; fi
    BENCH_BUILD=never timeout 600 bin/bench ycsb --workloads a --threads 4 --transports $tr --runs 1 --seconds 10 "${nb[@]}" --out $out/$side-$i > $out/$side-$i.log 2>&1
    echo "$(date +%T) $side $i: $(grep -E 'run 1/1, workload' $out/$side-$i.log | sed 's/  */ /g' | tr '\n' ' ')"
  done
done
unset UCX_KEEPALIVE_INTERVAL
