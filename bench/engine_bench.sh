#!/bin/sh
# Engine benchmarks (issue 2): the gocore size ladder, the 4,000-mention
# document, pathological CEAF graphs, and the peak memory of a process that
# scores one 1,000,000-mention document. Results are recorded by hand in
# bench/engine.md.
#
# usage: bench/engine_bench.sh [COUNT]   (COUNT runs of each benchmark, default 5)
set -eu
count=${1:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== machine"
echo "nproc: $(nproc)"
grep -m1 'model name' /proc/cpuinfo
go version
uptime

cd "$root"
go test -c -o "$tmp/gocore.test" ./gocore
cd "$root/gocore"

echo "== ladder: every classic metric alone, all classic metrics, every metric with types"
"$tmp/gocore.test" -test.run '^$' -test.benchmem -test.count "$count" \
	-test.bench '^(BenchmarkMetric|BenchmarkDoc4000|BenchmarkTable)$'

echo "== pathological overlap graphs"
"$tmp/gocore.test" -test.run '^$' -test.benchmem -test.count "$count" \
	-test.bench '^BenchmarkPathological$'

echo "== peak memory, one 1,000,000-key-mention document (about 2,000,000 mentions in all)"
for b in 'BenchmarkMetric/^all$/^n=1000000$' 'BenchmarkMetric/^typed-all$/^n=1000000$'; do
	echo "-- $b (one scoring after building the document)"
	/usr/bin/time -v "$tmp/gocore.test" -test.run '^$' -test.benchmem -test.benchtime 1x \
		-test.bench "$b" 2>&1 | grep -E 'ns/op|Maximum resident|Elapsed|User time|System time'
done
