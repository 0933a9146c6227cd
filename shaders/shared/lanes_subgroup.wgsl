// Lane cooperation with subgroup operations: the active lanes of a subgroup that name the same
// key are served together, led by the lowest of them. Works in divergent code and never assumes
// a subgroup size: every round serves at least the lowest active lane, so OURO_MAX_SUBGROUP
// rounds (the largest size WGSL allows) cover any subgroup.

// Whether lanes share their queue and chunk operations (so that one lane may act for many).
const OURO_LANES_SHARE: bool = true;

// This lane's result of atomicAdd(&ouro_heap[word], 1u), with one atomic per distinct word.
fn ouro_ticket(word: u32) -> u32 {
    for (var round = 0u; round < OURO_MAX_SUBGROUP; round++) {
        if (subgroupBroadcastFirst(word) == word) {
            let rank = subgroupExclusiveAdd(1u);
            let total = subgroupAdd(1u);
            var base = 0u;
            if (rank == 0u) {
                base = atomicAdd(&ouro_heap[word], total);
            }
            return subgroupBroadcastFirst(base) + rank;
        }
    }
    return atomicAdd(&ouro_heap[word], 1u);
}

// Whether this lane is the lowest active lane among those that pass the same key.
fn ouro_is_first_with(key: u32) -> bool {
    for (var round = 0u; round < OURO_MAX_SUBGROUP; round++) {
        if (subgroupBroadcastFirst(key) == key) {
            return subgroupExclusiveAdd(1u) == 0u;
        }
    }
    return true;
}

// The `value` of the lowest active lane among those that pass the same key. Call it with the same
// active lanes and keys as the `ouro_is_first_with` whose leader produced the value.
fn ouro_share_from_first_with(key: u32, value: u32) -> u32 {
    for (var round = 0u; round < OURO_MAX_SUBGROUP; round++) {
        if (subgroupBroadcastFirst(key) == key) {
            return subgroupBroadcastFirst(value);
        }
    }
    return value;
}

// This lane's rank among the active lanes that pass the same key (lowest lane first), and their
// number.
fn ouro_rank_with(key: u32) -> vec2<u32> {
    for (var round = 0u; round < OURO_MAX_SUBGROUP; round++) {
        if (subgroupBroadcastFirst(key) == key) {
            return vec2<u32>(subgroupExclusiveAdd(1u), subgroupAdd(1u));
        }
    }
    return vec2<u32>(0u, 1u);
}
