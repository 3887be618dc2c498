"""A fuzz worker: reads "seed start count" lines on stdin, runs those cases in order and writes one
line per case ("<index> <outcome>") on stdout, flushed, so that the parent knows which case was
running when the process died.  Run by runner.py, never by hand."""
import os
import resource
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import gen  # noqa: E402
import targets  # noqa: E402

import minitorch as torch  # noqa: E402
import minitorch.distributed as dist  # noqa: E402


def call(name, kind, fn, args, kwargs):
    if kind != "function" and not callable(fn):      # a property: get it, or set it
        attr = name.rsplit(".", 1)[1]
        if len(args) > 1:
            setattr(args[0], attr, args[1])
            return None
        return getattr(args[0], attr)
    return fn(*args, **kwargs)


def run_case(tlist, seed, i):
    try:
        name, fn, args, kwargs = gen.make_case(tlist, seed, i)
    except Exception as e:                # noqa: BLE001 (the generator's own bug: reported)
        return f"GeneratorError:{type(e).__name__}: {str(e)[:80]!r}"
    kind = dict(tlist)[name]
    try:
        r = call(name, kind, fn, args, kwargs)
        if isinstance(r, torch.Tensor):
            repr(r) if r.numel() < 10_000 else None  # results must be usable, too
        return "ok"
    except SystemError as e:              # a C function that misreported an error
        return f"SystemError:{str(e)[:80]!r}"
    except RecursionError:
        return "RecursionError"
    except BaseException as e:            # noqa: BLE001 (any Python exception is a clean failure)
        if isinstance(e, KeyboardInterrupt):
            raise
        return type(e).__name__


def main():
    if "asan" not in os.environ.get("LD_PRELOAD", ""):
        limit = int(os.environ.get("MINITORCH_FUZZ_MEMORY", 1 << 30))
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    warnings.simplefilter("ignore")
    os.chdir(os.environ.get("MINITORCH_FUZZ_CWD", os.getcwd()))
    dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
    tlist = targets.all_targets()
    # results go to a private copy of stdout; whatever a fuzzed call prints goes nowhere
    out = os.fdopen(os.dup(1), "w")
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    for line in sys.stdin:
        seed, start, count = map(int, line.split())
        for i in range(start, start + count):
            out.write(f"{i} {run_case(tlist, seed, i)}\n")
            out.flush()
        out.write("done\n")
        out.flush()


if __name__ == "__main__":
    main()
