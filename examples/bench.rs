//! The allocator benchmark: N threads each malloc S bytes, write every word, verify every word and
//! free, K times; GPU timestamps around the alloc and free passes, host wall time beside them.
//!
//! ```text
//! cargo run --release --example bench                      # every allocator, 10 000 x 16 B, 10 iterations
//! cargo run --release --example bench -- --allocator page --num 100000 --size 1000 --iterations 10 --json
//! ```

use ouroboros_wgpu::{
    block_on, flags, AdapterRequest, AllocatorKind, CycleRunner, Error, GpuContext, Heap,
    HeapConfig, IterationReport, Workload,
};
use std::process::ExitCode;

const USAGE: &str = "usage: bench [--allocator page|chunk|va-page|va-chunk|vl-page|vl-chunk|bump] [--num N]
             [--size BYTES] [--iterations K] [--heap-mib M] [--backend vulkan|gl|metal|dx12]
             [--adapter NAME] [--json] [--no-baseline] [--no-subgroups] [--unchecked] [--usable]

Without --allocator every allocator runs. Defaults: --num 10000 --size 16 --iterations 10, a 256 MiB
heap (or the adapter's largest binding if that is smaller). Every allocator other than bump is
followed by the bump baseline on the same workload, unless --no-baseline. --json prints one JSON
object per allocator, one per line. --no-subgroups forces the subgroup-less path (as on the web).
--unchecked builds the kernels without wgpu's runtime bounds checks and loop bounding (unsafe; see
CycleRunner::use_unchecked_shaders), to measure what the checks cost; the default is checked.
--usable measures usable memory instead: on a fresh heap, one pass of threads each asking for
--size bytes (default: 16, 1000 and 8192 in turn), more than fit; the share of the heap handed out. Exit status: 0 ok, 1 verify errors or a GPU failure, 2 bad arguments.";

struct Args {
    allocators: Vec<AllocatorKind>,
    num: u32,
    size: u32,
    iterations: u32,
    heap_mib: Option<u64>,
    backend: Option<wgpu::Backends>,
    adapter: Option<String>,
    json: bool,
    baseline: bool,
    subgroups: bool,
    unchecked: bool,
    usable: bool,
    size_given: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        allocators: AllocatorKind::ALL.to_vec(),
        num: 10_000,
        size: 16,
        iterations: 10,
        heap_mib: None,
        backend: None,
        adapter: None,
        json: false,
        baseline: true,
        subgroups: true,
        unchecked: false,
        usable: false,
        size_given: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        fn number<T: std::str::FromStr>(name: &str, v: String) -> Result<T, String> {
            v.replace('_', "")
                .parse()
                .map_err(|_| format!("{name} expects a whole number, got '{v}'"))
        }
        match flag.as_str() {
            "--allocator" => {
                args.allocators = vec![value("--allocator")?.parse()?];
            }
            "--num" => args.num = number("--num", value("--num")?)?,
            "--size" => {
                args.size = number("--size", value("--size")?)?;
                args.size_given = true;
            }
            "--iterations" => args.iterations = number("--iterations", value("--iterations")?)?,
            "--heap-mib" => args.heap_mib = Some(number("--heap-mib", value("--heap-mib")?)?),
            "--backend" => {
                let v = value("--backend")?;
                args.backend = Some(match v.as_str() {
                    "vulkan" => wgpu::Backends::VULKAN,
                    "gl" => wgpu::Backends::GL,
                    "metal" => wgpu::Backends::METAL,
                    "dx12" => wgpu::Backends::DX12,
                    _ => {
                        return Err(format!(
                            "--backend expects vulkan, gl, metal or dx12, got '{v}'"
                        ))
                    }
                })
            }
            "--adapter" => args.adapter = Some(value("--adapter")?),
            "--json" => args.json = true,
            "--no-baseline" => args.baseline = false,
            "--no-subgroups" => args.subgroups = false,
            "--unchecked" => args.unchecked = true,
            "--usable" => args.usable = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    if args.num == 0 {
        return Err("--num must be at least 1".into());
    }
    if args.iterations == 0 {
        return Err("--iterations must be at least 1".into());
    }
    if args.heap_mib == Some(0) {
        return Err("--heap-mib must be at least 1".into());
    }
    Ok(args)
}

/// First iteration apart; median and mean of the rest.
#[derive(Clone, Copy, Debug, Default)]
struct Summary {
    first: Option<f64>,
    median: Option<f64>,
    mean: Option<f64>,
}

fn summarize(values: &[Option<f64>]) -> Summary {
    let first = values.first().copied().flatten();
    let mut rest: Vec<f64> = values.iter().skip(1).flatten().copied().collect();
    if rest.is_empty() {
        return Summary {
            first,
            median: None,
            mean: None,
        };
    }
    rest.sort_by(f64::total_cmp);
    let mid = rest.len() / 2;
    let median = if rest.len() % 2 == 1 {
        rest[mid]
    } else {
        (rest[mid - 1] + rest[mid]) / 2.0
    };
    let mean = rest.iter().sum::<f64>() / rest.len() as f64;
    Summary {
        first,
        median: Some(median),
        mean: Some(mean),
    }
}

struct Outcome {
    allocator: AllocatorKind,
    heap: HeapConfig,
    metadata_bytes: u32,
    alloc: Summary,
    free: Summary,
    host: Summary,
    failed_allocs: u64,
    verify_errors: u64,
    flags: u32,
    invalid_frees: u32,
    lost: u32,
    diagnostics: ouroboros_wgpu::HeapDiagnostics,
    subgroups: bool,
    /// The heap's metadata after the last iteration (read after the timed loop).
    state: Option<ouroboros_wgpu::HeapState>,
}

fn heap_bytes(gpu: &GpuContext, args: &Args) -> u64 {
    let limits = gpu.device.limits();
    let chunk = u64::from(HeapConfig::default().chunk_bytes);
    match args.heap_mib {
        Some(mib) => mib << 20,
        None => {
            let default = HeapConfig::default().heap_bytes;
            let cap = limits
                .max_storage_buffer_binding_size
                .min(limits.max_buffer_size)
                / chunk
                * chunk;
            static NOTED: std::sync::Once = std::sync::Once::new();
            if cap < default {
                NOTED.call_once(|| eprintln!(
                    "note: this adapter binds at most {cap} bytes; using a {} MiB heap instead of {} MiB",
                    cap >> 20,
                    default >> 20
                ));
            }
            default.min(cap)
        }
    }
}

/// Usable memory: one pass of more requests than fit, on a fresh heap.
fn usable(
    gpu: &GpuContext,
    allocator: AllocatorKind,
    size: u32,
    args: &Args,
) -> Result<(u64, u32, u32, f64), Error> {
    let heap_bytes = heap_bytes(gpu, args);
    let config = HeapConfig {
        use_subgroups: args.subgroups,
        ..HeapConfig::new(allocator, heap_bytes)
    };
    let heap = Heap::new(&gpu.device, config)?;
    let footprint = match allocator {
        AllocatorKind::Bump => size.div_ceil(16) * 16,
        _ => size.max(16).next_power_of_two(),
    };
    let num =
        (heap_bytes / u64::from(footprint) + heap_bytes / u64::from(footprint) / 20 + 1024) as u32;
    let mut runner = CycleRunner::new(
        &heap,
        &gpu.queue,
        Workload {
            num,
            size_bytes: size,
        },
    )?;
    let steps = [ouroboros_wgpu::Step::new(
        ouroboros_wgpu::CycleKernel::Alloc,
        0,
        num,
    )];
    let report = block_on(runner.run(&steps, 1, false))?;
    let granted = num - report.null_allocs;
    let share = f64::from(granted) * f64::from(footprint) / heap_bytes as f64;
    Ok((heap_bytes, num, granted, share))
}

fn run(gpu: &GpuContext, allocator: AllocatorKind, args: &Args) -> Result<Outcome, Error> {
    let heap_bytes = heap_bytes(gpu, args);
    let config = HeapConfig {
        use_subgroups: args.subgroups,
        ..HeapConfig::new(allocator, heap_bytes)
    };
    let heap = Heap::new(&gpu.device, config.clone())?;
    let mut runner = CycleRunner::new(
        &heap,
        &gpu.queue,
        Workload {
            num: args.num,
            size_bytes: args.size,
        },
    )?;
    if args.unchecked {
        // SAFETY: the shipped kernels on a heap built by Heap::new (see use_unchecked_shaders).
        unsafe { runner.use_unchecked_shaders() };
    }
    let mut reports: Vec<IterationReport> = Vec::new();
    for _ in 0..args.iterations {
        reports.push(block_on(runner.run_iteration())?);
    }
    let last = reports.last().expect("at least one iteration").heap;
    Ok(Outcome {
        allocator,
        metadata_bytes: heap.layout().metadata_bytes(),
        heap: config,
        alloc: summarize(&reports.iter().map(|r| r.alloc_ms).collect::<Vec<_>>()),
        free: summarize(&reports.iter().map(|r| r.free_ms).collect::<Vec<_>>()),
        host: summarize(&reports.iter().map(|r| r.host_ms).collect::<Vec<_>>()),
        failed_allocs: reports.iter().map(|r| u64::from(r.failed_allocs)).sum(),
        verify_errors: reports.iter().map(|r| u64::from(r.verify_errors)).sum(),
        flags: last.flags,
        invalid_frees: last.invalid_frees,
        lost: last.lost,
        diagnostics: last.diagnostics,
        subgroups: heap.layout().subgroups,
        state: block_on(heap.read_state(&gpu.queue)).ok(),
    })
}

fn json_num(v: Option<f64>) -> String {
    v.map_or("null".into(), |x| format!("{x:.6}"))
}

fn json_summary(s: &Summary) -> String {
    format!(
        "{{\"first\":{},\"subsequent_median\":{},\"subsequent_mean\":{}}}",
        json_num(s.first),
        json_num(s.median),
        json_num(s.mean)
    )
}

fn json_escape(s: &str) -> String {
    s.chars()
        .flat_map(|c| match c {
            '"' => "\\\"".chars().collect::<Vec<_>>(),
            '\\' => "\\\\".chars().collect(),
            c if (c as u32) < 0x20 => format!("\\u{:04x}", c as u32).chars().collect(),
            c => vec![c],
        })
        .collect()
}

fn to_json(
    o: &Outcome,
    baseline: Option<&Outcome>,
    args: &Args,
    info: &wgpu::AdapterInfo,
    timestamps: bool,
) -> String {
    let flag_names: Vec<String> = flags::names(o.flags)
        .iter()
        .map(|n| format!("\"{n}\""))
        .collect();
    let mut s = format!(
        "{{\"allocator\":\"{}\",\"num\":{},\"size\":{},\"iterations\":{},\
\"adapter\":{{\"name\":\"{}\",\"backend\":\"{}\",\"driver\":\"{}\"}},\
\"heap_bytes\":{},\"chunk_bytes\":{},\"metadata_bytes\":{},\
\"alloc_ms\":{},\"free_ms\":{},\"host_ms\":{{\"first\":{},\"subsequent_median\":{}}},\
\"failed_allocs\":{},\"verify_errors\":{},\"invalid_frees\":{},\"lost\":{},\"flags\":[{}],\"timestamps\":{},\"subgroups\":{},\"unchecked\":{}",
        o.allocator,
        args.num,
        args.size,
        args.iterations,
        json_escape(&info.name),
        info.backend.to_str(),
        json_escape(&info.driver_info),
        o.heap.heap_bytes,
        o.heap.chunk_bytes,
        o.metadata_bytes,
        json_summary(&o.alloc),
        json_summary(&o.free),
        json_num(o.host.first),
        json_num(o.host.median),
        o.failed_allocs,
        o.verify_errors,
        o.invalid_frees,
        o.lost,
        flag_names.join(","),
        timestamps,
        o.subgroups,
        args.unchecked
    );
    let d = &o.diagnostics;
    s += &format!(
        ",\"diagnostics\":{{\"dequeue_give_ups\":{},\"dead_entries\":{},\"forwarded_chunks\":{},\"returned_chunks\":{},\"queue_failures\":{},\"claim_misses\":{},\"data_spent\":{},\"spilled\":{}}}",
        d.dequeue_give_ups, d.dead_entries, d.forwarded_chunks, d.returned_chunks, d.queue_failures, d.claim_misses, d.data_spent, d.spilled
    );
    if let Some(st) = &o.state {
        s += &format!(
            ",\"heap_state\":{{\"chunks_taken\":{},\"pooled_chunks\":{},\"pooled_dirty_chunks\":{},\"queue_chunks\":{},\"class_chunks\":{:?},\"queued\":{:?}}}",
            st.counters.chunks_taken, st.pooled_chunks, st.pooled_dirty_chunks, st.queue_chunks, st.class_chunks, st.queued_pages
        );
    }
    if let Some(b) = baseline {
        s += &format!(
            ",\"baseline\":{{\"allocator\":\"bump\",\"alloc_ms\":{},\"free_ms\":{},\"host_ms\":{{\"first\":{},\"subsequent_median\":{}}}}}",
            json_summary(&b.alloc),
            json_summary(&b.free),
            json_num(b.host.first),
            json_num(b.host.median)
        );
    }
    s + "}"
}

fn ms(v: Option<f64>) -> String {
    v.map_or("-".into(), |x| format!("{x:.4}"))
}

fn main() -> ExitCode {
    env_logger::init();
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("bench: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let request = AdapterRequest {
        backends: args.backend,
        name_contains: args.adapter.clone(),
    };
    let gpu = match block_on(GpuContext::new(&request)) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("bench: {e}");
            return ExitCode::from(1);
        }
    };
    let info = gpu.adapter.get_info();
    let timestamps = gpu.has_timestamps();
    if args.usable {
        let sizes = if args.size_given {
            vec![args.size]
        } else {
            vec![16, 1000, 8192]
        };
        if !args.json {
            println!("adapter: {} ({:?}); usable memory: share of the heap handed out (page or class footprint) before nulls", info.name, info.backend);
            println!(
                "{:<9} {:>6} {:>12} {:>10} {:>10} {:>8}",
                "allocator", "size", "heap bytes", "asked", "granted", "usable"
            );
        }
        for &allocator in &args.allocators {
            for &size in &sizes {
                match usable(&gpu, allocator, size, &args) {
                    Ok((heap, asked, granted, share)) => {
                        if args.json {
                            println!(
                                "{{\"allocator\":\"{allocator}\",\"size\":{size},\"heap_bytes\":{heap},\"asked\":{asked},\"granted\":{granted},\"usable\":{share:.6},\"adapter\":{{\"name\":\"{}\",\"backend\":\"{}\"}}}}",
                                json_escape(&info.name),
                                info.backend.to_str()
                            );
                        } else {
                            println!(
                                "{:<9} {:>6} {:>12} {:>10} {:>10} {:>7.2}%",
                                allocator.name(),
                                size,
                                heap,
                                asked,
                                granted,
                                share * 100.0
                            );
                        }
                    }
                    Err(e) => {
                        eprintln!("bench: {allocator}: {e}");
                        return ExitCode::from(1);
                    }
                }
            }
        }
        return ExitCode::SUCCESS;
    }
    if !args.json {
        println!(
            "adapter: {} ({:?}, {}), device timestamps: {}",
            info.name,
            info.backend,
            info.driver_info,
            if timestamps {
                "yes"
            } else {
                "no (device columns empty)"
            }
        );
        println!(
            "workload: {} allocations of {} B, {} iterations; times in ms; 'first' is iteration 0, 'median' the median of the rest{}",
            args.num,
            args.size,
            args.iterations,
            if args.unchecked { "; kernels without runtime checks (--unchecked)" } else { "" }
        );
        println!(
            "{:<9} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11} {:>8} {:>8}  flags",
            "allocator",
            "alloc first",
            "alloc med",
            "free first",
            "free med",
            "host first",
            "host med",
            "nulls",
            "verify"
        );
    }
    let mut verify_failed = false;
    let mut bump_cache: Option<Outcome> = None;
    for &allocator in &args.allocators {
        let outcome = match run(&gpu, allocator, &args) {
            Ok(o) => o,
            Err(e) => {
                eprintln!("bench: {allocator}: {e}");
                let bad_input = matches!(
                    e,
                    Error::AdapterLimit { .. }
                        | Error::HeapTooSmall { .. }
                        | Error::HeapTooLarge(_)
                        | Error::HeapNotChunkMultiple { .. }
                        | Error::Workload(_)
                );
                return ExitCode::from(if bad_input { 2 } else { 1 });
            }
        };
        verify_failed |= outcome.verify_errors > 0;
        let baseline = if allocator != AllocatorKind::Bump && args.baseline {
            if bump_cache.is_none() {
                match run(&gpu, AllocatorKind::Bump, &args) {
                    Ok(b) => bump_cache = Some(b),
                    Err(e) => eprintln!("bench: bump baseline: {e}"),
                }
            }
            bump_cache.as_ref()
        } else {
            None
        };
        if args.json {
            println!("{}", to_json(&outcome, baseline, &args, &info, timestamps));
        } else {
            println!(
                "{:<9} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11} {:>8} {:>8}  {}",
                outcome.allocator.name(),
                ms(outcome.alloc.first),
                ms(outcome.alloc.median),
                ms(outcome.free.first),
                ms(outcome.free.median),
                ms(outcome.host.first),
                ms(outcome.host.median),
                outcome.failed_allocs,
                outcome.verify_errors,
                flags::names(outcome.flags).join(",")
            );
        }
    }
    if verify_failed {
        eprintln!("bench: verify errors: some allocation's contents did not survive");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
