"""The default DistributedDataParallel communication hooks, as torch's: each is called as
``hook(process_group, bucket)`` (``process_group`` None: the model's group) and returns a
Future completed with the bucket's averaged gradients."""
import minitorch as _mt

from ... import distributed_c10d as _c10d

__all__ = ["allreduce_hook", "fp16_compress_hook", "bf16_compress_hook"]


def _group(process_group):
    return process_group if process_group is not None else _c10d.group.WORLD


def _allreduce_fut(process_group, tensor):
    """Averages tensor over the group in place (divides, then sums); a Future of [tensor]."""
    group = _group(process_group)
    tensor.div_(_c10d.get_world_size(group))
    return _c10d.all_reduce(tensor, group=group, async_op=True).get_future()


def allreduce_hook(process_group, bucket):
    """What DistributedDataParallel does without a hook: the average of the bucket."""
    return _allreduce_fut(process_group, bucket.buffer()).then(lambda fut: fut.value()[0])


def _compress_hook(dtype, process_group, bucket):
    buffer = bucket.buffer()
    compressed = buffer.to(dtype)
    fut = _allreduce_fut(process_group, compressed)

    def decompress(fut):
        buffer.copy_(fut.value()[0])  # back to the bucket's dtype
        return buffer
    return fut.then(decompress)


def fp16_compress_hook(process_group, bucket):
    """Sends the bucket as float16 (half the bytes), averaged, written back in its dtype."""
    return _compress_hook(_mt.float16, process_group, bucket)


def bf16_compress_hook(process_group, bucket):
    """As fp16_compress_hook, in bfloat16 (float32's range, fewer mantissa bits)."""
    return _compress_hook(_mt.bfloat16, process_group, bucket)
