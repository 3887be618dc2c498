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
    "set_default_device": "changes the device of every later factory call in the worker",
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
    for ns in NAMESPACES:
        mod = torch
        for part in ns.split("."):          # "signal.windows": a submodule of a submodule
            mod = getattr(mod, part)
        for n in _public(mod):
            v = getattr(mod, n)
            if callable(v) and type(v).__name__ != "module" and f"{ns}.{n}" not in EXCLUDED:
                out.append((f"{ns}.{n}", "function"))
    return sorted(out)


# ---- autocast and process-wide switches: state that would change what later calls mean ----
EXCLUDED.update({
    "set_autocast_enabled": "turns autocast on: every later matmul of the worker in bfloat16",
    "set_autocast_cpu_enabled": "turns autocast on: every later matmul of the worker in bfloat16",
    "set_autocast_dtype": "changes the dtype of every later autocast region",
    "set_autocast_cpu_dtype": "changes the dtype of every later autocast region",
    "set_autocast_gpu_dtype": "changes the dtype of every later autocast region",
    "set_autocast_cache_enabled": "changes every later autocast region",
    "autocast_increment_nesting": "unbalances the nesting of autocast regions",
    "autocast_decrement_nesting": "unbalances the nesting of autocast regions",
})
# ---- distributions: the classes and functions of minitorch.distributions --------------------
_all_targets_without_distributions = all_targets


def all_targets():  # noqa: F811 (extends the list above)
    import minitorch.distributions as distributions
    out = _all_targets_without_distributions()
    for n in distributions.__all__:
        if callable(getattr(distributions, n)) and f"distributions.{n}" not in EXCLUDED:
            out.append((f"distributions.{n}", "function"))
    return sorted(out)
# minitorch submodules whose public functions are targets too (name under minitorch)
NAMESPACES = [
    "linalg",
]
# ---- nn: padding, shuffles, folding, sampling grids, embedding bags, pooling, losses -------
# (nn.functional functions of these areas; the minitorch-level ones are picked up above)
NN_FUNCTIONAL = [
    "pad", "fold", "unfold", "grid_sample", "affine_grid", "embedding_bag", "instance_norm",
    "local_response_norm", "adaptive_max_pool1d", "lp_pool1d", "lp_pool2d", "max_unpool1d",
    "max_unpool2d", "rrelu", "gumbel_softmax", "selu_", "celu_", "cosine_similarity",
    "pairwise_distance", "ctc_loss", "triplet_margin_loss", "triplet_margin_with_distance_loss",
    "margin_ranking_loss", "cosine_embedding_loss", "hinge_embedding_loss", "poisson_nll_loss",
    "gaussian_nll_loss", "multilabel_soft_margin_loss", "multi_margin_loss",
    "multilabel_margin_loss",
]
_all_targets_without_nn = all_targets


def all_targets():  # noqa: F811
    return sorted(_all_targets_without_nn() +
                  [(f"nn.functional.{n}", "function") for n in NN_FUNCTIONAL])
# ---- minitorch.special (special.py): its functions are targets too -----------------------------
EXCLUDED.update({
    "special.legendre_polynomial_p": "an O(n) recurrence, as torch's: degrees such as 2**62 run "
                                     "for years (tested with ordinary degrees in test_special)",
    "special.laguerre_polynomial_l": "an O(n) recurrence, as torch's: degrees such as 2**62 run "
                                     "for years (tested with ordinary degrees in test_special)",
})
_targets_without_special = all_targets


def all_targets():
    """all_targets plus every function of minitorch.special."""
    out = _targets_without_special()
    for n in torch.special.__all__:
        if f"special.{n}" not in EXCLUDED:
            out.append((f"special.{n}", "function"))
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
# ---- autograd features: anomaly mode, autograd.functional, gradcheck, utils.checkpoint -------
EXCLUDED.update({
    "set_anomaly_enabled": "turns anomaly mode on: every later op of the worker keeps a "
                           "traceback and every backward runs in Python",
})
AUTOGRAD_FEATURES = [
    "autograd.functional.vjp", "autograd.functional.jvp", "autograd.functional.jacobian",
    "autograd.functional.hessian", "autograd.functional.vhp", "autograd.functional.hvp",
    "autograd.gradcheck", "autograd.gradgradcheck", "autograd.grad",
    "utils.checkpoint.checkpoint", "utils.checkpoint.checkpoint_sequential",
    "utils.checkpoint.detach_variable",
]
_targets_without_autograd_features = all_targets


def all_targets():  # noqa: F811
    """all_targets plus the autograd features above."""
    return sorted(_targets_without_autograd_features() +
                  [(n, "function") for n in AUTOGRAD_FEATURES if n not in EXCLUDED])
# ---- the profiler: the functions of minitorch.profiler (constructors, schedules and trace
# handlers: a call starts no profiling) ----
NAMESPACES.append("profiler")
# ---- forward-mode AD (autograd.forward_ad) ----------------------------------------------------
EXCLUDED.update({
    "autograd.forward_ad.enter_dual_level": "opens a level that stays open: every later op of "
                                            "the worker is watched and further levels refuse "
                                            "to open",
    "autograd.forward_ad.exit_dual_level": "closes the level enter_dual_level left open "
                                           "(excluded with it)",
})
FORWARD_AD = ["autograd.forward_ad.make_dual", "autograd.forward_ad.unpack_dual",
              "autograd.forward_ad.dual_level", "autograd.forward_ad.enter_dual_level",
              "autograd.forward_ad.exit_dual_level"]
_targets_without_forward_ad = all_targets


def all_targets():  # noqa: F811
    """all_targets plus the functions of autograd.forward_ad."""
    return sorted(_targets_without_forward_ad() +
                  [(n, "function") for n in FORWARD_AD if n not in EXCLUDED])
# ---- minitorch.cuda: device and stream state, streams, events, memory statistics -----------------
NAMESPACES.append("cuda")
EXCLUDED.update({
    "cuda.set_device": "changes the worker's current CUDA device (where there are devices)",
    "cuda.set_stream": "changes the worker's current CUDA stream (where there are devices)",
    "cuda.Stream": "wraps whatever handle stream_id names, as torch's: calls on a made-up one "
                   "reach the driver",
})
# ---- minitorch.distributed.ft: its sampler (Manager and the wrappers built on it wait for
# other replicas and run a heartbeat thread; tests/test_distributed_ft.py runs them) ----------
import minitorch.distributed.ft  # noqa: E402,F401 (resolve() reaches it as distributed.ft)

_targets_without_ft = all_targets


def all_targets():  # noqa: F811
    """all_targets plus ft.DistributedSampler."""
    return sorted(_targets_without_ft() + [("distributed.ft.DistributedSampler", "function")])
# ---- minitorch.fft (NumPy's pocketfft through _fft.py's primitives), signal.windows ------
NAMESPACES.append("fft")
NAMESPACES.append("signal.windows")
# ---- sparse COO tensors: minitorch.sparse and sparse_coo_tensor (loaded on first use, so not
# in dir(minitorch)) ----
NAMESPACES.append("sparse")
_targets_without_sparse = all_targets


def all_targets():  # noqa: F811
    """all_targets plus minitorch.sparse_coo_tensor."""
    return sorted(_targets_without_sparse() + [("sparse_coo_tensor", "function")])
# ---- __torch_function__ (minitorch.overrides) ------------------------------------------------
NAMESPACES.append("overrides")
# ---- minitorch.xpu: the device functions of a build without XPU support ----
NAMESPACES.append("xpu")
