#!/usr/bin/env python3
"""Start-up and exit cost of recording: a whole short process, without a tool, with the empty OMPT
tool, with the recorder loaded directly and under `tasklens run`, in interleaved rounds.

    bench/speed/startup.py [--build build] [--rounds 31] [--threads 2] [--before OTHER_BUILD]
                           [-- PROGRAM ARGS...]

The default program is `bench/programs/fib 2 0` (2 tasks, about 13 ms as a whole process on the
project's machine): nearly all of what it costs under a tool is the tool's fixed cost, start-up
and exit. Modes, one run of each per round, the order rotating from round to round:

    plain     the program alone
    empty     OMP_TOOL_LIBRARIES=libtasklens_empty_tool.so (the floor: OMPT with empty callbacks)
    recorder  OMP_TOOL_LIBRARIES=libtasklens.so, TASKLENS_OUTPUT=a new directory (no launcher)
    tasklens  tasklens run -q -o a new directory -- the program

--gap SECONDS sleeps that long before every run: a cold start. A process's first per-thread
perf event waits for an RCU grace period in the kernel (enabling the scheduler's perf hooks: 5 to
19 ms here), which the kernel keeps on for about a second after the last such event is closed,
so back-to-back rounds never see it and a user who runs tasklens once always does (2 seconds is
enough here).

--before OTHER_BUILD adds recorder-before and tasklens-before: the same two modes with another
build's bin/tasklens and lib/libtasklens.so (a copy of bin/, lib/ and libexec/), interleaved in the
same rounds, to measure a change.

A run's wall time is from the fork to the end of wait4() (the same Python fork/exec cost in every
mode); its CPU time is user + system of the process and its waited-for children (wait4's
rusage), which the machine's load changes less than the wall time. Prints per mode the median
wall and CPU time with their ranges, then the medians of the per-round differences and ratios
against the empty tool and against no tool, and the load average before and after.
"""
import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time

MODES = ("plain", "empty", "recorder", "tasklens")


def run_once(mode, argv, build, threads, scratch, n, before=None):
    if mode.endswith("-before"):
        mode, build = mode[:-len("-before")], before
    env = dict(os.environ)
    env["OMP_NUM_THREADS"] = str(threads)
    for k in ("OMP_TOOL_LIBRARIES", "TASKLENS_OUTPUT", "TASKLENS_OUTPUT_FD"):
        env.pop(k, None)
    cmd = list(argv)
    out_dir = os.path.join(scratch, f"{mode}-{n}")
    if mode == "empty":
        env["OMP_TOOL_LIBRARIES"] = os.path.join(build, "lib", "libtasklens_empty_tool.so")
    elif mode == "recorder":
        env["OMP_TOOL_LIBRARIES"] = os.path.join(build, "lib", "libtasklens.so")
        env["TASKLENS_OUTPUT"] = out_dir
        env["TASKLENS_QUIET"] = "1"
    elif mode == "tasklens":
        cmd = [os.path.join(build, "bin", "tasklens"), "run", "-q", "-o", out_dir, "--"] + cmd
    devnull = os.open(os.devnull, os.O_WRONLY)
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            os.dup2(devnull, 1)
            os.execve(cmd[0], cmd, env)
        finally:
            os._exit(127)
    _, status, ru = os.wait4(pid, 0)
    wall = time.monotonic() - t0
    os.close(devnull)
    if status != 0:
        sys.exit(f"{' '.join(cmd)} ({mode}) failed with status {status}")
    if mode in ("recorder", "tasklens"):
        if not os.path.exists(os.path.join(out_dir, "experiment.json")):
            sys.exit(f"{mode}: no experiment.json in {out_dir}")
        shutil.rmtree(out_dir, ignore_errors=True)
    return wall, ru.ru_utime + ru.ru_stime


def med_range(xs, scale=1e3, fmt="{:.1f}"):
    return f"{fmt.format(statistics.median(xs) * scale)} [{fmt.format(min(xs) * scale)}-" \
           f"{fmt.format(max(xs) * scale)}]"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--rounds", type=int, default=31)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--before", help="another build: adds recorder-before and tasklens-before")
    ap.add_argument("--gap", type=float, default=0,
                    help="seconds to sleep before every run (a cold start; see above)")
    ap.add_argument("program", nargs="*")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    modes = args.modes.split(",")
    before = os.path.abspath(args.before) if args.before else None
    if before:
        modes += ["recorder-before", "tasklens-before"]
    argv = args.program or [os.path.join(build, "bench", "programs", "fib"), "2", "0"]
    for need in (argv[0], os.path.join(build, "bin", "tasklens"),
                 os.path.join(build, "lib", "libtasklens.so"),
                 os.path.join(build, "lib", "libtasklens_empty_tool.so")):
        if not os.path.exists(need):
            sys.exit(f"startup: {need} missing (ninja -C {args.build} tasklens_cli "
                     "tasklens_empty_tool benchprog_fib)")
    load0 = open("/proc/loadavg").read().split()[:3]
    scratch = tempfile.mkdtemp(prefix="tasklens-startup-")
    walls = {m: [] for m in modes}
    cpus = {m: [] for m in modes}
    try:
        for m in modes:  # warm the page cache once, not timed
            run_once(m, argv, build, args.threads, scratch, -1, before)
        for r in range(args.rounds):
            order = modes[r % len(modes):] + modes[:r % len(modes)]
            for m in order:
                if args.gap:
                    time.sleep(args.gap)
                w, c = run_once(m, argv, build, args.threads, scratch, r, before)
                walls[m].append(w)
                cpus[m].append(c)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    load1 = open("/proc/loadavg").read().split()[:3]
    print(f"startup: {' '.join(os.path.basename(a) if i == 0 else a for i, a in enumerate(argv))},"
          f" {args.threads} threads, {args.rounds} interleaved rounds, {os.cpu_count()} CPUs,"
          f" load average {' '.join(load0)} before, {' '.join(load1)} after"
          + (f", {args.gap:g} s before every run" if args.gap else ""))
    print(f"{'mode':<16} {'wall ms, median [range]':>26} {'CPU ms (user+sys)':>24}")
    for m in modes:
        print(f"{m:<16} {med_range(walls[m]):>26} {med_range(cpus[m]):>24}")
    for base in ("empty", "plain"):
        if base not in modes:
            continue
        print(f"against {base}: median of the per-round differences (ms) and ratios")
        for m in modes:
            if m == base:
                continue
            dw = [a - b for a, b in zip(walls[m], walls[base])]
            dc = [a - b for a, b in zip(cpus[m], cpus[base])]
            rw = [a / b for a, b in zip(walls[m], walls[base])]
            rc = [a / b for a, b in zip(cpus[m], cpus[base]) if b > 0]
            print(f"  {m:<16} wall {statistics.median(dw) * 1e3:+7.2f} ms x{statistics.median(rw):.2f}"
                  f"   CPU {statistics.median(dc) * 1e3:+7.2f} ms"
                  f" x{statistics.median(rc) if rc else float('nan'):.2f}")


if __name__ == "__main__":
    main()
