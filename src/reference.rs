//! A small CPU twin of the allocators' rules, run one call at a time. Tests compare what the
//! GPU heap reports after a sequence of passes with what this model predicts for the same calls:
//! size classes, which calls fail and why, pages carved, chunks used, pages queued.
//! It is not a performance model; under concurrency the GPU may hand out different addresses,
//! but the accounting must agree.

use crate::config::AllocatorKind;
use crate::layout::{flags, HeapLayout, MIN_PAGE_BYTES, NULL};
use std::collections::VecDeque;

/// Size class of a request (0 for 1..=16 bytes; 0 bytes is served as 16).
pub fn size_class(size: u32) -> u32 {
    let s = size.max(MIN_PAGE_BYTES);
    (32 - (s - 1).leading_zeros()) - MIN_PAGE_BYTES.trailing_zeros()
}

/// The model heap.
pub struct ReferenceHeap {
    layout: HeapLayout,
    class_queues: Vec<VecDeque<u32>>,
    carved: Vec<u32>,
    tables: Vec<Vec<u32>>,
    chunk_pool: VecDeque<u32>,
    chunk_bump: u32,
    chunk_class: Vec<u32>,
    bump: u32,
    /// Chunk-based variants: per class the current chunk and the queue of listed chunks; per chunk
    /// its allocated pages (as a set of page indices), and the pool of chunks that held data.
    current: Vec<Option<u32>>,
    listed: Vec<VecDeque<u32>>,
    is_listed: Vec<bool>,
    pages: Vec<Vec<bool>>,
    dirty_pool: VecDeque<u32>,
    /// Sticky failure flags, as the GPU's header word.
    pub flags: u32,
    pub failed_allocs: u32,
    pub invalid_frees: u32,
}

impl ReferenceHeap {
    pub fn new(layout: &HeapLayout) -> ReferenceHeap {
        let classes = layout.class_queues.len();
        ReferenceHeap {
            layout: layout.clone(),
            class_queues: vec![VecDeque::new(); classes],
            carved: vec![0; classes],
            tables: layout
                .class_tables
                .iter()
                .map(|t| vec![0; t.1 as usize])
                .collect(),
            chunk_pool: VecDeque::new(),
            chunk_bump: 0,
            chunk_class: vec![0; layout.data_chunks as usize],
            bump: 0,
            current: vec![None; layout.num_classes as usize],
            listed: vec![VecDeque::new(); layout.num_classes as usize],
            is_listed: vec![false; layout.data_chunks as usize],
            pages: vec![Vec::new(); layout.data_chunks as usize],
            dirty_pool: VecDeque::new(),
            flags: 0,
            failed_allocs: 0,
            invalid_frees: 0,
        }
    }

    fn fail(&mut self, flag: u32) -> u32 {
        self.flags |= flag;
        self.failed_allocs += 1;
        NULL
    }

    fn take_chunk(&mut self) -> Option<u32> {
        if let Some(h) = self.chunk_pool.pop_front() {
            return Some(h);
        }
        (self.chunk_bump < self.layout.data_chunks).then(|| {
            self.chunk_bump += 1;
            self.chunk_bump
        })
    }

    fn chunk_malloc(&mut self, size: u32) -> u32 {
        let l = &self.layout;
        if size > l.chunk_bytes {
            return self.fail(flags::TOO_LARGE);
        }
        let class = size_class(size) as usize;
        let per_chunk = l.pages_per_chunk(class as u32) as usize;
        loop {
            if let Some(h) = self.current[class] {
                let pages = &mut self.pages[h as usize - 1];
                if let Some(i) = pages.iter().position(|used| !used) {
                    pages[i] = true;
                    let l = &self.layout;
                    return l.data_base
                        + (h - 1) * l.chunk_bytes
                        + i as u32 * l.page_bytes(class as u32);
                }
            }
            let next = match self.listed[class].pop_front() {
                Some(h) => {
                    self.is_listed[h as usize - 1] = false;
                    Some(h)
                }
                None => self
                    .dirty_pool
                    .pop_front()
                    .or_else(|| self.take_chunk())
                    .inspect(|&h| {
                        self.chunk_class[h as usize - 1] = class as u32 + 1;
                        self.pages[h as usize - 1] = vec![false; per_chunk];
                    }),
            };
            match next {
                Some(h) => self.current[class] = Some(h),
                None => return self.fail(flags::OUT_OF_MEMORY),
            }
        }
    }

    fn chunk_free(&mut self, chunk: usize, class: usize, page: usize) -> bool {
        let pages = &mut self.pages[chunk];
        if !pages.get(page).copied().unwrap_or(false) {
            return false;
        }
        let was_full = pages.iter().all(|&u| u);
        pages[page] = false;
        let handle = chunk as u32 + 1;
        if pages.iter().all(|&u| !u) {
            // Empty: back to the pool, whether current or listed.
            if self.current[class] == Some(handle) {
                self.current[class] = None;
            }
            self.listed[class].retain(|&h| h != handle);
            self.is_listed[chunk] = false;
            self.chunk_class[chunk] = 0;
            self.dirty_pool.push_back(handle);
        } else if was_full && !self.is_listed[chunk] {
            self.is_listed[chunk] = true;
            self.listed[class].push_back(handle);
        }
        true
    }

    pub fn malloc(&mut self, size: u32) -> u32 {
        let l = &self.layout;
        match l.allocator {
            AllocatorKind::Chunk | AllocatorKind::VaChunk | AllocatorKind::VlChunk => {
                self.chunk_malloc(size)
            }
            AllocatorKind::Bump => {
                let room = l.heap_bytes - l.data_base;
                if size > room {
                    return self.fail(flags::TOO_LARGE);
                }
                let rounded = size.max(1).div_ceil(MIN_PAGE_BYTES) * MIN_PAGE_BYTES;
                if rounded > room || self.bump > room - rounded {
                    return self.fail(flags::OUT_OF_MEMORY);
                }
                self.bump += rounded;
                l.data_base + self.bump - rounded
            }
            AllocatorKind::Page | AllocatorKind::VaPage | AllocatorKind::VlPage => {
                if size > l.chunk_bytes {
                    return self.fail(flags::TOO_LARGE);
                }
                let class = size_class(size) as usize;
                if let Some(p) = self.class_queues[class].pop_front() {
                    return p;
                }
                let per_chunk = l.pages_per_chunk(class as u32);
                let (_, table_len) = l.class_tables[class];
                let n = self.carved[class];
                if n >= table_len * per_chunk {
                    return self.fail(flags::CLASS_LIMIT);
                }
                self.carved[class] += 1;
                let k = (n / per_chunk) as usize;
                if self.tables[class][k] == 0 {
                    self.tables[class][k] = match self.take_chunk() {
                        Some(h) => {
                            self.chunk_class[h as usize - 1] = class as u32 + 1;
                            h
                        }
                        None => crate::layout::DEAD,
                    };
                }
                let h = self.tables[class][k];
                if h == crate::layout::DEAD {
                    return self.fail(flags::OUT_OF_MEMORY);
                }
                let l = &self.layout;
                l.data_base + (h - 1) * l.chunk_bytes + (n % per_chunk) * l.page_bytes(class as u32)
            }
        }
    }

    pub fn free(&mut self, ptr: u32) {
        let l = &self.layout;
        if ptr == NULL || l.allocator == AllocatorKind::Bump {
            return;
        }
        if ptr < l.data_base || ptr >= l.heap_bytes {
            self.flags |= flags::INVALID_FREE;
            self.invalid_frees += 1;
            return;
        }
        let chunk = ((ptr - l.data_base) / l.chunk_bytes) as usize;
        let class = self.chunk_class[chunk];
        if class == 0 || (ptr - l.data_base) % l.page_bytes(class - 1) != 0 {
            self.flags |= flags::INVALID_FREE;
            self.invalid_frees += 1;
            return;
        }
        if l.allocator.is_chunk_based() {
            let page = ((ptr - l.data_base) % l.chunk_bytes / l.page_bytes(class - 1)) as usize;
            if !self.chunk_free(chunk, class as usize - 1, page) {
                self.flags |= flags::INVALID_FREE;
                self.invalid_frees += 1;
            }
            return;
        }
        self.class_queues[class as usize - 1].push_back(ptr);
    }

    /// Chunks taken from the pool and not returned.
    pub fn chunks_in_use(&self) -> u32 {
        self.chunk_bump - self.chunk_pool.len() as u32 - self.dirty_pool.len() as u32
    }

    /// Never-used chunks taken so far.
    pub fn chunks_taken(&self) -> u32 {
        self.chunk_bump
    }

    /// Pages ever carved, per class.
    pub fn carved_pages(&self) -> &[u32] {
        &self.carved
    }

    /// Pages waiting in each class's queue.
    pub fn queued_pages(&self) -> Vec<u32> {
        self.class_queues.iter().map(|q| q.len() as u32).collect()
    }
}
