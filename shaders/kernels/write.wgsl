// Fill every word of every non-null allocation with its slot's pattern.
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = cycle_thread(gid, groups);
    if (i >= cycle_params.count) {
        return;
    }
    let slot = cycle_params.first + i;
    let ptr = cycle_ptrs[slot];
    if (ptr == OURO_NULL || !ouro_in_data(ptr, cycle_params.size_bytes)) {
        return;
    }
    let words = (cycle_params.size_bytes + 3u) / 4u;
    let base = ptr / 4u;
    let value = cycle_pattern(slot);
    for (var w = 0u; w < words; w++) {
        atomicStore(&ouro_heap[base + w], value);
    }
}
