import minitorch as torch


def test_import_and_repr():
    t = torch.ones((2, 2))
    assert repr(t) == "tensor([[1., 1.],\n        [1., 1.]])"
    assert t.view(4).storage().data_ptr() == t.storage().data_ptr()
