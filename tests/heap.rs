//! The allocator's guarantees, on the real shaders and a real adapter, for every allocator kind.
//! Each test body takes the kind; `allocator_tests!` instantiates the suite once per kind.

mod common;

use common::{gpu, TEST_HEAP};
use ouroboros_wgpu::reference::{size_class, ReferenceHeap};
use ouroboros_wgpu::{
    block_on, config::QueueStorage, flags, AllocatorKind, CycleKernel, CycleRunner, GpuContext,
    Heap, HeapConfig, Step, Workload, NULL,
};

const ALLOC: CycleKernel = CycleKernel::Alloc;
const WRITE: CycleKernel = CycleKernel::Write;
const VERIFY: CycleKernel = CycleKernel::Verify;
const FREE: CycleKernel = CycleKernel::Free;

fn heap(gpu: &GpuContext, kind: AllocatorKind, subgroups: bool, heap_bytes: u64) -> Heap {
    let config = HeapConfig {
        use_subgroups: subgroups,
        ..HeapConfig::new(kind, heap_bytes)
    };
    let heap = Heap::new(&gpu.device, config).expect("heap");
    let offered = gpu.device.features().contains(wgpu::Features::SUBGROUP);
    assert_eq!(
        heap.layout().subgroups,
        subgroups && offered,
        "the subgroup path was not chosen as asked"
    );
    if subgroups && !offered {
        eprintln!("note: this adapter has no subgroups; the subgroup-less path ran instead");
    }
    heap
}

/// A cycle runner on `heap` for `num` threads of `size` bytes.
fn runner<'h>(heap: &'h Heap, gpu: &GpuContext, num: u32, size: u32) -> CycleRunner<'h> {
    CycleRunner::new(
        heap,
        &gpu.queue,
        Workload {
            num,
            size_bytes: size,
        },
    )
    .unwrap()
}

/// The bytes an allocation of `size` occupies (its size class, or 16-byte granules for bump).
fn footprint(kind: AllocatorKind, size: u32) -> u32 {
    match kind {
        AllocatorKind::Bump => size.max(1).div_ceil(16) * 16,
        _ => 16 << size_class(size),
    }
}

/// Every pointer non-null, inside the data region, aligned to its footprint, and no two overlap.
fn assert_distinct_aligned_inside(heap: &Heap, kind: AllocatorKind, size: u32, ptrs: &[u32]) {
    let layout = heap.layout();
    let step = footprint(kind, size);
    let align = if kind == AllocatorKind::Bump {
        16
    } else {
        step
    };
    let mut sorted = ptrs.to_vec();
    sorted.sort_unstable();
    for &p in &sorted {
        assert_ne!(p, NULL, "unexpected null");
        assert!(
            p >= layout.data_base,
            "pointer {p:#x} inside the metadata (data starts at {:#x})",
            layout.data_base
        );
        assert!(
            u64::from(p) + u64::from(step) <= u64::from(layout.heap_bytes),
            "pointer {p:#x} runs past the heap"
        );
        assert_eq!(
            (p - layout.data_base) % align,
            0,
            "pointer {p:#x} not aligned to {align}"
        );
    }
    for w in sorted.windows(2) {
        assert!(
            w[0] + step <= w[1],
            "allocations at {:#x} and {:#x} overlap ({step} B each)",
            w[0],
            w[1]
        );
    }
}

/// Every chunk taken from the data region is in a class's table, holds a queue segment, or is back
/// in the pool.
fn assert_no_chunk_lost(state: &ouroboros_wgpu::HeapState) {
    let in_tables: u32 = state.class_chunks.iter().sum();
    assert_eq!(
        state.chunks_in_use(),
        in_tables + state.queue_chunks,
        "chunks taken but held by nobody: {state:?}"
    );
    assert_eq!(state.counters.lost, 0);
}

fn distinct_aligned_inside(kind: AllocatorKind, subgroups: bool) {
    let Some(gpu) = gpu() else { return };
    for size in [1u32, 16, 100, 1000, 4096, 8192] {
        let heap = heap(&gpu, kind, subgroups, TEST_HEAP);
        let num = if size >= 4096 { 1000 } else { 3000 };
        let mut runner = runner(&heap, &gpu, num, size);
        let report = block_on(runner.run(&[Step::new(ALLOC, 0, num)], 1, false)).unwrap();
        assert_eq!(report.null_allocs, 0, "size {size}");
        assert_eq!(
            report.heap.flags,
            0,
            "size {size}: flags {:?}",
            flags::names(report.heap.flags)
        );
        let ptrs = block_on(runner.read_pointers()).unwrap();
        assert_distinct_aligned_inside(&heap, kind, size, &ptrs);
        if kind.is_page_based() {
            // Differential check against the CPU model: the same calls carve the same page
            // numbers, 0..num of the class, whichever chunk each table entry received.
            let mut model = ReferenceHeap::new(heap.layout());
            for _ in 0..num {
                model.malloc(size);
            }
            let state = block_on(heap.read_state(&gpu.queue)).unwrap();
            assert_eq!(state.carved_pages, model.carved_pages(), "size {size}");
            assert_no_chunk_lost(&state);
            // Racing installers may place spare chunks at later table entries; never fewer.
            assert!(
                state.chunks_in_use() >= model.chunks_in_use(),
                "size {size}"
            );
            let class = size_class(size);
            let table = &state.class_tables[class as usize];
            let per_chunk = heap.layout().pages_per_chunk(class);
            let mut numbers: Vec<u32> = ptrs
                .iter()
                .map(|&p| {
                    let handle = (p - heap.layout().data_base) / heap.layout().chunk_bytes + 1;
                    let k = table
                        .iter()
                        .position(|&h| h == handle)
                        .expect("chunk in the class table") as u32;
                    k * per_chunk + (p % heap.layout().chunk_bytes) / (16 << class)
                })
                .collect();
            numbers.sort_unstable();
            assert!(
                numbers.iter().copied().eq(0..num),
                "size {size}: carved page numbers are not 0..{num}"
            );
        }
    }
}

fn data_survives_other_threads(kind: AllocatorKind, subgroups: bool) {
    let Some(gpu) = gpu() else { return };
    let heap = heap(&gpu, kind, subgroups, TEST_HEAP);
    let (num, half) = (4096, 2048);
    let mut runner = runner(&heap, &gpu, num, 200);
    let steps = [
        Step::new(ALLOC, 0, half),
        Step::new(WRITE, 0, half),
        Step::new(ALLOC, half, half),
        Step::new(WRITE, half, half),
        Step::new(FREE, half, half),
        Step::new(ALLOC, half, half),
        Step::new(WRITE, half, half),
        Step::new(FREE, half, half),
        Step::new(ALLOC, half, half),
        Step::new(WRITE, half, half),
        Step::new(VERIFY, 0, num),
    ];
    let report = block_on(runner.run(&steps, 7, false)).unwrap();
    assert_eq!(report.null_allocs, 0);
    assert_eq!(
        report.verify_errors, 0,
        "data of the first half did not survive the second half's churn"
    );
    let ptrs = block_on(runner.read_pointers()).unwrap();
    assert_distinct_aligned_inside(&heap, kind, 200, &ptrs);
    // The pattern check itself must be able to fail: verifying with another salt finds every one.
    let report = block_on(runner.run(&[Step::new(VERIFY, 0, num)], 8, false)).unwrap();
    assert_eq!(report.verify_errors, num);
}

fn reuse_does_not_grow_the_heap(kind: AllocatorKind, subgroups: bool) {
    let Some(gpu) = gpu() else { return };
    let heap = heap(&gpu, kind, subgroups, TEST_HEAP);
    let mut runner = runner(&heap, &gpu, 2000, 64);
    let first = block_on(runner.run_iteration()).unwrap();
    assert_eq!((first.failed_allocs, first.verify_errors), (0, 0));
    let after_first = block_on(heap.read_state(&gpu.queue)).unwrap();
    for i in 1..100 {
        let r = block_on(runner.run_iteration()).unwrap();
        assert_eq!((r.failed_allocs, r.verify_errors), (0, 0), "iteration {i}");
    }
    let after_all = block_on(heap.read_state(&gpu.queue)).unwrap();
    let data_chunks = |s: &ouroboros_wgpu::HeapState| s.class_chunks.iter().sum::<u32>();
    if kind.is_chunk_based() {
        // Emptied chunks go back to the pool after every iteration: once all is freed, only the
        // class's current chunk and queue storage stay out of it. (Lanes that find the pool's queue
        // momentarily empty take never-used chunks, so chunks_taken may creep up; those chunks come
        // back to the pool too.)
        let out = after_all.chunks_in_use();
        assert!(
            out <= 1 + after_all.queue_chunks,
            "{out} chunks stay out of the pool: {after_all:?}"
        );
    } else {
        assert_eq!(
            data_chunks(&after_all),
            data_chunks(&after_first),
            "the heap grew"
        );
    }
    // A ring whose items span k segments touches at most k + 1 of them.
    assert!(
        after_all.queue_chunks <= 2,
        "queue segments piled up: {}",
        after_all.queue_chunks
    );
    assert_eq!(
        after_all.carved_pages, after_first.carved_pages,
        "pages were carved again instead of reused"
    );
    if kind.is_chunk_based() {
        // Every chunk emptied by the frees went back to the pool.
        // (Each class may keep its current chunk.)
        assert!(
            after_all.class_chunks.iter().all(|&c| c <= 1),
            "chunks kept after freeing all: {after_all:?}"
        );
    }
    if kind.is_page_based() {
        // Everything freed is queued again.
        assert_eq!(after_all.queued_pages, after_all.carved_pages);
        let mut model = ReferenceHeap::new(heap.layout());
        let ptrs: Vec<u32> = (0..2000).map(|_| model.malloc(64)).collect();
        ptrs.iter().for_each(|&p| model.free(p));
        assert!(after_all.chunks_in_use() >= model.chunks_in_use());
        assert_no_chunk_lost(&after_all);
        assert_eq!(after_all.queued_pages, model.queued_pages());
    }
}

fn exhaustion_returns_null_and_flag(kind: AllocatorKind, subgroups: bool) {
    let Some(gpu) = gpu() else { return };
    let heap_bytes = 4 << 20;
    let heap = heap(&gpu, kind, subgroups, heap_bytes);
    let size = 1024;
    let capacity = (heap.layout().heap_bytes - heap.layout().data_base) / size;
    let num = 2 * capacity;
    let mut runner = runner(&heap, &gpu, num, size);
    let steps = [
        Step::new(ALLOC, 0, num),
        Step::new(WRITE, 0, num),
        Step::new(VERIFY, 0, num),
    ];
    let report = block_on(runner.run(&steps, 3, false)).unwrap();
    assert_eq!(
        report.verify_errors, 0,
        "a failed allocation harmed a successful one"
    );
    assert!(
        report.heap.flags & (flags::OUT_OF_MEMORY | flags::CLASS_LIMIT) != 0,
        "no exhaustion flag"
    );
    assert_eq!(
        report.null_allocs, report.heap.failed_allocs,
        "nulls and the failure counter disagree"
    );
    let ptrs = block_on(runner.read_pointers()).unwrap();
    let granted: Vec<u32> = ptrs.iter().copied().filter(|&p| p != NULL).collect();
    assert_eq!(granted.len() as u32 + report.null_allocs, num);
    assert_distinct_aligned_inside(&heap, kind, size, &granted);
    // Nearly every page the heap can hold is handed out before the first null: at most one chunk's
    // worth is held back by lanes that raced for the last chunks.
    let per_chunk = heap.layout().chunk_bytes / size;
    let capacity = match kind {
        AllocatorKind::Bump => capacity,
        _ => heap.layout().max_pages(size_class(size)) as u32,
    };
    // Chunk heaps hand pages out through tokens of chunks with free pages: at the boundary a lane
    // that finds the token queue momentarily empty (its neighbours are still queueing theirs) and
    // the pool dry gets null, so they may stop short by a few chunks.
    let slack = if kind.is_chunk_based() {
        per_chunk + capacity / 32
    } else {
        per_chunk
    };
    assert!(
        granted.len() as u32 <= capacity,
        "{} granted, more than the {capacity} that fit",
        granted.len()
    );
    assert!(
        granted.len() as u32 + slack >= capacity,
        "only {} of {capacity} allocations granted",
        granted.len()
    );
    if kind.reuses_memory() {
        // Free everything: the same amount is allocatable again.
        let again = block_on(runner.run(
            &[Step::new(FREE, 0, num), Step::new(ALLOC, 0, num)],
            4,
            false,
        ))
        .unwrap();
        if kind.queue_storage() == QueueStorage::Standard {
            assert_eq!(again.heap.lost, 0);
        } else {
            // Known defect of the virtualized queues (BENCHMARKS.md): at exhaustion a few queue
            // items may find no room and leak. They must at least be counted and flagged.
            assert!(
                again.heap.lost == 0 || again.heap.flags & flags::LOST != 0,
                "lost items not flagged"
            );
            assert!(
                again.heap.lost <= capacity / 16,
                "{kind}: {} of {capacity} items lost",
                again.heap.lost
            );
        }
        // A leaked chunk token strands that chunk's free pages, a leaked page itself.
        let stranded = again.heap.lost * per_chunk;
        eprintln!(
            "{kind} (subgroups {subgroups}): {} then {} of {capacity} granted, {} lost",
            granted.len(),
            num - again.null_allocs,
            again.heap.lost
        );
        // Known defect (BENCHMARKS.md): a virtualized chunk heap refilled right after a free storm
        // on the subgroup-less path now and then finds tokens still in flight and stops up to a
        // sixteenth short.
        let in_flight = if kind.queue_storage() != QueueStorage::Standard && kind.is_chunk_based() {
            capacity / 16
        } else {
            0
        };
        assert!(
            num - again.null_allocs + slack + stranded + in_flight >= capacity,
            "after free only {} granted",
            num - again.null_allocs
        );
    }
}

fn free_null_is_a_no_op(kind: AllocatorKind, subgroups: bool) {
    let Some(gpu) = gpu() else { return };
    let heap = heap(&gpu, kind, subgroups, TEST_HEAP);
    let runner = &mut runner(&heap, &gpu, 512, 32);
    block_on(runner.run(&[Step::new(ALLOC, 0, 256)], 1, false)).unwrap();
    let before = block_on(heap.read_state(&gpu.queue)).unwrap();
    runner.write_pointers(256, &[NULL; 256]);
    let report = block_on(runner.run(&[Step::new(FREE, 256, 256)], 1, false)).unwrap();
    assert_eq!(report.heap.flags, 0);
    assert_eq!(
        block_on(heap.read_state(&gpu.queue)).unwrap(),
        before,
        "free(null) changed the heap"
    );
}

fn too_large_is_null_and_flagged(kind: AllocatorKind, subgroups: bool) {
    let Some(gpu) = gpu() else { return };
    let heap = heap(&gpu, kind, subgroups, TEST_HEAP);
    let size = match kind {
        AllocatorKind::Bump => heap.layout().heap_bytes,
        _ => heap.layout().chunk_bytes + 1,
    };
    let mut runner = runner(&heap, &gpu, 300, size);
    let report = block_on(runner.run(
        &[Step::new(ALLOC, 0, 300), Step::new(FREE, 0, 300)],
        1,
        false,
    ))
    .unwrap();
    assert_eq!(report.null_allocs, 300);
    assert_eq!(report.heap.failed_allocs, 300);
    assert!(report.heap.flags & flags::TOO_LARGE != 0);
    assert_eq!(report.heap.chunks_taken, 0);
}

macro_rules! allocator_tests {
    ($($module:ident => ($kind:expr, $subgroups:expr)),* $(,)?) => {$(
        mod $module {
            use super::*;
            #[test] fn distinct_aligned_inside() { super::distinct_aligned_inside($kind, $subgroups) }
            #[test] fn data_survives_other_threads() { super::data_survives_other_threads($kind, $subgroups) }
            #[test] fn reuse_does_not_grow_the_heap() { super::reuse_does_not_grow_the_heap($kind, $subgroups) }
            #[test] fn exhaustion_returns_null_and_flag() { super::exhaustion_returns_null_and_flag($kind, $subgroups) }
            #[test] fn free_null_is_a_no_op() { super::free_null_is_a_no_op($kind, $subgroups) }
            #[test] fn too_large_is_null_and_flagged() { super::too_large_is_null_and_flagged($kind, $subgroups) }
        }
    )*};
}

// Each allocator on the subgroup path (where the adapter has subgroups) and the subgroup-less path.
allocator_tests!(
    page => (AllocatorKind::Page, true),
    page_no_subgroups => (AllocatorKind::Page, false),
    va_page => (AllocatorKind::VaPage, true),
    va_page_no_subgroups => (AllocatorKind::VaPage, false),
    chunk => (AllocatorKind::Chunk, true),
    chunk_no_subgroups => (AllocatorKind::Chunk, false),
    va_chunk => (AllocatorKind::VaChunk, true),
    va_chunk_no_subgroups => (AllocatorKind::VaChunk, false),
    vl_page => (AllocatorKind::VlPage, true),
    vl_page_no_subgroups => (AllocatorKind::VlPage, false),
    vl_chunk => (AllocatorKind::VlChunk, true),
    vl_chunk_no_subgroups => (AllocatorKind::VlChunk, false),
    bump => (AllocatorKind::Bump, true),
    bump_no_subgroups => (AllocatorKind::Bump, false),
);

/// One lane per chunk-table entry fetches a chunk: four lanes that need the same fresh chunk take
/// one chunk between them, on both lane paths. On the subgroup path the lanes' leader fetches it;
/// without subgroups the lanes run in lockstep on lavapipe, and the entry's claim makes the others
/// find the claimer's chunk instead of each fetching one (they did before claims existed).
#[test]
fn one_chunk_fetch_per_entry() {
    let Some(gpu) = gpu() else { return };
    for kind in AllocatorKind::ALL.into_iter().filter(|k| k.is_page_based()) {
        for subgroups in [true, false] {
            let heap = heap(&gpu, kind, subgroups, TEST_HEAP);
            let mut runner = runner(&heap, &gpu, 4, 16);
            block_on(runner.run(&[Step::new(ALLOC, 0, 4)], 1, false)).unwrap();
            let state = block_on(heap.read_state(&gpu.queue)).unwrap();
            let d = state.counters.diagnostics;
            let raced = d.forwarded_chunks + d.returned_chunks;
            assert_eq!(
                (raced, state.chunks_in_use()),
                (0, 1),
                "{kind}, subgroups {subgroups}: {d:?}"
            );
        }
    }
}

/// Chunk heaps hand emptied chunks back to the pool, where another size class takes them.
#[test]
fn emptied_chunks_are_reused_by_another_class() {
    let Some(gpu) = gpu() else { return };
    for kind in AllocatorKind::ALL
        .into_iter()
        .filter(|k| k.is_chunk_based())
    {
        for subgroups in [true, false] {
            let heap = heap(&gpu, kind, subgroups, TEST_HEAP);
            let mut big = runner(&heap, &gpu, 1000, 4096);
            let r = block_on(big.run(
                &[Step::new(ALLOC, 0, 1000), Step::new(FREE, 0, 1000)],
                1,
                false,
            ))
            .unwrap();
            assert_eq!(r.null_allocs, 0);
            let emptied = block_on(heap.read_state(&gpu.queue)).unwrap();
            // Each class may keep its current chunk, empty or not; every other one went back.
            assert!(
                emptied.class_chunks.iter().all(|&c| c <= 1),
                "{kind}: chunks kept: {emptied:?}"
            );
            assert!(
                emptied.pooled_chunks >= 500,
                "{kind}: only {} chunks went back to the pool",
                emptied.pooled_chunks
            );
            let mut small = runner(&heap, &gpu, 2000, 1000);
            let r = block_on(small.run(
                &[
                    Step::new(ALLOC, 0, 2000),
                    Step::new(WRITE, 0, 2000),
                    Step::new(VERIFY, 0, 2000),
                ],
                2,
                false,
            ))
            .unwrap();
            assert_eq!((r.null_allocs, r.verify_errors), (0, 0));
            let reused = block_on(heap.read_state(&gpu.queue)).unwrap();
            let held = reused.class_chunks[size_class(1000) as usize];
            assert!(held >= 250, "{kind}: 2000 pages of 1 KiB in {held} chunks");
            // Data chunks came from the emptied ones; fresh chunks only for queue storage.
            let from_pool = emptied.pooled_dirty_chunks - reused.pooled_dirty_chunks;
            assert!(
                from_pool >= held.min(emptied.pooled_dirty_chunks),
                "{kind}: {held} chunks held, {from_pool} from the pool"
            );
            let fresh = reused.counters.chunks_taken - emptied.counters.chunks_taken;
            assert!(
                fresh <= reused.queue_chunks + (reused.pooled_chunks - reused.pooled_dirty_chunks),
                "{kind}: {fresh} fresh chunks"
            );
            assert_no_chunk_lost(&reused);
        }
    }
}

/// Virtualized queues take their storage from the heap and hand it back when they drain.
#[test]
fn queue_segments_return_to_the_heap_when_drained() {
    let Some(gpu) = gpu() else { return };
    let virtual_kinds = || {
        AllocatorKind::ALL
            .into_iter()
            .filter(|k| k.queue_storage() != QueueStorage::Standard)
    };
    for kind in virtual_kinds().filter(|k| k.is_chunk_based()) {
        // Chunk heaps queue one token per chunk: many cycles move their rings through several
        // segments, which must be recycled rather than piled up.
        let heap = heap(&gpu, kind, true, TEST_HEAP);
        let num = 1800;
        let mut runner = runner(&heap, &gpu, num, 4096);
        let mut state = block_on(heap.read_state(&gpu.queue)).unwrap();
        for _ in 0..10 {
            block_on(runner.run(
                &[Step::new(ALLOC, 0, num), Step::new(FREE, 0, num)],
                1,
                false,
            ))
            .unwrap();
            state = block_on(heap.read_state(&gpu.queue)).unwrap();
            assert!(
                state.queue_chunks <= 2,
                "{kind}: {} queue segments held",
                state.queue_chunks
            );
        }
        let segment = heap.layout().chunk_bytes / 4;
        let moved = state.enqueue_tickets[size_class(4096) as usize];
        assert!(
            moved > 3 * segment,
            "{kind}: the ring moved only {moved} tickets, the test proves nothing"
        );
        assert_no_chunk_lost(&state);
    }
    for kind in virtual_kinds().filter(|k| k.is_page_based()) {
        for subgroups in [true, false] {
            let heap = heap(&gpu, kind, subgroups, TEST_HEAP);
            // 20 000 frees of one class fill ten segments of 2048 slots.
            let num = 20_000;
            let mut runner = runner(&heap, &gpu, num, 16);
            block_on(runner.run(
                &[Step::new(ALLOC, 0, num), Step::new(FREE, 0, num)],
                1,
                false,
            ))
            .unwrap();
            let full = block_on(heap.read_state(&gpu.queue)).unwrap();
            let segments = heap.layout().chunk_bytes / 4;
            assert!(
                full.queue_chunks >= num / segments,
                "{kind}: {} segments hold {num} items",
                full.queue_chunks
            );
            block_on(runner.run(&[Step::new(ALLOC, 0, num)], 1, false)).unwrap();
            let drained = block_on(heap.read_state(&gpu.queue)).unwrap();
            assert_eq!(drained.queued_pages[0], 0);
            // Only the segment the ring's head and tail now point into may remain.
            assert!(
                drained.queue_chunks <= 1,
                "{kind}: {} segments kept after draining",
                drained.queue_chunks
            );
            assert!(
                drained.pooled_chunks + 1 >= full.queue_chunks,
                "{kind}: drained segments did not reach the pool"
            );
            assert_no_chunk_lost(&drained);
        }
    }
}

/// Frees of pointers a heap never handed out are counted and flagged, and harm nothing.
#[test]
fn invalid_frees_are_flagged_and_harmless() {
    let Some(gpu) = gpu() else { return };
    for kind in AllocatorKind::ALL.into_iter().filter(|k| k.reuses_memory()) {
        invalid_frees_on(&gpu, kind);
    }
}

fn invalid_frees_on(gpu: &GpuContext, kind: AllocatorKind) {
    let heap = heap(gpu, kind, true, TEST_HEAP);
    let num = 1024;
    let mut runner = runner(&heap, &gpu, num, 64);
    block_on(runner.run(
        &[Step::new(ALLOC, 0, 512), Step::new(WRITE, 0, 512)],
        5,
        false,
    ))
    .unwrap();
    let before = block_on(heap.read_state(&gpu.queue)).unwrap();
    let layout = heap.layout();
    let unused_chunk = layout.data_base + (layout.data_chunks - 1) * layout.chunk_bytes;
    let bad: Vec<u32> = (0..512u32)
        .map(|i| match i % 4 {
            0 => 4 + 16 * i,                    // inside the metadata
            1 => layout.data_base + 64 * i + 8, // misaligned for its class
            2 => unused_chunk + 64 * (i % 128), // a chunk no class owns
            _ => layout.heap_bytes + 16 * i,    // past the heap
        })
        .collect();
    runner.write_pointers(512, &bad);
    let report = block_on(runner.run(
        &[Step::new(FREE, 512, 512), Step::new(VERIFY, 0, 512)],
        5,
        false,
    ))
    .unwrap();
    assert_eq!(report.verify_errors, 0);
    assert_eq!(report.heap.invalid_frees, 512);
    assert!(report.heap.flags & flags::INVALID_FREE != 0);
    let after = block_on(heap.read_state(&gpu.queue)).unwrap();
    assert_eq!(
        after.queued_pages, before.queued_pages,
        "{kind}: an invalid free reached a queue"
    );
    if kind.is_chunk_based() {
        // Chunk heaps keep a bit per page: a second free of the same pointers is caught too.
        let ptrs = block_on(runner.read_pointers()).unwrap();
        runner.write_pointers(512, &ptrs[..512]);
        let r = block_on(runner.run(
            &[Step::new(FREE, 0, 512), Step::new(FREE, 512, 512)],
            5,
            false,
        ))
        .unwrap();
        assert_eq!(
            r.heap.invalid_frees, 1024,
            "{kind}: double frees not all caught"
        );
        let freed = block_on(heap.read_state(&gpu.queue)).unwrap();
        assert!(
            freed.class_chunks.iter().all(|&c| c <= 1),
            "{kind}: a double free corrupted the counts: {freed:?}"
        );
    }
}

/// The unchecked opt-in builds the same kernels without wgpu's runtime checks; they still verify.
#[test]
fn unchecked_shaders_run_the_cycle() {
    let Some(gpu) = gpu() else { return };
    let heap = heap(&gpu, AllocatorKind::Page, true, TEST_HEAP);
    let mut runner = runner(&heap, &gpu, 2000, 100);
    // SAFETY: the shipped kernels on a heap built by Heap::new.
    unsafe { runner.use_unchecked_shaders() };
    assert!(runner.unchecked_shaders());
    for _ in 0..2 {
        let r = block_on(runner.run_iteration()).unwrap();
        assert_eq!((r.failed_allocs, r.verify_errors), (0, 0));
    }
}
