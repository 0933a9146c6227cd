//! Every bad configuration or workload gives its own Error variant, with a message that says what
//! to change.

mod common;

use ouroboros_wgpu::{AllocatorKind, CycleRunner, Error, Heap, HeapConfig, Workload};

fn config(f: impl FnOnce(&mut HeapConfig)) -> HeapConfig {
    let mut c = HeapConfig::default();
    f(&mut c);
    c
}

#[test]
fn default_config_is_valid() {
    HeapConfig::default().validate().unwrap();
    for kind in AllocatorKind::ALL {
        HeapConfig::new(kind, 1 << 20).validate().unwrap();
    }
}

#[test]
fn bad_configs_name_what_to_change() {
    let cases: Vec<(HeapConfig, fn(&Error) -> bool, &str)> = vec![
        (
            config(|c| c.chunk_bytes = 1000),
            |e| matches!(e, Error::ChunkSize(1000)),
            "power of two",
        ),
        (
            config(|c| c.chunk_bytes = 128),
            |e| matches!(e, Error::ChunkSize(128)),
            "8192",
        ),
        (
            config(|c| c.heap_bytes = (1 << 20) + 100),
            |e| matches!(e, Error::HeapNotChunkMultiple { .. }),
            "multiple of 8192",
        ),
        (
            config(|c| c.heap_bytes = 8 << 30),
            |e| matches!(e, Error::HeapTooLarge(_)),
            "at most",
        ),
        (
            config(|c| c.heap_bytes = 8192),
            |e| matches!(e, Error::HeapTooSmall { .. }),
            "at least",
        ),
        (
            config(|c| c.heap_bytes = 0),
            |e| matches!(e, Error::HeapTooSmall { .. }),
            "at least",
        ),
        (
            config(|c| c.queue_slots_per_chunk = 3),
            |e| matches!(e, Error::QueueSlots(3)),
            "power of two",
        ),
    ];
    for (cfg, is_variant, hint) in cases {
        let err = cfg
            .validate()
            .expect_err(&format!("{cfg:?} must be rejected"));
        assert!(is_variant(&err), "{cfg:?} gave {err:?}");
        let message = err.to_string();
        assert!(
            message.contains(hint),
            "message '{message}' does not say '{hint}'"
        );
    }
}

#[test]
fn a_heap_above_the_adapter_limit_names_the_limit() {
    let Some(gpu) = common::gpu() else { return };
    let limit = gpu.device.limits().max_storage_buffer_binding_size;
    let too_big = (limit / 8192 + 1) * 8192;
    if too_big > u64::from(u32::MAX) {
        eprintln!("skipped: this adapter binds more than 32-bit pointers reach");
        return;
    }
    let Err(err) = Heap::new(
        &gpu.device,
        HeapConfig {
            heap_bytes: too_big,
            ..Default::default()
        },
    ) else {
        panic!("a heap of {too_big} bytes must not fit a {limit}-byte binding");
    };
    assert!(
        matches!(
            err,
            Error::AdapterLimit {
                limit_name: "max_storage_buffer_binding_size",
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains(&limit.to_string()));
}

#[test]
fn bad_workloads_are_errors() {
    let Some(gpu) = common::gpu() else { return };
    let heap = Heap::new(&gpu.device, HeapConfig::new(AllocatorKind::Page, 1 << 20)).unwrap();
    let Err(err) = CycleRunner::new(
        &heap,
        &gpu.queue,
        Workload {
            num: 0,
            size_bytes: 16,
        },
    ) else {
        panic!("num = 0 must be rejected");
    };
    assert!(matches!(err, Error::Workload(_)));
}

#[test]
fn allocator_names_parse() {
    for kind in AllocatorKind::ALL {
        assert_eq!(kind.name().parse::<AllocatorKind>().unwrap(), kind);
    }
    let err = "slab".parse::<AllocatorKind>().unwrap_err();
    assert!(err.contains("page"), "{err}");
}
