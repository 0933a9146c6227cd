// One malloc per thread; the pointer goes to its slot.
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = cycle_thread(gid, groups);
    if (i >= cycle_params.count) {
        return;
    }
    let slot = cycle_params.first + i;
    let ptr = ouro_malloc(cycle_params.size_bytes);
    cycle_ptrs[slot] = ptr;
    if (ptr == OURO_NULL) {
        atomicAdd(&cycle_counters[0], 1u);
    }
}
