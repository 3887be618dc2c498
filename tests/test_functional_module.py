"""minitorch.functional (torch.functional): the module programs import as
`import torch.functional as F`, and unravel_index. Values captured from torch 2.15."""
import pytest

import minitorch as torch
import minitorch.functional as F


def test_functional_module_holds_the_top_level_functions():
    for name in ["atleast_1d", "atleast_2d", "atleast_3d", "broadcast_shapes", "broadcast_tensors",
                 "cartesian_prod", "block_diag", "cdist", "chain_matmul", "einsum", "istft", "lu",
                 "norm", "meshgrid", "split", "stft", "tensordot", "unique", "unique_consecutive",
                 "unravel_index"]:
        assert getattr(F, name) is getattr(torch, name), name
        assert name in F.__all__
    assert F.einsum("ij->ji", torch.ones(2, 3)).shape == (3, 2)


def _lists(t):
    return [x.tolist() for x in t]


def test_unravel_index_values():
    assert _lists(torch.unravel_index(torch.tensor(4), (3, 2))) == [2, 0]
    assert _lists(torch.unravel_index(torch.tensor([4, 1]), (3, 2))) == [[2, 0], [0, 1]]
    assert _lists(torch.unravel_index(torch.tensor([[4], [1]]), (3, 2))) == [[[2], [0]], [[0], [1]]]
    # negative and out-of-range indices wrap (floor division and remainder), as torch
    assert _lists(torch.unravel_index(torch.tensor([-1, -6]), (2, 3))) == [[1, 0], [2, 0]]
    assert _lists(torch.unravel_index(torch.tensor([6]), (2, 3))) == [[0], [0]]
    assert _lists(torch.unravel_index(torch.tensor([-7]), (2, 3))) == [[1], [2]]
    assert _lists(torch.unravel_index(torch.tensor([3]), 4)) == [[3]]
    r = torch.unravel_index(torch.tensor([3], dtype=torch.int32), torch.Size([2, 2]))
    assert _lists(r) == [[1], [1]] and r[0].dtype == torch.int64
    assert torch.unravel_index(torch.tensor([0]), ()) == ()


def test_unravel_index_errors():
    with pytest.raises(TypeError, match=r"^expected 'indices' to be integer dtype, but got minitorch.float32$"):
        torch.unravel_index(torch.tensor([1.0]), (2, 3))
    with pytest.raises(TypeError, match="integer dtype, but got minitorch.bool"):
        torch.unravel_index(torch.tensor([True]), (2, 3))
    with pytest.raises(ValueError, match=r"^'shape' cannot have negative values, but got \(2, -3\)$"):
        torch.unravel_index(torch.tensor([1]), (2, -3))
    with pytest.raises(TypeError, match=r"^expected 'shape' sequence to only contain ints, but got <class 'float'>$"):
        torch.unravel_index(torch.tensor([1]), (2.0, 3))
    with pytest.raises(ValueError, match=r"^'shape' cannot have zero dimensions when 'indices' is non-empty, "
                                         r"but got \(2, 0\)$"):
        torch.unravel_index(torch.tensor([1]), (2, 0))
    with pytest.raises(AttributeError, match="is_complex"):  # torch fails the same way on a list
        torch.unravel_index([1], (2, 3))
