//! WGSL composition: the allocator of a layout (generated constants, the heap binding, the
//! shared modules, one heap variant) and the kernels of the alloc/write/verify/free cycle.
//! One kernel per file under `shaders/kernels`, shared code under `shaders/shared`, one file per
//! heap variant under `shaders/heaps`.

use crate::config::{AllocatorKind, QueueStorage};
use crate::layout::HeapLayout;

const STATUS: &str = include_str!("../shaders/shared/status.wgsl");
const ATOMICS: &str = include_str!("../shaders/shared/atomics.wgsl");
const QUEUE: &str = include_str!("../shaders/shared/queue.wgsl");
const QUEUE_STORAGE: &str = include_str!("../shaders/shared/queue_storage.wgsl");
const SEGMENTS_NONE: &str = include_str!("../shaders/shared/segments_none.wgsl");
const SEGMENTS_ARRAY: &str = include_str!("../shaders/shared/segments_array.wgsl");
const SEGMENTS_LIST: &str = include_str!("../shaders/shared/segments_list.wgsl");
const LANES_SUBGROUP: &str = include_str!("../shaders/shared/lanes_subgroup.wgsl");
const LANES_SINGLE: &str = include_str!("../shaders/shared/lanes_single.wgsl");
const CHUNK_POOL: &str = include_str!("../shaders/shared/chunk_pool.wgsl");
const CLASS_QUEUE: &str = include_str!("../shaders/shared/class_queue.wgsl");
const PAGE_HEAP: &str = include_str!("../shaders/heaps/page.wgsl");
const CHUNK_HEAP: &str = include_str!("../shaders/heaps/chunk.wgsl");
const BUMP_HEAP: &str = include_str!("../shaders/heaps/bump.wgsl");
const CYCLE_BINDINGS: &str = include_str!("../shaders/shared/cycle_bindings.wgsl");

/// The kernels of the benchmark cycle, in the order a cycle runs them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CycleKernel {
    Alloc,
    Write,
    Verify,
    Free,
}

impl CycleKernel {
    pub const ALL: [CycleKernel; 4] = [
        CycleKernel::Alloc,
        CycleKernel::Write,
        CycleKernel::Verify,
        CycleKernel::Free,
    ];

    pub fn name(self) -> &'static str {
        match self {
            CycleKernel::Alloc => "alloc",
            CycleKernel::Write => "write",
            CycleKernel::Verify => "verify",
            CycleKernel::Free => "free",
        }
    }

    fn source(self) -> &'static str {
        match self {
            CycleKernel::Alloc => include_str!("../shaders/kernels/alloc.wgsl"),
            CycleKernel::Write => include_str!("../shaders/kernels/write.wgsl"),
            CycleKernel::Verify => include_str!("../shaders/kernels/verify.wgsl"),
            CycleKernel::Free => include_str!("../shaders/kernels/free.wgsl"),
        }
    }
}

/// The allocator's WGSL for `layout`, with the heap bound at `@group(group) @binding(binding)` as
/// `ouro_heap`. It defines `ouro_malloc(size: u32) -> u32` and `ouro_free(ptr: u32)`; every other
/// name it defines starts with `ouro_` or `OURO_`.
pub fn allocator_wgsl(layout: &HeapLayout, group: u32, binding: u32) -> String {
    let variant = match layout.allocator {
        AllocatorKind::Page | AllocatorKind::VaPage | AllocatorKind::VlPage => PAGE_HEAP,
        AllocatorKind::Chunk | AllocatorKind::VaChunk | AllocatorKind::VlChunk => CHUNK_HEAP,
        AllocatorKind::Bump => BUMP_HEAP,
    };
    let segments = match layout.queue_storage {
        QueueStorage::Standard => SEGMENTS_NONE,
        QueueStorage::VirtualArray => SEGMENTS_ARRAY,
        QueueStorage::VirtualList => SEGMENTS_LIST,
    };
    let mut s = String::new();
    let path = if layout.subgroups {
        "subgroup"
    } else {
        "subgroup-less"
    };
    s += &format!(
        "// ouroboros-wgpu allocator: {} heap, {path} path\n",
        layout.allocator
    );
    s += &layout.wgsl_constants();
    s += &format!("@group({group}) @binding({binding}) var<storage, read_write> ouro_heap: array<atomic<u32>>;\n");
    s += STATUS;
    s += if layout.subgroups {
        LANES_SUBGROUP
    } else {
        LANES_SINGLE
    };
    s += ATOMICS;
    // One queue text, two instances (see shaders/shared/queue.wgsl).
    s += &QUEUE.replace("QNAME", "pool");
    s += &QUEUE.replace("QNAME", "queue");
    s += QUEUE_STORAGE;
    s += segments;
    s += CHUNK_POOL;
    if layout.allocator != AllocatorKind::Bump {
        s += CLASS_QUEUE;
    }
    s += variant;
    s
}

/// A complete cycle kernel: the allocator (heap at group 0, binding 0), the cycle's bindings
/// (group 1) and the kernel's entry point `main`.
pub fn cycle_kernel_wgsl(layout: &HeapLayout, kernel: CycleKernel) -> String {
    let mut s = allocator_wgsl(layout, 0, 0);
    s += CYCLE_BINDINGS;
    s += kernel.source();
    s
}
