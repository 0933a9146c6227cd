//! # ouroboros-wgpu
//!
//! `malloc` and `free` inside WGSL compute shaders, on any wgpu backend (Vulkan, Metal, DX12, GL)
//! and WebGPU. The algorithms are those of Ouroboros (Winter, Mlakar, Parger, Steinberger,
//! ICS 2020), rebuilt for WGSL's 32-bit relaxed atomics and for GPUs that promise no forward
//! progress between workgroups: no allocator operation ever waits for another invocation, every
//! loop is bounded, and exhaustion returns the null pointer (0) and raises a flag the host reads.
//!
//! The heap is a single storage buffer. A device pointer is a `u32` byte offset into it; the
//! allocator's metadata sits at offset 0, so 0 is never an allocation and serves as null.
//!
//! ## Quick start
//!
//! ```no_run
//! use ouroboros_wgpu::{block_on, AdapterRequest, CycleRunner, GpuContext, Heap, HeapConfig, Workload};
//!
//! # fn main() -> Result<(), ouroboros_wgpu::Error> {
//! let gpu = block_on(GpuContext::new(&AdapterRequest::default()))?;
//! let config = HeapConfig { heap_bytes: 64 << 20, ..HeapConfig::default() };
//! let heap = Heap::new(&gpu.device, config)?;
//! // 10 000 threads each malloc 16 bytes, write them, verify them and free them.
//! let mut cycle = CycleRunner::new(&heap, &gpu.queue, Workload { num: 10_000, size_bytes: 16 })?;
//! let report = block_on(cycle.run_iteration())?;
//! assert_eq!(report.verify_errors, 0);
//! println!("alloc took {:?} ms on the device", report.alloc_ms);
//! # Ok(())
//! # }
//! ```
//!
//! To call `ouro_malloc`/`ouro_free` from a kernel of your own, prepend
//! [`Heap::allocator_wgsl`] to your WGSL and bind [`Heap::bind_group_entry`] at the group and
//! binding you chose.

pub mod config;
pub mod cycle;
pub mod error;
pub mod gpu;
pub mod heap;
pub mod layout;
pub mod reference;
pub mod shader;

pub use config::{AllocatorKind, HeapConfig};
pub use cycle::{CycleRunner, IterationReport, RunReport, Step, Workload};
pub use error::{Error, Result};
#[cfg(not(target_arch = "wasm32"))]
pub use gpu::block_on;
pub use gpu::{AdapterRequest, GpuContext};
pub use heap::{Heap, HeapCounters, HeapDiagnostics, HeapState};
pub use layout::{flags, HeapLayout, NULL};
pub use shader::CycleKernel;
