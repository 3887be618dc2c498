"""Fuzz minitorch from the command line.

    python -m tests.fuzz.run --calls 200000 --seed 1 --jobs 2 [--report FILE]
    python -m tests.fuzz.run --replay SEED:INDEX [--from START]

The first form runs cases (SEED, 0 .. CALLS-1) in a pool of worker processes and prints what
they did and every failure (a crash, a hang, a SystemError) with the command that replays it.
The second runs one case in this process, printing the call first (with --from, the cases
START .. INDEX-1 run before it, as they did in the worker)."""
import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def replay(spec, start):
    import gen
    import targets
    import worker
    import minitorch.distributed as dist
    seed, index = map(int, spec.split(":"))
    tlist = targets.all_targets()
    dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
    for i in range(start if start is not None else index, index + 1):
        name, fn, args, kwargs = gen.make_case(tlist, seed, i)
        print(f"case {seed}:{i}: {name}(" + ", ".join(
            [gen.describe(a) for a in args] + [f"{k}={gen.describe(v)}" for k, v in kwargs.items()])
            + ")", flush=True)
        print("->", worker.run_case(tlist, seed, i), flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--calls", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds one case may take")
    ap.add_argument("--report", help="also write the summary to this file")
    ap.add_argument("--replay", metavar="SEED:INDEX")
    ap.add_argument("--from", dest="start", type=int)
    a = ap.parse_args(argv)
    if a.replay:
        return replay(a.replay, a.start)
    import runner
    t0 = time.monotonic()
    counts, failures = runner.run(a.seed, a.calls, jobs=a.jobs, timeout=a.timeout)
    lines = [f"fuzz: seed {a.seed}, {sum(counts.values())} calls in {time.monotonic() - t0:.0f} s: "
             + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))]
    for f in failures:
        lines.append(f"FAIL {f.kind}: {f.target} (case {f.seed}:{f.index})\n"
                     f"  replay: {runner.reproducer(f)}\n  " + f.detail.strip().replace("\n", "\n  ")[-1500:])
    text = "\n".join(lines)
    print(text)
    if a.report:
        with open(a.report, "w") as fh:
            fh.write(text + "\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
