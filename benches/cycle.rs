//! Host-side cost of one small alloc/write/verify/free cycle on the default adapter
//! (`cargo bench`). The device-side figures come from `cargo run --release --example bench`.

use ouroboros_wgpu::{
    block_on, AdapterRequest, AllocatorKind, CycleRunner, GpuContext, Heap, HeapConfig, Workload,
};
use std::time::Instant;

fn main() {
    let gpu = match block_on(GpuContext::new(&AdapterRequest::default())) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("skipped: {e}");
            return;
        }
    };
    for allocator in AllocatorKind::ALL {
        let heap = Heap::new(&gpu.device, HeapConfig::new(allocator, 32 << 20)).expect("heap");
        let mut runner = CycleRunner::new(
            &heap,
            &gpu.queue,
            Workload {
                num: 1024,
                size_bytes: 64,
            },
        )
        .expect("runner");
        block_on(runner.run_iteration()).expect("first cycle");
        let rounds = 20;
        let start = Instant::now();
        for _ in 0..rounds {
            block_on(runner.run_iteration()).expect("cycle");
        }
        let per = start.elapsed().as_secs_f64() * 1e3 / f64::from(rounds);
        println!("{allocator:<6} one cycle of 1024 x 64 B: {per:.3} ms host wall time");
    }
}
