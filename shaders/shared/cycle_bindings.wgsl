// Bindings of the alloc -> write -> verify -> free cycle kernels (group 1). Rust twin: `PassParams`
// in src/cycle.rs.
struct PassParams {
    first: u32,      // first pointer slot of this pass
    count: u32,      // number of threads (one allocation each)
    size_bytes: u32, // requested allocation size
    salt: u32,       // mixed into the written pattern so that stale data never verifies
}

@group(1) @binding(0) var<storage, read_write> cycle_ptrs: array<u32>;
@group(1) @binding(1) var<uniform> cycle_params: PassParams;
// [0] allocations that came back null, [1] allocations whose content or placement did not verify.
@group(1) @binding(2) var<storage, read_write> cycle_counters: array<atomic<u32>, 4>;

const CYCLE_WORKGROUP: u32 = 256u;

fn cycle_thread(gid: vec3<u32>, groups: vec3<u32>) -> u32 {
    // Large N dispatches in two dimensions; flatten back to one thread index.
    return gid.x + gid.y * groups.x * CYCLE_WORKGROUP;
}

fn cycle_pattern(slot: u32) -> u32 {
    return (slot + 1u) ^ cycle_params.salt;
}
