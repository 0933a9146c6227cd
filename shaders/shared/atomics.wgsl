// Atomic helpers shared by every module.

fn ouro_cas(word: u32, expected: u32, desired: u32) -> u32 {
    // atomicCompareExchangeWeak may fail spuriously; retry a bounded number of times and return
    // the value found (== expected means the exchange happened).
    for (var spin = 0u; spin < OURO_CAS_SPINS; spin++) {
        let r = atomicCompareExchangeWeak(&ouro_heap[word], expected, desired);
        if (r.exchanged) {
            return expected;
        }
        if (r.old_value != expected) {
            return r.old_value;
        }
    }
    return OURO_CAS_GAVE_UP;
}

