// The pool of whole chunks, shared by data and (in virtualized variants) queue storage.
// A chunk handle is its index + 1, so that 0 can mean "none".
//
// Clean chunks hold only zero words: never-used chunks (the bump over the data region) and drained
// queue segments. Dirty chunks held data. Queue segments must start zeroed (an empty slot is 0), so
// they are taken only from clean sources; data takes dirty chunks first. In virtualized variants data
// may take a chunk only within a budget that keeps enough clean ones for the queue segments that
// the pages and chunks already handed out could ever need.

const OURO_TAKEN_DIRTY: u32 = 0x80000000u;

// Words that come to hold a chunk (chunk-table entries, queue segment indices and list links) go
// 0 -> OURO_CLAIMED -> handle: the lane that claims the word brings the chunk, instead of a herd of
// lanes that each take one and hand back all but one (subgroup-less lanes, or many subgroups, that
// reach a fresh word at once). Others look a bounded while; a claim still in flight after that is
// stolen (the looker brings a chunk of its own), since no lane may wait for another's progress.
// Callers run the claimer's fill before the lookers' look in program order, so that lanes running
// in lockstep find the word filled.

// Whether this lane claimed the empty word.
fn ouro_claim(word: u32) -> bool {
    return atomicLoad(&ouro_heap[word]) == 0u && ouro_cas(word, 0u, OURO_CLAIMED) == 0u;
}

// What `word` holds once a claim in flight is settled; still OURO_CLAIMED after a bounded look.
fn ouro_look_past_claim(word: u32) -> u32 {
    var seen = atomicLoad(&ouro_heap[word]);
    for (var look = 0u; look < OURO_CLAIM_LOOKS && seen == OURO_CLAIMED; look++) {
        seen = atomicLoad(&ouro_heap[word]);
    }
    return seen;
}

// Fills a claimed word with `value`; returns what the word then holds (`value` when this lane
// filled it). Only a claimed word is filled: one that went back to 0 was given up or recycled.
fn ouro_fill(word: u32, value: u32) -> u32 {
    let found = ouro_cas(word, OURO_CLAIMED, value);
    if (found == OURO_CLAIMED) {
        return value;
    }
    if (found == OURO_CAS_GAVE_UP) {
        return atomicLoad(&ouro_heap[word]);
    }
    return found;
}

// Gives up a claim that this lane could not fill, so that a later lane may try.
fn ouro_unclaim(word: u32) {
    ouro_cas(word, OURO_CLAIMED, 0u);
}

// Whether this lane should bring a chunk for `word` after its claim attempt `owner`: the claimer
// does in round 0; in round 1 a looker does if the claim stayed in flight (or was given up and
// this lane claims it now). `seen` receives what the looker found.
fn ouro_should_bring(word: u32, owner: bool, round: u32, seen: ptr<function, u32>) -> bool {
    if (round == 0u) {
        return owner;
    }
    if (owner) {
        return false;
    }
    *seen = ouro_look_past_claim(word);
    if (*seen == 0u) {
        return ouro_claim(word);
    }
    return *seen == OURO_CLAIMED;
}

fn ouro_chunk_bump() -> u32 {
    // Look before adding so that a storm of failing callers cannot wrap the counter.
    if (atomicLoad(&ouro_heap[OURO_H_CHUNK_BUMP]) >= OURO_DATA_CHUNKS) {
        return 0u;
    }
    let index = atomicAdd(&ouro_heap[OURO_H_CHUNK_BUMP], 1u);
    if (index < OURO_DATA_CHUNKS) {
        return index + 1u;
    }
    return 0u;
}

// A zeroed chunk for queue storage or data, or 0, after `looks` looks at the pool: chunks that
// racing lanes hand back may arrive in between, and many takers at once can make the pool's count
// look empty for a moment. Queue segments take more looks than data: a queue item whose segment
// cannot be had goes to the spill ring, and is lost if that is full too.
fn ouro_chunk_take_clean(looks: u32) -> u32 {
    for (var look = 0u; look < looks; look++) {
        let reused = ouro_pool_dequeue(OURO_CHUNK_QUEUE, OURO_CHUNK_QUEUE_MASK);
        if (reused != 0u) {
            return reused;
        }
        let fresh = ouro_chunk_bump();
        if (fresh != 0u) {
            return fresh;
        }
    }
    return 0u;
}

// In virtualized variants a data chunk whose items may need `slots` queue slots costs
// OURO_SEG_SLOTS + `slots` units of a fixed budget: whatever data takes, enough chunks stay for the
// queue segments its pages (or its chunk token) could ever fill. Standard variants pay nothing.
fn ouro_data_cost(slots: u32) -> u32 {
    return select(0u, OURO_SEG_SLOTS + slots, OURO_QUEUE_RESERVE != 0u);
}

fn ouro_pay(cost: u32) -> bool {
    if (cost == 0u) {
        return true;
    }
    if (atomicLoad(&ouro_heap[OURO_H_DATA_SPENT]) > OURO_DATA_BUDGET - cost) {
        return false;
    }
    if (atomicAdd(&ouro_heap[OURO_H_DATA_SPENT], cost) > OURO_DATA_BUDGET - cost) {
        atomicSub(&ouro_heap[OURO_H_DATA_SPENT], cost);
        return false;
    }
    return true;
}

fn ouro_refund(cost: u32) {
    if (cost != 0u) {
        atomicSub(&ouro_heap[OURO_H_DATA_SPENT], cost);
    }
}

// A chunk for data whose items may need `slots` queue slots, or 0. Dirty ones carry
// OURO_TAKEN_DIRTY so that a chunk given back unused returns to the pool it came from.
fn ouro_chunk_take_data(slots: u32) -> u32 {
    let cost = ouro_data_cost(slots);
    if (!ouro_pay(cost)) {
        return 0u;
    }
    let dirty = ouro_pool_dequeue(OURO_DIRTY_QUEUE, OURO_DIRTY_QUEUE_MASK);
    if (dirty != 0u) {
        return dirty | OURO_TAKEN_DIRTY;
    }
    let clean = ouro_chunk_take_clean(2u);
    if (clean == 0u) {
        ouro_refund(cost);
    }
    return clean;
}

// Hands back a chunk taken by ouro_chunk_take_data(slots) and never used, or that held data.
fn ouro_chunk_give_back(taken: u32, slots: u32) {
    ouro_refund(ouro_data_cost(slots));
    let handle = taken & ~OURO_TAKEN_DIRTY;
    let q = select(OURO_CHUNK_QUEUE, OURO_DIRTY_QUEUE, (taken & OURO_TAKEN_DIRTY) != 0u);
    let mask = select(OURO_CHUNK_QUEUE_MASK, OURO_DIRTY_QUEUE_MASK, (taken & OURO_TAKEN_DIRTY) != 0u);
    if (!ouro_pool_enqueue(q, mask, handle)) {
        ouro_fail(OURO_FLAG_LOST, OURO_H_LOST);
    }
}

// Hands back a chunk that held data whose items could need `slots` queue slots.
fn ouro_chunk_release_dirty(handle: u32, slots: u32) {
    ouro_chunk_give_back(handle | OURO_TAKEN_DIRTY, slots);
}

fn ouro_chunk_base(handle: u32) -> u32 {
    return OURO_DATA_BASE + (((handle & ~OURO_TAKEN_DIRTY) - 1u) << OURO_CHUNK_SHIFT);
}
