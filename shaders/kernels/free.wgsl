// One free per thread, of the pointer in its slot (null slots are freed too: a no-op).
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = cycle_thread(gid, groups);
    if (i >= cycle_params.count) {
        return;
    }
    ouro_free(cycle_ptrs[cycle_params.first + i]);
}
