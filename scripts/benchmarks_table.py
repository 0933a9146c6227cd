#!/usr/bin/env python3
"""Turns the bench's JSON lines (scripts/sweep.sh) into a Markdown table beside a reference CSV in
the format of data/ or anchors: allocator,num,size,alloc_ms_first,alloc_ms_subsequent_median,
free_ms_first,free_ms_subsequent_median,status.

usage: benchmarks_table.py SWEEP.jsonl REFERENCE.csv [ALLOCATOR]
"""
import csv
import json
import sys


def fmt(v, digits=4):
    return "-" if v is None else f"{v:.{digits}f}"


def ratio(a, b):
    if a is None or b is None or b == 0:
        return "-"
    return f"{a / b:.2f}"


def main():
    sweep, reference = sys.argv[1], sys.argv[2]
    only = sys.argv[3] if len(sys.argv) > 3 else None
    ref = {}
    with open(reference) as f:
        for row in csv.DictReader(f):
            key = (row["allocator"], int(row["num"]), int(row["size"]))
            ref[key] = row
    rows = [json.loads(line) for line in open(sweep) if line.strip()]
    print("| allocator | N | S | alloc first | alloc median | free first | free median | bump alloc median | "
          "CUDA alloc first | CUDA alloc median | CUDA free median | alloc ratio | free ratio | nulls | verify errors |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        if only and r.get("allocator") != only:
            continue
        if "error" in r:
            print(f"| {r['allocator']} | {r['num']} | {r['size']} | {r['error']} |||||||||||| ")
            continue
        a, fr = r["alloc_ms"], r["free_ms"]
        base = r.get("baseline", {}).get("alloc_ms", {})
        c = ref.get((r["allocator"], r["num"], r["size"]))
        cf = lambda k: float(c[k]) if c and c["status"] == "ok" and c[k] not in ("", None) else None
        print(
            f"| {r['allocator']} | {r['num']} | {r['size']} | {fmt(a['first'])} | {fmt(a['subsequent_median'])} | "
            f"{fmt(fr['first'])} | {fmt(fr['subsequent_median'])} | {fmt(base.get('subsequent_median'))} | "
            f"{fmt(cf('alloc_ms_first'))} | {fmt(cf('alloc_ms_subsequent_median'))} | {fmt(cf('free_ms_subsequent_median'))} | "
            f"{ratio(a['subsequent_median'], cf('alloc_ms_subsequent_median'))} | "
            f"{ratio(fr['subsequent_median'], cf('free_ms_subsequent_median'))} | {r['failed_allocs']} | {r['verify_errors']} |"
        )


if __name__ == "__main__":
    main()
