#!/usr/bin/env bash
# Every allocator at 10 000 allocations of 16 B, 1000 B and 8 KiB, on the default adapter (lavapipe
# where there is no GPU), also with lavapipe on one worker thread. The bench exits non-zero on any
# verify error; this prints one JSON line per run.
set -euo pipefail
cd "$(dirname "$0")/.."
export WGPU_BACKEND="${WGPU_BACKEND:-vulkan}"
cargo build --release --example bench
for threads in "" 1; do
  for size in 16 1000 8192; do
    for allocator in page chunk va-page va-chunk vl-page vl-chunk; do
      LP_NUM_THREADS=$threads target/release/examples/bench --allocator "$allocator" --num 10000 \
        --size "$size" --iterations 2 --heap-mib 128 --no-baseline --json
    done
  done
done
