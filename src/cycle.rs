//! The alloc -> write -> verify -> free cycle that tests and the bench drive: N threads, one
//! allocation of S bytes each. Every run is one command encoder, one submit and one wait; GPU
//! timestamps bracket each pass where the device offers them.

use crate::error::{Error, Result};
use crate::heap::{Heap, HeapCounters};
use crate::layout::{header, HEADER_WORDS};
use crate::shader::{cycle_kernel_wgsl, CycleKernel};
use crate::AllocatorKind;

/// Threads per workgroup of the cycle kernels (twin of `CYCLE_WORKGROUP` in WGSL).
const WORKGROUP: u32 = 256;
/// Most passes one run may hold.
pub const MAX_STEPS: usize = 16;
/// Uniform offsets must be aligned to this for dynamic offsets.
const PARAMS_STRIDE: u64 = 256;
const COUNTERS_BYTES: u64 = 16;
const HEADER_BYTES: u64 = HEADER_WORDS as u64 * 4;
const TIMESTAMP_OFFSET: u64 = COUNTERS_BYTES + HEADER_BYTES;
const STAGING_BYTES: u64 = TIMESTAMP_OFFSET + 2 * 8 * MAX_STEPS as u64;

/// Twin of `PassParams` in shaders/shared/cycle_bindings.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
struct PassParams {
    first: u32,
    count: u32,
    size_bytes: u32,
    salt: u32,
}

/// N allocations of S bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Workload {
    pub num: u32,
    pub size_bytes: u32,
}

/// One pass of a run: a kernel over the threads `first .. first + count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub kernel: CycleKernel,
    pub first: u32,
    pub count: u32,
}

impl Step {
    pub fn new(kernel: CycleKernel, first: u32, count: u32) -> Step {
        Step {
            kernel,
            first,
            count,
        }
    }
}

/// What one run measured and found.
#[derive(Clone, Debug, Default)]
pub struct RunReport {
    /// Device time of each step in milliseconds (None without timestamp queries).
    pub step_ms: Vec<Option<f64>>,
    /// Host wall time from encoding to results in hand (includes submission and readback, and
    /// pipeline creation on a runner's first run). None where the platform has no clock.
    pub host_ms: Option<f64>,
    /// Allocations that came back null in this run's alloc passes.
    pub null_allocs: u32,
    /// Allocations whose content or placement did not verify in this run's verify passes.
    pub verify_errors: u32,
    /// The heap's header counters after the run.
    pub heap: HeapCounters,
}

impl RunReport {
    /// Device time of the first step that ran `kernel`.
    pub fn kernel_ms(&self, steps: &[Step], kernel: CycleKernel) -> Option<f64> {
        steps
            .iter()
            .position(|s| s.kernel == kernel)
            .and_then(|i| self.step_ms[i])
    }
}

/// Drives cycles on one heap for one workload.
pub struct CycleRunner<'h> {
    heap: &'h Heap,
    queue: wgpu::Queue,
    workload: Workload,
    pipelines: Option<Vec<wgpu::ComputePipeline>>,
    cycle_layout: wgpu::BindGroupLayout,
    cycle_group: wgpu::BindGroup,
    ptrs: wgpu::Buffer,
    params: wgpu::Buffer,
    counters: wgpu::Buffer,
    staging: wgpu::Buffer,
    timestamps: Option<(wgpu::QuerySet, wgpu::Buffer)>,
    iteration: u32,
    /// Kernels built without wgpu's runtime checks (see [`CycleRunner::use_unchecked_shaders`]).
    unchecked: bool,
}

impl<'h> CycleRunner<'h> {
    /// Prepares buffers for `workload` on `heap`. Pipelines are created on the first run, so that
    /// the first run's host time holds pipeline creation as a user would see it.
    pub fn new(heap: &'h Heap, queue: &wgpu::Queue, workload: Workload) -> Result<CycleRunner<'h>> {
        let device = heap.device();
        if workload.num == 0 {
            return Err(Error::Workload("num must be at least 1".into()));
        }
        let max_groups = u64::from(device.limits().max_compute_workgroups_per_dimension);
        if u64::from(workload.num) > max_groups * max_groups * u64::from(WORKGROUP) {
            return Err(Error::Workload(format!(
                "num = {} is more threads than one dispatch can hold",
                workload.num
            )));
        }
        let ptr_bytes = u64::from(workload.num) * 4;
        if ptr_bytes > device.limits().max_storage_buffer_binding_size {
            return Err(Error::Workload(format!(
                "num = {} needs {ptr_bytes} bytes of pointers, above this adapter's max_storage_buffer_binding_size",
                workload.num
            )));
        }
        let storage = |binding, read_only| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        };
        let cycle_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("cycle"),
            entries: &[
                storage(0, false),
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::COMPUTE,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: true,
                        min_binding_size: wgpu::BufferSize::new(
                            std::mem::size_of::<PassParams>() as u64
                        ),
                    },
                    count: None,
                },
                storage(2, false),
            ],
        });
        let buffer = |label, size, usage| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage,
                mapped_at_creation: false,
            })
        };
        use wgpu::BufferUsages as U;
        let ptrs = buffer(
            "cycle pointers",
            ptr_bytes,
            U::STORAGE | U::COPY_SRC | U::COPY_DST,
        );
        let params = buffer(
            "cycle params",
            PARAMS_STRIDE * MAX_STEPS as u64,
            U::UNIFORM | U::COPY_DST,
        );
        let counters = buffer(
            "cycle counters",
            COUNTERS_BYTES,
            U::STORAGE | U::COPY_SRC | U::COPY_DST,
        );
        let staging = buffer("cycle staging", STAGING_BYTES, U::MAP_READ | U::COPY_DST);
        let cycle_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("cycle"),
            layout: &cycle_layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: ptrs.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: &params,
                        offset: 0,
                        size: wgpu::BufferSize::new(std::mem::size_of::<PassParams>() as u64),
                    }),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: counters.as_entire_binding(),
                },
            ],
        });
        let timestamps = device
            .features()
            .contains(wgpu::Features::TIMESTAMP_QUERY)
            .then(|| {
                let set = device.create_query_set(&wgpu::QuerySetDescriptor {
                    label: Some("cycle timestamps"),
                    ty: wgpu::QueryType::Timestamp,
                    count: 2 * MAX_STEPS as u32,
                });
                let resolve = buffer(
                    "cycle timestamps",
                    16 * MAX_STEPS as u64,
                    U::QUERY_RESOLVE | U::COPY_SRC,
                );
                (set, resolve)
            });
        Ok(CycleRunner {
            heap,
            queue: queue.clone(),
            workload,
            pipelines: None,
            cycle_layout,
            cycle_group,
            ptrs,
            params,
            counters,
            staging,
            timestamps,
            iteration: 0,
            unchecked: false,
        })
    }

    pub fn workload(&self) -> Workload {
        self.workload
    }

    /// Whether runs report device times.
    pub fn has_timestamps(&self) -> bool {
        self.timestamps.is_some()
    }

    /// Builds this runner's kernels without wgpu's runtime checks: no bounds checks on buffer
    /// indexing and no forced loop bounding (`create_shader_module_trusted` with
    /// `ShaderRuntimeChecks::unchecked()`). Opt-in, for measuring what the checks cost; the default
    /// stays checked. Takes effect at the next run (pipelines are rebuilt).
    ///
    /// # Safety
    ///
    /// An out-of-bounds index in an unchecked shader is undefined behaviour on the device. The
    /// shipped shaders index the heap only through its layout and bound every loop, so they stay in
    /// bounds on a heap built by [`Heap::new`]; the caller vouches for that, and must not use this
    /// with a heap buffer or layout changed by other means.
    pub unsafe fn use_unchecked_shaders(&mut self) {
        self.unchecked = true;
        self.pipelines = None;
    }

    /// Whether the kernels are built without runtime checks.
    pub fn unchecked_shaders(&self) -> bool {
        self.unchecked
    }

    fn ensure_pipelines(&mut self) {
        if self.pipelines.is_some() {
            return;
        }
        let device = self.heap.device();
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("cycle"),
            bind_group_layouts: &[
                Some(self.heap.bind_group_layout()),
                Some(&self.cycle_layout),
            ],
            immediate_size: 0,
        });
        let pipelines = CycleKernel::ALL
            .iter()
            .map(|&kernel| {
                let source = cycle_kernel_wgsl(self.heap.layout(), kernel);
                let desc = wgpu::ShaderModuleDescriptor {
                    label: Some(kernel.name()),
                    source: wgpu::ShaderSource::Wgsl(source.into()),
                };
                let module = if self.unchecked {
                    // SAFETY: the caller of use_unchecked_shaders vouched for the shaders and heap.
                    unsafe {
                        device.create_shader_module_trusted(
                            desc,
                            wgpu::ShaderRuntimeChecks::unchecked(),
                        )
                    }
                } else {
                    device.create_shader_module(desc)
                };
                device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(kernel.name()),
                    layout: Some(&layout),
                    module: &module,
                    entry_point: Some("main"),
                    compilation_options: Default::default(),
                    cache: None,
                })
            })
            .collect();
        self.pipelines = Some(pipelines);
    }

    fn dispatch_size(&self, count: u32) -> (u32, u32) {
        let groups = count.div_ceil(WORKGROUP);
        let max = self
            .heap
            .device()
            .limits()
            .max_compute_workgroups_per_dimension;
        if groups <= max {
            (groups, 1)
        } else {
            (max, groups.div_ceil(max))
        }
    }

    /// Runs `steps` in one submit with `salt` mixed into the written pattern, waits once, and
    /// reports. With `reset_bump`, the bump allocator's pointer is zeroed first.
    pub async fn run(&mut self, steps: &[Step], salt: u32, reset_bump: bool) -> Result<RunReport> {
        if steps.is_empty() || steps.len() > MAX_STEPS {
            return Err(Error::Workload(format!(
                "a run holds 1 to {MAX_STEPS} steps, not {}",
                steps.len()
            )));
        }
        for s in steps {
            if u64::from(s.first) + u64::from(s.count) > u64::from(self.workload.num) {
                return Err(Error::Workload(format!(
                    "step {:?} reaches past the workload's {} threads",
                    s, self.workload.num
                )));
            }
        }
        let clock = HostClock::start();
        self.ensure_pipelines();
        let device = self.heap.device();
        let mut params = vec![0u8; PARAMS_STRIDE as usize * steps.len()];
        for (i, s) in steps.iter().enumerate() {
            let p = PassParams {
                first: s.first,
                count: s.count,
                size_bytes: self.workload.size_bytes,
                salt,
            };
            let at = i * PARAMS_STRIDE as usize;
            params[at..at + 16].copy_from_slice(bytemuck::bytes_of(&p));
        }
        self.queue.write_buffer(&self.params, 0, &params);
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("cycle"),
        });
        encoder.clear_buffer(&self.counters, 0, None);
        if reset_bump {
            encoder.clear_buffer(self.heap.buffer(), u64::from(header::BUMP) * 4, Some(4));
        }
        let pipelines = self.pipelines.as_ref().expect("created above");
        for (i, s) in steps.iter().enumerate() {
            let kernel_index = CycleKernel::ALL
                .iter()
                .position(|k| *k == s.kernel)
                .unwrap();
            let timestamp_writes =
                self.timestamps
                    .as_ref()
                    .map(|(set, _)| wgpu::ComputePassTimestampWrites {
                        query_set: set,
                        beginning_of_pass_write_index: Some(2 * i as u32),
                        end_of_pass_write_index: Some(2 * i as u32 + 1),
                    });
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some(s.kernel.name()),
                timestamp_writes,
            });
            if s.count > 0 {
                pass.set_pipeline(&pipelines[kernel_index]);
                pass.set_bind_group(0, self.heap.bind_group(), &[]);
                pass.set_bind_group(1, &self.cycle_group, &[(i as u64 * PARAMS_STRIDE) as u32]);
                let (x, y) = self.dispatch_size(s.count);
                pass.dispatch_workgroups(x, y, 1);
            }
        }
        encoder.copy_buffer_to_buffer(&self.counters, 0, &self.staging, 0, COUNTERS_BYTES);
        encoder.copy_buffer_to_buffer(
            self.heap.buffer(),
            0,
            &self.staging,
            COUNTERS_BYTES,
            HEADER_BYTES,
        );
        if let Some((set, resolve)) = &self.timestamps {
            let n = 2 * steps.len() as u32;
            encoder.resolve_query_set(set, 0..n, resolve, 0);
            encoder.copy_buffer_to_buffer(
                resolve,
                0,
                &self.staging,
                TIMESTAMP_OFFSET,
                u64::from(n) * 8,
            );
        }
        self.queue.submit([encoder.finish()]);
        let bytes = crate::gpu::read_buffer(device, &self.staging, STAGING_BYTES).await?;
        let host_ms = clock.elapsed_ms();
        let words: &[u32] = bytemuck::cast_slice(&bytes[..TIMESTAMP_OFFSET as usize]);
        let period_ns = f64::from(self.queue.get_timestamp_period());
        let step_ms = (0..steps.len())
            .map(|i| {
                self.timestamps.as_ref()?;
                let at = TIMESTAMP_OFFSET as usize + 16 * i;
                let begin = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
                let end = u64::from_le_bytes(bytes[at + 8..at + 16].try_into().unwrap());
                (end >= begin).then(|| (end - begin) as f64 * period_ns / 1e6)
            })
            .collect();
        Ok(RunReport {
            step_ms,
            host_ms,
            null_allocs: words[0],
            verify_errors: words[1],
            heap: HeapCounters::from_header(&words[4..]),
        })
    }

    /// The standard cycle over all N threads: alloc, write, verify, free, in one submit.
    pub async fn run_iteration(&mut self) -> Result<IterationReport> {
        let n = self.workload.num;
        let steps = CycleKernel::ALL.map(|k| Step::new(k, 0, n));
        let salt = self.iteration.wrapping_mul(0x9E37_79B9);
        let reset = self.heap.config().allocator == AllocatorKind::Bump;
        let report = self.run(&steps, salt, reset).await?;
        self.iteration += 1;
        Ok(IterationReport {
            alloc_ms: report.step_ms[0],
            write_ms: report.step_ms[1],
            verify_ms: report.step_ms[2],
            free_ms: report.step_ms[3],
            host_ms: report.host_ms,
            failed_allocs: report.null_allocs,
            verify_errors: report.verify_errors,
            heap: report.heap,
        })
    }

    /// Reads the pointer of every thread back (an extra submit and wait: for tests).
    pub async fn read_pointers(&self) -> Result<Vec<u32>> {
        let device = self.heap.device();
        let len = u64::from(self.workload.num) * 4;
        let staging = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("pointer readback"),
            size: len,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        encoder.copy_buffer_to_buffer(&self.ptrs, 0, &staging, 0, len);
        self.queue.submit([encoder.finish()]);
        let bytes = crate::gpu::read_buffer(device, &staging, len).await?;
        Ok(bytemuck::cast_slice(&bytes).to_vec())
    }

    /// Overwrites the pointer slots (for tests that free pointers of their own making).
    pub fn write_pointers(&self, first: u32, ptrs: &[u32]) {
        self.queue
            .write_buffer(&self.ptrs, u64::from(first) * 4, bytemuck::cast_slice(ptrs));
    }
}

/// One standard iteration's figures.
#[derive(Clone, Debug, Default)]
pub struct IterationReport {
    pub alloc_ms: Option<f64>,
    pub write_ms: Option<f64>,
    pub verify_ms: Option<f64>,
    pub free_ms: Option<f64>,
    pub host_ms: Option<f64>,
    pub failed_allocs: u32,
    pub verify_errors: u32,
    pub heap: HeapCounters,
}

/// Host wall clock where the platform has one.
struct HostClock(#[cfg(not(target_arch = "wasm32"))] std::time::Instant);

impl HostClock {
    fn start() -> HostClock {
        #[cfg(not(target_arch = "wasm32"))]
        return HostClock(std::time::Instant::now());
        #[cfg(target_arch = "wasm32")]
        return HostClock();
    }

    fn elapsed_ms(&self) -> Option<f64> {
        #[cfg(not(target_arch = "wasm32"))]
        return Some(self.0.elapsed().as_secs_f64() * 1e3);
        #[cfg(target_arch = "wasm32")]
        return None;
    }
}
