#!/usr/bin/env bash
# Runs the bench over a grid of workloads and writes one JSON line per allocator and cell.
# usage: scripts/sweep.sh BENCH_BINARY OUT_FILE HEAP_MIB [ALLOCATOR...]
# Cells: N in {1024, 10^4, 10^5, 10^6} x S in {16, 128, 1000, 4096, 8192}, 10 iterations each;
# every allocator other than bump carries the bump baseline measured in the same process.
# Extra bench arguments (e.g. --no-subgroups) may be given in BENCH_EXTRA.
set -uo pipefail
bench=$1; out=$2; heap_mib=$3; shift 3
allocators=${*:-page}
: > "$out"
for a in $allocators; do
  for n in 1024 10000 100000 1000000; do
    for s in 16 128 1000 4096 8192; do
      "$bench" --allocator "$a" --num "$n" --size "$s" --iterations 10 --heap-mib "$heap_mib" ${BENCH_EXTRA:-} --json >> "$out" \
        || echo "{\"allocator\":\"$a\",\"num\":$n,\"size\":$s,\"error\":\"exit $?\"}" >> "$out"
    done
  done
done
