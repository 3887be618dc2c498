"""Writes mt_derivatives.c: the C form of every derivative declaration of the op table.

usage: gen_derivatives.py python/minitorch/_op_table.py OUT.c

See Note [Derivative declarations] (python/minitorch/autograd/_dsl.py) for the language and
Note [Declared nodes] (csrc/autograd/derivatives.h) for what the generated code runs in.  For
each declaration this emits one C function per formula (plain C over impls: it runs without the
GIL) and a descriptor (parameters, which saved values each formula reads), and a table of all
descriptors by op name.

The compiler types each expression with a kind:
    T  mt_tensor * (a new reference, or borrowed: a parameter, a gradient, a result)
    A  mt_arg: a tensor or a number (Tensor|Scalar parameters and what is computed from them)
    S  mt_scalar (numbers),   I  int64_t,   B  bool,   L  mt_dlist (a list of ints, or None)
    D  mt_dtype,   STR  a string parameter,   NONE  the literal None (no gradient)
and the vocabulary below gives each callable name its parameters' kinds, its result's kind and
its C form.  `x if is_tensor(p) else y` and `x if p is None else y` narrow p's kind in the
branches (a tensor in one, a number or None in the other)."""
import ast
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def _load_dsl(table_path):
    path = os.path.join(os.path.dirname(table_path), "autograd", "_dsl.py")
    spec = importlib.util.spec_from_file_location("_mt_dsl", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# ---- the vocabulary ---------------------------------------------------------------------------

class V:
    """A callable of the formulas: parameters 'K name[=default]', result kind, C template with
    {name} for each argument's C expression (converted to its parameter's kind)."""

    def __init__(self, name, params, result, template):
        self.name, self.result, self.template = name, result, template
        self.params = []
        for p in (s.strip() for s in params.split(",") if s.strip()):
            decl, eq, default = p.partition("=")
            kind, pname = decl.split()
            self.params.append((kind, pname, default.strip() if eq else None))


def _unary(name, enum):
    return V(name, "T self", "T", f"mt_unary(MT_OP_{enum}, {{self}}, NULL)")


VOCAB = {v.name: v for v in [
    V("conj", "A self", "A", "mt_d_conj_arg({self}, &{out})"),
    V("is_tensor", "A self", "B", "({self}.t != NULL)"),
    V("has_grad", "I output", "B", "mt_d_given(given, {output})"),
    V("slog", "S self", "S", "mt_d_scalar_log({self})"),
    V("sum_to", "T self, L shape", "T", "mt_d_sum_to({self}, {shape})"),
    V("reduce_backward", "T self, L shape, L dim, B keepdim", "T",
      "mt_d_reduce_backward({self}, {shape}, {dim}, {keepdim})"),
    V("where", "T cond, A a, A b", "T", "mt_where({cond}, {a}, {b}, NULL)"),
    V("zeros_like", "T self", "T", "mt_d_new_zeros({self}, mt_dlist_of({self}))"),
    V("embed", "T self, L shape, I dim, I start", "T",
      "mt_d_embed({self}, {shape}, {dim}, {start})"),
    V("permute_back", "T self, L dims", "T", "mt_d_permute_back({self}, {dims})"),
    V("scatter_add", "T self, I dim, T index, T src", "T",
      "mt_d_scatter_add({self}, {dim}, {index}, {src})"),
    V("scatter", "T self, I dim, T index, T src", "T",
      "mt_d_scatter({self}, {dim}, {index}, {src})"),
    V("clamp_min", "T self, A min", "T",
      "mt_binary(MT_OP_MAXIMUM, mt_arg_tensor({self}), {min}, NULL, mt_scalar_int(1))"),
    V("last_dims", "I n", "L", "mt_d_last_dims({n})"),
    V("lstm_backward", "T g_out, T g_hn, T g_cn, T x, L batch_sizes, T h0, T c0, T w_ih, "
      "T w_hh, T b_ih, T b_hh, T w_hr, B reverse, T out, T gates, T cells, T hpre", "J",
      "mt_d_lstm_backward({g_out}, {g_hn}, {g_cn}, {x}, {batch_sizes}, {h0}, {c0}, {w_ih}, "
      "{w_hh}, {b_ih}, {b_hh}, {w_hr}, {reverse}, {out}, {gates}, {cells}, {hpre}, {needs}, "
      "{outs})"),
    V("layer_norm_backward", "T g, T gm, T gr, T x, T mean, T rstd, T w, I n", "J",
      "mt_d_layer_norm_backward({g}, {gm}, {gr}, {x}, {mean}, {rstd}, {w}, {n}, {needs}, "
      "{outs})"),
    V("relu_backward", "T self, T result", "T",
      "mt_binary(MT_OP_RELU_BACKWARD, mt_arg_tensor({self}), mt_arg_tensor({result}), NULL, "
      "mt_scalar_int(1))"),
    V("leaky_relu_backward", "T self, T x, S slope", "T",
      "mt_binary(MT_OP_LEAKY_SCALE, mt_arg_tensor({self}), mt_arg_tensor({x}), NULL, {slope})"),
    V("gelu_backward", "T self, T x, STR approximate", "T",
      "mt_d_gelu_backward({self}, {x}, {approximate})"),
    V("softmax_backward", "T self, T result, I dim, B log", "T",
      "mt_d_softmax_backward({self}, {result}, {dim}, {log})"),
    V("all_dims_but", "I ndim, I d", "L", "mt_d_all_dims_but({ndim}, {d})"),
    V("embedding_backward", "T self, I num_weights, T indices, I padding_idx, "
      "B scale_grad_by_freq", "T",
      "mt_d_embedding_backward({self}, {num_weights}, {indices}, {padding_idx}, "
      "{scale_grad_by_freq})"),
    _unary("neg", "NEG"), _unary("exp", "EXP"), _unary("log", "LOG"), _unary("sqrt", "SQRT"),
    _unary("rsqrt", "RSQRT"), _unary("sin", "SIN"), _unary("cos", "COS"), _unary("tan", "TAN"),
    _unary("tanh", "TANH"), _unary("sigmoid", "SIGMOID"), _unary("abs", "ABS"),
    _unary("sign", "SIGN"), _unary("sgn", "SGN"), _unary("reciprocal", "RECIPROCAL"),
    _unary("square", "SQUARE"), _unary("erf", "ERF"), _unary("erfc", "ERFC"),
    _unary("expm1", "EXPM1"), _unary("log1p", "LOG1P"), _unary("exp2", "EXP2"),
    _unary("floor", "FLOOR"), _unary("trunc", "TRUNC"), _unary("relu", "RELU"),
    _unary("sinh", "SINH"), _unary("cosh", "COSH"), _unary("isnan", "ISNAN"),
    _unary("isfinite", "ISFINITE"), _unary("logical_not", "LOGICAL_NOT"),
    _unary("lgamma", "LGAMMA"),
    V("t", "T self", "T", "mt_d_t({self})"),
    V("mT", "T self", "T", "mt_transpose({self}, -2, -1)"),
    V("real", "T self", "T", "mt_complex_part({self}, false)"),
    V("contiguous", "T self", "T", "mt_contiguous({self})"),
    V("clone", "T self", "T", "mt_clone({self})"),
    V("sum", "T self, L dim=None, B keepdim=False", "T", "mt_d_sum({self}, {dim}, {keepdim})"),
    V("mean", "T self, L dim=None, B keepdim=False", "T", "mt_d_mean({self}, {dim}, {keepdim})"),
    V("cumsum", "T self, I dim", "T", "mt_cumulative({self}, {dim}, MT_SCAN_SUM, NULL)"),
    V("reshape", "T self, L shape", "T", "mt_d_reshape({self}, {shape})"),
    V("view", "T self, L shape", "T", "mt_d_view({self}, {shape})"),
    V("expand", "T self, L shape", "T", "mt_d_expand({self}, {shape})"),
    V("unsqueeze", "T self, I dim", "T", "mt_d_unsqueeze({self}, {dim})"),
    V("squeeze", "T self, L dim=None", "T", "mt_d_squeeze({self}, {dim})"),
    V("transpose", "T self, I dim0, I dim1", "T", "mt_transpose({self}, {dim0}, {dim1})"),
    V("permute", "T self, L dims", "T", "mt_d_permute({self}, {dims})"),
    V("narrow", "T self, I dim, I start, I length", "T",
      "mt_d_narrow({self}, {dim}, {start}, {length})"),
    V("select", "T self, I dim, I index", "T", "mt_d_select({self}, {dim}, {index})"),
    V("flip", "T self, L dims", "T", "mt_d_flip({self}, {dims})"),
    V("to", "T self, D dtype", "T", "mt_to_dtype({self}, {dtype}, false)"),
    V("masked_fill", "T self, T mask, A value", "T", "mt_d_masked_fill({self}, {mask}, {value})"),
    V("pow", "T self, A exponent", "T",
      "mt_binary(MT_OP_POW, mt_arg_tensor({self}), {exponent}, NULL, mt_scalar_int(1))"),
    V("mm", "T self, T other", "T", "mt_mm({self}, {other})"),
    V("bmm", "T self, T other", "T", "mt_d_matmul({self}, {other})"),
    V("matmul", "T self, T other", "T", "mt_d_matmul({self}, {other})"),
    V("gather", "T self, I dim, T index", "T", "mt_gather({self}, {dim}, {index})"),
    V("index_select", "T self, I dim, T index", "T",
      "mt_index_select({self}, {dim}, {index}, false)"),
    V("new_zeros", "T self, L shape", "T", "mt_d_new_zeros({self}, {shape})"),
]}
PROPERTIES = {"mT", "real"}          # read as attributes (x.mT), not called
BINOPS = {ast.Add: "ADD", ast.Sub: "SUB", ast.Mult: "MUL", ast.Div: "DIV", ast.Pow: "POW",
          ast.BitAnd: "BITWISE_AND", ast.BitOr: "BITWISE_OR"}
CMPOPS = {ast.Eq: ("EQ", "=="), ast.NotEq: ("NE", "!="), ast.Lt: ("LT", "<"),
          ast.LtE: ("LE", "<="), ast.Gt: ("GT", ">"), ast.GtE: ("GE", ">=")}
CONSTANTS = {"pi": "M_PI", "e": "M_E", "inf": "INFINITY", "nan": "NAN"}

# the C kind of each parameter type of a signature (Note [Declared nodes]: mt_dval)
PARAM_KIND = {"Tensor": "T", "Tensor?": "T?", "Tensor|Scalar": "A", "Scalar": "S",
              "Scalar?": "S?", "float": "S", "float?": "S?", "int": "I", "int?": "I?",
              "int[]": "L", "int[]?": "L", "int[]...": "L", "bool": "B", "bool?": "B?",
              "ScalarType?": "D?", "str": "STR", "str?": "STR", "Any": "ANY"}
DVAL_KIND = {"T": "MT_DV_TENSOR", "T?": "MT_DV_TENSOR", "A": "MT_DV_TENSOR", "S": "MT_DV_SCALAR",
             "S?": "MT_DV_SCALAR", "I": "MT_DV_INT", "I?": "MT_DV_INT", "L": "MT_DV_LIST",
             "B": "MT_DV_BOOL", "B?": "MT_DV_BOOL", "D?": "MT_DV_DTYPE", "STR": "MT_DV_STR",
             "ANY": "MT_DV_ANY"}


class CompileError(Exception):
    pass


class Val:
    """A compiled subexpression: its C expression, kind, whether it is a new reference (T/A
    kinds) held in a temporary the function releases, and whether it may be NULL without an
    error (a branch that gives no gradient)."""
    __slots__ = ("c", "kind", "owned", "nullable")

    def __init__(self, c, kind, owned=False, nullable=False):
        self.c, self.kind, self.owned, self.nullable = c, kind, owned, nullable


class FormulaCompiler:
    """Compiles one formula of a declaration to the body of a C function."""

    def __init__(self, decl, pname):
        self.decl, self.pname = decl, pname
        self.lines = []
        self.temps = []          # (ctype, name)
        self.narrow = {}         # parameter name -> kind inside the current branch
        self.indent = 1
        self.checks = False      # whether any failure jumps to `done`

    # -- helpers
    def emit(self, line):
        self.lines.append("    " * self.indent + line)

    def temp(self, kind):
        name = f"v{len(self.temps)}"
        self.temps.append(("mt_arg" if kind == "A" else "mt_tensor *", name))
        return name

    def fail_if(self, cond):
        self.emit(f"if ({cond}) {{")
        self.emit("    goto done;")
        self.emit("}")
        self.checks = True

    def own(self, c, kind):
        """A new reference computed by C expression c (for kind A: a call returning 0 or an
        error code that writes the argument {out}), held in a temporary."""
        name = self.temp(kind)
        if kind == "A":
            self.fail_if(c.format(out=name) + " < 0")
        else:
            self.emit(f"{name} = {c};")
            self.fail_if(f"{name} == NULL")
        return Val(name, kind, True)

    def err(self, node, msg):
        raise CompileError(f"{self.decl.op} ({self.pname}): {msg} in "
                           f"{ast.unparse(node) if node is not None else '?'}")

    # -- conversions between kinds
    def to(self, v, kind, node):
        if v.kind == kind:
            return v.c
        k = v.kind
        if kind == "A":
            if k == "T":
                return f"mt_arg_tensor({v.c})"
            if k in ("S", "I", "B", "F"):
                return f"mt_arg_scalar({self.to(v, 'S', node)})"
        if kind == "S":
            if k == "I":
                return f"mt_scalar_int({v.c})"
            if k == "F":
                return f"mt_scalar_float({v.c})"
            if k == "B":
                return f"mt_scalar_bool({v.c})"
        if kind == "T" and k == "A":
            return self.own(f"mt_d_arg_as_tensor({v.c})", "T").c
        if kind == "F":
            if k in ("I", "B"):
                return f"(double)({v.c})"
            if k == "S":
                return f"mt_scalar_to_double({v.c})"
        if kind == "L":
            if k == "I":
                return f"mt_dlist_1({v.c})"
            if k == "NONE":
                return "MT_DLIST_NONE"
        if kind == "B" and k == "NONE":
            return "false"
        self.err(node, f"a {k} where a {kind} is expected")

    # -- expressions
    def expr(self, node):
        m = getattr(self, "x_" + type(node).__name__, None)
        if m is None:
            self.err(node, f"unsupported syntax ({type(node).__name__})")
        return m(node)

    def x_Constant(self, node):
        v = node.value
        if v is None:
            return Val("NULL", "NONE")
        if isinstance(v, bool):
            return Val("true" if v else "false", "B")
        if isinstance(v, int):
            return Val(f"INT64_C({v})", "I")
        if isinstance(v, float):
            return Val(repr(v), "F")
        if isinstance(v, str):
            return Val(f'"{v}"', "STRLIT")
        self.err(node, "unsupported constant")

    def param_val(self, p, kind):
        k = p.index
        if kind == "S" and PARAM_KIND[p.type] == "A":
            return Val(f"MT_DANUM(st, {k})", "S")         # narrowed: the number
        if kind == "T":
            return Val(f"MT_DT(st, {k})", "T")
        if kind == "A":
            return Val(f"MT_DA(st, {k})", "A")
        if kind == "S":
            return Val(f"MT_DS(st, {k})", "S")
        if kind == "I":
            return Val(f"MT_DI(st, {k})", "I")
        if kind == "L":
            return Val(f"MT_DL(st, {k})", "L")
        if kind == "B":
            return Val(f"MT_DB(st, {k})", "B")
        if kind == "D":
            return Val(f"MT_DD(st, {k})", "D")
        if kind == "STR":
            return Val(f"MT_DSTR(st, {k})", "STR")
        raise CompileError(f"{self.decl.op}: parameter {p.name} of kind {kind} cannot be read")

    def x_Name(self, node):
        n = node.id
        if n == "grad":
            return Val("grads[0]", "T")
        if n == "result":
            return Val("MT_DRESULT(st, 0)", "T")
        if n in CONSTANTS:
            return Val(CONSTANTS[n], "F")
        p = self.decl.by_name.get(n)
        if p is None:
            self.err(node, f"unknown name {n!r}")
        kind = self.narrow.get(n) or PARAM_KIND[p.type].rstrip("?")
        if kind == "ANY":
            self.err(node, f"parameter {n} of type Any is read")
        return self.param_val(p, kind)

    def x_Subscript(self, node):
        if isinstance(node.value, ast.Name) and node.value.id in ("grads", "results"):
            i = node.slice
            if not isinstance(i, ast.Constant) or not isinstance(i.value, int):
                self.err(node, "grads/results take a constant index")
            if node.value.id == "grads":
                return Val(f"grads[{i.value}]", "T")
            return Val(f"MT_DRESULT(st, {i.value})", "T")
        v = self.expr(node.value)
        if v.kind == "L":
            idx = self.expr(node.slice)
            return Val(f"mt_dlist_at({v.c}, {self.to(idx, 'I', node)})", "I")
        self.err(node, "unsupported subscript")

    def meta_attr(self, base, attr, node):
        """x.shape / x.dtype / x.ndim of a parameter (its saved shape) or a computed tensor."""
        if isinstance(base, ast.Name) and base.id in self.decl.by_name:
            p = self.decl.by_name[base.id]
            if not p.is_tensor:
                self.err(node, f"{attr} of a non-tensor")
            k = p.index
            return {"shape": Val(f"MT_DSHAPE(st, {k})", "L"),
                    "dtype": Val(f"MT_DMETA(st, {k}).dtype", "D"),
                    "ndim": Val(f"MT_DMETA(st, {k}).ndim", "I")}[attr]
        v = self.expr(base)
        t = self.to(v, "T", node)
        return {"shape": Val(f"mt_dlist_of({t})", "L"), "dtype": Val(f"({t})->dtype", "D"),
                "ndim": Val(f"(int64_t)({t})->ndim", "I")}[attr]

    def x_Attribute(self, node):
        if node.attr in ("shape", "dtype", "ndim"):
            return self.meta_attr(node.value, node.attr, node)
        if node.attr in PROPERTIES:
            return self.call(node.attr, [node.value], [], node)
        self.err(node, f"unknown attribute {node.attr!r}")

    def x_Tuple(self, node):
        vals = [self.to(self.expr(e), "I", node) for e in node.elts]
        if not vals:
            return Val("MT_DLIST_EMPTY", "L")
        return Val(f"mt_dlist_n({len(vals)}, (int64_t[]){{{', '.join(vals)}}})", "L")

    x_List = x_Tuple

    def x_UnaryOp(self, node):
        v = self.expr(node.operand)
        if isinstance(node.op, ast.USub):
            if v.kind == "T":
                return self.own(f"mt_unary(MT_OP_NEG, {v.c}, NULL)", "T")
            if v.kind == "A":
                return self.own(f"mt_d_neg_arg({v.c}, &{{out}})", "A")
            if v.kind in ("I", "F"):
                return Val(f"(-({v.c}))", v.kind)
            if v.kind == "S":
                return Val(f"mt_d_scalar_neg({v.c})", "S")
        if isinstance(node.op, ast.Not):
            return Val(f"(!({self.to(v, 'B', node)}))", "B")
        if isinstance(node.op, ast.Invert) and v.kind == "T":
            return self.own(f"mt_unary(MT_OP_LOGICAL_NOT, {v.c}, NULL)", "T")
        self.err(node, "unsupported unary operator")

    def binary(self, op, a, b, node):
        """a <op> b for the operators of BINOPS and comparisons (op: the MT_OP_ suffix)."""
        if a.kind == "T" or b.kind == "T":
            return self.own(f"mt_binary(MT_OP_{op}, {self.to(a, 'A', node)}, "
                            f"{self.to(b, 'A', node)}, NULL, mt_scalar_int(1))", "T")
        if a.kind == "A" or b.kind == "A":
            return self.own(f"mt_d_binary_arg(MT_OP_{op}, {self.to(a, 'A', node)}, "
                            f"{self.to(b, 'A', node)}, &{{out}})", "A")
        self.err(node, "a number operator that should have been folded")

    def number_binop(self, op, a, b, node):
        if a.kind == "I" and b.kind == "I" and op in (ast.Add, ast.Sub, ast.Mult):
            sym = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*"}[op]
            return Val(f"({a.c} {sym} {b.c})", "I")
        if op is ast.Pow:
            return Val(f"mt_d_scalar_op(MT_OP_POW, {self.to(a, 'S', node)}, "
                       f"{self.to(b, 'S', node)})", "S")
        name = BINOPS.get(op)
        if name is None:
            self.err(node, "unsupported operator on numbers")
        return Val(f"mt_d_scalar_op(MT_OP_{name}, {self.to(a, 'S', node)}, "
                   f"{self.to(b, 'S', node)})", "S")

    def x_BinOp(self, node):
        a, b = self.expr(node.left), self.expr(node.right)
        if isinstance(node.op, ast.MatMult):
            return self.own(f"mt_d_matmul({self.to(a, 'T', node)}, {self.to(b, 'T', node)})", "T")
        numeric = ("I", "F", "S", "B")
        if a.kind in numeric and b.kind in numeric:
            return self.number_binop(type(node.op), a, b, node)
        op = BINOPS.get(type(node.op))
        if op is None:
            self.err(node, "unsupported operator")
        return self.binary(op, a, b, node)

    def x_Compare(self, node):
        if len(node.ops) != 1:
            self.err(node, "chained comparison")
        op, right = node.ops[0], node.comparators[0]
        if isinstance(op, (ast.Is, ast.IsNot)):
            if not (isinstance(right, ast.Constant) and right.value is None):
                self.err(node, "`is` compares with None only")
            test = self.is_none(node.left)
            return Val(test if isinstance(op, ast.Is) else f"(!{test})", "B")
        a, b = self.expr(node.left), self.expr(right)
        if a.kind == "STR" or b.kind == "STR":
            s, lit = (a, b) if a.kind == "STR" else (b, a)
            if lit.kind != "STRLIT" or not isinstance(op, (ast.Eq, ast.NotEq)):
                self.err(node, "a string compares with a literal only")
            test = f"mt_dstr_eq({s.c}, {lit.c})"
            return Val(test if isinstance(op, ast.Eq) else f"(!{test})", "B")
        enum, sym = CMPOPS[type(op)]
        if a.kind in ("I", "F", "S", "B") and b.kind in ("I", "F", "S", "B"):
            if a.kind == "S" or b.kind == "S":
                return Val(f"mt_d_scalar_cmp(MT_OP_{enum}, {self.to(a, 'S', node)}, "
                           f"{self.to(b, 'S', node)})", "B")
            return Val(f"(({a.c}) {sym} ({b.c}))", "B")
        if a.kind == "D" and b.kind == "D" and sym in ("==", "!="):
            return Val(f"(({a.c}) {sym} ({b.c}))", "B")
        return self.binary(enum, a, b, node)

    def is_none(self, node):
        if not isinstance(node, ast.Name) or node.id not in self.decl.by_name:
            self.err(node, "`is None` tests a parameter")
        p = self.decl.by_name[node.id]
        return f"(!MT_DPRESENT(st, {p.index}))"

    def x_BoolOp(self, node):
        sym = " && " if isinstance(node.op, ast.And) else " || "
        return Val("(" + sym.join(self.to(self.expr(v), "B", node) for v in node.values) + ")", "B")

    def narrowing(self, test):
        """(parameter, kind when the test holds, kind otherwise) for is_tensor(p) / p is None
        tests, else None."""
        if isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and \
                test.func.id == "is_tensor" and len(test.args) == 1 and \
                isinstance(test.args[0], ast.Name):
            return test.args[0].id, "T", "S"
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and \
                isinstance(test.ops[0], (ast.Is, ast.IsNot)) and isinstance(test.left, ast.Name):
            p = self.decl.by_name.get(test.left.id)
            if p is not None:
                kind = PARAM_KIND[p.type].rstrip("?")
                if isinstance(test.ops[0], ast.Is):
                    return test.left.id, "NONE", kind
                return test.left.id, kind, "NONE"
        return None

    def x_IfExp(self, node):
        cond = self.to(self.expr(node.test), "B", node)
        nar = self.narrowing(node.test)
        branches = []
        for sub, pos in ((node.body, 1), (node.orelse, 2)):
            saved_lines, self.lines = self.lines, []
            saved_narrow = dict(self.narrow)
            if nar is not None:
                self.narrow[nar[0]] = nar[pos]
            self.indent += 1
            v = self.expr(sub)
            self.indent -= 1
            self.narrow = saved_narrow
            branches.append((self.lines, v))
            self.lines = saved_lines
        (l1, v1), (l2, v2) = branches
        kinds = {v1.kind, v2.kind} - {"NONE"}
        if not kinds:
            return Val("NULL", "NONE")
        if kinds <= {"I", "F", "S", "B"} and not (v1.owned or v2.owned):
            kind = "S" if len(kinds) > 1 else kinds.pop()
            if kind == "S":
                c1, c2 = self.to(v1, "S", node), self.to(v2, "S", node)
            else:
                c1, c2 = v1.c, v2.c
            if l1 or l2:
                self.err(node, "a number condition with computed branches")
            return Val(f"(({cond}) ? ({c1}) : ({c2}))", kind)
        kind = "A" if "A" in kinds else ("T" if kinds == {"T"} else None)
        if kind is None:
            self.err(node, f"branches of kinds {kinds}")
        out = self.temp(kind)
        self.emit(f"if ({cond}) {{")
        self.lines += l1
        self.emit(f"    {out} = {self.ref(v1, kind, node)};")
        self.emit("}")
        self.emit("else {")
        self.lines += l2
        self.emit(f"    {out} = {self.ref(v2, kind, node)};")
        self.emit("}")
        nullable = "NONE" in (v1.kind, v2.kind) or v1.nullable or v2.nullable
        if not nullable:
            self.fail_if(f"{out}.t == NULL && mt_d_failed()" if kind == "A" else f"{out} == NULL")
        return Val(out, kind, True, nullable)

    def ref(self, v, kind, node):
        """v as a new reference of `kind` (NULL for NONE)."""
        if v.kind == "NONE":
            return "mt_d_arg_none()" if kind == "A" else "NULL"
        if v.owned and v.kind == kind:
            # the temporary gives its reference away
            return f"mt_d_take_{'arg' if kind == 'A' else 'tensor'}(&{v.c})"
        c = self.to(v, kind, node)
        return f"mt_d_{'arg' if kind == 'A' else 'tensor'}_ref({c})"

    def x_Call(self, node):
        if isinstance(node.func, ast.Attribute):
            name, args = node.func.attr, [node.func.value] + list(node.args)
            if name in ("dim", "numel", "size") and not node.keywords:
                return self.meta_method(name, node.func.value, node.args, node)
        elif isinstance(node.func, ast.Name):
            name, args = node.func.id, list(node.args)
            if name == "len" and len(args) == 1:
                v = self.expr(args[0])
                if v.kind != "L":
                    self.err(node, "len() of a non-list")
                return Val(f"(int64_t)({v.c}).n", "I")
        else:
            self.err(node, "unsupported call")
        return self.call(name, args, node.keywords, node)

    def meta_method(self, name, base, args, node):
        if name == "dim":
            return self.meta_attr(base, "ndim", node)
        shape = self.meta_attr(base, "shape", node)
        if name == "numel":
            return Val(f"mt_dlist_prod({shape.c})", "I")
        if not args:
            return shape
        return Val(f"mt_dlist_at({shape.c}, {self.to(self.expr(args[0]), 'I', node)})", "I")

    def call(self, name, args, keywords, node):
        v = VOCAB.get(name)
        if v is None:
            self.err(node, f"{name!r} is not in the vocabulary")
        bound = {}
        for (kind, pname, default), a in zip(v.params, args):
            bound[pname] = a
        if len(args) > len(v.params):
            self.err(node, f"too many arguments to {name}")
        for kw in keywords:
            if kw.arg not in [p[1] for p in v.params] or kw.arg in bound:
                self.err(node, f"bad keyword {kw.arg!r} to {name}")
            bound[kw.arg] = kw.value
        subs = {}
        for kind, pname, default in v.params:
            if pname in bound:
                val = self.expr(bound[pname])
            elif default is not None:
                val = self.expr(ast.parse(default, mode="eval").body)
            else:
                self.err(node, f"{name} needs {pname}")
            if kind == "L" and val.kind == "NONE":
                subs[pname] = "MT_DLIST_NONE"
            else:
                subs[pname] = self.to(val, kind, node)
        if v.result == "A":
            subs["out"] = "{out}"
        if v.result == "J":
            subs["needs"], subs["outs"] = "needs", "outs"
        c = v.template.format(**subs)
        if v.result in ("T", "A"):
            return self.own(c, v.result)
        return Val(c, v.result)

    def compile_joint(self, tree):
        """A joint formula: one call of a vocabulary function that fills outs[i] for the
        members that need a gradient (needs[i])."""
        if not isinstance(tree, ast.Call):
            self.err(tree, "a joint formula is one call")
        v = self.x_Call(tree)
        if v.kind != "J":
            self.err(tree, "a joint formula calls a function that returns several gradients")
        self.emit(f"rc = {v.c};")

    # -- the function
    def compile(self, tree):
        """The statements computing the formula into *out, then `rc = 0`."""
        v = self.expr(tree)
        if v.kind == "NONE":
            self.emit("*out = NULL;")
        elif v.kind in ("T", "A"):
            if v.kind == "A":
                t = self.own(f"mt_d_arg_as_tensor({v.c})", "T")
                v = Val(t.c, "T", True, v.nullable)
            self.emit(f"*out = {self.ref(v, 'T', tree)};")
            if not v.nullable and not v.owned:
                pass                  # a borrowed tensor: never NULL
        else:
            self.err(tree, f"a formula of kind {v.kind} (not a tensor)")
        self.emit("rc = 0;")


def _c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'



def _c_function(fc, fname, title, out_params):
    """The C function of one compiled formula (fc): a comment with its text, its temporaries
    released on every path, 0 or the error's code."""
    text = " ".join(title.split()).replace("*/", "* /")
    lines = [f"/* {text} */", "static int",
             f"{fname}(const mt_dstate *st, mt_tensor *const *grads, uint32_t given,",
             f"    {out_params})", "{"]
    for ctype, name in fc.temps:
        init = "{0}" if ctype == "mt_arg" else "NULL"
        lines.append(f"    {ctype}{'' if ctype.endswith('*') else ' '}{name} = {init};")
    lines += ["    int rc = -1;", "    (void)st;", "    (void)grads;", "    (void)given;"]
    lines.extend(fc.lines)
    if fc.checks:
        lines.append("done:")
    for ctype, name in fc.temps:
        lines.append(f"    mt_tensor_decref({name}.t);" if ctype == "mt_arg" else
                     f"    mt_tensor_decref({name});")
    lines += ["    return rc < 0 ? mt_d_err() : 0;", "}", ""]
    return lines

def _grads_read(trees):
    """Bit i set when a formula reads the gradient of output i (grad is grads[0]); every bit
    when one indexes grads with anything but a number."""
    mask = 0
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and \
                    node.value.id == "grads":
                i = node.slice
                if isinstance(i, ast.Constant) and isinstance(i.value, int) and 0 <= i.value < 32:
                    mask |= 1 << i.value
                else:
                    return 0xFFFFFFFF
            elif isinstance(node, ast.Name) and node.id == "grad":
                mask |= 1
    # a bare `grads` (not subscripted) reads them all
    subscripted = {id(n.value) for tree in trees for n in ast.walk(tree)
                   if isinstance(n, ast.Subscript)}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id == "grads" and id(node) not in subscripted:
                return 0xFFFFFFFF
    return mask


def emit_declaration(dsl, op, spec, out):
    decl = dsl.Declaration(op, spec)
    if len(decl.params) > 16:
        raise CompileError(f"{op}: more than 16 parameters")
    fnames = []
    for p in decl.params:
        if p.name not in decl.formulas or decl.formulas[p.name] == "not_implemented" or \
                p.name in decl.joint_of:
            fnames.append("NULL")
            continue
        fc = FormulaCompiler(decl, p.name)
        fc.compile(decl.trees[p.name])
        fname = f"mt__dform_{op}_{p.name}"
        fnames.append(fname)
        out.extend(_c_function(fc, fname, f"{op}: {p.name} = {decl.formulas[p.name]}",
                               "mt_tensor **out"))
    joints = []
    for j, (names, tree) in enumerate(decl.joints):
        fc = FormulaCompiler(decl, ", ".join(names))
        fc.compile_joint(tree)
        fname = f"mt__djoint_{op}_{j}"
        out.extend(_c_function(fc, fname, f"{op}: {', '.join(names)} = {ast.unparse(tree)}",
                               "const bool *needs, mt_tensor **outs"))
        idx = ", ".join(str(decl.by_name[n].index) for n in names)
        joints.append(f"    {{{len(names)}, {{{idx}}}, {fname}}},")
    params = []
    for p in decl.params:
        kind = PARAM_KIND[p.type]
        reads = 0
        for q in decl.params:
            if p.name in decl.reads(q.name):
                reads |= 1 << q.index
        dflt = _c_string(repr(p.default)) if p.has_default else "NULL"
        flags = " | ".join(f for f, on in (("MT_DP_OPTIONAL", p.type.endswith("?")),
                                           ("MT_DP_KWONLY", p.kwonly),
                                           ("MT_DP_VARARGS", p.type == "int[]..."),
                                           ("MT_DP_NUMBER", p.type == "Tensor|Scalar"),
                                           ("MT_DP_FLOAT", p.type.startswith("float")),
                                           ("MT_DP_DIFF", p.name in decl.formulas),
                                           ("MT_DP_JOINT", p.name in decl.joint_of)) if on)
        params.append(f"    {{{_c_string(p.name)}, {DVAL_KIND[kind]}, {flags or '0'}, {dflt}, "
                      f"{reads}u}},")
    result_reads = 0
    for q in decl.params:
        if {"result", "results"} & decl.reads(q.name):
            result_reads |= 1 << q.index
    out.append(f"static const mt_dparam mt__dparams_{op}[] = {{")
    out.extend(params)
    out.append("};")
    out.append(f"static mt_dformula mt__dformulas_{op}[] = {{{', '.join(fnames)}}};")
    if joints:
        out.append(f"static const mt_djoint mt__djoints_{op}[] = {{")
        out.extend(joints)
        out.append("};")
    out.append(f"mt_derivative mt__deriv_{op} = {{")
    out.append(f"    .op = {_c_string(op)},")
    out.append(f"    .node_name = {_c_string(decl.node_name)},")
    out.append(f"    .nparams = {len(decl.params)},")
    out.append(f"    .params = mt__dparams_{op},")
    out.append(f"    .formulas = mt__dformulas_{op},")
    out.append(f"    .result_reads = {result_reads}u,")
    out.append(f"    .result_outs = {sum(1 << i for i in decl.result_outputs())}u,")
    out.append(f"    .grads_read = {_grads_read(list(decl.trees.values()))}u,")
    if joints:
        out.append(f"    .joints = mt__djoints_{op},")
        out.append(f"    .njoints = {len(joints)},")
    out.append("};")
    out.append("")


def build(table_path):
    ns = {}
    with open(table_path) as f:
        exec(compile(f.read(), table_path, "exec"), ns)
    dsl = _load_dsl(table_path)
    out = ["/* Generated by tools/gen_derivatives.py from python/minitorch/_op_table.py: do not "
           "edit. */", '#include "csrc/autograd/derivatives.h"', "", "#include <math.h>", ""]
    names = []
    errors = []
    for row in ns["OPS"]:
        spec = row["grad"]
        if isinstance(spec, dict):
            try:
                emit_declaration(dsl, row["name"], spec, out)
                names.append(row["name"])
            except (CompileError, ValueError) as e:
                errors.append(str(e))
    if errors:
        raise SystemExit("gen_derivatives.py: " + "\n".join(errors))
    out.append("mt_derivative *const mt__derivatives[] = {")
    for n in names:
        out.append(f"    &mt__deriv_{n},")
    out.append("    NULL,")
    out.append("};")
    return "\n".join(out) + "\n"


def main(table_path, out_path):
    text = build(table_path)
    try:
        with open(out_path) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(out_path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main(*sys.argv[1:])
