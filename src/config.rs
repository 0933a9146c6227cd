//! What a heap is asked to be: [`HeapConfig`] and the [`AllocatorKind`] it runs.

use crate::error::{Error, Result};
use std::fmt;
use std::str::FromStr;

/// Which allocator a heap runs: a heap variant (what a size class queues) composed with a queue
/// storage (where the queues keep their slots), or the bump baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AllocatorKind {
    /// Ouroboros' page-based heap with standard queues: a queue of free pages per size class.
    Page,
    /// The page-based heap with virtualized-array queues: queue slots live in heap chunks.
    VaPage,
    /// Ouroboros' chunk-based heap with standard queues: a queue of chunks with free pages per
    /// size class, a bitmap of pages per chunk, empty chunks back to the pool.
    Chunk,
    /// The chunk-based heap with virtualized-array queues.
    VaChunk,
    /// The page-based heap with virtualized-list queues: queue slots live in a linked list of
    /// heap chunks.
    VlPage,
    /// The chunk-based heap with virtualized-list queues.
    VlChunk,
    /// The baseline: one atomic bump pointer, reset between iterations, nothing reused.
    Bump,
}

/// Where an allocator's queues keep their slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QueueStorage {
    /// A static ring beside each queue's header, sized for the most items it may hold.
    Standard,
    /// Rings cut into chunk-sized segments taken from the heap on demand and handed back when
    /// drained, found through a small index array per queue.
    VirtualArray,
    /// The same segments kept in a linked list: no index array at all, only the list's first
    /// segment and a hint in each queue's header.
    VirtualList,
}

impl AllocatorKind {
    /// Every kind, in the order the bench runs them.
    pub const ALL: [AllocatorKind; 7] = [
        AllocatorKind::Page,
        AllocatorKind::Chunk,
        AllocatorKind::VaPage,
        AllocatorKind::VaChunk,
        AllocatorKind::VlPage,
        AllocatorKind::VlChunk,
        AllocatorKind::Bump,
    ];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            AllocatorKind::Page => "page",
            AllocatorKind::VaPage => "va-page",
            AllocatorKind::Chunk => "chunk",
            AllocatorKind::VaChunk => "va-chunk",
            AllocatorKind::VlPage => "vl-page",
            AllocatorKind::VlChunk => "vl-chunk",
            AllocatorKind::Bump => "bump",
        }
    }

    /// Where this allocator's page or chunk queues keep their slots.
    pub fn queue_storage(self) -> QueueStorage {
        match self {
            AllocatorKind::VaPage | AllocatorKind::VaChunk => QueueStorage::VirtualArray,
            AllocatorKind::VlPage | AllocatorKind::VlChunk => QueueStorage::VirtualList,
            _ => QueueStorage::Standard,
        }
    }

    /// Whether this is a chunk-based heap (a queue of chunks with free pages per size class).
    pub fn is_chunk_based(self) -> bool {
        matches!(
            self,
            AllocatorKind::Chunk | AllocatorKind::VaChunk | AllocatorKind::VlChunk
        )
    }

    /// Whether this is a page-based heap (a queue of free pages per size class).
    pub fn is_page_based(self) -> bool {
        matches!(
            self,
            AllocatorKind::Page | AllocatorKind::VaPage | AllocatorKind::VlPage
        )
    }

    /// Whether `free` gives memory back for reuse (the bump baseline does not).
    pub fn reuses_memory(self) -> bool {
        !matches!(self, AllocatorKind::Bump)
    }
}

impl fmt::Display for AllocatorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for AllocatorKind {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        AllocatorKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| {
                let names: Vec<_> = AllocatorKind::ALL.iter().map(|k| k.name()).collect();
                format!(
                    "unknown allocator '{s}'; choose one of: {}",
                    names.join(", ")
                )
            })
    }
}

/// Settings of a heap. `HeapConfig::default()` is Ouroboros' setup: 8 KiB chunks, size classes
/// 16 B ..= 8 KiB, in a 256 MiB heap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapConfig {
    /// The allocator that runs on this heap.
    pub allocator: AllocatorKind,
    /// Size of the one storage buffer that holds the allocator's metadata and all chunks.
    /// A multiple of `chunk_bytes`, below 4 GiB, and within the adapter's
    /// `max_storage_buffer_binding_size`.
    pub heap_bytes: u64,
    /// Size of a chunk, and of the largest size class; a power of two in 256 ..= 65536.
    pub chunk_bytes: u32,
    /// How many queue slots each size class may use per data chunk of the heap: a class whose
    /// pages are smaller than `chunk_bytes / queue_slots_per_chunk` can hold at most that many
    /// pages per chunk of heap, which bounds the standard queues' static size. Power of two.
    pub queue_slots_per_chunk: u32,
    /// Use subgroup operations (ballot-style aggregation: one atomic per subgroup and queue, one
    /// chunk fetch per subgroup and table entry) where the device has `Features::SUBGROUP`.
    /// `false` forces the subgroup-less path that the web and GL run.
    pub use_subgroups: bool,
}

impl Default for HeapConfig {
    fn default() -> Self {
        HeapConfig {
            allocator: AllocatorKind::Page,
            heap_bytes: 256 << 20,
            chunk_bytes: 8192,
            queue_slots_per_chunk: 32,
            use_subgroups: true,
        }
    }
}

impl HeapConfig {
    /// A default configuration for `allocator` with a heap of `heap_bytes`.
    pub fn new(allocator: AllocatorKind, heap_bytes: u64) -> Self {
        HeapConfig {
            allocator,
            heap_bytes,
            ..Default::default()
        }
    }

    /// Checks everything that does not depend on the adapter.
    pub fn validate(&self) -> Result<()> {
        crate::layout::HeapLayout::new(self).map(|_| ())
    }

    pub(crate) fn check_fields(&self) -> Result<()> {
        if !self.chunk_bytes.is_power_of_two() || !(256..=65536).contains(&self.chunk_bytes) {
            return Err(Error::ChunkSize(self.chunk_bytes));
        }
        if !self.queue_slots_per_chunk.is_power_of_two() || self.queue_slots_per_chunk > 4096 {
            return Err(Error::QueueSlots(self.queue_slots_per_chunk));
        }
        if self.heap_bytes > u64::from(u32::MAX) {
            return Err(Error::HeapTooLarge(self.heap_bytes));
        }
        if self.heap_bytes % u64::from(self.chunk_bytes) != 0 {
            return Err(Error::HeapNotChunkMultiple {
                heap: self.heap_bytes,
                chunk: self.chunk_bytes,
            });
        }
        Ok(())
    }
}
