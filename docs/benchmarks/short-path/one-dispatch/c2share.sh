#!/usr/bin/env bash
# share of the kvstore server's CPU samples in its C2 compiler thread, 4 s from 8 s after loading started (busy:2)
here=$(cd "$(dirname "$0")" && pwd); cd /tmp/s13
for i in 1 2; do for t in ucx epoll; do
  NEIGH="--neighbours busy:2" "$here"/perf-ycsb.sh record $t pr2-$t-$i > /dev/null 2>&1
  echo "$t $i: $(grep -h 'run 1/1' pr2-$t-$i/run.log | sed 's/  */ /g') | $(perf report -i pr2-$t-$i/server.data --no-children --sort comm --stdio -g none 2>/dev/null | grep -v '^#' | grep -v '^$' | head -4 | awk '{print $1, $2, $3}' | tr '\n' ';')"
done; done
