// Chunk-based heap (Ouroboros' "chunk" variant).
//
// Each size class allocates from its current chunk and keeps a queue of tokens of chunks that have
// free pages. A chunk keeps a bitmap of its pages (OURO_BITMAP_WORDS words in the metadata) and one
// state word: pages in use (low bits), a LISTED bit (a token is queued) and a generation (high
// bits) that changes whenever the chunk goes back to the pool, so that stale tokens and stale
// "current" words fail their checks instead of allocating in a chunk that another class now owns.
// malloc reserves pages with a CAS on the state word (one per subgroup), then claims bits; a free
// that makes a full chunk non-full queues its token; the free that empties a chunk returns it to
// the pool. Nobody waits: a lane that loses every race takes another chunk or fails.

fn ouro_pages_per_chunk(cls: u32) -> u32 {
    return OURO_CHUNK_BYTES >> (cls + OURO_MIN_PAGE_SHIFT);
}

fn ouro_state_word(handle: u32) -> u32 {
    return OURO_CHUNK_STATE + handle - 1u;
}

fn ouro_state_gen(state: u32) -> u32 {
    return (state >> OURO_GEN_SHIFT) & OURO_TOKEN_GEN_MASK;
}

fn ouro_token(handle: u32, state: u32) -> u32 {
    return handle | (ouro_state_gen(state) << OURO_HANDLE_BITS);
}

fn ouro_token_handle(token: u32) -> u32 {
    return token & OURO_HANDLE_MASK;
}

fn ouro_token_gen(token: u32) -> u32 {
    return token >> OURO_HANDLE_BITS;
}

// Reserves up to `want` pages in the chunk of `token`; returns how many and how many pages of the
// chunk are then in use. 0 pages with fewer than a chunk's pages in use: the CAS lost every race
// (the chunk has room); 0 with a full count: the chunk is full or stale.
fn ouro_reserve(token: u32, cls: u32, want: u32) -> vec2<u32> {
    let word = ouro_state_word(ouro_token_handle(token));
    let per_chunk = ouro_pages_per_chunk(cls);
    var state = atomicLoad(&ouro_heap[word]);
    for (var spin = 0u; spin < OURO_RESERVE_SPINS; spin++) {
        let used = state & OURO_USED_MASK;
        if (ouro_state_gen(state) != ouro_token_gen(token) || used >= per_chunk) {
            return vec2<u32>(0u, per_chunk);
        }
        let take = min(want, per_chunk - used);
        let r = atomicCompareExchangeWeak(&ouro_heap[word], state, state + take);
        if (r.exchanged) {
            return vec2<u32>(take, used + take);
        }
        state = r.old_value;
    }
    return vec2<u32>(0u, min(state & OURO_USED_MASK, per_chunk));
}

// Takes one page of a chunk this lane brought in, and queues the chunk if pages remain for others.
fn ouro_take_one(token: u32, cls: u32) -> u32 {
    let got = ouro_reserve(token, cls, 1u);
    if (got.x == 0u) {
        return OURO_NULL;
    }
    let ptr = ouro_take_reserved(token, cls, 0u);
    if (got.y < ouro_pages_per_chunk(cls)) {
        ouro_list_chunk(ouro_token_handle(token), cls, ouro_token_gen(token));
    }
    return ptr;
}

// Claims a free bit of a chunk in which this lane holds a reservation; returns the page index,
// or OURO_NO_PAGE where every bit looked taken (a racing free had not cleared its bit yet).
fn ouro_claim_bit(handle: u32, cls: u32, start: u32) -> u32 {
    let per_chunk = ouro_pages_per_chunk(cls);
    let words = max(per_chunk / 32u, 1u);
    let invalid = select(0u, ~((1u << per_chunk) - 1u), per_chunk < 32u);
    let bits = OURO_CHUNK_BITS + (handle - 1u) * OURO_BITMAP_WORDS;
    for (var i = 0u; i < words; i++) {
        let w = (start + i) % words;
        var seen = atomicLoad(&ouro_heap[bits + w]) | invalid;
        for (var tries = 0u; tries < 32u && seen != 0xFFFFFFFFu; tries++) {
            let bit = firstTrailingBit(~seen);
            let before = atomicOr(&ouro_heap[bits + w], 1u << bit);
            if ((before & (1u << bit)) == 0u) {
                return w * 32u + bit;
            }
            seen = before | invalid;
        }
    }
    return OURO_NO_PAGE;
}

// Queues the token of a chunk that has free pages, unless one is queued already.
fn ouro_list_chunk(handle: u32, cls: u32, gen: u32) {
    let word = ouro_state_word(handle);
    var state = atomicLoad(&ouro_heap[word]);
    for (var spin = 0u; spin < OURO_RESERVE_SPINS; spin++) {
        if (ouro_state_gen(state) != gen || (state & OURO_LISTED) != 0u) {
            return;
        }
        let r = atomicCompareExchangeWeak(&ouro_heap[word], state, state | OURO_LISTED);
        if (r.exchanged) {
            if (!ouro_class_put(cls, ouro_token(handle, state))) {
                // Nowhere to queue it: unlist the chunk again. Its free pages are out of reach
                // only until its last page is freed and it returns to the pool, so nothing is
                // lost. (Should the chunk have changed hands meanwhile, the clear only costs its
                // new owner a duplicate token, which takers drop.)
                atomicAnd(&ouro_heap[word], ~OURO_LISTED);
                atomicAdd(&ouro_heap[OURO_H_QUEUE_FAILURES], 1u);
            }
            return;
        }
        state = r.old_value;
    }
}

// Gives back one page's reservation of a chunk: lists the chunk if it was full, returns it to the
// pool if it is now empty.
fn ouro_release_page(handle: u32, cls: u32) {
    let word = ouro_state_word(handle);
    let before = atomicSub(&ouro_heap[word], 1u);
    let used = before & OURO_USED_MASK;
    if (used == 1u) {
        // Empty: retire it, unless a reservation slipped in. A new generation voids every token and
        // every "current" word that still names it.
        var state = before - 1u;
        for (var spin = 0u; spin < OURO_RESERVE_SPINS; spin++) {
            if ((state & OURO_USED_MASK) != 0u || ouro_state_gen(state) != ouro_state_gen(before)) {
                break;
            }
            let next = (((state >> OURO_GEN_SHIFT) + 1u) << OURO_GEN_SHIFT);
            let r = atomicCompareExchangeWeak(&ouro_heap[word], state, next);
            if (r.exchanged) {
                ouro_chunk_release_dirty(handle, 1u);
                return;
            }
            state = r.old_value;
        }
    }
    if (used == ouro_pages_per_chunk(cls)) {
        ouro_list_chunk(handle, cls, ouro_state_gen(before));
    }
}

// A token of a chunk of class `cls` with free pages: a queued one (its LISTED bit cleared), or a
// fresh chunk from the pool. 0 when neither can be had.
fn ouro_next_chunk(cls: u32) -> u32 {
    for (var attempt = 0u; attempt < OURO_RESERVE_SPINS; attempt++) {
        let token = ouro_class_take(cls);
        if (token == 0u) {
            break;
        }
        let word = ouro_state_word(ouro_token_handle(token));
        var state = atomicLoad(&ouro_heap[word]);
        for (var spin = 0u; spin < OURO_RESERVE_SPINS; spin++) {
            if (ouro_state_gen(state) != ouro_token_gen(token) || (state & OURO_LISTED) == 0u) {
                break;
            }
            let r = atomicCompareExchangeWeak(&ouro_heap[word], state, state & ~OURO_LISTED);
            if (r.exchanged) {
                return token;
            }
            state = r.old_value;
        }
        // A stale token (the chunk went back to the pool since): drop it.
    }
    let taken = ouro_chunk_take_data(1u);
    if (taken == 0u) {
        return 0u;
    }
    let handle = taken & ~OURO_TAKEN_DIRTY;
    atomicStore(&ouro_heap[OURO_CHUNK_CLASS + handle - 1u], cls + 1u);
    return ouro_token(handle, atomicLoad(&ouro_heap[ouro_state_word(handle)]));
}

fn ouro_page_at(handle: u32, cls: u32, page: u32) -> u32 {
    return ouro_chunk_base(handle) + (page << (cls + OURO_MIN_PAGE_SHIFT));
}

// Takes one reserved page of `token`'s chunk, or gives the reservation back.
fn ouro_take_reserved(token: u32, cls: u32, start: u32) -> u32 {
    let handle = ouro_token_handle(token);
    let page = ouro_claim_bit(handle, cls, start);
    if (page == OURO_NO_PAGE) {
        // The free that made room had not cleared its bit where this lane looked (relaxed atomics
        // on two words). Give the reservation back without the listing and retiring of a free, so
        // that the alloc kernel stays small; at worst the chunk waits unlisted for its next free.
        atomicSub(&ouro_heap[ouro_state_word(handle)], 1u);
        atomicAdd(&ouro_heap[OURO_H_CLAIM_MISSES], 1u);
        return OURO_NULL;
    }
    return ouro_page_at(handle, cls, page);
}

fn ouro_malloc(size: u32) -> u32 {
    if (size > OURO_CHUNK_BYTES) {
        ouro_fail(OURO_FLAG_TOO_LARGE, OURO_H_FAILED_ALLOCS);
        return OURO_NULL;
    }
    let cls = ouro_size_class(size);
    let current = OURO_CURRENT_CHUNKS + cls;
    // Shared rounds first: the lanes that see the same current chunk reserve their pages with one
    // CAS, and one of them brings the next chunk when it is full. Then, for lanes still without a
    // page (more lanes than the chunks brought in had pages), rounds with a chunk of their own
    // whose other pages are queued for everyone. One call site of each helper keeps the inlined
    // shader small.
    for (var attempt = 0u; attempt < 2u * OURO_CHUNK_ATTEMPTS; attempt++) {
        let together = attempt < OURO_CHUNK_ATTEMPTS;
        var token = 0u;
        var bring = true;
        if (together) {
            token = atomicLoad(&ouro_heap[current]);
            if (token == OURO_CLAIMED) {
                token = ouro_look_past_claim(current);
                if (token == OURO_CLAIMED) {
                    continue;
                }
            }
            let lane = ouro_rank_with(token);
            var got = vec2<u32>(0u, ouro_pages_per_chunk(cls));
            if (token != 0u && lane.x == 0u) {
                got = ouro_reserve(token, cls, lane.y);
            }
            let granted = ouro_share_from_first_with(token, got.x);
            let has_room = ouro_share_from_first_with(token, u32(got.y < ouro_pages_per_chunk(cls)));
            if (lane.x < granted) {
                let ptr = ouro_take_reserved(token, cls, lane.x);
                if (ptr != OURO_NULL) {
                    return ptr;
                }
                continue;
            }
            if (OURO_LANES_SHARE && granted == 0u && has_room == 1u) {
                // Only outraced on a chunk with room: try it again rather than bring a chunk.
                // (Without subgroups every lane would retry one CAS word, one page at a time, so
                // there a lost race brings a chunk instead.)
                continue;
            }
            bring = ouro_is_first_with(token);
        }
        var out_of_memory = 0u;
        // On the subgroup path, in shared rounds, the lane that claims the full current chunk
        // brings the next one (one bringer, not one per subgroup that saw it full); the others try
        // again. Only a claimer writes a claimed current word, so a store settles it. Without
        // subgroups each lane brings its own and races to make it current.
        let claim = together && OURO_LANES_SHARE;
        if (bring && claim) {
            bring = ouro_cas(current, token, OURO_CLAIMED) == token;
        }
        if (bring) {
            let next = ouro_next_chunk(cls);
            if (next == 0u) {
                out_of_memory = 1u;
                if (claim) {
                    atomicStore(&ouro_heap[current], token);
                }
            } else if (claim) {
                atomicStore(&ouro_heap[current], next);
            } else if (!together || ouro_cas(current, token, next) != token) {
                let ptr = ouro_take_one(next, cls);
                if (ptr != OURO_NULL) {
                    return ptr;
                }
            }
        }
        if (together) {
            out_of_memory = ouro_share_from_first_with(token, out_of_memory);
        }
        if (out_of_memory == 1u) {
            break;
        }
    }
    ouro_fail(OURO_FLAG_OUT_OF_MEMORY, OURO_H_FAILED_ALLOCS);
    return OURO_NULL;
}

fn ouro_free(ptr: u32) {
    let class_plus_one = ouro_free_class(ptr);
    if (class_plus_one == 0u) {
        return;
    }
    let cls = class_plus_one - 1u;
    let chunk = (ptr - OURO_DATA_BASE) >> OURO_CHUNK_SHIFT;
    let offset = (ptr - OURO_DATA_BASE) & (OURO_CHUNK_BYTES - 1u);
    let page = offset >> (cls + OURO_MIN_PAGE_SHIFT);
    let word = OURO_CHUNK_BITS + chunk * OURO_BITMAP_WORDS + page / 32u;
    let bit = 1u << (page % 32u);
    if ((atomicAnd(&ouro_heap[word], ~bit) & bit) == 0u) {
        // Not allocated: a double free or a pointer into a free page. Nothing changed.
        ouro_fail(OURO_FLAG_INVALID_FREE, OURO_H_INVALID_FREES);
        return;
    }
    ouro_release_page(chunk + 1u, cls);
}
