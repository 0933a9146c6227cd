// Failure reporting shared by every variant: a sticky flag word the host reads after each cycle,
// and counters so that nothing fails silently.

fn ouro_fail(flag: u32, counter: u32) {
    atomicOr(&ouro_heap[OURO_H_FLAGS], flag);
    atomicAdd(&ouro_heap[counter], 1u);
}

// Size cls of a request: 0 for 1..16 bytes, 1 for 17..32, ... (0 bytes is served as 16).
fn ouro_size_class(size: u32) -> u32 {
    let s = max(size, OURO_MIN_PAGE_BYTES);
    return (32u - countLeadingZeros(s - 1u)) - OURO_MIN_PAGE_SHIFT;
}

// Whether [ptr, ptr + size) lies inside the data region (never in the allocator's metadata).
fn ouro_in_data(ptr: u32, size: u32) -> bool {
    return ptr >= OURO_DATA_BASE && ptr < OURO_HEAP_BYTES && size <= OURO_HEAP_BYTES - ptr;
}

// The size class + 1 of a pointer that free() may take: inside the data region, in a chunk that a
// size class owns, at a page boundary of that class. 0 for null (free(null) does nothing), and 0
// after flagging an invalid free otherwise.
fn ouro_free_class(ptr: u32) -> u32 {
    if (ptr == OURO_NULL) {
        return 0u;
    }
    if (ptr < OURO_DATA_BASE || ptr >= OURO_HEAP_BYTES) {
        ouro_fail(OURO_FLAG_INVALID_FREE, OURO_H_INVALID_FREES);
        return 0u;
    }
    let chunk = (ptr - OURO_DATA_BASE) >> OURO_CHUNK_SHIFT;
    let class_plus_one = atomicLoad(&ouro_heap[OURO_CHUNK_CLASS + chunk]);
    if (class_plus_one == 0u || (ptr & ((OURO_MIN_PAGE_BYTES << (class_plus_one - 1u)) - 1u)) != 0u) {
        ouro_fail(OURO_FLAG_INVALID_FREE, OURO_H_INVALID_FREES);
        return 0u;
    }
    return class_plus_one;
}
