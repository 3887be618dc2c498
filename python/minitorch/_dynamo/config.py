"""minitorch._dynamo.config: torch._dynamo's configuration flags that scripts set (read by
nothing: there is no graph capture).  Unknown names raise AttributeError, as torch."""

suppress_errors = False
verbose = False
cache_size_limit = 8
recompile_limit = 8
accumulated_cache_size_limit = 256
accumulated_recompile_limit = 256
optimize_ddp = True
capture_scalar_outputs = False
capture_dynamic_output_shape_ops = False
automatic_dynamic_shapes = True
assume_static_by_default = True
dynamic_shapes = True
inline_inbuilt_nn_modules = True
