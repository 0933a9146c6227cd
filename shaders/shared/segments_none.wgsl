// Standard queues keep their slots beside their header: no queue is virtual, so these are never
// reached; they exist so that the queue module reads the same in every variant.

fn ouro_segment_slot(q: u32, mask: u32, ticket: u32) -> u32 {
    return 0u;
}

fn ouro_segment_slot_done(q: u32, mask: u32, ticket: u32, slot: u32) {
}
