// Virtualized-list queue storage: a virtual queue's slots live in a linked list of chunk-sized
// segments taken from the heap. Segment n holds tickets n * OURO_SEG_SLOTS ... Per data chunk the
// metadata keeps, for a chunk serving as a segment, its successor (OURO_SEG_NEXT), a tag naming
// its queue and segment number (OURO_SEG_TAG), and an event counter (OURO_SEG_DONE). The queue's
// header keeps the first live segment and a hint to the newest, and a hint table after the header
// remembers segment n at n % OURO_LIST_HINTS, so that most lanes go straight to their segment.
// Others walk from the nearest hint, appending
// segments as tickets need them; a segment whose tickets have all been enqueued and dequeued is
// marked complete in its tag, unlinked once it reaches the front, and handed back (the newest one always stays, so the list is never
// empty). Walkers only ever read metadata of segments they pass, and check tags, so a segment
// handed back and reused meanwhile sends them round again instead of into someone's data.

fn ouro_seg_tag(q: u32, segment: u32) -> u32 {
    return (ouro_list_queue_id(q) << OURO_SEGNO_BITS) | (segment & OURO_SEGNO_MASK);
}

fn ouro_list_hint(q: u32, segment: u32) -> u32 {
    return q + OURO_QUEUE_HEADER_WORDS + (segment & (OURO_LIST_HINTS - 1u));
}

// The hinted handle of the segment tagged `tag`, or 0. A hint is only a hint: the tag decides.
// (A segment whose tag matches holds a ticket of the caller's, so it cannot be handed back
// before the caller is done with it.)
fn ouro_hinted_segment(q: u32, tag: u32) -> u32 {
    let hinted = atomicLoad(&ouro_heap[ouro_list_hint(q, tag)]);
    if (hinted != 0u && (atomicLoad(&ouro_heap[OURO_SEG_TAG + hinted - 1u]) & ~OURO_SEG_COMPLETE) == tag) {
        return hinted;
    }
    return 0u;
}

// A clean chunk set up as segment `tag` with no successor, or 0.
fn ouro_new_segment(tag: u32) -> u32 {
    let fresh = ouro_chunk_take_clean(OURO_SEGMENT_LOOKS);
    if (fresh == 0u) {
        ouro_fail(OURO_FLAG_OUT_OF_MEMORY, OURO_H_QUEUE_FAILURES);
        return 0u;
    }
    atomicStore(&ouro_heap[OURO_SEG_NEXT + fresh - 1u], 0u);
    atomicStore(&ouro_heap[OURO_SEG_DONE + fresh - 1u], 0u);
    atomicStore(&ouro_heap[OURO_SEG_TAG + fresh - 1u], tag);
    return fresh;
}

fn ouro_drop_segment(handle: u32) {
    atomicStore(&ouro_heap[OURO_SEG_TAG + handle - 1u], 0u);
    if (!ouro_pool_enqueue(OURO_CHUNK_QUEUE, OURO_CHUNK_QUEUE_MASK, handle)) {
        ouro_fail(OURO_FLAG_LOST, OURO_H_LOST);
    }
}

// The tag of `handle`, read a few times if it does not yet show `want` (the store that set it
// came before the link that led here, but relaxed atomics on two words may show them out of order).
fn ouro_seg_tag_is(handle: u32, want: u32) -> bool {
    for (var look = 0u; look < OURO_TAG_LOOKS; look++) {
        if ((atomicLoad(&ouro_heap[OURO_SEG_TAG + handle - 1u]) & ~OURO_SEG_COMPLETE) == want) {
            return true;
        }
    }
    return false;
}

// Brings a new segment `tag` for the claimed word `word` of queue `q` (its first-segment word, or
// the link of segment `guard` whose tag must still be `guard_tag`); returns what `word` then holds.
fn ouro_bring_list_segment(q: u32, word: u32, tag: u32, guard: u32, guard_tag: u32) -> u32 {
    // A segment handed back and reused since this lane read its link must not gain our successor:
    // check its tag after claiming the link (a reuse after this check resets the link to 0, and a
    // fill only ever replaces a claim).
    if (guard != 0u && !ouro_seg_tag_is(guard, guard_tag)) {
        ouro_unclaim(word);
        return 0u;
    }
    let fresh = ouro_new_segment(tag);
    if (fresh == 0u) {
        ouro_unclaim(word);
        return 0u;
    }
    let found = ouro_fill(word, fresh);
    if (found == fresh) {
        atomicAdd(&ouro_heap[OURO_H_QUEUE_CHUNKS], 1u);
        atomicStore(&ouro_heap[ouro_list_hint(q, tag)], fresh);
        // The newest segment is where walks start when no hint helps.
        atomicStore(&ouro_heap[q + OURO_Q_LAST], fresh);
    } else {
        ouro_drop_segment(fresh);
    }
    return found;
}

// Fills `word` (empty or claimed) with a new segment `tag`; returns the successor, or 0 /
// OURO_CLAIMED where none could be had. See ouro_bring_list_segment for `guard`.
fn ouro_grow_list(q: u32, word: u32, tag: u32, guard: u32, guard_tag: u32) -> u32 {
    let owner = ouro_claim(word);
    var handle = OURO_CLAIMED;
    for (var round = 0u; round < 2u; round++) {
        if (ouro_should_bring(word, owner, round, &handle)) {
            handle = ouro_bring_list_segment(q, word, tag, guard, guard_tag);
        }
    }
    return handle;
}

// The handle of segment `segment` of list queue `q`, appending segments as needed; 0 where it
// cannot be reached (no chunk left, or the walk went stale twice).
fn ouro_list_segment(q: u32, segment: u32) -> u32 {
    let queue_bits = ouro_list_queue_id(q) << OURO_SEGNO_BITS;
    let hinted = ouro_hinted_segment(q, queue_bits | (segment & OURO_SEGNO_MASK));
    if (hinted != 0u) {
        return hinted;
    }
    let first_word = q + OURO_Q_FIRST;
    var handle = atomicLoad(&ouro_heap[first_word]);
    if (handle == 0u || handle == OURO_CLAIMED) {
        // A new list starts at segment 0, whoever asks first.
        var made = 0u;
        if (ouro_is_first_with(first_word)) {
            made = ouro_grow_list(q, first_word, ouro_seg_tag(q, 0u), 0u, 0u);
        }
        handle = ouro_share_from_first_with(first_word, made);
        if (handle == 0u || handle == OURO_CLAIMED) {
            return 0u;
        }
    }
    for (var round = 0u; round < 2u; round++) {
        if (round == 1u) {
            handle = atomicLoad(&ouro_heap[first_word]);
        } else {
            // Start from the predecessor's hint, else from the newest segment when it is not past
            // the target, else from the first.
            let before = ouro_hinted_segment(q, queue_bits | ((segment - 1u) & OURO_SEGNO_MASK));
            let last = select(atomicLoad(&ouro_heap[q + OURO_Q_LAST]), before, before != 0u);
            let last_tag = select(0u, atomicLoad(&ouro_heap[OURO_SEG_TAG + last - 1u]), last != 0u) & ~OURO_SEG_COMPLETE;
            if ((last_tag & ~OURO_SEGNO_MASK) == queue_bits && (last_tag & OURO_SEGNO_MASK) <= (segment & OURO_SEGNO_MASK)) {
                handle = last;
            }
        }
        var number = atomicLoad(&ouro_heap[OURO_SEG_TAG + handle - 1u]) & ~OURO_SEG_COMPLETE;
        if ((number & ~OURO_SEGNO_MASK) != queue_bits) {
            continue;
        }
        number = number & OURO_SEGNO_MASK;
        for (var hop = 0u; hop < OURO_MAX_HOPS; hop++) {
            if (number == (segment & OURO_SEGNO_MASK)) {
                if (hop != 0u) {
                    atomicStore(&ouro_heap[ouro_list_hint(q, number)], handle);
                }
                return handle;
            }
            let link = OURO_SEG_NEXT + handle - 1u;
            var next = atomicLoad(&ouro_heap[link]);
            if (next == 0u || next == OURO_CLAIMED) {
                var made = 0u;
                if (ouro_is_first_with(link)) {
                    made = ouro_grow_list(q, link, ouro_seg_tag(q, number + 1u), handle, queue_bits | number);
                }
                next = ouro_share_from_first_with(link, made);
                if (next == 0u || next == OURO_CLAIMED) {
                    return 0u;
                }
            }
            number = (number + 1u) & OURO_SEGNO_MASK;
            if (!ouro_seg_tag_is(next, queue_bits | number)) {
                break;
            }
            handle = next;
        }
    }
    atomicAdd(&ouro_heap[OURO_H_QUEUE_FAILURES], 1u);
    return 0u;
}

fn ouro_segment_slot(q: u32, mask: u32, ticket: u32) -> u32 {
    let t = ticket & mask;
    let handle = ouro_list_segment(q, t >> OURO_SEG_SHIFT);
    if (handle == 0u) {
        return 0u;
    }
    return (ouro_chunk_base(handle) >> 2u) + (t & (OURO_SEG_SLOTS - 1u));
}

// Unlinks complete segments from the front of the list, keeping the newest.
fn ouro_list_retire(q: u32) {
    let first_word = q + OURO_Q_FIRST;
    for (var step = 0u; step < 4u; step++) {
        let handle = atomicLoad(&ouro_heap[first_word]);
        if (handle == 0u) {
            return;
        }
        let tag = atomicLoad(&ouro_heap[OURO_SEG_TAG + handle - 1u]);
        let next = atomicLoad(&ouro_heap[OURO_SEG_NEXT + handle - 1u]);
        if ((tag & OURO_SEG_COMPLETE) == 0u || next == 0u || next == OURO_CLAIMED) {
            return;
        }
        if (ouro_cas(first_word, handle, next) == handle) {
            atomicSub(&ouro_heap[OURO_H_QUEUE_CHUNKS], 1u);
            ouro_drop_segment(handle);
        }
    }
}

fn ouro_segment_slot_done(q: u32, mask: u32, ticket: u32, slot: u32) {
    if (slot == 0u) {
        // The walk found no segment for this ticket: there is nothing to count it on.
        return;
    }
    let handle = (((slot << 2u) - OURO_DATA_BASE) >> OURO_CHUNK_SHIFT) + 1u;
    // The counter starts at 0 in each of the chunk's lives as a segment (set before the segment is
    // linked, so before any lane can count on it); 2 * OURO_SEG_SLOTS events complete a life. A
    // count carried over from an earlier life would complete the next one early.
    var look = (ticket & (OURO_SEG_SLOTS - 1u)) == OURO_SEG_SLOTS - 1u;
    if (ouro_ticket(OURO_SEG_DONE + handle - 1u) + 1u == 2u * OURO_SEG_SLOTS) {
        atomicOr(&ouro_heap[OURO_SEG_TAG + handle - 1u], OURO_SEG_COMPLETE);
        look = true;
    }
    // The lane that completes a segment, and the lanes done with the last ticket of any segment,
    // look at the front, so that an unlink missed in a race is made by a later one.
    if (look) {
        ouro_list_retire(q);
    }
}
