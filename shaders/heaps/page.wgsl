// Page-based heap with standard queues (Ouroboros' "page" variant).
//
// Each size cls keeps a queue of its free pages. When the queue is dry a thread carves a fresh
// page: every cls numbers its pages 0, 1, 2, ... with one counter, and page n lives in the
// cls's (n / pages_per_chunk)-th chunk, whose handle sits in the cls's chunk table. The first
// thread to need a table entry installs a chunk from the pool; a thread that loses that race hands
// its chunk back. Nobody enqueues a whole chunk's pages up front and nobody waits for an installer.

// Records the class of a chunk once it sits in the class's table. Only the lane that installed it
// writes, and nobody ever clears it: with relaxed atomics, a clearing store could land after the
// next owner's and misfile that owner's pages.
fn ouro_claim_chunk(cls: u32, handle: u32) {
    atomicStore(&ouro_heap[OURO_CHUNK_CLASS + handle - 1u], cls + 1u);
}

fn ouro_pages_per_chunk(cls: u32) -> u32 {
    return OURO_CHUNK_BYTES >> (cls + OURO_MIN_PAGE_SHIFT);
}

// Places `taken` in one of the few table entries after `entry`, or hands it back to the pool.
fn ouro_forward_chunk(cls: u32, entry: u32, taken: u32) {
    let fresh = taken & ~OURO_TAKEN_DIRTY;
    let table_end = ouro_class_table(cls) + ouro_class_table_len(cls);
    for (var next = entry + 1u; next < min(entry + 1u + OURO_FORWARD_ENTRIES, table_end); next++) {
        if (atomicLoad(&ouro_heap[next]) == 0u && ouro_cas(next, 0u, fresh) == 0u) {
            ouro_claim_chunk(cls, fresh);
            atomicAdd(&ouro_heap[OURO_H_FORWARDED], 1u);
            return;
        }
    }
    atomicAdd(&ouro_heap[OURO_H_RETURNED], 1u);
    ouro_chunk_give_back(taken, ouro_pages_per_chunk(cls));
}

// Brings a chunk for the claimed chunk-table entry `entry` of class `cls` and returns what the
// entry then holds: a chunk handle (this lane's or another's), or OURO_DEAD when no chunk could
// be had.
fn ouro_bring_chunk(cls: u32, entry: u32) -> u32 {
    // Two tries at the pool: the second picks up chunks that racing lanes just handed back.
    for (var attempt = 0u; attempt < 2u; attempt++) {
        let taken = ouro_chunk_take_data(ouro_pages_per_chunk(cls));
        if (taken != 0u) {
            let fresh = taken & ~OURO_TAKEN_DIRTY;
            let handle = ouro_fill(entry, fresh);
            if (handle == fresh) {
                ouro_claim_chunk(cls, fresh);
            } else {
                // Another lane filled the entry: the next entries of the class will be wanted
                // soon, so install the chunk there instead of churning the pool.
                ouro_forward_chunk(cls, entry, taken);
            }
            return handle;
        }
    }
    // The pool is dry: mark the entry dead so that every page number in it fails alike.
    let handle = ouro_fill(entry, OURO_DEAD);
    if (handle == OURO_DEAD) {
        atomicAdd(&ouro_heap[OURO_H_DEAD_ENTRIES], 1u);
    }
    return handle;
}

// Fills the chunk-table entry `entry` of class `cls` (empty or claimed) and returns what it then
// holds: a chunk handle, OURO_DEAD (no chunk could be had) or, rarely, OURO_CLAIMED.
fn ouro_install_chunk(cls: u32, entry: u32) -> u32 {
    let owner = ouro_claim(entry);
    var handle = OURO_CLAIMED;
    for (var round = 0u; round < 2u; round++) {
        if (ouro_should_bring(entry, owner, round, &handle)) {
            handle = ouro_bring_chunk(cls, entry);
        }
    }
    return handle;
}

fn ouro_carve_page(cls: u32) -> u32 {
    let page_shift = cls + OURO_MIN_PAGE_SHIFT;
    let per_chunk_shift = OURO_CHUNK_SHIFT - page_shift;
    let limit = ouro_class_table_len(cls) << per_chunk_shift;
    let counter = OURO_H_CARVE + cls;
    if (atomicLoad(&ouro_heap[counter]) >= limit) {
        ouro_fail(OURO_FLAG_CLASS_LIMIT, OURO_H_FAILED_ALLOCS);
        return OURO_NULL;
    }
    let n = ouro_ticket(counter);
    if (n >= limit) {
        ouro_fail(OURO_FLAG_CLASS_LIMIT, OURO_H_FAILED_ALLOCS);
        return OURO_NULL;
    }
    let entry = ouro_class_table(cls) + (n >> per_chunk_shift);
    var handle = atomicLoad(&ouro_heap[entry]);
    if (handle == 0u || handle == OURO_CLAIMED) {
        // One lane per entry fetches the chunk for every lane of its subgroup that needs it.
        var installed = 0u;
        if (ouro_is_first_with(entry)) {
            installed = ouro_install_chunk(cls, entry);
        }
        handle = ouro_share_from_first_with(entry, installed);
    }
    if (handle == OURO_DEAD || handle == OURO_CLAIMED || handle == 0u) {
        ouro_fail(OURO_FLAG_OUT_OF_MEMORY, OURO_H_FAILED_ALLOCS);
        return OURO_NULL;
    }
    let page = n & ((1u << per_chunk_shift) - 1u);
    return ouro_chunk_base(handle) + (page << page_shift);
}

fn ouro_malloc(size: u32) -> u32 {
    if (size > OURO_CHUNK_BYTES) {
        ouro_fail(OURO_FLAG_TOO_LARGE, OURO_H_FAILED_ALLOCS);
        return OURO_NULL;
    }
    let cls = ouro_size_class(size);
    let reused = ouro_class_take(cls);
    if (reused != 0u) {
        return reused;
    }
    return ouro_carve_page(cls);
}

fn ouro_free(ptr: u32) {
    let class_plus_one = ouro_free_class(ptr);
    if (class_plus_one == 0u) {
        return;
    }
    let cls = class_plus_one - 1u;
    if (!ouro_class_put(cls, ptr)) {
        ouro_fail(OURO_FLAG_LOST, OURO_H_LOST);
    }
}
