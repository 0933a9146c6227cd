// The baseline every allocator is measured against: one atomic bump pointer over the data region,
// reset by the host between iterations, nothing reused. free() does nothing.

fn ouro_malloc(size: u32) -> u32 {
    let room = OURO_HEAP_BYTES - OURO_DATA_BASE;
    if (size > room) {
        ouro_fail(OURO_FLAG_TOO_LARGE, OURO_H_FAILED_ALLOCS);
        return OURO_NULL;
    }
    let rounded = (max(size, 1u) + (OURO_MIN_PAGE_BYTES - 1u)) & ~(OURO_MIN_PAGE_BYTES - 1u);
    // Look before adding so that a storm of failing callers cannot wrap the pointer.
    if (rounded > room || atomicLoad(&ouro_heap[OURO_H_BUMP]) > room - rounded) {
        ouro_fail(OURO_FLAG_OUT_OF_MEMORY, OURO_H_FAILED_ALLOCS);
        return OURO_NULL;
    }
    let offset = atomicAdd(&ouro_heap[OURO_H_BUMP], rounded);
    if (offset > room - rounded) {
        ouro_fail(OURO_FLAG_OUT_OF_MEMORY, OURO_H_FAILED_ALLOCS);
        return OURO_NULL;
    }
    return OURO_DATA_BASE + offset;
}

fn ouro_free(ptr: u32) {
}
