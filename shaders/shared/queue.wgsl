// Lock-free ring queue of non-zero u32 items (page pointers or chunk handles) on which no
// operation ever waits for another invocation. Shared by every heap variant and by the chunk pool.
// WGSL forbids recursion, and virtualized queues take their storage from the chunk pool's own
// queues, so this text is instantiated twice: `ouro_pool_*` (always standard slots, for the pool)
// and `ouro_queue_*` (slots standard or virtual, for page and chunk queues). QNAME is replaced.
//
// A queue at word `q` of the heap: head ticket at q + OURO_Q_HEAD, tail ticket at q + OURO_Q_TAIL,
// the number of published items (as i32) at q + OURO_Q_COUNT. `shape` is the ring's slot mask; with
// OURO_VIRTUAL set, the slots live in heap chunks found through the segments module (virtualized
// queues), otherwise `mask + 1` slots follow the header.
// A slot holds 0 (empty), an item, or OURO_TOMB: a dequeuer reached that ticket before its
// enqueuer had published, so the enqueuer must take a fresh ticket instead of waiting to be seen.
// Correctness never depends on ordering between different words: each slot decides its own fate
// with a single-word CAS, which is all that relaxed 32-bit WGSL atomics promise.

fn ouro_QNAME_enqueue(q: u32, shape: u32, item: u32) -> bool {
    for (var attempt = 0u; attempt < OURO_ENQUEUE_TRIES; attempt++) {
        let ticket = ouro_ticket(q + OURO_Q_TAIL);
        let slot = ouro_QNAME_slot(q, shape, ticket);
        if (slot == 0u) {
            // No storage for this ticket: still count its event, so that its segment can complete.
            ouro_QNAME_slot_done(q, shape, ticket, 0u);
            return false;
        }
        let found = ouro_cas(slot, 0u, item);
        if (found == OURO_TOMB) {
            // The dequeuer of this ticket has moved on; free the slot for the next lap.
            atomicStore(&ouro_heap[slot], 0u);
        }
        ouro_QNAME_slot_done(q, shape, ticket, slot);
        if (found == 0u) {
            ouro_ticket(q + OURO_Q_COUNT);
            return true;
        }
    }
    return false;
}

// Returns an item, or 0 when the queue is empty (or every ticket tried was still in flight;
// the caller then takes its other path, it never waits).
fn ouro_QNAME_dequeue(q: u32, shape: u32) -> u32 {
    let count = q + OURO_Q_COUNT;
    if (bitcast<i32>(atomicLoad(&ouro_heap[count])) <= 0) {
        return 0u;
    }
    if (bitcast<i32>(atomicSub(&ouro_heap[count], 1u)) <= 0) {
        atomicAdd(&ouro_heap[count], 1u);
        return 0u;
    }
    // A reservation is held: some published item sits at a ticket at or after head.
    for (var attempt = 0u; attempt < OURO_DEQUEUE_TRIES; attempt++) {
        let ticket = ouro_ticket(q + OURO_Q_HEAD);
        let slot = ouro_QNAME_slot(q, shape, ticket);
        if (slot == 0u) {
            ouro_QNAME_slot_done(q, shape, ticket, 0u);
            break;
        }
        var item = atomicExchange(&ouro_heap[slot], 0u);
        if (item == 0u || item == OURO_TOMB) {
            // The enqueuer of this ticket has not published yet: leave a tomb so that it re-tickets.
            item = 0u;
            let found = ouro_cas(slot, 0u, OURO_TOMB);
            if (found != 0u && found != OURO_TOMB && found != OURO_CAS_GAVE_UP) {
                // It published in between: the item is ours.
                let late = atomicExchange(&ouro_heap[slot], 0u);
                if (late != 0u && late != OURO_TOMB) {
                    item = late;
                }
            }
        }
        ouro_QNAME_slot_done(q, shape, ticket, slot);
        if (item != 0u) {
            return item;
        }
    }
    atomicAdd(&ouro_heap[count], 1u);
    atomicAdd(&ouro_heap[OURO_H_DEQUEUE_GIVE_UPS], 1u);
    return 0u;
}
