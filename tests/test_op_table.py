"""The op table (python/minitorch/_op_table.py) declares every public op once: each row's forms
exist, nothing else adds ops to Tensor, and out= is taken where a row says so."""
import pathlib
import re

import numpy as np
import pytest

import minitorch
from minitorch import _op_table

ROWS = _op_table.OPS
PKG = pathlib.Path(minitorch.__file__).parent

# Methods of the tensor object itself (attributes, protocols, conversions to Python), not ops.
OBJECT_METHODS = {
    "size", "stride", "storage_offset", "dim", "ndimension", "numel", "nelement", "element_size",
    "is_contiguous", "is_floating_point", "data_ptr", "storage", "untyped_storage", "item",
    "tolist", "_type", "get_device",
}


def _names(row):
    return (row["name"],) + row["aliases"]


def test_names_are_unique():
    seen = {}
    for row in ROWS:
        for n in _names(row):
            assert n not in seen, f"{n} declared twice"
            seen[n] = row


@pytest.mark.parametrize("row", ROWS, ids=[r["name"] for r in ROWS])
def test_every_form_exists(row):
    forms = row["forms"]
    assert set(forms) <= set("fmijgonkl"), forms
    assert row["impl"].split(":")[0] in ("C", "py", "Tensor"), row["impl"]
    for n in _names(row):
        if "m" in forms:
            assert callable(getattr(minitorch.Tensor, n)), n
        if "i" in forms:
            assert callable(getattr(minitorch.Tensor, n + "_")), n + "_"
        if "f" in forms or "g" in forms:
            assert callable(getattr(minitorch, n)), n
        if "j" in forms:
            assert getattr(minitorch, n + "_") is getattr(minitorch.Tensor, n + "_")
        if "n" in forms:
            assert callable(minitorch._op_forms.nn_ops()[n]), n
        if "k" in forms:
            assert callable(minitorch._op_forms.nn_ops()[n + "_"]), n + "_"
        if "l" in forms:    # minitorch.linalg.<name without "linalg_">
            assert n.startswith("linalg_") and callable(getattr(minitorch.linalg, n[7:])), n
    if row["impl"].startswith("C:") and "m" in forms:
        # a C method lives on TensorBase, not in a Python layer above it
        assert row["name"] in vars(minitorch._C.TensorBase)


def test_every_public_tensor_method_has_a_row():
    declared = set()
    for row in ROWS:
        for n in _names(row):
            if "m" in row["forms"]:
                declared.add(n)
            if "i" in row["forms"]:
                declared.add(n + "_")
    public = set()
    for cls in (minitorch._C.TensorBase,) + minitorch.Tensor.__mro__[:-1]:
        for n, v in vars(cls).items():
            if not n.startswith("__") and callable(v) and not isinstance(v, (type, property)):
                public.add(n)
    class_body = {n for n, v in vars(minitorch.Tensor).items() if callable(v)}
    undeclared = public - declared - OBJECT_METHODS - class_body
    undeclared = {n for n in undeclared if not n.startswith("_")}
    assert not undeclared, sorted(undeclared)


def test_no_module_adds_methods_to_tensor():
    pattern = re.compile(r"setattr\(\s*(Tensor|_C\.TensorBase)|^\s*(Tensor|TensorBase)\.\w+\s*=", re.M)
    offenders = [str(p.relative_to(PKG)) for p in PKG.rglob("*.py") if pattern.search(p.read_text())]
    assert offenders == []


def test_generator_output_matches_the_table():
    import importlib.util
    spec = importlib.util.spec_from_file_location("gen", PKG.parents[1] / "tools" / "gen_op_table.py")
    if spec is None or not (PKG.parents[1] / "tools" / "gen_op_table.py").exists():
        pytest.skip("the source tree's tools/ is not next to this package (installed copy)")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    methods, functions, _ = gen.build(ROWS)
    for fam, entries in methods.items():
        for pyname, _, _ in entries:
            assert pyname in vars(minitorch._C.TensorBase), (fam, pyname)
    for fam, entries in functions.items():
        for pyname, _, _ in entries:
            assert hasattr(minitorch._C, pyname), (fam, pyname)


ELEMENTWISE = [r for r in ROWS if r["impl"] == "C:ops" and "o" in r["forms"] and r["function"] is None]


@pytest.mark.parametrize("row", ELEMENTWISE, ids=[r["name"] for r in ELEMENTWISE])
def test_out_forms_of_elementwise_ops(row):
    fn = getattr(minitorch, row["name"])
    for dt in (minitorch.int32, minitorch.float32):   # some ops exist for floating dtypes only
        a = minitorch.tensor([1, 2, 3], dtype=dt)
        try:
            try:
                expected = fn(a)
                args = (a,)
            except TypeError:
                expected = fn(a, a)
                args = (a, a)
            break
        except NotImplementedError:
            continue
    out = minitorch.empty(3, dtype=expected.dtype)
    r = fn(*args, out=out)
    assert r is out
    np.testing.assert_array_equal(out.numpy(), expected.numpy())


def test_rows_without_out_reject_it():
    t = minitorch.ones(2)
    with pytest.raises(TypeError):
        minitorch.Tensor.clone(t, out=minitorch.empty(2))

