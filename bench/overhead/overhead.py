#!/usr/bin/env python3
"""Slowdown of OpenMP programs under tasklens: the table of POT's Table 2 (Pereira et al.) on this machine.

Runs every program of a list four ways -- uninstrumented ("plain"), with an OMPT tool whose
callbacks are all registered and empty (bench/empty_tool: the floor of OMPT itself, POT's "no-op"),
with the naive floor of a tracing tool (bench/naive_tool: a 16-byte time-stamped record per event
stored in memory, nothing written; left out when its library is not built) and under
`tasklens run` -- in rounds: each round runs every program once in every mode (the mode
order rotates from round to round), so that a change of machine load falls on all programs and
modes alike. Prints, per program and thread count, the median slowdown of each column against the
uninstrumented run and its range over the rounds, the geometric mean, the budgets of
docs/PERFORMANCE.md (issue 8), and writes every run and the table as CSV.

The time of a run is the `time=<seconds>` the program prints when it prints one (bench/programs
do: the wall time of the parallel part only, without start-up, the recorder's set-up and the
writing of the trace at exit); else the wall time of the process (which then includes the fixed
cost of `tasklens run`, tens of milliseconds). The slowdown of a column is the median over the
rounds of (time in that mode / uninstrumented time in the same round); the range is the smallest
and largest of those ratios.

The program list is a text file, one program per line: `label: command args...`, where the
command may use {build} for the build directory and {size} for --size; `#` starts a comment:
    fib:          {build}/bench/programs/fib {size}
    dep_chain:    {build}/examples/dep_chain 200 100

The issue-8 table (the task suite at size small, 2 threads and 1 thread):
    bench/overhead/overhead.py --build build --list bench/overhead/task_suite.txt \\
        --size small --threads 2,1 --runs 5 --csv overhead-suite.csv
"""
import argparse
import csv
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

MODES = ["plain", "empty", "naive", "tasklens"]  # "naive" dropped in main() when not built
# Budgets (docs/PERFORMANCE.md, issue 8).
BAR_GEOMEAN = 1.03
BAR_FINE_FIB = 1.10
BAR_OVER_EMPTY = 1.05


def read_list(path, build, size):
    programs = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if ":" not in line:
                sys.exit(f"{path}:{n}: expected 'label: command args...'")
            label, command = line.split(":", 1)
            argv = command.replace("{build}", build).replace("{size}", size).split()
            programs.append((label.strip(), argv))
    return programs


def parameters(program, output):
    """The parameters a program prints before threads=/time= ("n=29 cutoff=0"), if any."""
    line = output.strip().splitlines()[-1] if output.strip() else ""
    words = line.split()
    if words and words[0] == os.path.basename(program):
        words = words[1:]
    params = []
    for w in words:
        if w.startswith(("threads=", "time=", "tasks=")) or w in ("OK", "FAILED"):
            break
        params.append(w)
    return " ".join(params)


def run_once(mode, argv, build, threads, scratch):
    env = dict(os.environ)
    env["OMP_NUM_THREADS"] = str(threads)
    for k in ("OMP_TOOL_LIBRARIES", "TASKLENS_OUTPUT"):
        env.pop(k, None)
    cmd = list(argv)
    out_dir = None
    if mode == "empty":
        env["OMP_TOOL_LIBRARIES"] = os.path.join(build, "lib", "libtasklens_empty_tool.so")
    elif mode == "naive":
        env["OMP_TOOL_LIBRARIES"] = os.path.join(build, "lib", "libtasklens_naive_tool.so")
    elif mode == "tasklens":
        out_dir = tempfile.mkdtemp(prefix="overhead-", dir=scratch)
        shutil.rmtree(out_dir)
        cmd = [os.path.join(build, "bin", "tasklens"), "run", "-q", "-o", out_dir, "--"] + cmd
    t0 = time.monotonic()
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - t0
    if p.returncode != 0 or " FAILED" in p.stdout:
        sys.exit(f"{' '.join(cmd)} ({mode}) failed with status {p.returncode}:\n{p.stdout}{p.stderr}")
    m = re.search(r"\btime=([0-9.eE+-]+)", p.stdout)
    run = {"time": float(m.group(1)) if m else wall, "source": "printed" if m else "wall",
           "wall": wall, "output": p.stdout, "events": None, "lost": None, "writer_cpu_ns": None}
    if out_dir:
        with open(os.path.join(out_dir, "experiment.json")) as f:
            rec = json.load(f)["recorder"]
        run["events"] = rec["events_written"]
        run["lost"] = rec["events_lost"]
        run["writer_cpu_ns"] = rec.get("writer_cpu_ns")
        shutil.rmtree(out_dir, ignore_errors=True)
    return run


def geomean(values):
    values = [v for v in values if v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def summarize(label, argv, runs, threads):
    """runs: list of rounds, each {mode: run}. Returns the table row."""
    ratio = {m: [r[m]["time"] / r["plain"]["time"] for r in runs] for m in MODES[1:]}
    over_empty = [r["tasklens"]["time"] / r["empty"]["time"] for r in runs]
    events = max(r["tasklens"]["events"] for r in runs)
    med = {m: statistics.median(r[m]["time"] for r in runs) for m in MODES}
    writer = [r["tasklens"]["writer_cpu_ns"] for r in runs if r["tasklens"]["writer_cpu_ns"]]
    naive = {}
    if "naive" in MODES:
        naive = {"naive_slowdown": statistics.median(ratio["naive"]),
                 "naive_min": min(ratio["naive"]), "naive_max": max(ratio["naive"]),
                 "tasklens_over_naive": statistics.median(
                     r["tasklens"]["time"] / r["naive"]["time"] for r in runs)}
    return {
        "program": label,
        "parameters": parameters(argv[0], runs[0]["plain"]["output"]),
        "time_source": runs[0]["plain"]["source"],
        "rounds": len(runs),
        **{f"median_{m}_s": med[m] for m in MODES},
        "empty_slowdown": statistics.median(ratio["empty"]),
        "empty_min": min(ratio["empty"]),
        "empty_max": max(ratio["empty"]),
        "tasklens_slowdown": statistics.median(ratio["tasklens"]),
        "tasklens_min": min(ratio["tasklens"]),
        "tasklens_max": max(ratio["tasklens"]),
        "tasklens_over_empty": statistics.median(over_empty),
        **naive,
        "events": events,
        "events_lost": sum(r["tasklens"]["lost"] for r in runs),
        # Uninstrumented thread time per recorded event (time x threads / events): how
        # fine-grained the program is, next to the ~14 ns of one clock read per event.
        "plain_ns_per_event": med["plain"] * threads * 1e9 / events if events else float("nan"),
        "writer_cpu_ns_per_event": statistics.median(writer) / events if writer and events else 0.0,
    }


def print_table(threads, rows, load):
    print(f"\nOMP_NUM_THREADS={threads}, {rows[0]['rounds']} rounds, load average {load}; "
          f"slowdown = median over rounds of time / uninstrumented time [min-max]")
    has_naive = "naive_slowdown" in rows[0]
    print(f"{'program':<16} {'parameters':<34} {'plain s':>8} {'empty tool':>18} "
          + (f"{'naive tool':>18} " if has_naive else "")
          + f"{'tasklens':>18} {'tl/empty':>8} " + (f"{'tl/naive':>8} " if has_naive else "")
          + f"{'events':>10} {'ns/ev':>6}")
    for r in rows:
        print(f"{r['program']:<16} {r['parameters'][:34]:<34} {r['median_plain_s']:8.3f} "
              f"{r['empty_slowdown']:6.2f} [{r['empty_min']:.2f}-{r['empty_max']:.2f}] "
              + (f"{r['naive_slowdown']:6.2f} [{r['naive_min']:.2f}-{r['naive_max']:.2f}] "
                 if has_naive else "")
              + f"{r['tasklens_slowdown']:6.2f} [{r['tasklens_min']:.2f}-{r['tasklens_max']:.2f}] "
              f"{r['tasklens_over_empty']:8.2f} "
              + (f"{r['tasklens_over_naive']:8.2f} " if has_naive else "")
              + f"{r['events']:>10} {r['plain_ns_per_event']:6.0f}"
              + ("" if r["time_source"] == "printed" else "  (wall time)")
              + (f"  LOST {r['events_lost']}" if r["events_lost"] else ""))
    g_empty = geomean([r["empty_slowdown"] for r in rows])
    g_tl = geomean([r["tasklens_slowdown"] for r in rows])
    g_over = geomean([r["tasklens_over_empty"] for r in rows])
    if has_naive:
        g_naive = geomean([r["naive_slowdown"] for r in rows])
        g_over_naive = geomean([r["tasklens_over_naive"] for r in rows])
        print(f"{'geometric mean':<51} {'':8} {g_empty:6.2f} {'':11} {g_naive:6.2f} {'':11} "
              f"{g_tl:6.2f} {'':11} {g_over:8.2f} {g_over_naive:8.2f}")
    else:
        print(f"{'geometric mean':<51} {'':8} {g_empty:6.2f} {'':11} {g_tl:6.2f} {'':11} "
              f"{g_over:8.2f}")
    print("budgets: geometric mean of tasklens <= %.2f: %s (%.3f)" %
          (BAR_GEOMEAN, "met" if g_tl <= BAR_GEOMEAN else "NOT met", g_tl))
    for r in rows:
        if r["program"] == "fib":
            print("         fine-grained fib <= %.2f: %s (%.2f, %s)" %
                  (BAR_FINE_FIB, "met" if r["tasklens_slowdown"] <= BAR_FINE_FIB else "NOT met",
                   r["tasklens_slowdown"], r["parameters"]))
    over = [r for r in rows if r["tasklens_over_empty"] > BAR_OVER_EMPTY]
    print("         tasklens / empty tool <= %.2f on every program: %s" %
          (BAR_OVER_EMPTY, "met" if not over else "NOT met (" + ", ".join(
              f"{r['program']} {r['tasklens_over_empty']:.2f}" for r in over) + ")"))
    return g_empty, g_tl, g_over


def markdown_table(threads, rows, load):
    out = [f"OMP_NUM_THREADS={threads}, {rows[0]['rounds']} rounds, load average {load}:", "",
           "| program | parameters | uninstrumented s | empty tool | tasklens | tasklens / empty "
           "| events | ns/event |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['program']} | {r['parameters']} | {r['median_plain_s']:.3f} "
                   f"| {r['empty_slowdown']:.2f} [{r['empty_min']:.2f}-{r['empty_max']:.2f}] "
                   f"| {r['tasklens_slowdown']:.2f} [{r['tasklens_min']:.2f}-{r['tasklens_max']:.2f}] "
                   f"| {r['tasklens_over_empty']:.2f} | {r['events']} | {r['plain_ns_per_event']:.0f} |")
    out.append(f"| **geometric mean** | | | {geomean([r['empty_slowdown'] for r in rows]):.2f} "
               f"| **{geomean([r['tasklens_slowdown'] for r in rows]):.2f}** "
               f"| {geomean([r['tasklens_over_empty'] for r in rows]):.2f} | | |")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build", help="build directory (default: build)")
    ap.add_argument("--list", required=True, help="program list file")
    ap.add_argument("--size", default="small", help="replaces {size} in the list (default: small)")
    ap.add_argument("--runs", type=int, default=5, help="rounds: runs of each program in each mode")
    ap.add_argument("--threads", default="2",
                    help="OMP_NUM_THREADS, or a comma-separated list run in the same rounds")
    ap.add_argument("--csv", help="write the table here; every run goes to the same name with "
                                  "-runs before the extension")
    ap.add_argument("--markdown", help="also write the tables as Markdown (for docs/PERFORMANCE.md)")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    if not os.path.exists(os.path.join(build, "lib", "libtasklens_naive_tool.so")):
        MODES.remove("naive")
    programs = read_list(args.list, build, args.size)
    thread_counts = [int(t) for t in args.threads.split(",")]
    scratch = tempfile.mkdtemp(prefix="tasklens-overhead-")
    results = {(t, label): [] for t in thread_counts for label, _ in programs}
    all_runs = []
    loads = []
    try:
        print(f"{len(programs)} programs x {len(thread_counts)} thread counts x {len(MODES)} modes, "
              f"{args.runs} rounds, KMP_BLOCKTIME={os.environ.get('KMP_BLOCKTIME', 'default')}, "
              f"load average at start {os.getloadavg()[0]:.2f}", flush=True)
        for rnd in range(args.runs):
            loads.append(os.getloadavg()[0])
            t_round = time.monotonic()
            for threads in thread_counts:
                for label, argv in programs:
                    k = rnd % len(MODES)
                    order = MODES[k:] + MODES[:k]
                    runs = {}
                    for mode in order:
                        runs[mode] = run_once(mode, argv, build, threads, scratch)
                        all_runs.append({"round": rnd, "threads": threads, "program": label,
                                         "mode": mode, "time_s": runs[mode]["time"],
                                         "wall_s": runs[mode]["wall"],
                                         "events": runs[mode]["events"] or "",
                                         "load": loads[-1]})
                    results[(threads, label)].append(runs)
            print(f"round {rnd + 1}/{args.runs} done in {time.monotonic() - t_round:.0f} s "
                  f"(load average {os.getloadavg()[0]:.2f})", flush=True)
        loads.append(os.getloadavg()[0])
        load = f"{min(loads):.2f}-{max(loads):.2f}"
        table = []
        markdown = []
        for threads in thread_counts:
            rows = [summarize(label, argv, results[(threads, label)], threads)
                    for label, argv in programs]
            g = print_table(threads, rows, load)
            markdown.append(markdown_table(threads, rows, load))
            for r in rows:
                table.append({"threads": threads, **r})
            table.append({"threads": threads, "program": "geometric mean", "empty_slowdown": g[0],
                          "tasklens_slowdown": g[1], "tasklens_over_empty": g[2]})
        if args.csv:
            with open(args.csv, "w", newline="") as f:
                w = csv.DictWriter(f, fieldnames=list(table[0].keys()))
                w.writeheader()
                w.writerows(table)
            base, ext = os.path.splitext(args.csv)
            with open(f"{base}-runs{ext or '.csv'}", "w", newline="") as f:
                w = csv.DictWriter(f, fieldnames=list(all_runs[0].keys()))
                w.writeheader()
                w.writerows(all_runs)
            print(f"wrote {args.csv} and {base}-runs{ext or '.csv'}")
        if args.markdown:
            with open(args.markdown, "w") as f:
                f.write("\n".join(markdown))
            print(f"wrote {args.markdown}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
