"""``torch.utils.data._utils.collate``: the collate functions, defined in ../_collate.py."""
from .._collate import (  # noqa: F401  (re-exported)
    collate,
    collate_float_fn,
    collate_int_fn,
    collate_numpy_array_fn,
    collate_numpy_scalar_fn,
    collate_str_fn,
    collate_tensor_fn,
    default_collate,
    default_collate_err_msg_format,
    default_collate_fn_map,
    default_convert,
    np_str_obj_array_pattern,
)

__all__ = ["collate", "collate_float_fn", "collate_int_fn", "collate_numpy_array_fn",
           "collate_numpy_scalar_fn", "collate_str_fn", "collate_tensor_fn", "default_collate",
           "default_collate_err_msg_format", "default_collate_fn_map", "default_convert",
           "np_str_obj_array_pattern"]
