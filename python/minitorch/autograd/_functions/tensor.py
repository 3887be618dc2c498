"""Resize and Type: torch's legacy autograd Functions (custom Functions in torch too, so their
nodes are ResizeBackward and TypeBackward)."""
import math
import warnings

from ..function import Function


class Resize(Function):
    """Resize.apply(tensor, sizes): tensor reshaped to sizes (its data when contiguous, else a
    row-major copy; the number of elements must not change); its gradient is reshaped back."""

    @staticmethod
    def forward(ctx, tensor, sizes):
        sizes = tuple(int(s) for s in sizes)
        numel = math.prod(sizes)
        if tensor.numel() != numel:
            raise RuntimeError(
                f"requested resize to {'x'.join(map(str, sizes))} ({numel} elements in total), "
                f"but the given tensor has a size of {'x'.join(map(str, tensor.shape))} "
                f"({tensor.numel()} elements). autograd's resize can only change the shape of a "
                "given tensor, while preserving the number of elements. ")
        ctx.input_sizes = tuple(tensor.shape)
        # a contiguous tensor's data is shared (viewed through an alias of it), as torch's
        return tensor.detach().view(sizes) if tensor.is_contiguous() else \
            tensor.contiguous().view(sizes)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.contiguous().view(ctx.input_sizes), None


class Type(Function):
    """Type.apply(tensor, dtype): tensor.type(dtype), its gradient cast back to the tensor's
    dtype (deprecated in torch since 2.1, with its FutureWarning)."""

    @staticmethod
    def forward(ctx, i, dest_type):
        warnings.warn("`torch.autograd._functions.Type` is deprecated as of PyTorch 2.1, please "
                      "use `torch.tensor.to(dtype=dtype)` instead.", FutureWarning, stacklevel=3)
        ctx.input_dtype = i.dtype
        return i.type(dest_type)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.to(ctx.input_dtype), None
