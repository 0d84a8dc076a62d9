#!/usr/bin/env python3
"""Slowdown of OpenMP programs under tasklens.

Runs every program of a list three ways -- uninstrumented, with an OMPT tool whose callbacks are
empty (bench/empty_tool), and under `tasklens run` -- interleaved (A B C A B C ...) N times each,
and prints the median times, the slowdown ratios and their geometric mean; writes a CSV.

A program's time is the `time=<seconds>` it prints when it prints one (bench/programs do: the
parallel part only), else the wall time of the process.

The program list is a text file, one program per line: `label: command args...`, where the
command may use {build} for the build directory; `#` starts a comment. Examples:
    fib-25-cut12: {build}/bench/programs/fib 25 12
    dep_chain:    {build}/examples/dep_chain 200 100

    bench/overhead/overhead.py --build build --list bench/overhead/examples.txt --runs 5 \\
        --threads 2 --csv overhead.csv
"""
import argparse
import csv
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

MODES = ("plain", "empty", "tasklens")


def read_list(path, build):
    programs = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if ":" not in line:
                sys.exit(f"{path}:{n}: expected 'label: command args...'")
            label, command = line.split(":", 1)
            argv = command.replace("{build}", build).split()
            programs.append((label.strip(), argv))
    return programs


def run_once(mode, argv, build, threads, scratch):
    env = dict(os.environ)
    env["OMP_NUM_THREADS"] = str(threads)
    for k in ("OMP_TOOL_LIBRARIES", "TASKLENS_OUTPUT"):
        env.pop(k, None)
    cmd = list(argv)
    out_dir = None
    if mode == "empty":
        env["OMP_TOOL_LIBRARIES"] = os.path.join(build, "lib", "libtasklens_empty_tool.so")
    elif mode == "tasklens":
        out_dir = tempfile.mkdtemp(prefix="overhead-", dir=scratch)
        shutil.rmtree(out_dir)
        cmd = [os.path.join(build, "bin", "tasklens"), "run", "-q", "-o", out_dir, "--"] + cmd
    t0 = time.monotonic()
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} ({mode}) failed with status {p.returncode}:\n{p.stderr}")
    m = re.search(r"\btime=([0-9.eE+-]+)", p.stdout)
    events = lost = None
    if out_dir:
        import json
        with open(os.path.join(out_dir, "experiment.json")) as f:
            meta = json.load(f)
        events = meta["recorder"]["events_written"]
        lost = meta["recorder"]["events_lost"]
        shutil.rmtree(out_dir, ignore_errors=True)
    return (float(m.group(1)) if m else wall), ("printed" if m else "wall"), events, lost


def geomean(values):
    values = [v for v in values if v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build", help="build directory (default: build)")
    ap.add_argument("--list", required=True, help="program list file")
    ap.add_argument("--runs", type=int, default=5, help="runs of each program in each mode")
    ap.add_argument("--threads", type=int, default=2, help="OMP_NUM_THREADS")
    ap.add_argument("--csv", help="write the results here")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    programs = read_list(args.list, build)
    scratch = tempfile.mkdtemp(prefix="tasklens-overhead-")
    rows = []
    try:
        print(f"{len(programs)} programs, {args.runs} interleaved runs per mode, "
              f"OMP_NUM_THREADS={args.threads}, KMP_BLOCKTIME={os.environ.get('KMP_BLOCKTIME', 'default')}")
        print(f"{'program':<22} {'time':>5} {'plain s':>9} {'empty s':>9} {'tasklens s':>10} "
              f"{'empty/plain':>11} {'tl/plain':>9} {'tl/empty':>9} {'events':>11} {'lost':>5}")
        for label, argv in programs:
            times = {m: [] for m in MODES}
            source = events = lost = None
            for _ in range(args.runs):
                for mode in MODES:
                    t, source, ev, lo = run_once(mode, argv, build, args.threads, scratch)
                    times[mode].append(t)
                    if ev is not None:
                        events, lost = ev, lo
            med = {m: statistics.median(times[m]) for m in MODES}
            row = {
                "program": label,
                "command": " ".join(argv),
                "time_source": source,
                "runs": args.runs,
                "threads": args.threads,
                **{f"median_{m}_s": med[m] for m in MODES},
                **{f"min_{m}_s": min(times[m]) for m in MODES},
                **{f"max_{m}_s": max(times[m]) for m in MODES},
                "empty_over_plain": med["empty"] / med["plain"],
                "tasklens_over_plain": med["tasklens"] / med["plain"],
                "tasklens_over_empty": med["tasklens"] / med["empty"],
                "events": events,
                "events_lost": lost,
            }
            rows.append(row)
            print(f"{label:<22} {source:>5} {med['plain']:9.4f} {med['empty']:9.4f} "
                  f"{med['tasklens']:10.4f} {row['empty_over_plain']:11.3f} "
                  f"{row['tasklens_over_plain']:9.3f} {row['tasklens_over_empty']:9.3f} "
                  f"{events:>11} {lost:>5}", flush=True)
        print(f"geometric mean: empty/plain {geomean([r['empty_over_plain'] for r in rows]):.3f}, "
              f"tasklens/plain {geomean([r['tasklens_over_plain'] for r in rows]):.3f}, "
              f"tasklens/empty {geomean([r['tasklens_over_empty'] for r in rows]):.3f}")
        if args.csv:
            with open(args.csv, "w", newline="") as f:
                w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
                w.writeheader()
                w.writerows(rows)
            print(f"wrote {args.csv}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
