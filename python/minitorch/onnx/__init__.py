"""minitorch.onnx: the module scripts import; exporting to ONNX is not implemented."""

__all__ = ["export", "dynamo_export", "is_in_onnx_export", "OnnxExporterError"]


class OnnxExporterError(RuntimeError):
    """Errors of the ONNX exporter."""


def export(model, args=(), f=None, **kwargs):
    raise NotImplementedError("minitorch.onnx.export: exporting models to ONNX is not "
                              "implemented in minitorch (export the model with PyTorch: "
                              "minitorch.save writes checkpoints torch.load reads)")


def dynamo_export(model, /, *model_args, **kwargs):
    raise NotImplementedError("minitorch.onnx.dynamo_export: exporting models to ONNX is not "
                              "implemented in minitorch (export the model with PyTorch: "
                              "minitorch.save writes checkpoints torch.load reads)")


def is_in_onnx_export():
    """Whether an ONNX export is running: never."""
    return False
