// The pool of whole chunks: chunks handed back (queue) first, then never-used chunks (bump).
// A chunk handle is its index + 1, so that 0 can mean "none".

fn ouro_chunk_take() -> u32 {
    let reused = ouro_queue_dequeue(OURO_CHUNK_QUEUE, OURO_CHUNK_QUEUE_MASK);
    if (reused != 0u) {
        return reused;
    }
    // Look before adding so that a storm of failing callers cannot wrap the counter.
    if (atomicLoad(&ouro_heap[OURO_H_CHUNK_BUMP]) >= OURO_DATA_CHUNKS) {
        return 0u;
    }
    let index = atomicAdd(&ouro_heap[OURO_H_CHUNK_BUMP], 1u);
    if (index < OURO_DATA_CHUNKS) {
        return index + 1u;
    }
    return 0u;
}

fn ouro_chunk_give_back(handle: u32) {
    if (!ouro_queue_enqueue(OURO_CHUNK_QUEUE, OURO_CHUNK_QUEUE_MASK, handle)) {
        ouro_fail(OURO_FLAG_LOST, OURO_H_LOST);
    }
}

fn ouro_chunk_base(handle: u32) -> u32 {
    return OURO_DATA_BASE + ((handle - 1u) << OURO_CHUNK_SHIFT);
}
