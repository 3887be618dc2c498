"""minitorch.types: the type aliases torch.types gives annotations (Device, Number, _size, ...)."""
import builtins
import os
from typing import IO, Sequence, Union

import minitorch

__all__ = ["Device", "FileLike", "Number", "Storage", "Tensor", "TensorOrTensors", "IntLikeType",
           "FloatLikeType", "BoolLikeType", "PySymType"]

_int = builtins.int
_float = builtins.float
_bool = builtins.bool
_complex = builtins.complex
_dtype = minitorch.dtype
_device = minitorch.device
_layout = minitorch.layout
_size = Union[minitorch.Size, list, tuple]
_dispatchkey = str

Tensor = minitorch.Tensor
TensorOrTensors = Union[Tensor, Sequence[Tensor]]
Number = Union[int, float, bool]
IntLikeType = int
FloatLikeType = float
BoolLikeType = bool
PySymType = Union[int, float, bool]
Device = Union[_device, str, int, None]
Storage = minitorch.UntypedStorage
FileLike = Union[str, os.PathLike, IO[bytes]]
