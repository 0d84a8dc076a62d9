#!/usr/bin/env python3
"""Where recording's cost goes with 1 and with 2 application threads: fib without cut-off under
the empty OMPT tool and under the recorder, in interleaved rounds.

    bench/speed/thread_split.py [--build build] [--fib 27] [--rounds 7]

Per thread count, medians over the rounds of: the program's printed time= (its parallel part)
and the ratio recorder / empty tool within a round; the added wall time per event; the process's
CPU time (wait4), the writer thread's (recorder.writer_cpu_ns) and what is left for the
application threads over the empty tool, per event; the process's voluntary and involuntary
context switches (the writer's wake-ups are voluntary switches); the most chunks in flight.
The ratio compares the added time with the program's own time per event, which libomp makes many
times longer with 2 threads than with 1 on fine-grained tasks (its idle thread steals and
yields): compare the added ns per event, not only the ratios. Prints the load average.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import sys
import tempfile


def run(build, fib, mode, threads, scratch, i):
    env = dict(os.environ)
    env["OMP_NUM_THREADS"] = str(threads)
    for k in ("OMP_TOOL_LIBRARIES", "TASKLENS_OUTPUT", "TASKLENS_OUTPUT_FD"):
        env.pop(k, None)
    out_dir = os.path.join(scratch, f"{mode}-{threads}-{i}")
    if mode == "empty":
        env["OMP_TOOL_LIBRARIES"] = os.path.join(build, "lib", "libtasklens_empty_tool.so")
    else:
        env["OMP_TOOL_LIBRARIES"] = os.path.join(build, "lib", "libtasklens.so")
        env["TASKLENS_OUTPUT"] = out_dir
        env["TASKLENS_QUIET"] = "1"
    prog = os.path.join(build, "bench", "programs", "fib")
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.dup2(w, 1)
            os.execve(prog, [prog, str(fib), "0"], env)
        finally:
            os._exit(127)
    os.close(w)
    out = b""
    while chunk := os.read(r, 4096):
        out += chunk
    os.close(r)
    _, status, ru = os.wait4(pid, 0)
    m = re.search(rb"time=([0-9.]+)", out)
    if status != 0 or not m:
        sys.exit(f"fib {fib} 0 ({mode}, {threads} threads) failed: {out!r}")
    res = {"time": float(m.group(1)), "cpu": ru.ru_utime + ru.ru_stime,
           "vol": ru.ru_nvcsw, "invol": ru.ru_nivcsw}
    if mode == "recorder":
        with open(os.path.join(out_dir, "experiment.json")) as f:
            rec = json.load(f)["recorder"]
        res.update(writer=rec["writer_cpu_ns"] * 1e-9, events=rec["events_written"],
                   lost=rec["events_lost"], peak=rec["peak_chunks_in_use"])
        shutil.rmtree(out_dir, ignore_errors=True)
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--fib", type=int, default=27)
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    load0 = open("/proc/loadavg").read().split()[:3]
    scratch = tempfile.mkdtemp(prefix="tasklens-split-")
    runs = {}
    try:
        for i in range(args.rounds):
            for threads in (1, 2):
                modes = ("empty", "recorder") if i % 2 == 0 else ("recorder", "empty")
                for mode in modes:
                    runs.setdefault((mode, threads), []).append(
                        run(build, args.fib, mode, threads, scratch, i))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    load1 = open("/proc/loadavg").read().split()[:3]
    med = statistics.median
    print(f"thread_split: fib {args.fib} 0, {args.rounds} interleaved rounds, load average "
          f"{' '.join(load0)} before, {' '.join(load1)} after")
    for threads in (1, 2):
        e, r = runs[("empty", threads)], runs[("recorder", threads)]
        ev = r[0]["events"]
        print(f"{threads} thread(s), {ev} events, lost {max(x['lost'] for x in r)}:")
        print(f"  time= empty {med([x['time'] for x in e]):.3f} s, recorder / empty "
              f"x{med([a['time'] / b['time'] for a, b in zip(r, e)]):.2f}, added "
              f"{med([(a['time'] - b['time']) / ev * 1e9 for a, b in zip(r, e)]):.1f} ns/event")
        print(f"  CPU: empty {med([x['cpu'] for x in e]):.3f} s, recorder "
              f"{med([x['cpu'] for x in r]):.3f} s; per event: writer "
              f"{med([a['writer'] / ev * 1e9 for a in r]):.1f} ns, application threads over the "
              f"empty tool {med([(a['cpu'] - a['writer'] - b['cpu']) / ev * 1e9 for a, b in zip(r, e)]):.1f} ns")
        print(f"  context switches voluntary/involuntary: empty {med([x['vol'] for x in e]):.0f}/"
              f"{med([x['invol'] for x in e]):.0f}, recorder {med([x['vol'] for x in r]):.0f}/"
              f"{med([x['invol'] for x in r]):.0f}; chunks in flight at most "
              f"{med([x['peak'] for x in r]):.0f}")


if __name__ == "__main__":
    main()
