"""The language of derivative declarations (see Note [Derivative declarations]).

Read by the build (tools/gen_derivatives.py, which compiles every formula to C) and at import
(autograd/_declared.py, which compiles the same text to Python for create_graph=True passes
and the Python recorder), so it imports nothing of minitorch.

Note [Derivative declarations]
An op-table row declares its derivative with d(signature, **formulas) in its `grad` slot
(_op_table.py), in the spirit of PyTorch's derivatives.yaml:

    op('mul', 'C:ops', 'fmio', grad=d('Tensor|Scalar self, Tensor|Scalar other',
                                      self='grad * conj(other)', other='grad * conj(self)'))

The signature names the op's parameters in call order with their types:
    Tensor, Tensor? (None allowed), Tensor|Scalar (a tensor or a Python number), Scalar,
    float, int, int? , int[] (a list or tuple of ints, or one int), int[]? (None allowed),
    int[]... (varargs: x.view(2, 3) as well as x.view((2, 3))), bool, ScalarType?, str, str?,
    Any (not read by any formula)
with Python defaults after `=`; parameters after `*` are keyword-only.  Each formula is a
Python expression giving the gradient of one differentiable parameter from
    grad (the gradient of the first output; grads[i] of output i: zeros where none arrived,
    has_grad(i) tells), result (results[i]),
    the parameters by name, numbers and the constants pi, e, inf, nan,
    the operators + - * / ** @ and unary -, comparisons (elementwise on tensors),
    `a if c else b` with c a condition on non-tensor values,
    the vocabulary (tools/gen_derivatives.py's VOCAB for C, _declared.py's for Python): tensor
    methods written as methods (grad.sum(dim, keepdim=True), self.conj(), g.mT, ...) and a few
    helper functions (conj(x) of a tensor or a number, is_tensor(x), sum_to(g, shape),
    reduce_backward(g, shape, dim, keepdim), ...).
Shapes and dtypes of tensor parameters (x.shape, x.dtype, x.dim(), x.numel()) are always
available; a parameter (or `result`) whose values a formula reads is saved by the node (with
its storage's version, checked before the formula runs), but only when the gradient of a
parameter that requires grad reads it.  A formula's gradient is then summed to its input's
shape (broadcasting) and cast to its dtype by the engine, so formulas are written for
same-shape operands.  The formula 'not_implemented' raises when that gradient is needed.
d(..., joint={'a, b': 'f(...)'}) gives several parameters' gradients by one call of a
vocabulary function that returns them together (a fused backward kernel: attention, a
recurrent layer), computed once for the parameters that need one.

The same text runs as C (compiled at build time: no Python in a backward pass that does not
create a graph) and as Python over recorded ops (create_graph=True: the derivative of the
derivative follows from the same declaration), so the two cannot disagree by construction;
tests/test_autograd_declared.py checks both against finite differences."""
import ast
import copy
import functools
import re

TYPES = ("Tensor", "Tensor?", "Tensor|Scalar", "Scalar", "Scalar?", "float", "float?", "int",
         "int?", "int[]", "int[]?", "int[]...", "bool", "bool?", "ScalarType?", "str", "str?",
         "Any")
TENSOR_TYPES = ("Tensor", "Tensor?", "Tensor|Scalar")
META_ATTRS = ("shape", "dtype", "ndim")          # read from the saved shape, never the values
META_METHODS = ("dim", "numel", "size")
NAMES = ("grad", "grads", "result", "results", "pi", "e", "inf", "nan", "None", "True", "False")



# nodes torch names otherwise than by the rule below (its hand-written ones)
_IRREGULAR_NODE_NAMES = {"copy_": "CopyBackwards"}


@functools.lru_cache(maxsize=None)
def node_name(op):
    """The name of the node an op records, as torch's: each word of the op's name capitalised,
    and a letter after a digit too (log1p: Log1PBackward0, max_pool2d: MaxPool2DBackward0); the
    few hand-written nodes of torch by their own names (copy_: CopyBackwards)."""
    if op in _IRREGULAR_NODE_NAMES:
        return _IRREGULAR_NODE_NAMES[op]
    name = "".join(p[:1].upper() + p[1:] for p in op.strip("_").split("_"))
    return re.sub(r"(?<=[0-9])[a-z]", lambda m: m.group(0).upper(), name) + "Backward0"


class Param:
    __slots__ = ("name", "type", "default", "has_default", "kwonly", "index")

    def __init__(self, name, type_, default, has_default, kwonly, index):
        self.name, self.type, self.default = name, type_, default
        self.has_default, self.kwonly, self.index = has_default, kwonly, index

    @property
    def is_tensor(self):
        return self.type in TENSOR_TYPES

    def __repr__(self):
        return f"Param({self.type} {self.name})"


def parse_signature(sig):
    """'Tensor self, Tensor|Scalar other, *, Scalar alpha=1' -> [Param, ...]."""
    params, kwonly = [], False
    for part in (p.strip() for p in sig.split(",")):
        if not part:
            continue
        if part == "*":
            kwonly = True
            continue
        decl, eq, default = part.partition("=")
        type_, _, name = decl.strip().rpartition(" ")
        if type_ not in TYPES or not name.isidentifier():
            raise ValueError(f"bad parameter {part!r} in signature {sig!r}")
        value = ast.literal_eval(default.strip()) if eq else None
        if type_ == "int[]..." and (eq or kwonly):
            raise ValueError(f"varargs parameter {name!r} takes no default and is positional")
        params.append(Param(name, type_, value, bool(eq), kwonly, len(params)))
    names = [p.name for p in params]
    if len(set(names)) != len(names):
        raise ValueError(f"repeated parameter in {sig!r}")
    return params


def parse_formula(text):
    """The formula's expression tree (ValueError naming the text when it is not one)."""
    try:
        return ast.parse(text.strip(), mode="eval").body
    except SyntaxError as e:
        raise ValueError(f"formula {text!r}: {e}") from None


def _meta_use(node, parent):
    """Whether Name `node` is read only for its shape/dtype (or whether it is a tensor, or
    None) through `parent`."""
    if isinstance(parent, ast.Attribute) and parent.value is node:
        return parent.attr in META_ATTRS or parent.attr in META_METHODS
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and \
            parent.func.id == "is_tensor":
        return True
    if isinstance(parent, ast.Compare) and parent.left is node and \
            isinstance(parent.ops[0], (ast.Is, ast.IsNot)):
        return True
    return False


def value_names(tree):
    """The names a formula reads the values of (tensor parameters and `result(s)` whose data
    a gradient needs), as opposed to those it reads only the shape or dtype of."""
    parents = {}
    for n in ast.walk(tree):
        for c in ast.iter_child_nodes(n):
            parents[c] = n
    used = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and not _meta_use(n, parents.get(n)):
            used.add(n.id)
    return used


def result_outputs(tree):
    """The outputs whose values a formula reads: i for `results[i]`, 0 for `result` (shape and
    dtype reads excluded)."""
    parents = {}
    for n in ast.walk(tree):
        for c in ast.iter_child_nodes(n):
            parents[c] = n
    outs = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and n.id == "result" and not _meta_use(n, parents.get(n)):
            outs.add(0)
        elif isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and \
                n.value.id == "results" and isinstance(n.slice, ast.Constant) and \
                not _meta_use(n, parents.get(n)):
            outs.add(n.slice.value)
    return outs


def all_names(tree):
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}


class _Expand(ast.NodeTransformer):
    """Replaces the names of a declaration's `using` subexpressions by their trees."""

    def __init__(self, macros):
        self.macros = macros

    def visit_Name(self, node):
        tree = self.macros.get(node.id)
        if tree is None:
            return node
        return self.visit(copy.deepcopy(tree))


class Declaration:
    """One op's derivative: its parameters and a formula per differentiable parameter.  A
    declaration's `using` names subexpressions that formulas share (expanded where used)."""

    def __init__(self, op, spec):
        self.op = op
        self.params = parse_signature(spec["signature"])
        self.by_name = {p.name: p for p in self.params}
        self.formulas = {}
        self.trees = {}
        macros = {k: parse_formula(v) for k, v in (spec.get("using") or {}).items()}
        expand = _Expand(macros)
        for name, text in spec["formulas"].items():
            p = self.by_name.get(name)
            if p is None or not p.is_tensor:
                raise ValueError(f"{op}: a formula for {name!r}, which is not a tensor parameter")
            self.formulas[name] = text
            if text != "not_implemented":
                tree = ast.fix_missing_locations(expand.visit(parse_formula(text)))
                self.formulas[name] = ast.unparse(tree)
                unknown = {n for n in all_names(tree)
                           if n not in self.by_name and n not in NAMES} - VOCAB_NAMES
                if unknown:
                    raise ValueError(f"{op}: formula for {name!r} uses unknown names "
                                     f"{sorted(unknown)}")
                self.trees[name] = tree
        # joint formulas: one expression giving the gradients of several parameters at once
        # (a call of a vocabulary function that returns a tuple), keyed "a, b, c"
        self.joints = []
        self.joint_of = {}
        for key, text in (spec.get("joint") or {}).items():
            names = [n.strip() for n in key.split(",")]
            tree = ast.fix_missing_locations(expand.visit(parse_formula(text)))
            for n in names:
                p = self.by_name.get(n)
                if p is None or not p.is_tensor or n in self.formulas:
                    raise ValueError(f"{op}: joint formula for {n!r}, which is not a tensor "
                                     "parameter without a formula of its own")
                self.joint_of[n] = len(self.joints)
                self.formulas[n] = ast.unparse(tree)
                self.trees[n] = tree
            self.joints.append((names, tree))
        self.node_name = spec.get("node") or node_name(op)

    def result_outputs(self):
        """The outputs whose values some formula reads (saved when the op is recorded)."""
        outs = set()
        for tree in list(self.trees.values()) + [tree for _, tree in self.joints]:
            outs |= result_outputs(tree)
        return outs

    def reads(self, name):
        """The parameters (and 'result') whose values the formula of `name` reads."""
        tree = self.trees.get(name)
        if tree is None:
            return set()
        return {n for n in value_names(tree)
                if (n in self.by_name and self.by_name[n].is_tensor) or n in ("result", "results")}


# The names formulas may call (the vocabulary); tools/gen_derivatives.py gives each its C form
# and _declared.py its Python form (tests/test_autograd_declared.py checks that both cover
# exactly this list).
VOCAB_NAMES = frozenset({
    # helper functions
    "conj", "is_tensor", "has_grad", "sum_to", "reduce_backward", "where", "zeros_like", "slog",
    "embed", "permute_back", "last_dims", "all_dims_but", "embedding_backward", "gelu_backward",
    "softmax_backward", "lstm_backward", "layer_norm_backward", "relu_backward",
    "leaky_relu_backward",
    # tensor methods and properties
    "neg", "exp", "log", "sqrt", "rsqrt", "sin", "cos", "tan", "tanh", "sigmoid", "abs", "sign",
    "sgn", "reciprocal", "square", "erf", "erfc", "expm1", "log1p", "exp2", "floor", "trunc",
    "relu", "sinh", "cosh", "isnan", "isfinite", "logical_not", "lgamma", "t", "mT",
    "contiguous", "clone", "sum", "mean", "reshape", "view", "expand", "unsqueeze", "squeeze",
    "transpose", "permute", "narrow", "select", "flip", "to", "masked_fill", "pow", "mm", "bmm",
    "matmul", "gather", "index_select", "new_zeros", "real", "cumsum", "scatter_add", "scatter",
    "clamp_min", "shape",
    "dtype", "ndim",
    "dim", "numel", "size",
})
