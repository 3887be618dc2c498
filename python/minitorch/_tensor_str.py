"""Tensor printing in torch's format: ``tensor([[1., 2.],\n        [3., 4.]])``."""
import math
from dataclasses import dataclass


@dataclass
class _PrintOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: object = None


PRINT_OPTS = _PrintOptions()


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     profile=None, sci_mode=None):
    """Sets the options used by Tensor.__repr__ (as torch.set_printoptions)."""
    if profile == "default":
        PRINT_OPTS.precision, PRINT_OPTS.threshold = 4, 1000
        PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 3, 80
    elif profile == "short":
        PRINT_OPTS.precision, PRINT_OPTS.threshold = 2, 1000
        PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 2, 80
    elif profile == "full":
        PRINT_OPTS.precision, PRINT_OPTS.threshold = 4, math.inf
        PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 3, 80
    elif profile is not None:
        raise ValueError(f"unknown print profile {profile!r}; use 'default', 'short' or 'full'")
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions():
    return dict(precision=PRINT_OPTS.precision, threshold=PRINT_OPTS.threshold,
                edgeitems=PRINT_OPTS.edgeitems, linewidth=PRINT_OPTS.linewidth,
                sci_mode=PRINT_OPTS.sci_mode)


def _flat(values):
    """Flattens nested lists produced by tolist()."""
    out = []
    stack = [values]
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            stack.extend(reversed(v))
        else:
            out.append(v)
    return out


def _summarized_values(t, summarize):
    """The values the formatter sizes itself on: all of them, or only the
    edges that will be printed when summarizing."""
    if not summarize or t.dim() == 0:
        return _flat(t.tolist())
    e = PRINT_OPTS.edgeitems
    n = t.size(0)
    rows = list(range(e)) + list(range(n - e, n)) if n > 2 * e else range(n)
    if t.dim() == 1:
        return [t[i].item() for i in rows]
    out = []
    for i in rows:
        out.extend(_summarized_values(t[i], summarize))
    return out


class _Formatter:
    def __init__(self, values, floating):
        self.floating = floating
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        p = PRINT_OPTS.precision
        if not floating:
            for v in values:
                self.max_width = max(self.max_width, len(str(v)))
        else:
            finite = [v for v in values if v != 0 and math.isfinite(v)]
            if finite:
                absvals = [abs(v) for v in finite]
                lo, hi = min(absvals), max(absvals)
                self.int_mode = all(v == math.ceil(v) for v in finite)
                if self.int_mode:
                    if hi / lo > 1000.0 or hi > 1.0e8:
                        self.sci_mode = True
                        strs = [f"{v:.{p}e}" for v in finite]
                    else:
                        strs = [f"{v:.0f}" + "." for v in finite]
                else:
                    if hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4:
                        self.sci_mode = True
                        strs = [f"{v:.{p}e}" for v in finite]
                    else:
                        strs = [f"{v:.{p}f}" for v in finite]
                self.max_width = max(len(s) for s in strs)
        if PRINT_OPTS.sci_mode is not None:
            self.sci_mode = PRINT_OPTS.sci_mode

    def width(self):
        return self.max_width

    def format(self, v):
        p = PRINT_OPTS.precision
        if self.floating:
            if self.sci_mode:
                s = f"{v:{self.max_width}.{p}e}"
            elif self.int_mode:
                s = f"{v:.0f}"
                if not (math.isinf(v) or math.isnan(v)):
                    s += "."
            else:
                s = f"{v:.{p}f}"
        else:
            s = str(v)
        return (self.max_width - len(s)) * " " + s


class _ComplexFormatter:
    """torch's complex format: the real and imaginary parts each sized by a formatter of
    their own, joined as ``1.+2.j`` / ``3.-1.j``."""

    def __init__(self, values):
        self.re = _Formatter([v.real for v in values], True)
        self.im = _Formatter([v.imag for v in values], True)

    def width(self):
        return self.re.width() + self.im.width() + 1

    def format(self, v):
        real_str = self.re.format(v.real)
        imag_str = (self.im.format(v.imag) + "j").lstrip()
        return real_str + imag_str if imag_str[0] in "+-" else real_str + "+" + imag_str


def _vector_str(t, indent, summarize, fmt):
    e = PRINT_OPTS.edgeitems
    per_line = max(1, int(math.floor((PRINT_OPTS.linewidth - indent) / (fmt.width() + 2))))
    n = t.size(0)
    if summarize and not e:
        data = ["..."]
    elif summarize and n > 2 * e:
        vals = t.tolist()
        data = [fmt.format(v) for v in vals[:e]] + [" ..."] + [fmt.format(v) for v in vals[n - e:]]
    else:
        data = [fmt.format(v) for v in t.tolist()]
    lines = [", ".join(data[i:i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_str_rec(t, indent, summarize, fmt):
    dim = t.dim()
    if dim == 0:
        return fmt.format(t.item())
    if dim == 1:
        return _vector_str(t, indent, summarize, fmt)
    e = PRINT_OPTS.edgeitems
    n = t.size(0)
    if summarize and n > 2 * e:
        slices = ([_tensor_str_rec(t[i], indent + 1, summarize, fmt) for i in range(e)] + ["..."] +
                  [_tensor_str_rec(t[i], indent + 1, summarize, fmt) for i in range(n - e, n)])
    else:
        slices = [_tensor_str_rec(t[i], indent + 1, summarize, fmt) for i in range(n)]
    return "[" + ("," + "\n" * (dim - 1) + " " * (indent + 1)).join(slices) + "]"


def _tensor_str(t, indent):
    summarize = t.numel() > PRINT_OPTS.threshold
    if t.dtype.is_floating_point and t.dtype.itemsize == 2:
        t = t.float()
    if t.dtype.is_complex:
        fmt = _ComplexFormatter(_summarized_values(t, summarize))
    else:
        fmt = _Formatter(_summarized_values(t, summarize), t.dtype.is_floating_point)
    return _tensor_str_rec(t, indent, summarize, fmt)


def _add_suffixes(s, suffixes, indent):
    last_line_len = len(s) - s.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
            s += ",\n" + " " * indent + suffix
            last_line_len = indent + len(suffix)
        else:
            s += ", " + suffix
            last_line_len += len(suffix) + 2
    return s + ")"


def _str(t):
    import minitorch
    from .autograd import _forward

    tangent = _forward.tangent(t)
    if tangent is not None or _forward.active():
        # a dual tensor (forward-mode AD): its values, then its tangent, as torch prints them
        with minitorch.no_grad(), _forward.disabled():
            return _str_impl(t, tangent)
    with minitorch.no_grad():
        return _str_impl(t)


def _str_impl(t, tangent=None):
    import minitorch

    # a subclass prints under its own name, as torch's default repr does (Parameter adds its
    # own "Parameter containing:" line around a plain tensor(...); torch's Buffer is a plain
    # tensor)
    from .nn.parameter import Buffer, Parameter
    cls = type(t)
    prefix = "tensor(" if cls in (minitorch.Tensor, Parameter, Buffer) else cls.__name__ + "("
    indent = len(prefix)
    suffixes = []
    if t.device.type != "cpu":
        suffixes.append(f"device='{t.device}'")
    if t.numel() == 0:
        if t.dim() != 1:
            suffixes.append("size=" + str(tuple(t.shape)))
        if t.dtype != minitorch.get_default_dtype():
            suffixes.append("dtype=" + str(t.dtype))
        body = "[]"
    else:
        default = minitorch.get_default_dtype()
        default_complex = minitorch.complex128 if default == minitorch.float64 else minitorch.complex64
        if t.dtype not in (default, default_complex, minitorch.int64, minitorch.bool):
            suffixes.append("dtype=" + str(t.dtype))
        body = _tensor_str(t, indent)
    try:
        grad_fn = t.grad_fn
    except RuntimeError:
        # a view whose history cannot be made (Note [Creation meta of views]), as torch prints it
        grad_fn = None
        suffixes.append("grad_fn=<Invalid>")
    if tangent is not None:
        suffixes.append("tangent=" + _str_impl(tangent))
    if grad_fn is not None:
        suffixes.append(f"grad_fn=<{grad_fn.name()}>")
    elif t.requires_grad and "grad_fn=<Invalid>" not in suffixes:
        suffixes.append("requires_grad=True")
    return _add_suffixes(prefix + body, suffixes, indent)
