#!/usr/bin/env python3
"""The bump baseline rows of a sweep (the `baseline` object of each JSON line) beside CUDA's bump
floor on the same GPU model (h200_cuda_floor.csv: kind,n,size,iter,ms; median of iterations 1-9).

usage: bump_table.py SWEEP.jsonl FLOOR.csv
"""
import csv
import json
import statistics
import sys


def fmt(v):
    return "-" if v is None else f"{v:.4f}"


def main():
    floor = {}
    with open(sys.argv[2]) as f:
        for row in csv.DictReader(f):
            if int(row["iter"]) >= 1:
                floor.setdefault((row["kind"], int(row["n"])), []).append(float(row["ms"]))
    floor = {k: statistics.median(v) for k, v in floor.items()}
    print("| N | S | bump alloc first | bump alloc median | bump free first | bump free median | "
          "CUDA empty kernel | CUDA bump (atomicAdd per thread) |")
    print("|---|---|---|---|---|---|---|---|")
    for line in open(sys.argv[1]):
        r = json.loads(line)
        b = r.get("baseline")
        if not b:
            continue
        n = r["num"]
        print(f"| {n} | {r['size']} | {fmt(b['alloc_ms']['first'])} | {fmt(b['alloc_ms']['subsequent_median'])} | "
              f"{fmt(b['free_ms']['first'])} | {fmt(b['free_ms']['subsequent_median'])} | "
              f"{fmt(floor.get(('empty', n)))} | {fmt(floor.get(('bump_thread', n)))} |")


if __name__ == "__main__":
    main()
