//! The crate's one error type. Every message says what to change.

/// Errors from configuring a heap, talking to the GPU, or describing a workload.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// `HeapConfig::chunk_bytes` is not a power of two in the supported range.
    #[error("chunk_bytes = {0} is not a power of two between 256 and 65536; use e.g. 8192 (the default)")]
    ChunkSize(u32),
    /// `HeapConfig::heap_bytes` is not a whole number of chunks.
    #[error("heap_bytes = {heap} is not a multiple of chunk_bytes = {chunk}; round it to a multiple of {chunk}")]
    HeapNotChunkMultiple { heap: u64, chunk: u32 },
    /// Device pointers are 32-bit byte offsets, so the heap must stay below 4 GiB.
    #[error("heap_bytes = {0} does not fit 32-bit device pointers; use at most 4294959104 bytes (4 GiB - 8 KiB)")]
    HeapTooLarge(u64),
    /// The heap is too small to hold its own metadata and at least one data chunk.
    #[error("heap_bytes = {heap} leaves no data chunk after {metadata} bytes of allocator metadata; use at least {needed} bytes")]
    HeapTooSmall {
        heap: u64,
        metadata: u64,
        needed: u64,
    },
    /// `HeapConfig::queue_slots_per_chunk` is out of range.
    #[error("queue_slots_per_chunk = {0} must be a power of two between 1 and 4096; use e.g. 32 (the default)")]
    QueueSlots(u32),
    /// The adapter cannot bind a buffer as large as the heap.
    #[error("heap_bytes = {requested} exceeds this adapter's {limit_name} = {limit}; ask for at most {limit} bytes (HeapConfig::heap_bytes, or --heap-mib in the bench)")]
    AdapterLimit {
        requested: u64,
        limit: u64,
        limit_name: &'static str,
    },
    /// No adapter matched the request.
    #[error("{0}")]
    NoAdapter(String),
    /// The adapter refused the device request.
    #[error("the adapter refused to create a device: {0}")]
    RequestDevice(#[from] wgpu::RequestDeviceError),
    /// The workload cannot be dispatched as described.
    #[error("invalid workload: {0}")]
    Workload(String),
    /// Mapping a buffer for readback failed, or the device was lost while waiting.
    #[error("reading results back from the GPU failed: {0}; the device may have been lost")]
    Readback(String),
}

/// Shorthand for results of this crate.
pub type Result<T> = std::result::Result<T, Error>;
