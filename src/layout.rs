//! Where everything lives inside the heap buffer. The shaders see this as generated WGSL
//! constants (`HeapLayout::wgsl_constants`), so host and device can never disagree.
//!
//! Word offsets (u32 index into the heap) unless a name says bytes:
//!
//! ```text
//! [header: 64 words][chunk queue][page queue per class][chunk table per class][class of each chunk] .. pad ..
//! [data chunk 0][data chunk 1] ...            <- OURO_DATA_BASE (bytes), chunk-aligned
//! ```
//!
//! A device pointer is a byte offset into the heap buffer. The metadata sits at offset 0, so no
//! allocation is ever at 0, and 0 is the null pointer ([`NULL`]).

use crate::config::{AllocatorKind, HeapConfig, QueueStorage};
use crate::error::{Error, Result};

/// The device null pointer.
pub const NULL: u32 = 0;
/// Smallest size class, in bytes.
pub const MIN_PAGE_BYTES: u32 = 16;
/// Words of the header at the start of the heap.
pub const HEADER_WORDS: u32 = 64;
/// Words before a queue's slots: head, tail and count, each in its own 32-byte sector.
pub const QUEUE_HEADER_WORDS: u32 = 32;

/// Offsets of a queue's head ticket, tail ticket and published-item count from its first word.
pub const Q_HEAD: u32 = 0;
pub const Q_TAIL: u32 = 8;
pub const Q_COUNT: u32 = 16;

/// Header word indices. Twin of the `OURO_H_*` WGSL constants.
pub mod header {
    /// Sticky failure flags ([`super::flags`]).
    pub const FLAGS: u32 = 0;
    /// malloc calls that returned null.
    pub const FAILED_ALLOCS: u32 = 1;
    /// free calls with a pointer the heap did not hand out.
    pub const INVALID_FREES: u32 = 2;
    /// Pages or chunks that could not be queued again (never expected; counted, not hidden).
    pub const LOST: u32 = 3;
    /// Never-used chunks taken so far.
    pub const CHUNK_BUMP: u32 = 4;
    /// The bump allocator's pointer (bytes from the data base).
    pub const BUMP: u32 = 5;
    /// Dequeues that held a reservation but found only in-flight slots and gave up (diagnostic).
    pub const DEQUEUE_GIVE_UPS: u32 = 6;
    /// Chunk-table entries marked dead because the pool was dry (diagnostic).
    pub const DEAD_ENTRIES: u32 = 7;
    /// Chunks that lost an install race and went to a later table entry (diagnostic).
    pub const FORWARDED: u32 = 8;
    /// Chunks that lost an install race and went back to the pool (diagnostic).
    pub const RETURNED: u32 = 9;
    /// Budget units spent by data chunks (virtualized queues; see ouro_chunk_take_data).
    pub const DATA_SPENT: u32 = 10;
    /// Chunks holding queue segments (virtualized queues).
    pub const QUEUE_CHUNKS: u32 = 11;
    /// Queue operations that found no chunk for a segment.
    pub const QUEUE_FAILURES: u32 = 12;
    /// Chunk-heap reservations whose page bit was not found free yet (diagnostic).
    pub const CLAIM_MISSES: u32 = 13;
    /// Items that a class queue could not store and that went to the class's spill ring.
    pub const SPILLED: u32 = 14;
    /// First of one carve counter per size class: pages ever carved from fresh chunks.
    pub const CARVE: u32 = 16;
}

/// Failure flag bits. Twin of the `OURO_FLAG_*` WGSL constants.
pub mod flags {
    /// No chunk was left for a size class that needed one.
    pub const OUT_OF_MEMORY: u32 = 1;
    /// A request above the largest size class (the chunk size).
    pub const TOO_LARGE: u32 = 2;
    /// A size class reached the most pages its queue can hold.
    pub const CLASS_LIMIT: u32 = 4;
    /// free() of a pointer that is not an allocation of this heap.
    pub const INVALID_FREE: u32 = 8;
    /// A page or chunk could not be queued again.
    pub const LOST: u32 = 16;

    /// Names of the set bits, for messages.
    pub fn names(bits: u32) -> Vec<&'static str> {
        [
            (OUT_OF_MEMORY, "out-of-memory"),
            (TOO_LARGE, "too-large"),
            (CLASS_LIMIT, "class-limit"),
            (INVALID_FREE, "invalid-free"),
            (LOST, "lost"),
        ]
        .into_iter()
        .filter(|(b, _)| bits & b != 0)
        .map(|(_, n)| n)
        .collect()
    }
}

/// Sentinels stored in queue slots and chunk tables (never valid pointers or handles).
pub(crate) const TOMB: u32 = 0xFFFF_FFFF;
pub(crate) const DEAD: u32 = 0xFFFF_FFFE;
pub(crate) const CAS_GAVE_UP: u32 = 0xFFFF_FFFD;
/// A chunk-table entry, segment index or list link that one lane has claimed and is filling.
pub(crate) const CLAIMED: u32 = 0xFFFF_FFFC;
/// Set in a queue's shape (slot mask) when its slots live in heap chunks.
pub(crate) const VIRTUAL: u32 = 0x8000_0000;

/// A queue inside the heap: its header word and slot count (a power of two).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueueRegion {
    pub base: u32,
    pub capacity: u32,
}

impl QueueRegion {
    fn words(&self) -> u64 {
        u64::from(QUEUE_HEADER_WORDS) + u64::from(self.capacity)
    }
}

/// Where the chunk-based heap keeps its per-class and per-chunk words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkHeapLayout {
    /// One word per class: the token of the chunk it allocates from.
    pub current: u32,
    /// One state word per data chunk: pages in use, LISTED bit, generation.
    pub state: u32,
    /// `bitmap_words` words per data chunk: which pages are allocated.
    pub bits: u32,
    pub bitmap_words: u32,
}

/// Per data chunk, for a chunk serving as a segment of a virtualized-list queue: its successor, its
/// tag (queue and segment number) and its event counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SegmentListLayout {
    pub next: u32,
    pub tag: u32,
    pub done: u32,
}

/// Slots of each class's spill ring: a small standard ring that keeps the items its class queue
/// could not store (a virtualized queue without a segment, or a ring whose every tried ticket was
/// tombstoned), so that they stay reachable instead of being lost.
pub const SPILL_SLOTS: u32 = 4096;

/// Slot mask + 1 of a virtualized-list queue: tickets address segments without an index.
const LIST_CAPACITY: u32 = 1 << 31;

/// Words of a virtualized-list queue's hint table (after its header): segment n's handle is
/// remembered at n % LIST_HINTS, so that most lanes find their segment without walking the list.
pub const LIST_HINTS: u32 = 1024;

/// Bits of a chunk-token or state word (twins of the OURO_* constants of shaders/heaps/chunk.wgsl).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkWordBits {
    pub handle_bits: u32,
    pub used_bits: u32,
    pub token_gen_bits: u32,
}

/// The computed placement of every structure in a heap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapLayout {
    pub allocator: AllocatorKind,
    /// Whether the shaders use subgroup operations (the config's request; [`crate::Heap::new`]
    /// turns it off where the device lacks `Features::SUBGROUP`).
    pub subgroups: bool,
    pub heap_bytes: u32,
    pub chunk_bytes: u32,
    pub chunk_shift: u32,
    /// Size classes: 16 B << c for c in 0..num_classes; the last equals the chunk size.
    pub num_classes: u32,
    pub chunk_queue: QueueRegion,
    /// Chunks handed back after holding data (chunk-based variants).
    pub dirty_queue: QueueRegion,
    /// Where page and chunk queues keep their slots.
    pub queue_storage: QueueStorage,
    /// One page queue per size class (empty for the bump allocator).
    pub class_queues: Vec<QueueRegion>,
    /// One spill ring per size class (standard slots, [`SPILL_SLOTS`] of them).
    pub spill_queues: Vec<QueueRegion>,
    /// Per class: (first word, entries) of the table mapping carve index to chunk handle.
    pub class_tables: Vec<(u32, u32)>,
    /// Per-chunk state of chunk-based variants.
    pub chunk_heap: Option<ChunkHeapLayout>,
    /// Per-chunk links of virtualized-list queues.
    pub segment_lists: Option<SegmentListLayout>,
    /// First word of the per-chunk class array (class + 1, 0 = not a page chunk).
    pub chunk_class: u32,
    /// Byte offset of data chunk 0.
    pub data_base: u32,
    pub data_chunks: u32,
}

impl HeapLayout {
    /// Places everything for `config`, or says why it does not fit.
    pub fn new(config: &HeapConfig) -> Result<HeapLayout> {
        config.check_fields()?;
        let chunk = u64::from(config.chunk_bytes);
        let total_chunks = config.heap_bytes / chunk;
        let chunk_shift = config.chunk_bytes.trailing_zeros();
        let num_classes = chunk_shift - MIN_PAGE_BYTES.trailing_zeros() + 1;
        // Size the metadata for the most data chunks there could be; a little generous.
        let d = total_chunks.max(1);
        let mut words = u64::from(HEADER_WORDS);
        let mut place = |n: u64| {
            let at = words;
            words += n;
            at
        };
        let chunk_queue = QueueRegion {
            base: 0,
            capacity: queue_capacity(d),
        };
        let chunk_queue = QueueRegion {
            base: place(chunk_queue.words()) as u32,
            ..chunk_queue
        };
        let dirty_queue = QueueRegion {
            base: place(chunk_queue.words()) as u32,
            ..chunk_queue
        };
        let queue_storage = config.allocator.queue_storage();
        let seg_slots = u64::from(config.chunk_bytes / 4);
        let mut class_queues = Vec::new();
        let mut class_tables = Vec::new();
        let virtual_queue = |items: u64| {
            // Room for every item the heap could queue; only the segments in use cost memory.
            let capacity = items.max(seg_slots).next_power_of_two().min(1 << 30);
            (
                capacity as u32,
                u64::from(QUEUE_HEADER_WORDS) + 2 * (capacity / seg_slots),
            )
        };
        let mut chunk_heap = None;
        if config.allocator.is_page_based() {
            for class in 0..num_classes {
                let per_chunk =
                    u64::from(config.chunk_bytes >> (class + MIN_PAGE_BYTES.trailing_zeros()));
                let (capacity, table_len, words) = match queue_storage {
                    QueueStorage::Standard => {
                        // A class whose pages per chunk exceed the slots granted per chunk may
                        // carve only as many chunks as its (power-of-two) queue holds pages, less a
                        // sixteenth of slack; every other class may carve every chunk.
                        let spc = u64::from(config.queue_slots_per_chunk);
                        let (capacity, table_len) = if per_chunk <= spc {
                            (queue_capacity(d * per_chunk), d)
                        } else {
                            let capacity = (d * spc).max(2 * per_chunk).next_power_of_two();
                            let usable = capacity - capacity / 16;
                            (
                                capacity.min(1 << 31) as u32,
                                (usable / per_chunk).clamp(1, d),
                            )
                        };
                        (
                            capacity,
                            table_len,
                            u64::from(QUEUE_HEADER_WORDS) + u64::from(capacity),
                        )
                    }
                    QueueStorage::VirtualArray => {
                        let (capacity, words) = virtual_queue(d * per_chunk);
                        (capacity, d, words)
                    }
                    QueueStorage::VirtualList => {
                        (LIST_CAPACITY, d, u64::from(QUEUE_HEADER_WORDS + LIST_HINTS))
                    }
                };
                let q = QueueRegion {
                    base: place(words) as u32,
                    capacity,
                };
                class_queues.push(q);
                class_tables.push((place(table_len) as u32, table_len as u32));
            }
        } else if config.allocator.is_chunk_based() {
            // A queue of chunk tokens per class: one live token per chunk at most, and stale ones
            // (of chunks that went back to the pool) until a dequeuer drops them.
            for _ in 0..num_classes {
                let (capacity, words) = match queue_storage {
                    QueueStorage::Standard => {
                        let capacity = queue_capacity(2 * d);
                        (
                            capacity,
                            u64::from(QUEUE_HEADER_WORDS) + u64::from(capacity),
                        )
                    }
                    QueueStorage::VirtualArray => virtual_queue(2 * d),
                    QueueStorage::VirtualList => {
                        (LIST_CAPACITY, u64::from(QUEUE_HEADER_WORDS + LIST_HINTS))
                    }
                };
                class_queues.push(QueueRegion {
                    base: place(words) as u32,
                    capacity,
                });
            }
            let bitmap_words = (config.chunk_bytes / MIN_PAGE_BYTES / 32).max(1);
            chunk_heap = Some(ChunkHeapLayout {
                current: place(u64::from(num_classes)) as u32,
                state: place(d) as u32,
                bits: place(d * u64::from(bitmap_words)) as u32,
                bitmap_words,
            });
        }
        let spill_queues: Vec<QueueRegion> = (0..class_queues.len())
            .map(|_| {
                let q = QueueRegion {
                    base: 0,
                    capacity: SPILL_SLOTS,
                };
                QueueRegion {
                    base: place(q.words()) as u32,
                    ..q
                }
            })
            .collect();
        let segment_lists =
            (queue_storage == QueueStorage::VirtualList).then(|| SegmentListLayout {
                next: place(d) as u32,
                tag: place(d) as u32,
                done: place(d) as u32,
            });
        let chunk_class = place(d) as u32;
        let metadata_bytes = words * 4;
        let metadata_chunks = metadata_bytes.div_ceil(chunk);
        if metadata_chunks >= total_chunks {
            return Err(Error::HeapTooSmall {
                heap: config.heap_bytes,
                metadata: metadata_bytes,
                needed: (metadata_chunks + 1) * chunk,
            });
        }
        Ok(HeapLayout {
            allocator: config.allocator,
            subgroups: config.use_subgroups,
            heap_bytes: config.heap_bytes as u32,
            chunk_bytes: config.chunk_bytes,
            chunk_shift,
            num_classes,
            chunk_queue,
            dirty_queue,
            queue_storage,
            class_queues,
            spill_queues,
            class_tables,
            chunk_heap,
            segment_lists,
            chunk_class,
            data_base: (metadata_chunks * chunk) as u32,
            data_chunks: (total_chunks - metadata_chunks) as u32,
        })
    }

    /// Bytes of the heap given to allocator metadata (the rest is data chunks).
    pub fn metadata_bytes(&self) -> u32 {
        self.data_base
    }

    /// Widths of the fields of chunk tokens and chunk state words. Handles stay below
    /// 2^handle_bits - 4, so no token equals a queue sentinel or the claim marker.
    pub fn chunk_word_bits(&self) -> ChunkWordBits {
        let handle_bits = 32 - (self.data_chunks + 4).leading_zeros();
        let used_bits = self.chunk_shift - MIN_PAGE_BYTES.trailing_zeros() + 1;
        let token_gen_bits = (32 - handle_bits).min(32 - (used_bits + 1));
        ChunkWordBits {
            handle_bits,
            used_bits,
            token_gen_bits,
        }
    }

    /// Segments kept back in virtualized variants beyond the queue room of the data handed out:
    /// one per class for partly filled rings, one spare, and a sixty-fourth of the heap for rings
    /// whose tickets span more than their items (tombstoned and retried tickets) and for chunks
    /// in flight between lanes.
    fn reserved_segments(&self) -> u32 {
        if self.queue_storage == QueueStorage::Standard {
            0
        } else {
            self.num_classes + 1 + self.data_chunks / 64
        }
    }

    /// Budget of data chunks in queue-slot units (twin of OURO_DATA_BUDGET): a data chunk whose
    /// items may need `s` slots costs `seg_slots + s`.
    fn data_budget(&self) -> u32 {
        let seg_slots = self.chunk_bytes / 4;
        self.data_chunks
            .saturating_sub(self.reserved_segments())
            .saturating_mul(seg_slots)
    }

    /// The most pages of `class` that a fresh heap hands out before its first null, when all
    /// requests are of that class (races between lanes may cost up to a chunk more).
    pub fn max_pages(&self, class: u32) -> u64 {
        let per_chunk = u64::from(self.pages_per_chunk(class));
        let table = self
            .class_tables
            .get(class as usize)
            .map_or(u64::from(self.data_chunks), |t| u64::from(t.1));
        let chunks = match self.queue_storage {
            QueueStorage::Standard => u64::from(self.data_chunks),
            _ => {
                // A page chunk may fill a queue slot per page; a chunk of a chunk heap one token.
                let slots = if self.chunk_heap.is_some() {
                    1
                } else {
                    per_chunk
                };
                u64::from(self.data_budget()) / (u64::from(self.chunk_bytes / 4) + slots)
            }
        };
        chunks.min(table) * per_chunk
    }

    /// Page size of a size class.
    pub fn page_bytes(&self, class: u32) -> u32 {
        MIN_PAGE_BYTES << class
    }

    /// Pages per chunk of a size class.
    pub fn pages_per_chunk(&self, class: u32) -> u32 {
        self.chunk_bytes / self.page_bytes(class)
    }

    /// The WGSL constants and lookup functions that describe this layout to the shaders.
    pub fn wgsl_constants(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let mut c = |name: &str, value: u32| writeln!(s, "const {name}: u32 = {value}u;").unwrap();
        c("OURO_NULL", NULL);
        c("OURO_TOMB", TOMB);
        c("OURO_DEAD", DEAD);
        c("OURO_CAS_GAVE_UP", CAS_GAVE_UP);
        c("OURO_CLAIMED", CLAIMED);
        c("OURO_CLAIM_LOOKS", 64);
        c("OURO_CAS_SPINS", 4);
        c("OURO_MAX_SUBGROUP", 128);
        c("OURO_ENQUEUE_TRIES", 1024);
        c("OURO_DEQUEUE_TRIES", 8);
        c("OURO_Q_HEAD", Q_HEAD);
        c("OURO_Q_TAIL", Q_TAIL);
        c("OURO_Q_COUNT", Q_COUNT);
        c("OURO_QUEUE_HEADER_WORDS", QUEUE_HEADER_WORDS);
        c("OURO_MIN_PAGE_BYTES", MIN_PAGE_BYTES);
        c("OURO_MIN_PAGE_SHIFT", MIN_PAGE_BYTES.trailing_zeros());
        c("OURO_CHUNK_BYTES", self.chunk_bytes);
        c("OURO_CHUNK_SHIFT", self.chunk_shift);
        c("OURO_NUM_CLASSES", self.num_classes);
        c("OURO_HEAP_BYTES", self.heap_bytes);
        c("OURO_DATA_BASE", self.data_base);
        c("OURO_DATA_CHUNKS", self.data_chunks);
        c("OURO_CHUNK_QUEUE", self.chunk_queue.base);
        c("OURO_CHUNK_QUEUE_MASK", self.chunk_queue.capacity - 1);
        c("OURO_CHUNK_CLASS", self.chunk_class);
        c("OURO_DIRTY_QUEUE", self.dirty_queue.base);
        c("OURO_DIRTY_QUEUE_MASK", self.dirty_queue.capacity - 1);
        c("OURO_VIRTUAL", VIRTUAL);
        c("OURO_SEG_SHIFT", self.chunk_shift - 2);
        c("OURO_SEG_SLOTS", self.chunk_bytes / 4);
        c(
            "OURO_QUEUE_RESERVE",
            u32::from(self.queue_storage != QueueStorage::Standard),
        );
        c("OURO_DATA_BUDGET", self.data_budget());
        let bits = self.chunk_word_bits();
        c("OURO_HANDLE_BITS", bits.handle_bits);
        c("OURO_HANDLE_MASK", (1u32 << bits.handle_bits) - 1);
        c("OURO_USED_MASK", (1u32 << bits.used_bits) - 1);
        c("OURO_LISTED", 1u32 << bits.used_bits);
        c("OURO_GEN_SHIFT", bits.used_bits + 1);
        c("OURO_TOKEN_GEN_MASK", (1u32 << bits.token_gen_bits) - 1);
        c("OURO_NO_PAGE", 0xFFFF_FFFF);
        c("OURO_RESERVE_SPINS", 8);
        c("OURO_CHUNK_ATTEMPTS", 3);
        let ch = self.chunk_heap.unwrap_or(ChunkHeapLayout {
            current: 0,
            state: 0,
            bits: 0,
            bitmap_words: 1,
        });
        c("OURO_CURRENT_CHUNKS", ch.current);
        c("OURO_CHUNK_STATE", ch.state);
        c("OURO_CHUNK_BITS", ch.bits);
        let lists = self.segment_lists.unwrap_or(SegmentListLayout {
            next: 0,
            tag: 0,
            done: 0,
        });
        c("OURO_SEG_NEXT", lists.next);
        c("OURO_SEG_TAG", lists.tag);
        c("OURO_SEG_DONE", lists.done);
        c("OURO_Q_FIRST", 24);
        c("OURO_Q_LAST", 26);
        c("OURO_SEGNO_BITS", 20);
        c("OURO_SEGNO_MASK", (1 << 20) - 1);
        c("OURO_SEG_COMPLETE", 0x8000_0000);
        c("OURO_MAX_HOPS", 4096);
        c("OURO_SEGMENT_LOOKS", 8);
        c("OURO_LIST_HINTS", LIST_HINTS);
        c("OURO_TAG_LOOKS", 64);
        c("OURO_BITMAP_WORDS", ch.bitmap_words);
        c("OURO_H_DATA_SPENT", header::DATA_SPENT);
        c("OURO_H_QUEUE_CHUNKS", header::QUEUE_CHUNKS);
        c("OURO_H_QUEUE_FAILURES", header::QUEUE_FAILURES);
        c("OURO_H_CLAIM_MISSES", header::CLAIM_MISSES);
        c("OURO_H_SPILLED", header::SPILLED);
        c("OURO_SPILL_MASK", SPILL_SLOTS - 1);
        c("OURO_H_FLAGS", header::FLAGS);
        c("OURO_H_FAILED_ALLOCS", header::FAILED_ALLOCS);
        c("OURO_H_INVALID_FREES", header::INVALID_FREES);
        c("OURO_H_LOST", header::LOST);
        c("OURO_H_CHUNK_BUMP", header::CHUNK_BUMP);
        c("OURO_H_BUMP", header::BUMP);
        c("OURO_H_CARVE", header::CARVE);
        c("OURO_H_DEQUEUE_GIVE_UPS", header::DEQUEUE_GIVE_UPS);
        c("OURO_H_DEAD_ENTRIES", header::DEAD_ENTRIES);
        c("OURO_H_FORWARDED", header::FORWARDED);
        c("OURO_H_RETURNED", header::RETURNED);
        c("OURO_FORWARD_ENTRIES", 8);
        c("OURO_FLAG_OUT_OF_MEMORY", flags::OUT_OF_MEMORY);
        c("OURO_FLAG_TOO_LARGE", flags::TOO_LARGE);
        c("OURO_FLAG_CLASS_LIMIT", flags::CLASS_LIMIT);
        c("OURO_FLAG_INVALID_FREE", flags::INVALID_FREE);
        c("OURO_FLAG_LOST", flags::LOST);
        if !self.class_queues.is_empty() {
            let queues: Vec<u32> = self.class_queues.iter().map(|q| q.base).collect();
            let virtual_bit = if self.queue_storage == QueueStorage::Standard {
                0
            } else {
                VIRTUAL
            };
            let masks: Vec<u32> = self
                .class_queues
                .iter()
                .map(|q| (q.capacity - 1) | virtual_bit)
                .collect();
            let tables: Vec<u32> = self.class_tables.iter().map(|t| t.0).collect();
            let lens: Vec<u32> = self.class_tables.iter().map(|t| t.1).collect();
            s += &lookup_fn("ouro_class_queue", &queues);
            s += &lookup_fn("ouro_class_queue_mask", &masks);
            let spills: Vec<u32> = self.spill_queues.iter().map(|q| q.base).collect();
            s += &lookup_fn("ouro_spill_queue", &spills);
            if self.queue_storage == QueueStorage::VirtualList {
                let ids: Vec<u32> = (1..=queues.len() as u32).collect();
                s += &lookup_by_word_fn("ouro_list_queue_id", &queues, &ids);
            }
            if !tables.is_empty() {
                s += &lookup_fn("ouro_class_table", &tables);
                s += &lookup_fn("ouro_class_table_len", &lens);
            }
        }
        s
    }
}

/// A power-of-two ring large enough for `items` plus a sixteenth of slack, so that tickets never
/// lap a slot still in use.
fn queue_capacity(items: u64) -> u32 {
    let want = items + items / 15 + 64;
    want.next_power_of_two().min(1 << 31) as u32
}

/// A lookup from a queue's first word to a small id, as a switch.
fn lookup_by_word_fn(name: &str, words: &[u32], values: &[u32]) -> String {
    let mut s = format!("fn {name}(q: u32) -> u32 {{\n    switch q {{\n");
    for (w, v) in words.iter().zip(values) {
        s += &format!("        case {w}u: {{ return {v}u; }}\n");
    }
    s += "        default: { return 0u; }\n    }\n}\n";
    s
}

/// A per-class lookup as a switch: no per-thread array, no dynamic indexing of a constant.
fn lookup_fn(name: &str, values: &[u32]) -> String {
    let mut s = format!("fn {name}(cls: u32) -> u32 {{\n    switch cls {{\n");
    for (i, v) in values.iter().enumerate().skip(1) {
        s += &format!("        case {i}u: {{ return {v}u; }}\n");
    }
    s += &format!(
        "        default: {{ return {}u; }}\n    }}\n}}\n",
        values[0]
    );
    s
}
