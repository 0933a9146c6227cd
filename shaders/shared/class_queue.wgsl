// A size class's queue of free items (pages in page heaps, chunk tokens in chunk heaps) and its
// spill ring. An item that the class queue cannot store (a virtualized queue found no segment, or
// every ticket an enqueuer tried was tombstoned) goes to the spill ring, a small standard ring in
// the metadata, so that it stays reachable instead of being lost; takers look there when the class
// queue is dry. The spill ring is the pool's queue text over different words.

fn ouro_class_put(cls: u32, item: u32) -> bool {
    if (ouro_queue_enqueue(ouro_class_queue(cls), ouro_class_queue_mask(cls), item)) {
        return true;
    }
    let spill = ouro_spill_queue(cls);
    // Keep half the ring free so that tickets never lap a slot still in use.
    if (bitcast<i32>(atomicLoad(&ouro_heap[spill + OURO_Q_COUNT])) >= i32(OURO_SPILL_MASK / 2u)) {
        return false;
    }
    atomicAdd(&ouro_heap[OURO_H_SPILLED], 1u);
    return ouro_pool_enqueue(spill, OURO_SPILL_MASK, item);
}

// An item of class `cls`, or 0 when neither the class queue nor its spill ring yields one.
fn ouro_class_take(cls: u32) -> u32 {
    let item = ouro_queue_dequeue(ouro_class_queue(cls), ouro_class_queue_mask(cls));
    if (item != 0u) {
        return item;
    }
    return ouro_pool_dequeue(ouro_spill_queue(cls), OURO_SPILL_MASK);
}
