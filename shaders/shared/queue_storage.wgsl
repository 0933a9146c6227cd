// Where a queue's slots live. The chunk pool's queues always keep their slots beside their header
// (`ouro_pool_*`); page and chunk queues do too unless `shape` has OURO_VIRTUAL set, in which case
// the segments module (standard: none, va: array, vl: list) finds them in heap chunks.

fn ouro_pool_slot(q: u32, shape: u32, ticket: u32) -> u32 {
    return q + OURO_QUEUE_HEADER_WORDS + (ticket & shape);
}

fn ouro_pool_slot_done(q: u32, shape: u32, ticket: u32, slot: u32) {
}

// The word of the slot for `ticket`, or 0 when its storage could not be had.
fn ouro_queue_slot(q: u32, shape: u32, ticket: u32) -> u32 {
    if ((shape & OURO_VIRTUAL) == 0u) {
        return q + OURO_QUEUE_HEADER_WORDS + (ticket & shape);
    }
    return ouro_segment_slot(q, shape & ~OURO_VIRTUAL, ticket);
}

// Called once by the enqueuer and once by the dequeuer of each ticket when they are done with its
// slot (`slot` 0 where no storage could be had), so that virtualized queues can hand drained
// storage back.
fn ouro_queue_slot_done(q: u32, shape: u32, ticket: u32, slot: u32) {
    if ((shape & OURO_VIRTUAL) != 0u) {
        ouro_segment_slot_done(q, shape & ~OURO_VIRTUAL, ticket, slot);
    }
}
