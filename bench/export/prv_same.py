#!/usr/bin/env python3
"""Whether two Paraver exports mean the same: the .prv records as a multiset per time, the .pcf
and .row byte for byte.

    bench/export/prv_same.py A B [--no-names]

A and B are base names (A.prv, A.pcf, A.row). Event lines with several type:value pairs are
expanded into one record per pair (`2:cpu:appl:task:thread:time:type:value`), so a trace that
writes the events of one object and time on one line compares equal to one that writes them on
several. Records of one time may come in any order (Paraver orders by time only); the records
of each time are compared as multisets, reading both files once, side by side (a 2 GB .prv takes
about a minute). Also checks that each .prv is sorted by time (a state's begin, an event's time, a
communication's send) and that the headers match. --no-names skips the .pcf and .row.
Exit status 0 when the same; prints the first differences otherwise.
"""
import argparse
import collections
import filecmp
import itertools
import sys


def records(path, stats):
    """(time, [expanded records]) for each time, in file order; checks the order."""
    with open(path, "rb") as f:
        header = f.readline()
        stats["header"] = header
        last = -1

        def expanded():
            nonlocal last
            for n, line in enumerate(f, start=2):
                line = line.rstrip(b"\n")
                if not line or line[:1] in (b"#", b"c"):
                    continue
                v = line.split(b":")
                t = int(v[5])
                if t < last:
                    raise SystemExit(f"{path}: line {n}: not sorted by time: {line.decode()}")
                last = t
                stats["lines"] += 1
                if v[0] == b"2":
                    head = b":".join(v[:6])
                    for k in range(6, len(v) - 1, 2):
                        stats["events"] += 1
                        yield t, head + b":" + v[k] + b":" + v[k + 1]
                else:
                    yield t, line

        for t, group in itertools.groupby(expanded(), key=lambda r: r[0]):
            yield t, [r for _, r in group]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--no-names", action="store_true")
    args = ap.parse_args()
    bad = []
    stats = {name: collections.Counter() for name in (args.a, args.b)}
    ra = records(args.a + ".prv", stats[args.a])
    rb = records(args.b + ".prv", stats[args.b])
    times = 0
    for (ta, ga), (tb, gb) in itertools.zip_longest(ra, rb, fillvalue=(None, None)):
        times += 1
        if ta != tb:
            bad.append(f"time {ta} in {args.a}.prv where {args.b}.prv has {tb}")
            break
        ca, cb = collections.Counter(ga), collections.Counter(gb)
        if ca != cb:
            only_a = [r.decode() for r in (ca - cb).elements()]
            only_b = [r.decode() for r in (cb - ca).elements()]
            bad.append(f"time {ta}: only in A {only_a[:5]}, only in B {only_b[:5]}")
            if len(bad) >= 10:
                break
    sa, sb = stats[args.a], stats[args.b]
    if not bad and sa["header"] != sb["header"]:
        bad.append(f"headers differ: {sa['header']!r} {sb['header']!r}")
    if not args.no_names:
        for suffix in (".pcf", ".row"):
            if not filecmp.cmp(args.a + suffix, args.b + suffix, shallow=False):
                bad.append(f"{suffix} files differ")
    print(f"{times} times; lines {sa['lines']} / {sb['lines']}; "
          f"events {sa['events']} / {sb['events']}")
    for b in bad:
        print(b)
    print("same" if not bad else "DIFFERENT")
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
