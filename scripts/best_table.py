#!/usr/bin/env python3
"""Per cell, the best of our variants against the best reference allocator, for each measure:
repeated allocation (median of iterations 1-9), free (same) and the first iteration's allocation.
Cells where our best returned nulls are left out of "ours" (a null is not a faster allocation).

usage: best_table.py REFERENCE_SUMMARY.csv SWEEP.jsonl [SWEEP.jsonl ...]
Later sweeps replace earlier rows of the same allocator and cell. REFERENCE_SUMMARY.csv has the
columns allocator,num,size,alloc_ms_first,alloc_ms_subsequent_median,free_ms_first,
free_ms_subsequent_median,status (for example CUDA Ouroboros' six variants and Gallatin).
"""
import csv
import json
import sys


def main():
    reference, sweeps = sys.argv[1], sys.argv[2:]
    ref = {}
    with open(reference) as f:
        for row in csv.DictReader(f):
            if row["status"] != "ok" or row["allocator"] == "cuda-malloc":
                continue
            ref.setdefault((int(row["num"]), int(row["size"])), []).append(row)
    ours = {}
    for path in sweeps:
        for line in open(path):
            r = json.loads(line)
            if "error" in r or r["allocator"] == "bump":
                continue
            ours[(r["allocator"], r["num"], r["size"])] = r
    cells = sorted({(n, s) for (_, n, s) in ours})
    measures = [
        ("alloc median", lambda r: r["alloc_ms"]["subsequent_median"], "alloc_ms_subsequent_median"),
        ("free median", lambda r: r["free_ms"]["subsequent_median"], "free_ms_subsequent_median"),
        ("first alloc", lambda r: r["alloc_ms"]["first"], "alloc_ms_first"),
    ]
    head = "| N | S |"
    rule = "|---|---|"
    for name, _, _ in measures:
        head += f" {name}: ours (variant) | best reference (allocator) | ratio |"
        rule += "---|---|---|"
    print(head)
    print(rule)
    for n, s in cells:
        row = f"| {n} | {s} |"
        mine = [r for (a, cn, cs), r in ours.items() if (cn, cs) == (n, s) and r["failed_allocs"] == 0 and r["lost"] == 0]
        for _, get, col in measures:
            best = min(mine, key=get, default=None)
            refs = [x for x in ref.get((n, s), []) if x[col] not in ("", None)]
            anchor = min(refs, key=lambda x: float(x[col]), default=None)
            if best is None:
                row += " - | "
            else:
                row += f" {get(best):.4f} ({best['allocator']}) | "
            if anchor is None:
                row += "- | - |"
            else:
                row += f"{float(anchor[col]):.4f} ({anchor['allocator']}) | "
                row += f"{get(best) / float(anchor[col]):.2f} |" if best else "- |"
        print(row)


if __name__ == "__main__":
    main()
