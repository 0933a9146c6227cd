//! Shared test harness: a real adapter (lavapipe in CI), never a mock.
#![allow(dead_code)]

use ouroboros_wgpu::{block_on, AdapterRequest, GpuContext};

/// The default adapter, or None (test skipped) where there is none. With
/// OUROBOROS_REQUIRE_ADAPTER=1 (set in CI) a missing adapter fails the test instead.
pub fn gpu() -> Option<GpuContext> {
    match block_on(GpuContext::new(&AdapterRequest::default())) {
        Ok(g) => Some(g),
        Err(e) => {
            if std::env::var_os("OUROBOROS_REQUIRE_ADAPTER").is_some() {
                panic!("an adapter is required here: {e}");
            }
            eprintln!("skipped: {e}");
            None
        }
    }
}

/// Heap size for tests: small enough for any adapter, large enough for several workgroups.
pub const TEST_HEAP: u64 = 16 << 20;
