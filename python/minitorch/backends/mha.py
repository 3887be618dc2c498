"""minitorch.backends.mha: the switch of torch's fused multi-head-attention fast path.

minitorch computes the same values on one path; the switch is kept because it also decides
whether TransformerEncoder zeroes padded positions (see Note [Nested-tensor encoder] in
nn/modules/transformer.py), as torch's nested-tensor fast path does."""

_fastpath_enabled = True


def get_fastpath_enabled():
    return _fastpath_enabled


def set_fastpath_enabled(value):
    global _fastpath_enabled
    _fastpath_enabled = bool(value)
