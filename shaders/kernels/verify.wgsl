// Check every word of every non-null allocation, and that it lies inside the data region at a
// 16-byte boundary; count the allocations that fail.
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = cycle_thread(gid, groups);
    if (i >= cycle_params.count) {
        return;
    }
    let slot = cycle_params.first + i;
    let ptr = cycle_ptrs[slot];
    if (ptr == OURO_NULL) {
        return;
    }
    if (!ouro_in_data(ptr, cycle_params.size_bytes) || (ptr & (OURO_MIN_PAGE_BYTES - 1u)) != 0u) {
        atomicAdd(&cycle_counters[1], 1u);
        return;
    }
    let words = (cycle_params.size_bytes + 3u) / 4u;
    let base = ptr / 4u;
    let value = cycle_pattern(slot);
    var bad = 0u;
    for (var w = 0u; w < words; w++) {
        bad += select(0u, 1u, atomicLoad(&ouro_heap[base + w]) != value);
    }
    if (bad != 0u) {
        atomicAdd(&cycle_counters[1], 1u);
    }
}
