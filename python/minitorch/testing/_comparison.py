"""assert_close: compares tensors, NumPy arrays, Python numbers and nested sequences/mappings of
them, with tolerances that follow the dtype (torch.testing's rules and messages).

The inputs are paired recursively (sequences item by item, mappings key by key); each leaf pair
is either two tensor-likes (minitorch tensors, or NumPy arrays, which are compared as tensors),
two numbers, or two Nones.  Tensor-likes must agree in shape and (unless the check is off)
dtype, device, layout and strides; their values must satisfy
|actual - expected| <= atol + rtol * |expected| elementwise (NaN equal to NaN only with
equal_nan).  The default tolerances are those of the pair's less precise dtype, zero for exact
dtypes (then the message says "not equal")."""
import cmath
import collections.abc
import math
import warnings

import numpy as np

import minitorch

# dtype -> (rtol, atol); every dtype not listed compares exactly
_TOLERANCES = {
    minitorch.float16: (1e-3, 1e-5),
    minitorch.bfloat16: (1.6e-2, 1e-5),
    minitorch.float32: (1.3e-6, 1e-5),
    minitorch.float64: (1e-7, 1e-7),
    minitorch.complex64: (1.3e-6, 1e-5),
    minitorch.complex128: (1e-7, 1e-7),
}
if hasattr(minitorch, "complex32"):
    _TOLERANCES[minitorch.complex32] = (1e-3, 1e-5)


class _Mismatch(Exception):
    """A failed comparison: the exception type to raise and its message (without location)."""

    def __init__(self, kind, msg):
        super().__init__(msg)
        self.kind, self.msg = kind, msg


def _tolerances(*dtypes, rtol, atol):
    if (rtol is None) != (atol is None):
        raise ValueError("Both 'rtol' and 'atol' must be either specified or omitted, but got no "
                         f"{'rtol' if rtol is None else 'atol'}.")
    if rtol is not None or not dtypes:
        return rtol, atol
    pairs = [_TOLERANCES.get(d, (0.0, 0.0)) for d in dtypes]
    return max(p[0] for p in pairs), max(p[1] for p in pairs)


def _is_tensor_like(x):
    return isinstance(x, (minitorch.Tensor, np.ndarray))


def _is_number(x):
    return isinstance(x, (int, float, complex)) and not isinstance(x, bool) or isinstance(
        x, (bool, np.number, np.bool_))


def _location(path):
    return "".join(f"[{p!r}]" for p in path)


def _pair_leaves(actual, expected, path, out, allow_subclasses):
    """Appends (path, actual, expected) for every leaf pair; raises _Mismatch for structures that
    do not match and TypeError for inputs no comparison handles."""
    if _is_tensor_like(actual) or _is_tensor_like(expected) or actual is None or expected is None \
            or _is_number(actual) or _is_number(expected):
        out.append((path, actual, expected))
        return
    seqs = (collections.abc.Sequence,)
    if isinstance(actual, seqs) and isinstance(expected, seqs) and not isinstance(
            actual, (str, bytes)) and not isinstance(expected, (str, bytes)):
        if len(actual) != len(expected):
            raise _Mismatch(AssertionError, "The length of the sequences mismatch: "
                                            f"{len(actual)} != {len(expected)}").with_path(path)
        for i, (a, e) in enumerate(zip(actual, expected)):
            _pair_leaves(a, e, path + (i,), out, allow_subclasses)
        return
    maps = collections.abc.Mapping
    if isinstance(actual, maps) and isinstance(expected, maps):
        ak, ek = set(actual.keys()), set(expected.keys())
        if ak != ek:
            msg = "The keys of the mappings do not match:\n"
            missing, extra = ek - ak, ak - ek
            lines = []
            if missing:
                lines.append(f"Missing keys in the actual mapping: {_sorted(missing)}")
            if extra:
                lines.append(f"Additional keys in the actual mapping: {_sorted(extra)}")
            raise _Mismatch(AssertionError, msg + "\n".join(lines)).with_path(path)
        keys = list(expected.keys())
        try:
            keys = sorted(keys)
        except TypeError:
            pass
        for k in keys:
            _pair_leaves(actual[k], expected[k], path + (k,), out, allow_subclasses)
        return
    out.append((path, actual, expected))


def _sorted(keys):
    try:
        return sorted(keys)
    except TypeError:
        return list(keys)


def _with_path(self, path):
    self.path = path
    return self


_Mismatch.with_path = _with_path
_Mismatch.path = ()


def _no_pair(actual, expected):
    return TypeError(f"No comparison pair was able to handle inputs of type {type(actual)} and "
                     f"{type(expected)}.")


def _fmt(x):
    return repr(x) if isinstance(x, (float, complex)) else str(x)


def _compare_numbers(actual, expected, rtol, atol, equal_nan, check_dtype):
    def kind(x):
        if isinstance(x, (bool, np.bool_)):
            return bool
        if isinstance(x, (int, np.integer)):
            return int
        if isinstance(x, (float, np.floating)):
            return float
        return complex
    ka, ke = kind(actual), kind(expected)
    if check_dtype and ka is not ke:
        raise _Mismatch(AssertionError, f"The (d)types do not match: {ka} != {ke}.")
    if bool in (ka, ke) and ka is not ke:
        raise _Mismatch(TypeError, str(_no_pair(actual, expected)))
    widest = complex if complex in (ka, ke) else float if float in (ka, ke) else int
    if rtol is None and atol is None:
        rtol, atol = {complex: (1e-7, 1e-7), float: (1e-7, 1e-7)}.get(widest, (0.0, 0.0))
    else:
        rtol, atol = _tolerances(rtol=rtol, atol=atol)
    a, e = widest(actual), widest(expected)
    if a == e:
        return
    nan = (cmath.isnan(a) and cmath.isnan(e)) if widest is complex else (
        widest is float and math.isnan(a) and math.isnan(e))
    if nan and equal_nan:
        return
    diff = abs(a - e)
    if not (diff <= atol + rtol * abs(e)) or widest is int and diff != 0:
        rel = diff / abs(e) if e != 0 else (math.inf if diff else 0.0)
        if widest is int and diff == int(diff):
            diff = int(diff)
        raise _scalar_mismatch(expected, actual, diff, rel, rtol, atol)


def _scalar_mismatch(expected, actual, diff, rel, rtol, atol):
    close = rtol != 0 or atol != 0
    tol_a = f" (up to {atol} allowed)" if close else ""
    tol_r = f" (up to {rtol} allowed)" if close else ""
    return _Mismatch(AssertionError,
                     f"Scalars are not {'close' if close else 'equal'}!\n\n"
                     f"Expected {_fmt(expected)} but got {_fmt(actual)}.\n"
                     f"Absolute difference: {_fmt(diff)}{tol_a}\n"
                     f"Relative difference: {_fmt(rel)}{tol_r}")


def _compare_tensors(actual, expected, rtol, atol, equal_nan, check_device, check_dtype,
                     check_layout, check_stride):
    def meta(attr, a, e):
        if a != e:
            raise _Mismatch(AssertionError,
                            f"The values for attribute '{attr}' do not match: {a} != {e}.")
    meta("shape", actual.shape, expected.shape)
    if check_device:
        meta("device", actual.device, expected.device)
    if check_dtype:
        meta("dtype", actual.dtype, expected.dtype)
    if check_layout:
        meta("layout", actual.layout, expected.layout)
    if check_stride:
        meta("stride()", actual.stride(), expected.stride())
    rtol, atol = _tolerances(actual.dtype, expected.dtype, rtol=rtol, atol=atol)
    if actual.device != expected.device:
        actual, expected = actual.cpu(), expected.cpu()
    if actual.dtype != expected.dtype:
        common = minitorch.promote_types(actual.dtype, expected.dtype)
        actual, expected = actual.to(common), expected.to(common)
    with minitorch.no_grad():
        actual, expected = actual.detach(), expected.detach()
        if actual.dtype is minitorch.bool:
            close = actual == expected
        else:
            close = minitorch.isclose(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan)
        if bool(close.all()):
            return
        _tensor_mismatch(actual, expected, close, rtol, atol)


def _tensor_mismatch(actual, expected, close, rtol, atol):
    is_close = rtol != 0 or atol != 0
    numel = close.numel()
    bad = ~close
    n_bad = int(bad.sum())
    if actual.dtype is minitorch.bool or not (actual.is_floating_point() or actual.is_complex()):
        a, e = actual.to(minitorch.int64), expected.to(minitorch.int64)
    else:
        a, e = actual, expected
    abs_diff = (a - e).abs()
    rel_diff = abs_diff / e.abs()
    if not (abs_diff.is_floating_point()):
        rel_diff = abs_diff.double() / e.abs().double()
    zero = minitorch.zeros((), dtype=abs_diff.dtype)
    abs_diff = minitorch.where(bad, abs_diff, zero)
    rel_diff = minitorch.where(bad, rel_diff, minitorch.zeros((), dtype=rel_diff.dtype))

    def greatest(d):
        flat = d.reshape(-1)
        nans = flat.isnan() if flat.is_floating_point() else None
        if nans is not None and bool(nans.any()):
            i = int(nans.nonzero()[0, 0])
        else:
            i = int(flat.argmax())
        idx = tuple(int(v) for v in np.unravel_index(i, tuple(d.shape))) if d.dim() else ()
        return flat[i].item(), idx

    ma, ia = greatest(abs_diff)
    mr, ir = greatest(rel_diff)
    if actual.dim() == 0:          # differences of the two Python numbers
        av, ev = actual.item(), expected.item()
        ma = abs(av - ev)
        mr = ma / abs(ev) if ev != 0 else (math.inf if ma else 0.0)
        raise _scalar_mismatch(ev, av, ma, mr, rtol, atol)
    tol_a = f" (up to {atol} allowed)" if is_close else ""
    tol_r = f" (up to {rtol} allowed)" if is_close else ""
    raise _Mismatch(AssertionError,
                    f"Tensor-likes are not {'close' if is_close else 'equal'}!\n\n"
                    f"Mismatched elements: {n_bad} / {numel} ({n_bad / numel:.1%})\n"
                    f"Greatest absolute difference: {_fmt(ma)} at index {ia}{tol_a}\n"
                    f"Greatest relative difference: {_fmt(mr)} at index {ir}{tol_r}")


def _compare_leaf(actual, expected, allow_subclasses, rtol, atol, equal_nan, check_device,
                  check_dtype, check_layout, check_stride):
    if actual is None or expected is None:
        if actual is None and expected is None:
            return
        raise _Mismatch(AssertionError, f"None mismatch: {actual} is not {expected}")
    ta, te = _is_tensor_like(actual), _is_tensor_like(expected)
    if ta and te:
        na, ne = isinstance(actual, np.ndarray), isinstance(expected, np.ndarray)
        if na != ne:
            raise _no_pair(actual, expected)
        if na:
            actual, expected = minitorch.from_numpy(actual), minitorch.from_numpy(expected)
        elif allow_subclasses:
            pass
        elif type(actual) is not type(expected):
            raise _no_pair(actual, expected)
        _compare_tensors(actual, expected, rtol, atol, equal_nan, check_device, check_dtype,
                         check_layout, check_stride)
        return
    if _is_number(actual) and _is_number(expected):
        _compare_numbers(actual, expected, rtol, atol, equal_nan, check_dtype)
        return
    raise _no_pair(actual, expected)


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None,
                 equal_nan=False, check_device=True, check_dtype=True, check_layout=True,
                 check_stride=False, msg=None):
    """Raises AssertionError unless actual and expected are close (see the module docstring);
    msg, a string or a callable of the generated message, replaces the message."""
    __tracebackhide__ = True
    _tolerances(rtol=rtol, atol=atol)            # one given without the other
    leaves = []
    try:
        _pair_leaves(actual, expected, (), leaves, allow_subclasses)
        for path, a, e in leaves:
            try:
                _compare_leaf(a, e, allow_subclasses, rtol, atol, equal_nan, check_device,
                              check_dtype, check_layout, check_stride)
            except _Mismatch as m:
                m.path = path
                raise
    except _Mismatch as m:
        text = m.msg
        if m.path:
            text += f"\n\nThe failure occurred for item {_location(m.path)}"
        if callable(msg):
            text = msg(text)
        elif msg is not None:
            text = msg
        raise m.kind(text) from None


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg=""):
    """Deprecated form of assert_close (dtypes may differ, NaNs equal by default)."""
    warnings.warn("`torch.testing.assert_allclose()` is deprecated since 1.12 and will be removed "
                  "in a future release. Please use `torch.testing.assert_close()` instead. You "
                  "can find detailed upgrade instructions in "
                  "https://github.com/pytorch/pytorch/issues/61844.", FutureWarning, stacklevel=2)
    if not isinstance(actual, minitorch.Tensor):
        actual = minitorch.tensor(actual)
    if not isinstance(expected, minitorch.Tensor):
        expected = minitorch.tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        rtol, atol = _tolerances(actual.dtype, expected.dtype, rtol=None, atol=None)
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_device=True,
                 check_dtype=False, check_stride=False, msg=msg or None)
