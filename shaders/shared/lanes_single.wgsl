// Lane cooperation without subgroup operations (the web, GL, or forced off): every lane serves
// itself. Same functions as lanes_subgroup.wgsl.

const OURO_LANES_SHARE: bool = false;

fn ouro_ticket(word: u32) -> u32 {
    return atomicAdd(&ouro_heap[word], 1u);
}

fn ouro_is_first_with(key: u32) -> bool {
    return true;
}

fn ouro_share_from_first_with(key: u32, value: u32) -> u32 {
    return value;
}

fn ouro_rank_with(key: u32) -> vec2<u32> {
    return vec2<u32>(0u, 1u);
}
