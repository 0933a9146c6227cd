//! Every shader parses and validates with naga and translates to SPIR-V, MSL and HLSL, without an
//! adapter, for every allocator and a spread of layouts.

use ouroboros_wgpu::shader::{allocator_wgsl, cycle_kernel_wgsl};
use ouroboros_wgpu::{AllocatorKind, CycleKernel, HeapConfig, HeapLayout};

fn check(name: &str, source: &str, entry_points: bool) {
    let module = naga::front::wgsl::parse_str(source).unwrap_or_else(|e| {
        panic!("{name}: WGSL does not parse:\n{}", e.emit_to_string(source));
    });
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .unwrap_or_else(|e| {
        panic!(
            "{name}: WGSL does not validate:\n{}",
            e.emit_to_string(source)
        )
    });
    if !entry_points {
        return;
    }
    naga::back::spv::write_vec(&module, &info, &naga::back::spv::Options::default(), None)
        .unwrap_or_else(|e| panic!("{name}: SPIR-V: {e}"));
    let pipeline = naga::back::msl::PipelineOptions::default();
    let mut msl_options = naga::back::msl::Options::default();
    msl_options.fake_missing_bindings = true;
    naga::back::msl::write_string(&module, &info, &msl_options, &pipeline)
        .unwrap_or_else(|e| panic!("{name}: MSL: {e}"));
    let mut hlsl = String::new();
    let (hlsl_options, hlsl_pipeline) = (naga::back::hlsl::Options::default(), Default::default());
    let mut writer = naga::back::hlsl::Writer::new(&mut hlsl, &hlsl_options, &hlsl_pipeline);
    writer
        .write(&module, &info, None)
        .unwrap_or_else(|e| panic!("{name}: HLSL: {e}"));
}

fn configs() -> Vec<HeapConfig> {
    let mut out = Vec::new();
    for allocator in AllocatorKind::ALL {
        for (heap_bytes, chunk_bytes) in
            [(256u64 << 20, 8192u32), (8 << 20, 1024), (64 << 20, 65536)]
        {
            for use_subgroups in [true, false] {
                out.push(HeapConfig {
                    allocator,
                    heap_bytes,
                    chunk_bytes,
                    use_subgroups,
                    ..HeapConfig::default()
                });
            }
        }
    }
    out
}

#[test]
fn every_kernel_validates_and_translates() {
    for config in configs() {
        let layout = HeapLayout::new(&config).expect("valid config");
        for kernel in CycleKernel::ALL {
            let name = format!(
                "{} {} (heap {} B, chunk {} B, subgroups {})",
                config.allocator,
                kernel.name(),
                config.heap_bytes,
                config.chunk_bytes,
                config.use_subgroups
            );
            check(&name, &cycle_kernel_wgsl(&layout, kernel), true);
        }
    }
}

#[test]
fn allocator_alone_validates_at_any_binding() {
    for config in configs() {
        let layout = HeapLayout::new(&config).expect("valid config");
        check(
            &format!("{} allocator", config.allocator),
            &allocator_wgsl(&layout, 3, 7),
            false,
        );
    }
}

#[test]
fn a_broken_shader_is_reported_with_its_line() {
    // The harness above must be able to fail: a typo in the allocator is caught with a location.
    let layout = HeapLayout::new(&HeapConfig::default()).unwrap();
    let broken = allocator_wgsl(&layout, 0, 0).replace(
        "fn ouro_free(ptr: u32)",
        "fn ouro_free(ptr: u32) { let x: u32 = missing_name; }\nfn unused(ptr: u32)",
    );
    let err = naga::front::wgsl::parse_str(&broken).expect_err("must not parse");
    let text = err.emit_to_string(&broken);
    assert!(text.contains("missing_name"), "{text}");
}
