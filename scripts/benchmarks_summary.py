#!/usr/bin/env python3
"""Summaries of a sweep (scripts/sweep.sh) for BENCHMARKS.md: per variant, the range of ratios to a
reference CSV over the cells without nulls or lost items; then every cell with nulls or lost items.

usage: benchmarks_summary.py SWEEP.jsonl REFERENCE.csv
"""
import csv
import json
import sys


def main():
    sweep, reference = sys.argv[1], sys.argv[2]
    ref = {}
    with open(reference) as f:
        for row in csv.DictReader(f):
            if row["status"] == "ok":
                ref[(row["allocator"], int(row["num"]), int(row["size"]))] = row
    rows = [json.loads(line) for line in open(sweep) if line.strip()]
    order = []
    per = {}
    bad = []
    for r in rows:
        if "error" in r:
            bad.append(r)
            continue
        a = r["allocator"]
        if a not in per:
            order.append(a)
            per[a] = {"alloc": [], "free": [], "first": []}
        if r["failed_allocs"] or r["lost"] or r["verify_errors"]:
            bad.append(r)
            continue
        c = ref.get((a, r["num"], r["size"]))
        if not c:
            continue
        per[a]["alloc"].append(r["alloc_ms"]["subsequent_median"] / float(c["alloc_ms_subsequent_median"]))
        per[a]["free"].append(r["free_ms"]["subsequent_median"] / float(c["free_ms_subsequent_median"]))
        per[a]["first"].append(r["alloc_ms"]["first"] / float(c["alloc_ms_first"]))
    print("| allocator | cells compared | alloc median ratio (min-max) | cells alloc <= 1.0 | "
          "free median ratio (min-max) | cells free <= 1.0 | first-iteration alloc ratio (min-max) |")
    print("|---|---|---|---|---|---|---|")
    for a in order:
        p = per[a]
        if not p["alloc"]:
            continue
        rng = lambda v, d=2: f"{min(v):.{d}f}-{max(v):.{d}f}"
        print(f"| {a} | {len(p['alloc'])} | {rng(p['alloc'])} | {sum(x <= 1.0 for x in p['alloc'])} | "
              f"{rng(p['free'])} | {sum(x <= 1.0 for x in p['free'])} | {rng(p['first'], 4)} |")
    print()
    print("| allocator | N | S | nulls | lost | verify errors | flags |")
    print("|---|---|---|---|---|---|---|")
    for r in bad:
        if "error" in r:
            print(f"| {r['allocator']} | {r['num']} | {r['size']} | {r['error']} | | | |")
            continue
        print(f"| {r['allocator']} | {r['num']} | {r['size']} | {r['failed_allocs']} | {r['lost']} | "
              f"{r['verify_errors']} | {', '.join(r['flags'])} |")


if __name__ == "__main__":
    main()
