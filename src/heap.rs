//! [`Heap`]: the one storage buffer that holds an allocator's metadata and chunks.

use crate::config::HeapConfig;
use crate::error::{Error, Result};
use crate::layout::{header, HeapLayout, HEADER_WORDS, Q_COUNT, Q_TAIL};

/// A heap on a device: the buffer, its layout, and the binding a kernel needs to reach it.
pub struct Heap {
    config: HeapConfig,
    layout: HeapLayout,
    device: wgpu::Device,
    buffer: wgpu::Buffer,
    bind_group_layout: wgpu::BindGroupLayout,
    bind_group: wgpu::BindGroup,
}

impl Heap {
    /// Creates a zeroed heap (which is an empty heap: every queue and counter starts at 0).
    /// Fails with a typed [`Error`] when the config is invalid or the adapter cannot bind it.
    pub fn new(device: &wgpu::Device, config: HeapConfig) -> Result<Heap> {
        let mut layout = HeapLayout::new(&config)?;
        layout.subgroups &= device.features().contains(wgpu::Features::SUBGROUP);
        let limits = device.limits();
        let binding_limit = limits.max_storage_buffer_binding_size;
        if config.heap_bytes > binding_limit {
            return Err(Error::AdapterLimit {
                requested: config.heap_bytes,
                limit: binding_limit,
                limit_name: "max_storage_buffer_binding_size",
            });
        }
        if config.heap_bytes > limits.max_buffer_size {
            return Err(Error::AdapterLimit {
                requested: config.heap_bytes,
                limit: limits.max_buffer_size,
                limit_name: "max_buffer_size",
            });
        }
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("ouroboros heap"),
            size: config.heap_bytes,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bind_group_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("ouroboros heap"),
            entries: &[Heap::bind_group_layout_entry(0)],
        });
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("ouroboros heap"),
            layout: &bind_group_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: buffer.as_entire_binding(),
            }],
        });
        Ok(Heap {
            config,
            layout,
            device: device.clone(),
            buffer,
            bind_group_layout,
            bind_group,
        })
    }

    /// The layout entry for the heap at `binding`, to place beside a kernel's own bindings.
    pub fn bind_group_layout_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
        wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only: false },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        }
    }

    /// A bind group entry for the heap at `binding`.
    pub fn bind_group_entry(&self, binding: u32) -> wgpu::BindGroupEntry<'_> {
        wgpu::BindGroupEntry {
            binding,
            resource: self.buffer.as_entire_binding(),
        }
    }

    /// A layout with the heap alone at binding 0.
    pub fn bind_group_layout(&self) -> &wgpu::BindGroupLayout {
        &self.bind_group_layout
    }

    /// A bind group with the heap alone at binding 0.
    pub fn bind_group(&self) -> &wgpu::BindGroup {
        &self.bind_group
    }

    pub fn buffer(&self) -> &wgpu::Buffer {
        &self.buffer
    }

    pub fn config(&self) -> &HeapConfig {
        &self.config
    }

    pub fn layout(&self) -> &HeapLayout {
        &self.layout
    }

    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    /// The allocator's WGSL with the heap at `@group(group) @binding(binding)`; see
    /// [`crate::shader::allocator_wgsl`].
    pub fn allocator_wgsl(&self, group: u32, binding: u32) -> String {
        crate::shader::allocator_wgsl(&self.layout, group, binding)
    }

    /// Records a reset of the heap to empty (all metadata zeroed; data is left as it is).
    pub fn encode_reset(&self, encoder: &mut wgpu::CommandEncoder) {
        encoder.clear_buffer(&self.buffer, 0, Some(u64::from(self.layout.data_base)));
    }

    /// Reads the whole metadata region back and decodes it (one extra submit and wait: for
    /// tests and reports, not for the hot path).
    pub async fn read_state(&self, queue: &wgpu::Queue) -> Result<HeapState> {
        let len = u64::from(self.layout.data_base);
        let staging = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("ouroboros heap readback"),
            size: len,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self.device.create_command_encoder(&Default::default());
        encoder.copy_buffer_to_buffer(&self.buffer, 0, &staging, 0, len);
        queue.submit([encoder.finish()]);
        let bytes = crate::gpu::read_buffer(&self.device, &staging, len).await?;
        Ok(HeapState::decode(
            &self.layout,
            bytemuck::cast_slice(&bytes),
        ))
    }
}

/// The counters of a heap's header: what the shaders report after any pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeapCounters {
    /// Sticky failure flags (see [`crate::layout::flags`]).
    pub flags: u32,
    /// malloc calls that returned null.
    pub failed_allocs: u32,
    /// free calls with a pointer the heap never handed out.
    pub invalid_frees: u32,
    /// Pages or chunks that could not be queued again.
    pub lost: u32,
    /// Never-used chunks taken from the data region so far.
    pub chunks_taken: u32,
    /// Diagnostics of the lock-free paths (see [`HeapDiagnostics`]).
    pub diagnostics: HeapDiagnostics,
}

/// How often the allocator took its contended fallback paths. None of these is a failure; they
/// explain failures and timings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeapDiagnostics {
    /// Dequeues that found only in-flight slots and fell back to carving.
    pub dequeue_give_ups: u32,
    /// Chunk-table entries marked dead because no chunk could be had.
    pub dead_entries: u32,
    /// Chunks that lost an install race and were placed at a later table entry.
    pub forwarded_chunks: u32,
    /// Chunks that lost an install race and went back to the pool.
    pub returned_chunks: u32,
    /// Queue operations that found no storage for their slot (virtualized queues).
    pub queue_failures: u32,
    /// Chunk-heap reservations whose page bit was not yet seen free.
    pub claim_misses: u32,
    /// Budget units spent by data chunks (virtualized variants).
    pub data_spent: u32,
    /// Items that their class queue could not store and that went to the class's spill ring.
    pub spilled: u32,
}

impl HeapCounters {
    /// Decodes the header words (the first [`HEADER_WORDS`] of the heap).
    pub fn from_header(words: &[u32]) -> HeapCounters {
        HeapCounters {
            flags: words[header::FLAGS as usize],
            failed_allocs: words[header::FAILED_ALLOCS as usize],
            invalid_frees: words[header::INVALID_FREES as usize],
            lost: words[header::LOST as usize],
            chunks_taken: words[header::CHUNK_BUMP as usize],
            diagnostics: HeapDiagnostics {
                dequeue_give_ups: words[header::DEQUEUE_GIVE_UPS as usize],
                dead_entries: words[header::DEAD_ENTRIES as usize],
                forwarded_chunks: words[header::FORWARDED as usize],
                returned_chunks: words[header::RETURNED as usize],
                queue_failures: words[header::QUEUE_FAILURES as usize],
                claim_misses: words[header::CLAIM_MISSES as usize],
                data_spent: words[header::DATA_SPENT as usize],
                spilled: words[header::SPILLED as usize],
            },
        }
    }
}

/// Everything the metadata says about a heap: counters, chunk use and queue contents.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HeapState {
    pub counters: HeapCounters,
    /// Chunks sitting in the pool's queues, ready for reuse (clean and dirty).
    pub pooled_chunks: u32,
    /// Of those, chunks that held data (chunk-based heaps hand emptied chunks back here).
    pub pooled_dirty_chunks: u32,
    /// Chunks holding queue segments (virtualized queues).
    pub queue_chunks: u32,
    /// Per size class: pages ever carved from fresh chunks.
    pub carved_pages: Vec<u32>,
    /// Per size class: items sitting in the class's queue and its spill ring (pages, or chunk
    /// tokens in chunk-based heaps).
    pub queued_pages: Vec<u32>,
    /// Per size class: tickets its queue has handed to enqueuers so far (how far its ring moved).
    pub enqueue_tickets: Vec<u32>,
    /// Per size class: chunks the class holds.
    pub class_chunks: Vec<u32>,
    /// Per size class: the chunk table, carve index -> chunk handle (index + 1; 0 = not yet).
    pub class_tables: Vec<Vec<u32>>,
}

impl HeapState {
    fn decode(layout: &HeapLayout, words: &[u32]) -> HeapState {
        let count = |base: u32| words[(base + Q_COUNT) as usize] as i32;
        let header = &words[..HEADER_WORDS as usize];
        let classes = layout.class_queues.len();
        let class_tables: Vec<Vec<u32>> = layout
            .class_tables
            .iter()
            .map(|&(base, len)| words[base as usize..(base + len) as usize].to_vec())
            .collect();
        let mut class_chunks: Vec<u32> = class_tables
            .iter()
            .map(|t| {
                t.iter()
                    .filter(|&&h| h != 0 && h != crate::layout::DEAD && h != crate::layout::CLAIMED)
                    .count() as u32
            })
            .collect();
        if let Some(ch) = layout.chunk_heap {
            // A chunk belongs to a class while it has pages in use, a queued token, or is current.
            let bits = layout.chunk_word_bits();
            let used_mask = (1u32 << bits.used_bits) - 1;
            let listed = 1u32 << bits.used_bits;
            let gen =
                |state: u32| (state >> (bits.used_bits + 1)) & ((1u32 << bits.token_gen_bits) - 1);
            class_chunks = vec![0; layout.class_queues.len()];
            for h in 0..layout.data_chunks {
                let state = words[(ch.state + h) as usize];
                let class = words[(layout.chunk_class + h) as usize];
                if class == 0 {
                    continue;
                }
                let token = words[(ch.current + class - 1) as usize];
                let current = token & ((1u32 << bits.handle_bits) - 1) == h + 1
                    && token >> bits.handle_bits == gen(state);
                if state & used_mask != 0 || state & listed != 0 || current {
                    class_chunks[class as usize - 1] += 1;
                }
            }
        }
        let mut counters = HeapCounters::from_header(header);
        // Callers that found the pool dry may push the bump past the end; clamp to what exists.
        counters.chunks_taken = counters.chunks_taken.min(layout.data_chunks);
        HeapState {
            counters,
            pooled_chunks: (count(layout.chunk_queue.base).max(0)
                + count(layout.dirty_queue.base).max(0)) as u32,
            pooled_dirty_chunks: count(layout.dirty_queue.base).max(0) as u32,
            queue_chunks: header[header::QUEUE_CHUNKS as usize],
            carved_pages: (0..classes)
                .map(|c| header[header::CARVE as usize + c])
                .collect(),
            queued_pages: layout
                .class_queues
                .iter()
                .zip(&layout.spill_queues)
                .map(|(q, spill)| (count(q.base).max(0) + count(spill.base).max(0)) as u32)
                .collect(),
            enqueue_tickets: layout
                .class_queues
                .iter()
                .map(|q| words[(q.base + Q_TAIL) as usize])
                .collect(),
            class_chunks,
            class_tables,
        }
    }

    /// Chunks taken out of the pool and not returned to it.
    pub fn chunks_in_use(&self) -> u32 {
        self.counters
            .chunks_taken
            .saturating_sub(self.pooled_chunks)
    }
}
