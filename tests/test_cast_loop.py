"""Mixed-dtype elementwise ops convert their inputs block by block (Note [Casting in blocks]):
values, broadcasting, strides, block edges and in-place forms agree with NumPy."""
import numpy as np
import pytest

import minitorch

BLOCK = 512


@pytest.mark.parametrize("n", [1, BLOCK - 1, BLOCK, BLOCK + 1, 3 * BLOCK + 7, 40000])
def test_mixed_add_matches_numpy(n):
    rng = np.random.default_rng(n)
    a = rng.random(n).astype(np.float32)
    b = rng.random(n)
    r = minitorch.from_numpy(a) + minitorch.from_numpy(b)
    assert r.dtype == minitorch.float64
    np.testing.assert_array_equal(r.numpy(), a.astype(np.float64) + b)


def test_strided_and_broadcast_inputs():
    a = np.arange(3000, dtype=np.int32).reshape(60, 50)
    b = np.linspace(0, 1, 60)
    ta, tb = minitorch.from_numpy(a), minitorch.from_numpy(b)
    np.testing.assert_array_equal((ta.t() * tb).numpy(), a.T * b)
    np.testing.assert_array_equal((ta[:, ::3] - tb[:, None]).numpy(), a[:, ::3] - b[:, None])
    np.testing.assert_array_equal((ta.t()[::2] + 0.5).numpy(), a.T[::2] + 0.5)


def test_unary_of_integers_and_where_of_mixed_inputs():
    a = np.arange(-700, 700, dtype=np.int64)
    np.testing.assert_allclose(minitorch.from_numpy(a).sin().numpy(), np.sin(a).astype(np.float32),
                               rtol=1e-6, atol=1e-6)
    cond = a % 3 == 0
    x = a.astype(np.int16)
    y = a.astype(np.float64) / 7
    r = minitorch.where(minitorch.from_numpy(cond), minitorch.from_numpy(x), minitorch.from_numpy(y))
    assert r.dtype == minitorch.float64
    np.testing.assert_array_equal(r.numpy(), np.where(cond, x, y))


def test_in_place_with_an_input_of_another_dtype():
    a = np.arange(2000, dtype=np.float64)
    b = np.arange(2000, dtype=np.int32)
    t = minitorch.from_numpy(a.copy())
    t += minitorch.from_numpy(b)
    np.testing.assert_array_equal(t.numpy(), a + b)
    # self read as another dtype through a view: the same elements, read before written
    f = minitorch.arange(2000, dtype=minitorch.float32)
    bits = f.view(minitorch.int32)
    f.copy_(f * 0 + 1)
    g = minitorch.ones(2000, dtype=minitorch.float64)
    g.add_(bits)
    np.testing.assert_array_equal(g.numpy(), 1 + np.ones(2000, np.float32).view(np.int32))


def test_out_of_another_dtype_and_bool_results():
    a = minitorch.arange(1500, dtype=minitorch.int8)
    b = minitorch.arange(1500, dtype=minitorch.float32)
    out = minitorch.empty(1500, dtype=minitorch.float64)
    minitorch.add(a, b, out=out)
    np.testing.assert_array_equal(out.numpy(), a.numpy().astype(np.float64) + b.numpy())
    np.testing.assert_array_equal((a < b).numpy(), a.numpy() < b.numpy())
