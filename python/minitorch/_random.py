"""Random numbers: seeding, Generator objects, random factories and in-place random fills.

The generator is counter-based (Philox4x32-10, see Note [Counter-based random numbers] in
aten_lite/random.h): a tensor's values depend only on the seed, the generator's offset and
each element's index, so they are the same for any thread count.  The streams are not
PyTorch's (same distributions, different numbers)."""
import copyreg
import operator

from ._checks import _check_short

from . import _C
from ._reductions import _scalar_type_name
from ._broadcasting import broadcast_shapes
from ._C import TensorBase as Tensor

__all__ = [
    "Generator", "default_generator", "manual_seed", "seed", "initial_seed", "get_rng_state",
    "set_rng_state", "rand", "randn", "randint", "randperm", "rand_like", "randn_like",
    "randint_like", "normal", "bernoulli", "multinomial", "poisson",
]

Generator = _C.Generator
default_generator = _C.default_generator

# distribution codes of _C._random_fill_ (mt_rand_dist)
_UNIFORM, _NORMAL, _BERNOULLI, _EXPONENTIAL, _GEOMETRIC, _CAUCHY, _LOG_NORMAL = range(7)

# the exactly representable integer range of each float dtype (2 ** mantissa digits)
_FLOAT_DIGITS = {"float16": 11, "bfloat16": 8, "float32": 24, "float64": 53}
_INT_RANGE = {"bool": (0, 1), "uint8": (0, 255), "int8": (-128, 127), "int16": (-2 ** 15, 2 ** 15 - 1),
              "int32": (-2 ** 31, 2 ** 31 - 1), "int64": (-2 ** 63, 2 ** 63 - 1),
              "uint16": (0, 2 ** 16 - 1), "uint32": (0, 2 ** 32 - 1), "uint64": (0, 2 ** 64 - 1)}


def _dtype_key(dtype):
    return str(dtype).split(".")[-1]


def _generator_from_state(state):
    g = Generator()
    g.set_state(_C.tensor(list(state), dtype=_C.uint8))
    return g


def _reduce_generator(g):
    """Pickles (and copies) a Generator by its state, which holds its seed and offset."""
    return _generator_from_state, (bytes(g.get_state().numpy().tolist()),)


copyreg.pickle(Generator, _reduce_generator)


# ---- seeding ---------------------------------------------------------------------------
# The default generator is the calling thread's when it has one (DataLoader thread workers,
# Note [Thread default generators] in csrc/random_binding.c), else default_generator.
_thread_generator = _C._thread_generator


def manual_seed(seed):
    """Seeds the default generator and (the process's one, as torch) every CUDA device's;
    returns the default one."""
    g = _thread_generator().manual_seed(int(seed))
    if g is default_generator:
        _C._cuda_manual_seed_all(int(seed))
    return g


def seed():
    """Seeds the default generator (and, the process's one, the CUDA devices') with a
    non-deterministic number; returns that seed."""
    g = _thread_generator()
    s = g.seed()
    if g is default_generator:
        _C._cuda_manual_seed_all(s)
    return s


def initial_seed():
    """The seed the default generator was last seeded with."""
    return _thread_generator().initial_seed()


def get_rng_state():
    """The default generator's state as a uint8 tensor."""
    return _thread_generator().get_state()


def set_rng_state(new_state):
    """Restores the default generator's state from get_rng_state()."""
    _thread_generator().set_state(new_state)


# ---- helpers -----------------------------------------------------------------------------
def _check_tensor(x, fname, what="input"):
    if not isinstance(x, _C.TensorBase):
        raise TypeError(f"{fname}(): argument '{what}' must be Tensor, not {type(x).__name__}")


def _float_arg(x, fname, what):
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        if isinstance(x, _C.TensorBase) and x.numel() == 1:
            return float(x.item())
        raise TypeError(f"{fname}(): argument '{what}' must be float, not {type(x).__name__}")
    return float(x)


def _int_arg(x, fname, what):
    if isinstance(x, float):
        raise TypeError(f"{fname}(): argument '{what}' must be int, not float")
    try:
        return operator.index(x)
    except TypeError:
        raise TypeError(f"{fname}(): argument '{what}' must be int, not {type(x).__name__}") from None


def _sizes(fname, size):
    """*size of rand(2, 3) / rand((2, 3)) / rand([2, 3]) as a tuple."""
    if len(size) == 1 and not isinstance(size[0], int) and hasattr(size[0], "__len__"):
        _check_short(size[0], "size")
        size = tuple(size[0])
    for s in size:
        if isinstance(s, bool) or not hasattr(s, "__index__") or isinstance(s, float):
            raise TypeError(f"{fname}(): argument 'size' must be tuple of ints, but found element of "
                            f"type {type(s).__name__}")
    return tuple(operator.index(s) for s in size)


def _new(fname, size, dtype, device, requires_grad, out, default_dtype=None):
    """The tensor a factory fills: `out` (shape and dtype checked) or a new one."""
    _check_grad(requires_grad)
    explicit_dtype = dtype
    if dtype is None:
        dtype = _C.get_default_dtype() if default_dtype is None else default_dtype
    if out is not None:
        _check_tensor(out, fname, "out")
        if explicit_dtype is not None and out.dtype != explicit_dtype:
            raise RuntimeError(f"dtype {explicit_dtype} does not match dtype of out parameter ({out.dtype})")
        _C._resize_output(out, size)
        return out
    if any(s < 0 for s in size):
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(size)}: {list(size)}")
    return _C.empty(size, dtype=dtype, device=device)


def _check_grad(requires_grad):
    """Raises (before anything is drawn) where the factories refuse requires_grad=True."""
    if requires_grad:
        _C.empty((0,), requires_grad=True)


def _finish(t, requires_grad):
    if requires_grad:
        t.requires_grad_(True)
    return t


# ---- in-place fills (Tensor methods) -----------------------------------------------------
def uniform_(self, from_=0.0, to=1.0, *, generator=None, **kw):
    """Fills self with numbers uniform on [from, to)."""
    if "from" in kw:
        from_ = kw.pop("from")
    if kw:
        raise TypeError(f"uniform_() got an unexpected keyword argument '{next(iter(kw))}'")
    a, b = _float_arg(from_, "uniform_", "from"), _float_arg(to, "uniform_", "to")
    if not a <= b:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={a:g} > to={b:g}")
    if b - a > 3.4028234663852886e38 and self.dtype != _C.float64:
        # 16- and 32-bit floats are drawn in float arithmetic
        raise RuntimeError(f"uniform_ expects to-from <= std::numeric_limits<float>::max(), but found "
                           f"to={b:g} and from={a:g} which result in to-from to exceed the limit")
    return _fill_uniform(self, a, b, generator)


def _fill_uniform(t, a, b, generator):
    """Fills t with numbers uniform on [a, b); a complex t gets them in its real and imaginary
    parts, as torch."""
    if t.is_complex():
        from ._complex import view_as_real
        _C._random_fill_(view_as_real(t), _UNIFORM, a, b, generator)
        return t
    return _C._random_fill_(t, _UNIFORM, a, b, generator)


def _fill_normal(t, mean, std, generator):
    """Fills t with normal numbers; a complex t gets them in its real and imaginary parts, each
    with standard deviation std / sqrt(2) (so |z - mean| has variance std**2), as torch."""
    if t.is_complex():
        from ._complex import view_as_real
        _C._random_fill_(view_as_real(t), _NORMAL, mean, std / 1.4142135623730951, generator)
        return t
    return _C._random_fill_(t, _NORMAL, mean, std, generator)


def normal_(self, mean=0.0, std=1.0, *, generator=None):
    """Fills self with normal numbers of the given mean and standard deviation."""
    m, s = _float_arg(mean, "normal_", "mean"), _float_arg(std, "normal_", "std")
    if not s >= 0.0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {s:g}")
    return _fill_normal(self, m, s, generator)


def log_normal_(self, mean=1.0, std=2.0, *, generator=None):
    """Fills self with exp(normal(mean, std))."""
    m, s = _float_arg(mean, "log_normal_", "mean"), _float_arg(std, "log_normal_", "std")
    if not s > 0.0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={s:g}")
    return _C._random_fill_(self, _LOG_NORMAL, m, s, generator)


def exponential_(self, lambd=1.0, *, generator=None):
    """Fills self with exponential numbers of rate lambd."""
    lam = _float_arg(lambd, "exponential_", "lambd")
    if not lam > 0.0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lam:g}")
    return _C._random_fill_(self, _EXPONENTIAL, lam, 0.0, generator)


def cauchy_(self, median=0.0, sigma=1.0, *, generator=None):
    """Fills self with Cauchy numbers (median, scale sigma)."""
    m, s = _float_arg(median, "cauchy_", "median"), _float_arg(sigma, "cauchy_", "sigma")
    if not s > 0.0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={s:g}")
    return _C._random_fill_(self, _CAUCHY, m, s, generator)


def geometric_(self, p, *, generator=None):
    """Fills self with the number of Bernoulli(p) trials up to the first success (1, 2, ...)."""
    q = _float_arg(p, "geometric_", "p")
    if not 0.0 < q < 1.0:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={q:g}")
    return _C._random_fill_(self, _GEOMETRIC, q, 0.0, generator)


def bernoulli_(self, p=0.5, *, generator=None):
    """Fills self with 1 with probability p (a number or a tensor broadcastable to self), else 0."""
    if isinstance(p, _C.TensorBase):
        return _C._bernoulli_tensor_(self, p, generator)
    q = _float_arg(p, "bernoulli_", "p")
    if not 0.0 <= q <= 1.0:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={q:g}")
    return _C._random_fill_(self, _BERNOULLI, q, 0.0, generator)


def _int_bounds(dtype):
    """[lo, hi]: the integers a tensor of dtype holds exactly."""
    key = _dtype_key(dtype)
    if key in _FLOAT_DIGITS:
        d = 2 ** _FLOAT_DIGITS[key]
        return -d, d
    return _INT_RANGE[key]


def _random_int_fill(self, low, high, fname, generator):
    """self = integers uniform on [low, high) (high None: up to the dtype's largest, inclusive)."""
    lo, hi = _int_bounds(self.dtype)
    name = _scalar_type_name(self.dtype)
    if high is None:
        high = hi + 1
    elif low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    if not lo <= low <= hi:
        raise RuntimeError(f"from is out of bounds for {name}")
    if not lo <= high - 1 <= hi:
        raise RuntimeError(f"to - 1 is out of bounds for {name}")
    span = high - low
    return _C._random_int_(self, low, 0 if span == 2 ** 64 else span, generator)


def random_(self, *args, generator=None, **kw):
    """random_(): integers on [0, 2**mantissa] (floats) or [0, max] (integers);
    random_(to): [0, to); random_(from, to): [from, to) (to=None: up to the dtype's max)."""
    names = ("from", "to")
    if len(args) > 2:
        raise TypeError(f"random_() takes at most 2 positional arguments ({len(args)} given)")
    vals = dict(zip(names, args))
    for k, v in kw.items():
        if k not in names or k in vals:
            raise TypeError(f"random_() got an unexpected keyword argument '{k}'")
        vals[k] = v
    if "from" not in vals and "to" not in vals:
        return _random_int_fill(self, 0, None, "random_", generator)
    if "from" not in vals or (len(args) == 1 and "to" not in kw):
        # random_(to)
        to = vals.get("to", vals.get("from"))
        return _random_int_fill(self, 0, _int_arg(to, "random_", "to"), "random_", generator)
    to = vals.get("to")
    return _random_int_fill(self, _int_arg(vals["from"], "random_", "from"),
                            None if to is None else _int_arg(to, "random_", "to"), "random_", generator)


# ---- factories -----------------------------------------------------------------------------
def rand(*size, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
         pin_memory=False, **kw):
    """Numbers uniform on [0, 1) of the given size (floating dtypes)."""
    _C._check_tensor_options("rand", layout, None)
    size = _factory_size("rand", size, kw)
    t = _new("rand", size, dtype, device, requires_grad, out)
    _fill_uniform(t, 0.0, 1.0, generator)
    return _finish(t, requires_grad)


def randn(*size, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
          pin_memory=False, **kw):
    """Standard normal numbers of the given size (floating dtypes)."""
    _C._check_tensor_options("randn", layout, None)
    size = _factory_size("randn", size, kw)
    t = _new("randn", size, dtype, device, requires_grad, out)
    _fill_normal(t, 0.0, 1.0, generator)
    return _finish(t, requires_grad)


def _factory_size(fname, size, kw):
    """The size of rand/randn: positional (*size or one sequence) or the size= keyword."""
    if "size" in kw:
        if size:
            raise TypeError(f"{fname}() got multiple values for argument 'size'")
        size = (_size_tuple(kw.pop("size"), fname),)
    _no_extra(fname, kw)
    return _sizes(fname, size)


def _no_extra(fname, kw):
    if kw:
        raise TypeError(f"{fname}() got an unexpected keyword argument '{next(iter(kw))}'")


def _size_tuple(size, fname):
    if not isinstance(size, (tuple, list)) and not (isinstance(size, _C.TensorBase) and size.dim() == 1):
        raise TypeError(f"{fname}(): argument 'size' must be tuple of ints, not {type(size).__name__}")
    return _sizes(fname, (tuple(int(s) for s in size),))


def randint(*args, size=None, low=None, high=None, generator=None, out=None, dtype=None, layout=None,
            device=None, requires_grad=False, pin_memory=False):
    """randint(high, size) / randint(low, high, size): integers uniform on [low, high), int64 by
    default."""
    _C._check_tensor_options("randint", layout, None)
    args = list(args)
    if size is None:
        if not args:
            raise TypeError("randint() missing required argument 'size'")
        size = args.pop()
        _size_tuple(size, "randint")
    if len(args) > 2:
        raise TypeError(f"randint() takes at most 3 positional arguments ({len(args) + 1} given)")
    if len(args) == 2:
        if low is not None or high is not None:
            raise TypeError("randint() got multiple values for argument 'low' or 'high'")
        low, high = args
    elif len(args) == 1:
        if high is None:
            high = args[0]
        elif low is None:
            low = args[0]
        else:
            raise TypeError("randint() got multiple values for argument 'low'")
    if high is None:
        raise TypeError("randint() missing required argument 'high'")
    low = 0 if low is None else _int_arg(low, "randint", "low")
    high = _int_arg(high, "randint", "high")
    size = _size_tuple(size, "randint")
    t = _new("randint", size, dtype, device, requires_grad, out, default_dtype=_C.int64)
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    _random_int_fill(t, low, high, "randint", generator)
    return _finish(t, requires_grad)


def randperm(n, *, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
             pin_memory=False):
    """A random permutation of 0 .. n-1 (int64 by default)."""
    _C._check_tensor_options("randperm", layout, None)
    n = _int_arg(n, "randperm", "n")
    _check_grad(requires_grad)
    dev = None
    if device is not None:
        dev = _C.empty((0,), device=device).device  # rejects unusable devices as the factories do
    if dev is not None and dev.type == "cuda":
        # drawn by the cpu kernel from the device's generator (the same stream), then moved
        if generator is None:
            generator = _C._cuda_default_generator(dev.index)
        elif generator.device.type != "cuda":
            raise RuntimeError(f"Expected a 'cuda' device type for generator but found "
                               f"'{generator.device.type}'")
        r = _C._randperm(n, _C.int64 if dtype is None else dtype, generator).to(dev)
    else:
        if generator is not None and isinstance(generator, Generator) and \
                generator.device.type != "cpu":
            raise RuntimeError(f"Expected a 'cpu' device type for generator but found "
                               f"'{generator.device.type}'")
        r = _C._randperm(n, _C.int64 if dtype is None else dtype, generator)
    if out is not None:
        _check_tensor(out, "randperm", "out")
        _C._store_out(out, r, "randperm")
        return out
    return _finish(r, requires_grad)


def _like_new(fname, input, dtype, device, requires_grad, memory_format=None):
    _check_tensor(input, fname)
    _check_grad(requires_grad)
    dtype = input.dtype if dtype is None else dtype
    if device is None or _C.device(device) == input.device:
        # input's layout (preserve_format) or the memory format asked for
        from ._factories import _needs_layout
        if _needs_layout(input, memory_format):
            return _C._empty_like(input, dtype, memory_format)
    return _C.empty(tuple(input.shape), dtype=dtype,
                    device=input.device if device is None else device)


def rand_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None,
              generator=None):
    """rand with input's shape, dtype and device."""
    _C._check_tensor_options("rand_like", layout, memory_format)
    t = _like_new("rand_like", input, dtype, device, requires_grad, memory_format)
    _fill_uniform(t, 0.0, 1.0, generator)
    return _finish(t, requires_grad)


def randn_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None,
               generator=None):
    """randn with input's shape, dtype and device."""
    _C._check_tensor_options("randn_like", layout, memory_format)
    t = _like_new("randn_like", input, dtype, device, requires_grad, memory_format)
    _fill_normal(t, 0.0, 1.0, generator)
    return _finish(t, requires_grad)


def randint_like(input, low=0, high=None, *, dtype=None, layout=None, device=None, requires_grad=False,
                 memory_format=None, generator=None):
    """randint_like(input, high) / randint_like(input, low, high): randint with input's shape,
    dtype and device."""
    _C._check_tensor_options("randint_like", layout, memory_format)
    if high is None:
        low, high = 0, low
    low, high = _int_arg(low, "randint_like", "low"), _int_arg(high, "randint_like", "high")
    t = _like_new("randint_like", input, dtype, device, requires_grad, memory_format)
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    _random_int_fill(t, low, high, "randint_like", generator)
    return _finish(t, requires_grad)


def normal(mean, std=1.0, size=None, *, generator=None, out=None, dtype=None, layout=None, device=None,
           requires_grad=False, pin_memory=False):
    """normal(mean, std) with tensor mean and/or std (broadcast), or normal(mean, std, size) with
    numbers."""
    _C._check_tensor_options("normal", layout, None)
    mt, st = isinstance(mean, _C.TensorBase), isinstance(std, _C.TensorBase)
    if size is not None or not (mt or st):
        if mt or st:
            raise TypeError("normal(): 'size' is only valid with float mean and std")
        if size is None:
            raise TypeError("normal() received an invalid combination of arguments: numbers mean and std "
                            "need a size")
        m, s = _float_arg(mean, "normal", "mean"), _float_arg(std, "normal", "std")
        if not s >= 0.0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {s:g}")
        t = _new("normal", _size_tuple(size, "normal"), dtype, device, requires_grad, out)
        _fill_normal(t, m, s, generator)
        return _finish(t, requires_grad)
    if mt and st:
        dt = _C.promote_types(mean.dtype, std.dtype)
        shape = broadcast_shapes(mean.shape, std.shape)
    else:
        ten = mean if mt else std
        dt, shape = ten.dtype, ten.shape
        if not mt:
            mean = _float_arg(mean, "normal", "mean")
        else:
            std = _float_arg(std, "normal", "std")
    if not dt.is_floating_point:
        raise NotImplementedError(f"\"normal_kernel_cpu\" not implemented for '{_scalar_type_name(dt)}'")
    if st:
        if std.numel() and not bool((std >= 0).all()):
            raise RuntimeError("normal expects all elements of std >= 0.0")
    elif not std >= 0.0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
    z = _C.empty(tuple(shape), dtype=dt, device=(mean if mt else std).device)
    _C._random_fill_(z, _NORMAL, 0.0, 1.0, generator)
    r = z.mul_(std).add_(mean)
    if out is not None:
        _check_tensor(out, "normal", "out")
        return _C._store_out(out, r, "normal")
    return r


def bernoulli(input, p=None, *, generator=None, out=None):
    """0/1 draws: with probability input[i] (p None; input floating), or p for every element."""
    _check_tensor(input, "bernoulli")
    if p is None:
        t = _C.empty(tuple(input.shape), dtype=input.dtype, device=input.device) if out is None else out
        if out is not None:
            _check_tensor(out, "bernoulli", "out")
            _C._resize_output(out, input.shape)
        return _C._bernoulli_tensor_(t, input, generator)
    if out is not None:
        raise TypeError("bernoulli() with a number p takes no 'out' argument")
    t = _C.empty(tuple(input.shape), dtype=input.dtype, device=input.device)
    return bernoulli_(t, p, generator=generator)


def multinomial(input, num_samples, replacement=False, *, generator=None, out=None):
    """Indices drawn from the categories of each row of input (weights, 1-d or 2-d); see Note
    [Multinomial] in aten_lite/random.c."""
    _check_tensor(input, "multinomial")
    n = _int_arg(num_samples, "multinomial", "num_samples")
    r = _C._multinomial(input, n, bool(replacement), generator)
    if out is not None:
        _check_tensor(out, "multinomial", "out")
        return _C._store_out(out, r, "multinomial")
    return r


def poisson(input, generator=None):
    """Poisson draws with the rates in input (floating, >= 0); same shape and dtype."""
    _check_tensor(input, "poisson")
    return _C._poisson(input, generator)


from . import random  # noqa: E402,F401  (minitorch.random, as torch.random)
