"""What the fuzzer calls: every public function of minitorch and minitorch.distributed, every
public Tensor method and property, the Tensor operator protocol, and Storage methods - minus an
explicit list of exclusions, each with its reason."""
import minitorch as torch
import minitorch.distributed as dist

# name -> why it is not called
EXCLUDED = {
    # state that would change what every later call in the worker means
    "set_default_dtype": "changes the dtype of every later factory call in the worker",
    "set_default_tensor_type": "changes the dtype of every later factory call in the worker",
    "set_printoptions": "changes every later repr",
    "set_num_threads": "hundreds of pool threads under the worker's 1 GiB address-space limit "
                       "make glibc abort allocating their thread-local storage (bad values are "
                       "tested in test_memory_safety)",
    # files and processes
    "save": "writes files named by its arguments",
    "load": "reads files named by its arguments (tested on hostile files in test_serialization)",
    "multiprocessing": "starts processes",
    # distributed calls that wait for peers or change the worker's process group
    "distributed.init_process_group": "waits for a rendezvous (the worker has a world-size-1 group)",
    "distributed.destroy_process_group": "removes the worker's process group",
    "distributed.new_group": "a collective over every rank: waits for the others",
    "distributed.TCPStore": "waits for a server (the store protocol has its own fuzz test)",
    "distributed.FileStore": "creates files and waits for keys",
    "distributed.rendezvous": "waits for a rendezvous",
    "distributed.recv": "waits for a message no rank sends (until the group timeout)",
    "distributed.irecv": "posts a receive no rank matches",
    "distributed.batch_isend_irecv": "posts receives no rank matches",
    "distributed.send": "a send to oneself waits for a matching receive",
    "distributed.isend": "a send to oneself waits for a matching receive",
    "distributed.monitored_barrier": "waits for every rank (the group timeout)",
    "distributed.register_rendezvous_handler": "changes the worker's rendezvous table",
    "distributed.Backend.register_backend": "changes the worker's backend table",
    "Tensor.share_memory_": "allocates shared memory segments",
}

DUNDERS = ["__getitem__", "__setitem__", "__add__", "__radd__", "__iadd__", "__sub__",
           "__rsub__", "__mul__", "__imul__", "__truediv__", "__rtruediv__", "__floordiv__",
           "__mod__", "__pow__", "__rpow__", "__matmul__", "__and__", "__or__", "__xor__",
           "__lshift__", "__rshift__", "__ilshift__", "__neg__", "__abs__", "__invert__",
           "__eq__", "__lt__", "__ge__", "__bool__", "__int__", "__float__", "__index__",
           "__len__", "__iter__", "__contains__", "__array__", "__repr__", "__format__",
           "__reduce_ex__", "__setstate__", "__deepcopy__", "__hash__", "__dlpack__"]


def _public(obj):
    return [n for n in dir(obj) if not n.startswith("_")]


def all_targets():
    """Sorted [(name, kind)]: kind is 'function', 'method' (self is a tensor) or 'storage'."""
    out = []
    for n in _public(torch):
        v = getattr(torch, n)
        if type(v).__name__ == "module" or n in EXCLUDED:
            continue
        if callable(v):
            out.append((n, "function"))
    for n in _public(dist):
        v = getattr(dist, n)
        if type(v).__name__ == "module" or f"distributed.{n}" in EXCLUDED:
            continue
        if callable(v):
            out.append((f"distributed.{n}", "function"))
    for n in _public(torch.Tensor) + [d for d in DUNDERS if hasattr(torch.Tensor, d)]:
        if f"Tensor.{n}" not in EXCLUDED:
            out.append((f"Tensor.{n}", "method"))
    for n in _public(torch.UntypedStorage):
        if f"UntypedStorage.{n}" not in EXCLUDED:
            out.append((f"UntypedStorage.{n}", "storage"))
    return sorted(out)


# spatial ops that only nn.functional has (the minitorch.* ones are public functions already)
SPATIAL_FUNCTIONAL = [
    "interpolate", "upsample", "upsample_nearest", "upsample_bilinear", "max_pool3d",
    "max_pool3d_with_indices", "avg_pool3d", "adaptive_avg_pool3d", "adaptive_max_pool3d",
    "adaptive_max_pool3d_with_indices", "adaptive_max_pool1d_with_indices",
]
_targets_of_the_package = all_targets


def all_targets():  # noqa: F811 (the package's targets and the spatial ones of nn.functional)
    return sorted(_targets_of_the_package() +
                  [(f"nn.functional.{n}", "function") for n in SPATIAL_FUNCTIONAL])
