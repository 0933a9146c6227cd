// Virtualized-array queue storage: a virtual queue's ring of `mask + 1` slots is cut into segments
// of one chunk each (OURO_SEG_SLOTS slots). Segment s of the ring lives in the chunk whose handle
// sits at index word q + OURO_QUEUE_HEADER_WORDS + s; the segment's done counter follows the index.
// A segment's chunk is taken from the clean pool by the first lane that needs it and handed back
// as soon as every ticket of it has been both enqueued and dequeued (2 * OURO_SEG_SLOTS events),
// when all its slots are zero again.
// (The array form of virtualization; shaders/shared/segments_list.wgsl is the linked-list form.)

fn ouro_segment_count(mask: u32) -> u32 {
    return (mask >> OURO_SEG_SHIFT) + 1u;
}

// Brings a clean chunk for the claimed index word `entry`; returns what the word then holds.
fn ouro_bring_segment(entry: u32) -> u32 {
    let fresh = ouro_chunk_take_clean(OURO_SEGMENT_LOOKS);
    if (fresh == 0u) {
        ouro_unclaim(entry);
        ouro_fail(OURO_FLAG_OUT_OF_MEMORY, OURO_H_QUEUE_FAILURES);
        return 0u;
    }
    let found = ouro_fill(entry, fresh);
    if (found == fresh) {
        atomicAdd(&ouro_heap[OURO_H_QUEUE_CHUNKS], 1u);
    } else if (!ouro_pool_enqueue(OURO_CHUNK_QUEUE, OURO_CHUNK_QUEUE_MASK, fresh)) {
        ouro_fail(OURO_FLAG_LOST, OURO_H_LOST);
    }
    return found;
}

// Fills the index word `entry` (empty or claimed); returns the segment's handle, or 0 / OURO_CLAIMED
// where none could be had.
fn ouro_install_segment(entry: u32) -> u32 {
    let owner = ouro_claim(entry);
    var handle = OURO_CLAIMED;
    for (var round = 0u; round < 2u; round++) {
        if (ouro_should_bring(entry, owner, round, &handle)) {
            handle = ouro_bring_segment(entry);
        }
    }
    return handle;
}

fn ouro_segment_slot(q: u32, mask: u32, ticket: u32) -> u32 {
    let t = ticket & mask;
    let entry = q + OURO_QUEUE_HEADER_WORDS + (t >> OURO_SEG_SHIFT);
    var handle = atomicLoad(&ouro_heap[entry]);
    if (handle == 0u || handle == OURO_CLAIMED) {
        var installed = 0u;
        if (ouro_is_first_with(entry)) {
            installed = ouro_install_segment(entry);
        }
        handle = ouro_share_from_first_with(entry, installed);
    }
    if (handle == 0u || handle == OURO_CLAIMED) {
        return 0u;
    }
    return (ouro_chunk_base(handle) >> 2u) + (t & (OURO_SEG_SLOTS - 1u));
}

fn ouro_segment_slot_done(q: u32, mask: u32, ticket: u32, slot: u32) {
    let t = ticket & mask;
    let segment = t >> OURO_SEG_SHIFT;
    let done = q + OURO_QUEUE_HEADER_WORDS + ouro_segment_count(mask) + segment;
    // The counter runs on across laps (never reset, so no store can land late): every
    // 2 * OURO_SEG_SLOTS events complete one lap of this segment.
    if ((ouro_ticket(done) + 1u) % (2u * OURO_SEG_SLOTS) == 0u) {
        // The last event of this lap: nobody touches this segment again until the ring comes round.
        let entry = q + OURO_QUEUE_HEADER_WORDS + segment;
        let handle = atomicExchange(&ouro_heap[entry], 0u);
        if (handle != 0u && handle != OURO_CLAIMED) {
            atomicSub(&ouro_heap[OURO_H_QUEUE_CHUNKS], 1u);
            if (!ouro_pool_enqueue(OURO_CHUNK_QUEUE, OURO_CHUNK_QUEUE_MASK, handle)) {
                ouro_fail(OURO_FLAG_LOST, OURO_H_LOST);
            }
        }
    }
}
