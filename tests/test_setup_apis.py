"""The setup calls training scripts make unconditionally, with torch's arguments, defaults and
errors: torch.compile (eager) and torch._dynamo / torch.compiler, torch.backends switches
(cudnn, cuda.matmul, mps, mha), the float32 matmul precision, deterministic algorithms,
torch.accelerator without an accelerator, torch.cuda's seeding without CUDA, torch.onnx,
device('cpu:N'), a range as an index, distributed.get_default_backend_for_device, and that
none of the modules torch has as submodules loads with `import minitorch`."""
import subprocess
import sys
import warnings

import pytest

import minitorch as torch
import minitorch.nn as nn


# ---- compile -----------------------------------------------------------------------------

def test_compile_returns_the_function_or_module_and_runs_it_eagerly():
    def f(x):
        return x * 2
    assert torch.compile(f) is f
    m = nn.Linear(2, 2)
    cm = torch.compile(m, mode="max-autotune", fullgraph=True, dynamic=False)
    assert cm is m and list(cm.state_dict()) == ["weight", "bias"]
    assert torch.compile(f, backend="eager") is f
    assert torch.compile(f, backend=lambda gm, inputs: gm) is f
    assert torch.compile(f, options={"trace.enabled": True}) is f
    assert torch.compile(f, disable=True) is f

    @torch.compile
    def g(x):
        return x + 1

    @torch.compile(mode="reduce-overhead")
    def h(x):
        return x + 2
    assert g(torch.tensor(1.0)).item() == 2.0 and h(torch.tensor(1.0)).item() == 3.0
    assert m.compile() is None


def test_compile_errors():
    f = lambda x: x    # noqa: E731
    with pytest.raises(AssertionError, match="A callable function is expected, but <class 'int'> "
                                             "is provided."):
        torch.compile(3)
    with pytest.raises(RuntimeError, match="Unrecognized mode=foo, should be one of: default"):
        torch.compile(f, mode="foo")
    with pytest.raises(RuntimeError, match="Either mode or options can be specified, but both can't "
                                           "be specified at the same time."):
        torch.compile(f, mode="default", options={})
    with pytest.raises(RuntimeError, match="Invalid backend: 'foo'"):
        torch.compile(f, backend="foo")
    from minitorch._dynamo.exc import InvalidBackend
    with pytest.raises(InvalidBackend):
        torch.compile(f, backend="foo")


def test_dynamo_and_compiler_names():
    import minitorch._dynamo  # noqa: F401
    assert torch._dynamo.config.suppress_errors is False
    torch._dynamo.config.suppress_errors = True
    torch._dynamo.config.cache_size_limit = 64
    assert torch._dynamo.reset() is None
    f = lambda x: x    # noqa: E731
    assert torch._dynamo.disable(f) is f and torch._dynamo.disable()(f) is f
    assert "inductor" in torch._dynamo.list_backends()
    assert not torch._dynamo.is_compiling() and not torch.compiler.is_compiling()
    assert torch.compiler.disable(f) is f and torch.compiler.reset() is None
    assert not torch.compiler.is_dynamo_compiling()


# ---- backends ----------------------------------------------------------------------------

def test_cudnn_switches():
    cudnn = torch.backends.cudnn
    assert (cudnn.benchmark, cudnn.deterministic, cudnn.enabled, cudnn.allow_tf32) == \
        (False, False, True, True)
    assert cudnn.is_available() is False and cudnn.version() is None
    assert cudnn.benchmark_limit == 10
    try:
        cudnn.benchmark = True
        cudnn.deterministic = True
        assert cudnn.benchmark and cudnn.deterministic
        with pytest.raises(RuntimeError, match="set_benchmark_cudnn expects a bool, but got str"):
            cudnn.benchmark = "x"
        with pytest.raises(RuntimeError, match="set_enabled_cudnn expects a bool, but got int"):
            cudnn.enabled = 1
        with cudnn.flags(enabled=False, benchmark=False):
            assert not cudnn.enabled and not cudnn.benchmark
        assert cudnn.enabled and cudnn.benchmark
    finally:
        cudnn.benchmark = False
        cudnn.deterministic = False


def test_cuda_matmul_switches_and_matmul_precision():
    matmul = torch.backends.cuda.matmul
    assert matmul.allow_tf32 is False and torch.get_float32_matmul_precision() == "highest"
    assert matmul.allow_bf16_reduced_precision_reduction is True
    assert matmul.allow_fp16_reduced_precision_reduction is True
    try:
        torch.set_float32_matmul_precision("high")
        assert matmul.allow_tf32 is True
        torch.set_float32_matmul_precision("medium")
        assert torch.get_float32_matmul_precision() == "medium"
        matmul.allow_tf32 = False
        assert torch.get_float32_matmul_precision() == "highest"
        matmul.allow_tf32 = True
        assert torch.get_float32_matmul_precision() == "high"
        with pytest.warns(UserWarning, match="low is not one of 'highest', 'high', or 'medium'"):
            torch.set_float32_matmul_precision("low")
        assert torch.get_float32_matmul_precision() == "high"
        with pytest.raises(RuntimeError, match="set_float32_matmul_precision expects a str, but got int"):
            torch.set_float32_matmul_precision(3)
        with pytest.raises(RuntimeError, match="set_allow_tf32_cublas expects a bool, but got int"):
            matmul.allow_tf32 = 1
        with pytest.raises(AttributeError, match="Unknown attribute foo"):
            matmul.foo
        with pytest.raises(AttributeError, match="Unknown attribute foo"):
            matmul.foo = 1
        matmul.allow_bf16_reduced_precision_reduction = False
        assert matmul.allow_bf16_reduced_precision_reduction is False
        with pytest.raises(TypeError, match="expects a bool or a tuple/list of bools"):
            matmul.allow_fp16_reduced_precision_reduction = 1
    finally:
        torch.set_float32_matmul_precision("highest")
        matmul.allow_bf16_reduced_precision_reduction = True


def test_mps_mha_and_sdp_flags():
    assert torch.backends.mps.is_available() is False and torch.backends.mps.is_built() is False
    assert torch.backends.mha.get_fastpath_enabled() is True
    cuda = torch.backends.cuda
    assert cuda.flash_sdp_enabled() and cuda.mem_efficient_sdp_enabled() and \
        cuda.math_sdp_enabled() and cuda.cudnn_sdp_enabled()
    cuda.enable_mem_efficient_sdp(False)
    assert not cuda.mem_efficient_sdp_enabled()
    cuda.enable_mem_efficient_sdp(True)
    assert cuda.is_built() in (True, False) and not cuda.is_flash_attention_available()


def test_deterministic_algorithms():
    assert not torch.are_deterministic_algorithms_enabled()
    try:
        torch.use_deterministic_algorithms(True)
        assert torch.are_deterministic_algorithms_enabled()
        assert not torch.is_deterministic_algorithms_warn_only_enabled()
        assert torch.get_deterministic_debug_mode() == 2
        torch.use_deterministic_algorithms(True, warn_only=True)
        assert torch.is_deterministic_algorithms_warn_only_enabled()
        assert torch.get_deterministic_debug_mode() == 1
        # every kernel is deterministic: the same results run after run
        torch.manual_seed(0)
        x = torch.randn(1000, 50)
        assert torch.equal(x.sum(0), x.sum(0)) and torch.equal(x.t() @ x, x.t() @ x)
        torch.set_deterministic_debug_mode("default")
        assert not torch.are_deterministic_algorithms_enabled()
        with pytest.raises(TypeError, match="argument 'mode' \\(position 1\\) must be bool, not int"):
            torch.use_deterministic_algorithms(1)
        with pytest.raises(TypeError, match="argument 'warn_only' must be bool, not int"):
            torch.use_deterministic_algorithms(True, warn_only=1)
        with pytest.raises(TypeError):
            torch.use_deterministic_algorithms(True, True)
        with pytest.raises(RuntimeError, match="invalid value of debug_mode, expected 0, 1, or 2, "
                                               "but got 3"):
            torch.set_deterministic_debug_mode(3)
        with pytest.raises(RuntimeError, match="expected one of `default`, `warn`, `error`, but got x"):
            torch.set_deterministic_debug_mode("x")
    finally:
        torch.use_deterministic_algorithms(False)


# ---- accelerator, cuda, cpu, onnx --------------------------------------------------------

def test_accelerator_without_one():
    acc = torch.accelerator
    assert acc.is_available() is False and acc.device_count() == 0
    assert acc.current_accelerator(check_available=True) is None
    if torch._C._has_cuda:
        assert acc.current_accelerator() == torch.device("cuda")
    else:
        assert acc.current_accelerator() is None
    if torch.cuda.device_count() == 0:
        msg = "Found no NVIDIA driver" if torch._C._has_cuda else \
            "Cannot access accelerator device when none is available."
        for call in (acc.current_device_index, lambda: acc.set_device_index(0), acc.synchronize):
            with pytest.raises(RuntimeError, match=msg):
                call()
        with pytest.raises(RuntimeError, match=msg):
            with acc.device_index(0):
                pass
    with acc.device_index(None):
        pass


def test_cuda_calls_without_cuda():
    assert torch.cuda.manual_seed(1) is None and torch.cuda.manual_seed_all(1) is None
    assert torch.cuda.seed() is None and torch.cuda.seed_all() is None
    assert torch.cuda.is_bf16_supported() is False
    assert torch.cuda.is_bf16_supported(including_emulation=False) is False
    with pytest.raises((TypeError, ValueError)):
        torch.cuda.manual_seed("x")


def test_cpu_module():
    assert torch.cpu.is_available() and torch.cpu.device_count() == 1
    assert torch.cpu.current_device() == "cpu" and torch.cpu.synchronize() is None


def test_onnx():
    import minitorch.onnx  # noqa: F401
    assert torch.onnx.is_in_onnx_export() is False
    with pytest.raises(NotImplementedError, match="ONNX"):
        torch.onnx.export(nn.Linear(2, 2), (torch.randn(1, 2),), "model.onnx")
    with pytest.raises(NotImplementedError, match="ONNX"):
        torch.onnx.dynamo_export(nn.Linear(2, 2), torch.randn(1, 2))


def test_get_default_backend_for_device():
    import minitorch.distributed as dist
    assert dist.get_default_backend_for_device("cpu") == "gloo"
    assert dist.get_default_backend_for_device(torch.device("cuda:1")) == "nccl"
    with pytest.raises(ValueError, match="Default backend not registered for device : meta"):
        dist.get_default_backend_for_device("meta")


# ---- device('cpu:N') and range indices -----------------------------------------------------

def test_cpu_device_with_an_index():
    d = torch.device("cpu:1")
    assert repr(d) == "device(type='cpu', index=1)" and str(d) == "cpu:1" and d.index == 1
    assert d == torch.device("cpu", 1) and d != torch.device("cpu")
    assert torch.device("cpu:0") != torch.device("cpu")
    assert hash(d) == hash(torch.device("cpu", 1))
    assert torch.zeros(2, device="cpu:1").device == torch.device("cpu")
    assert torch.zeros(2).to("cpu:3").device == torch.device("cpu")


def test_range_index():
    t = torch.arange(12).reshape(3, 4)
    assert t[range(2)].tolist() == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert t[:, range(1, 3)].tolist() == [[1, 2], [5, 6], [9, 10]]
    assert t[range(2, 0, -1)].tolist() == [[8, 9, 10, 11], [4, 5, 6, 7]]
    assert t[range(0, 3, 2), range(0, 4, 3)].tolist() == [0, 11]
    assert t[range(-1, 1)].tolist() == [[8, 9, 10, 11], [0, 1, 2, 3]]
    assert tuple(t[range(0)].shape) == (0, 4)
    u = t.clone()
    u[range(2)] = 0
    assert u.tolist() == [[0, 0, 0, 0], [0, 0, 0, 0], [8, 9, 10, 11]]
    u[:, range(1, 4, 2)] = torch.tensor([7, 8])
    assert u[:, 1].tolist() == [7, 7, 7] and u[:, 3].tolist() == [8, 8, 8]
    with pytest.raises(IndexError, match="index 3 is out of bounds for dimension 0 with size 3"):
        t[range(5)]
    x = torch.zeros(3, requires_grad=True)
    x[range(1, 3)].sum().backward()
    assert x.grad.tolist() == [0.0, 1.0, 1.0]


# ---- import cost -----------------------------------------------------------------------------

def test_submodules_load_on_first_use():
    code = ("import sys, minitorch; "
            "lazy = ['minitorch.amp', 'minitorch.cpu', 'minitorch.accelerator', 'minitorch.onnx', "
            "'minitorch._dynamo', 'minitorch.compiler', 'minitorch._compile', "
            "'minitorch.backends.cudnn', 'minitorch.backends.mps', 'minitorch.nn'];"
            "print([m for m in lazy if m in sys.modules]); "
            "minitorch.autocast; minitorch.compile; minitorch.backends.cudnn; "
            "print(sorted(m for m in lazy if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**__import__("os").environ,
                              "PYTHONPATH": __import__("os").pathsep.join(sys.path)})
    first, second = out.stdout.strip().splitlines()
    assert first == "[]"
    assert second == "['minitorch._compile', 'minitorch.amp', 'minitorch.backends.cudnn']"


def test_warnings_filters_untouched():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        torch.backends.cudnn.benchmark = False
        torch.use_deterministic_algorithms(False)
