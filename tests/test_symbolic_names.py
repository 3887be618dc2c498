"""torch's symbolic-shape names: the classes (never instantiated: sizes are plain ints) and
the sym_* helpers on plain numbers (compared with torch 2.15)."""
import pytest

import minitorch as torch


def test_sym_helpers_on_plain_numbers():
    assert torch.sym_int(2.7) == 2 and torch.sym_int(-2.7) == -2 and torch.sym_float(2) == 2.0
    assert torch.sym_max(2, 3) == 3 and torch.sym_min(2, 3) == 2 and torch.sym_not(False)
    assert torch.sym_ite(True, 1, 2) == 1 and torch.sym_sqrt(4) == 2.0
    assert torch.sym_sum([1, 2, 3]) == 6


def test_symbolic_classes_exist_for_isinstance():
    assert not isinstance(3, torch.SymInt) and not isinstance(torch.ones(2).shape[0], torch.SymInt)
    with pytest.raises(NotImplementedError, match="no symbolic shapes"):
        torch.SymInt(None)
