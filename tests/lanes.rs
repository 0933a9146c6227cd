//! How lanes of one subgroup share the allocator: neighbours asking for different size classes,
//! only some lanes active (a divergent branch), and some lanes freeing while others allocate, all
//! in one dispatch. A kernel of this file's own, written against the allocator's WGSL, runs on the
//! real adapter; the host checks every pointer and the kernel checks every word.

mod common;

use common::{gpu, TEST_HEAP};
use ouroboros_wgpu::gpu::read_buffer;
use ouroboros_wgpu::shader::allocator_wgsl;
use ouroboros_wgpu::{block_on, AllocatorKind, GpuContext, Heap, HeapConfig};

const LANES: u32 = 1536;
const WORKGROUP: u32 = 64;

/// Phase 0: lanes with `i % 3 != 1` allocate (the others return early, so the allocator runs in
/// a divergent branch) and fill their allocation. Phase 1: even lanes free theirs while odd lanes
/// without one allocate and fill. Phase 2: every lane holding an allocation checks every word.
/// Phase 3: every lane frees what it holds.
const KERNEL: &str = r#"
@group(1) @binding(0) var<storage, read_write> lane_ptrs: array<u32>;
@group(1) @binding(1) var<storage, read> lane_sizes: array<u32>;
// [0] nulls, [1] words that did not verify
@group(1) @binding(2) var<storage, read_write> lane_counts: array<atomic<u32>, 2>;
@group(1) @binding(3) var<uniform> lane_phase: vec4<u32>;

fn lane_pattern(i: u32, w: u32) -> u32 {
    return (i * 2654435761u) ^ (w * 40503u) ^ 0x5bd1e995u;
}

fn lane_fill(i: u32, ptr: u32) {
    for (var w = 0u; w < (lane_sizes[i] + 3u) / 4u; w++) {
        atomicStore(&ouro_heap[ptr / 4u + w], lane_pattern(i, w));
    }
}

fn lane_alloc(i: u32) {
    let ptr = ouro_malloc(lane_sizes[i]);
    lane_ptrs[i] = ptr;
    if (ptr == OURO_NULL) {
        atomicAdd(&lane_counts[0], 1u);
        return;
    }
    lane_fill(i, ptr);
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i >= arrayLength(&lane_ptrs)) {
        return;
    }
    let phase = lane_phase.x;
    if (phase == 0u) {
        if (i % 3u == 1u) {
            return;
        }
        lane_alloc(i);
    } else if (phase == 1u) {
        if (i % 2u == 0u) {
            ouro_free(lane_ptrs[i]);
            lane_ptrs[i] = OURO_NULL;
        } else if (lane_ptrs[i] == OURO_NULL) {
            lane_alloc(i);
        }
    } else if (phase == 2u) {
        let ptr = lane_ptrs[i];
        if (ptr != OURO_NULL) {
            for (var w = 0u; w < (lane_sizes[i] + 3u) / 4u; w++) {
                if (atomicLoad(&ouro_heap[ptr / 4u + w]) != lane_pattern(i, w)) {
                    atomicAdd(&lane_counts[1], 1u);
                }
            }
        }
    } else {
        ouro_free(lane_ptrs[i]);
        lane_ptrs[i] = OURO_NULL;
    }
}
"#;

/// Sizes that put neighbouring lanes in different classes, not all powers of two.
fn lane_size(i: u32) -> u32 {
    let class = (i * 7) % 10;
    let page = 16u32 << class;
    if i % 4 == 3 {
        page - page / 4
    } else {
        page
    }
}

struct Outcome {
    /// Pointers after phase 1 (lanes of phase 2's check).
    held: Vec<u32>,
    nulls: u32,
    bad_words: u32,
}

fn run(gpu: &GpuContext, heap: &Heap) -> Outcome {
    let device = &gpu.device;
    let source = allocator_wgsl(heap.layout(), 0, 0) + KERNEL;
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("lanes"),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    });
    let entry = |binding, ty| wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty,
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    };
    let storage = |read_only| wgpu::BufferBindingType::Storage { read_only };
    let lanes_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("lanes"),
        entries: &[
            entry(0, storage(false)),
            entry(1, storage(true)),
            entry(2, storage(false)),
            entry(3, wgpu::BufferBindingType::Uniform),
        ],
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("lanes"),
        bind_group_layouts: &[Some(heap.bind_group_layout()), Some(&lanes_layout)],
        immediate_size: 0,
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("lanes"),
        layout: Some(&pipeline_layout),
        module: &module,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    });
    let buffer = |label, size: u64, usage| {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size,
            usage,
            mapped_at_creation: false,
        })
    };
    use wgpu::BufferUsages as U;
    let ptrs = buffer(
        "lane_ptrs",
        u64::from(LANES) * 4,
        U::STORAGE | U::COPY_SRC | U::COPY_DST,
    );
    let sizes = buffer("lane_sizes", u64::from(LANES) * 4, U::STORAGE | U::COPY_DST);
    let counts = buffer("lane_counts", 8, U::STORAGE | U::COPY_SRC | U::COPY_DST);
    let sizes_host: Vec<u32> = (0..LANES).map(lane_size).collect();
    gpu.queue
        .write_buffer(&sizes, 0, bytemuck::cast_slice(&sizes_host));
    gpu.queue
        .write_buffer(&ptrs, 0, &vec![0u8; LANES as usize * 4]);
    gpu.queue.write_buffer(&counts, 0, &[0u8; 8]);
    let held_copy = buffer("held", u64::from(LANES) * 4, U::COPY_SRC | U::COPY_DST);
    let mut encoder = device.create_command_encoder(&Default::default());
    for phase in 0..4u32 {
        let uniform = buffer("lane_phase", 16, U::UNIFORM | U::COPY_DST);
        gpu.queue
            .write_buffer(&uniform, 0, bytemuck::cast_slice(&[phase, 0, 0, 0]));
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("lanes"),
            layout: &lanes_layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: ptrs.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: sizes.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: counts.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: uniform.as_entire_binding(),
                },
            ],
        });
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, heap.bind_group(), &[]);
        pass.set_bind_group(1, &group, &[]);
        pass.dispatch_workgroups(LANES.div_ceil(WORKGROUP), 1, 1);
        drop(pass);
        if phase == 2 {
            encoder.copy_buffer_to_buffer(&ptrs, 0, &held_copy, 0, u64::from(LANES) * 4);
        }
    }
    let staging = buffer(
        "staging",
        u64::from(LANES) * 4 + 8,
        U::MAP_READ | U::COPY_DST,
    );
    encoder.copy_buffer_to_buffer(&held_copy, 0, &staging, 0, u64::from(LANES) * 4);
    encoder.copy_buffer_to_buffer(&counts, 0, &staging, u64::from(LANES) * 4, 8);
    gpu.queue.submit([encoder.finish()]);
    let bytes =
        block_on(read_buffer(device, &staging, u64::from(LANES) * 4 + 8)).expect("readback");
    let words: &[u32] = bytemuck::cast_slice(&bytes);
    Outcome {
        held: words[..LANES as usize].to_vec(),
        nulls: words[LANES as usize],
        bad_words: words[LANES as usize + 1],
    }
}

fn check(kind: AllocatorKind, subgroups: bool) {
    let Some(gpu) = gpu() else { return };
    let config = HeapConfig {
        use_subgroups: subgroups,
        ..HeapConfig::new(kind, TEST_HEAP)
    };
    let heap = Heap::new(&gpu.device, config).expect("heap");
    if subgroups && !heap.layout().subgroups {
        eprintln!("skipped: this adapter has no subgroups");
        return;
    }
    let before = block_on(heap.read_state(&gpu.queue)).unwrap();
    let out = run(&gpu, &heap);
    let label = format!("{kind}, subgroups {subgroups}");
    assert_eq!(
        (out.nulls, out.bad_words),
        (0, 0),
        "{label}: nulls, words that did not verify"
    );
    // After phase 1: odd lanes hold one allocation each (kept from phase 0 or made in phase 1),
    // even lanes none.
    let mut live = Vec::new();
    for (i, &ptr) in out.held.iter().enumerate() {
        if i % 2 == 0 {
            assert_eq!(
                ptr, 0,
                "{label}: lane {i} freed its allocation but still holds it"
            );
            continue;
        }
        let footprint = lane_size(i as u32).next_power_of_two();
        assert_ne!(ptr, 0, "{label}: lane {i} holds nothing");
        assert_eq!(
            ptr % footprint,
            0,
            "{label}: lane {i}'s pointer {ptr} is not aligned to {footprint}"
        );
        live.push((ptr, ptr + footprint, i));
    }
    live.sort();
    for pair in live.windows(2) {
        assert!(
            pair[0].1 <= pair[1].0,
            "{label}: lanes {} and {} overlap",
            pair[0].2,
            pair[1].2
        );
    }
    // Everything was freed in phase 3: the heap reports no failure and nothing held.
    let after = block_on(heap.read_state(&gpu.queue)).unwrap();
    let c = after.counters;
    assert_eq!(
        (c.flags, c.failed_allocs, c.invalid_frees, c.lost),
        (0, 0, 0, 0),
        "{label}: {c:?}"
    );
    if kind.is_chunk_based() {
        assert!(
            after.class_chunks.iter().all(|&n| n <= 1),
            "{label}: chunks still held: {:?}",
            after.class_chunks
        );
    } else {
        let queued: u32 = after.queued_pages.iter().sum();
        let carved: u32 = after.carved_pages.iter().sum();
        assert_eq!(queued, carved, "{label}: pages carved but not queued again");
    }
    assert_eq!(before.counters.lost, 0);
}

macro_rules! lane_tests {
    ($($name:ident => ($kind:expr, $subgroups:expr),)*) => {
        $(
            #[test]
            fn $name() {
                check($kind, $subgroups);
            }
        )*
    };
}

// The lane logic lives in the heap files (page or chunk) and the lanes files; the queue storage
// (standard, va, vl) only places slots. So both heaps run on both paths, and the page heap on the
// two virtualized storages too. va-chunk and vl-chunk, whose one-kernel form here takes lavapipe
// minutes to compile, are covered on both paths by tests/heap.rs.
lane_tests!(
    page => (AllocatorKind::Page, true),
    page_no_subgroups => (AllocatorKind::Page, false),
    chunk => (AllocatorKind::Chunk, true),
    chunk_no_subgroups => (AllocatorKind::Chunk, false),
    va_page => (AllocatorKind::VaPage, true),
    vl_page => (AllocatorKind::VlPage, true),
);
