#!/usr/bin/env bash
# The test suite: every test on the default adapter (lavapipe where there is no GPU), then again
# with lavapipe limited to one worker thread, where no workgroup ever runs beside another: any
# allocator operation that waited for another invocation would hang or fail there.
set -euo pipefail
cd "$(dirname "$0")/.."
export WGPU_BACKEND="${WGPU_BACKEND:-vulkan}"
cargo test
LP_NUM_THREADS=1 cargo test
