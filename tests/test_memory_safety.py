"""Memory safety: hostile sizes, aliased out=, Python code that changes arguments while they are
read, and other threads that swap a tensor's impl must raise Python exceptions (or work), never
crash the interpreter or touch freed memory.  Under the AddressSanitizer build (see README) each of
these would report the use-after-free or overflow it guards against."""
import gc
import threading

import numpy as np
import pytest

import minitorch as torch
import minitorch.distributed as dist

BIG = 2**62


# ---------------------------------------------------------------- 1. checked size arithmetic
@pytest.mark.parametrize("make", [
    lambda: torch.zeros(4).as_strided((2,), (BIG,)),
    lambda: torch.zeros(4).as_strided((3,), (BIG + 1,)),          # span wraps to a small number
    lambda: torch.zeros(4).as_strided((2, 2), (BIG, BIG)),
    lambda: torch.zeros(4).as_strided((1,), (1,), BIG),           # offset * itemsize overflows
    lambda: torch.zeros(4).as_strided((2,), (1,), 2**63 - 1),
    lambda: torch.zeros(0).as_strided((0,), (1,), BIG),
    lambda: torch.empty_strided((2, 2), (BIG, BIG)),
    lambda: torch.empty_strided((3,), (BIG,)),
    lambda: torch.empty_strided((2**40, 2**40), (1, 1)),
], ids=["stride", "stride-wraps", "two-strides", "offset", "offset-max", "empty-offset",
        "empty_strided", "empty_strided-1d", "empty_strided-sizes"])
def test_views_whose_extent_overflows_raise(make):
    with pytest.raises((RuntimeError, MemoryError)):
        make()


def test_as_strided_in_bounds_still_works():
    t = torch.arange(6.0)
    v = t.as_strided((2, 2), (3, 1), 1)
    assert v.tolist() == [[1.0, 2.0], [4.0, 5.0]]
    assert torch.empty_strided((2, 3), (1, 2)).stride() == (1, 2)


def test_narrow_with_a_huge_length_raises():
    t = torch.zeros(4)
    with pytest.raises(RuntimeError, match="exceeds dimension size"):
        t.narrow(0, 1, 2**63 - 1)
    with pytest.raises(RuntimeError, match="exceeds dimension size"):
        t.narrow(0, -1, 2**63 - 1)
    assert t.narrow(0, 1, 3).shape == (3,)


def test_buffer_of_a_huge_expanded_tensor_raises():
    with pytest.raises(BufferError, match="too large"):
        memoryview(torch.zeros(1).expand(BIG))
    assert memoryview(torch.zeros(1).expand(5)).shape == (5,)


@pytest.mark.parametrize("op", [
    lambda t, i: t.index_select(0, i),
    lambda t, i: t[i],
    lambda t, i: t.take(i),
], ids=["index_select", "advanced-index", "take"])
def test_indexing_with_a_huge_expanded_index_raises(op):
    idx = torch.zeros(1, dtype=torch.int64).expand(2**61)
    with pytest.raises((MemoryError, RuntimeError)):
        op(torch.zeros(4), idx)


def test_repeat_interleave_with_a_huge_count_raises():
    with pytest.raises((RuntimeError, ValueError)):
        torch.zeros(4).repeat_interleave(BIG)


def test_from_numpy_of_an_array_with_overflowing_strides_raises():
    a = np.lib.stride_tricks.as_strided(np.zeros(1), shape=(3,), strides=(BIG,))
    with pytest.raises((RuntimeError, ValueError)):
        torch.from_numpy(a)


def test_tensor_split_with_a_huge_count_fails_fast():
    with pytest.raises(RuntimeError, match="more memory"):
        torch.tensor_split(torch.zeros(4), 2**60)
    assert len(torch.tensor_split(torch.zeros(4), 6)) == 6


# ---------------------------------------------------------------- 2. out= that is an input
def test_binary_out_that_is_an_input_and_must_grow():
    a = torch.arange(3.0)
    b = torch.ones(2, 3)
    with pytest.warns(UserWarning, match="resized"):
        r = torch.add(a, b, out=a)
    assert r is a
    assert a.tolist() == [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]


def test_unary_and_where_out_that_is_an_input():
    a = torch.arange(3.0)
    assert torch.neg(a, out=a).tolist() == [-0.0, -1.0, -2.0]
    c = torch.tensor([True, False, True])
    x = torch.arange(3.0)
    with pytest.warns(UserWarning, match="resized"):
        torch.where(c.expand(2, 3), x, torch.zeros(2, 3), out=x)
    assert x.tolist() == [[0.0, 0.0, 2.0], [0.0, 0.0, 2.0]]


def test_cat_out_that_is_an_input():
    a = torch.arange(2.0)
    with pytest.warns(UserWarning, match="resized"):
        torch.cat([a, a], out=a)
    assert a.tolist() == [0.0, 1.0, 0.0, 1.0]


@pytest.mark.parametrize("call", [
    lambda out: torch.add(torch.ones(2, 3), 0.5, out=out),
    lambda out: torch.sqrt(torch.ones(2, 3), out=out),
    lambda out: torch.where(torch.ones(2, 3, dtype=torch.bool), torch.ones(2, 3), 0.5, out=out),
], ids=["binary", "unary", "where"])
def test_out_dtype_error_is_raised_before_out_is_resized(call):
    out = torch.zeros(3, dtype=torch.int64)
    with pytest.raises(RuntimeError, match="can't be cast"):
        call(out)
    assert out.shape == (3,)


@pytest.mark.parametrize("fn", [
    lambda x, out: torch.sort(x, out=out),
    lambda x, out: torch.topk(x, 2, out=out),
], ids=["sort", "topk"])
def test_sort_like_outputs_that_alias_or_have_wrong_dtypes_raise(fn):
    x = torch.tensor([3.0, 1.0, 2.0])
    v = torch.zeros(3)
    with pytest.raises(RuntimeError, match="single memory location|dtype"):
        fn(x, (v, v))
    with pytest.raises(RuntimeError, match="dtype"):
        fn(x, (torch.zeros(3), torch.zeros(3)))          # indices must be int64
    with pytest.raises(RuntimeError, match="dtype"):
        fn(x, (torch.zeros(3, dtype=torch.float64), torch.zeros(3, dtype=torch.int64)))
    buf = torch.zeros(6, dtype=torch.int64)
    with pytest.raises(RuntimeError):
        fn(x.long(), (buf[:3], buf[1:4]))               # overlapping views of one storage
    v, i = torch.zeros(0), torch.zeros(0, dtype=torch.int64)
    r = fn(x, (v, i))
    assert r[0] is v and r[1] is i and v.shape == i.shape and v.numel() > 0


# ---------------------------------------------------------------- 3. Python code inside parsing
def test_size_list_changed_by_an_items_index():
    sizes = []

    class Evil:
        def __index__(self):
            sizes.clear()
            gc.collect()
            return 2

    sizes.extend([Evil(), 3, 4])
    with pytest.raises(RuntimeError, match="changed size"):
        torch.zeros(6, 4).view(sizes)
    sizes.extend([Evil(), 3])
    with pytest.raises(RuntimeError, match="changed size"):
        torch.zeros(sizes)


def test_tensor_from_a_list_changed_while_it_is_read():
    outer = []

    class Row:
        def __len__(self):
            return 2

        def __getitem__(self, i):
            if i >= 2:
                raise IndexError(i)
            outer.clear()
            gc.collect()
            return 1.0

    outer.extend([Row(), Row(), Row()])
    with pytest.raises((RuntimeError, ValueError)):
        torch.tensor(outer)
    t = torch.zeros(2, 2)
    outer.extend([Row(), Row()])
    with pytest.raises((RuntimeError, ValueError)):
        t[(outer,)] = 1.0       # a list index is converted like torch.tensor(list)


def test_reduction_input_swapped_by_an_arguments_bool():
    t = torch.arange(6.0).reshape(2, 3)
    expected = t.sum(0).tolist()

    class Keep:
        def __bool__(self):
            t.data = torch.zeros(1)      # drops the old impl and storage
            gc.collect()
            return False

    assert t.sum(0, Keep()).tolist() == expected


def test_basic_index_whose_item_resizes_the_tensor():
    t = torch.arange(12.0).reshape(3, 4)

    class Idx:
        def __index__(self):
            t.data = torch.zeros(1)
            gc.collect()
            return 1

    # the key is read before the tensor (Note [Parsing an indexing key]): the new data is indexed
    with pytest.raises(IndexError, match="index 1 is out of bounds for dimension 0 with size 1"):
        t[Idx(), ...]
    t = torch.arange(12.0).reshape(3, 4)
    with pytest.raises(IndexError, match="index 1 is out of bounds for dimension 0 with size 1"):
        t[Idx(), ...] = 5.0
    assert t.tolist() == [0.0]


# ---------------------------------------------------------------- 4. impls across the GIL
def test_kernels_keep_their_inputs_while_other_threads_swap_them():
    t = torch.randn(200_000)
    stop = threading.Event()
    errors = []

    def swapper():
        while not stop.is_set():
            t.data = torch.randn(200_000)
            t.resize_(100_000)
            t.resize_(200_000)

    th = threading.Thread(target=swapper)
    th.start()
    try:
        for _ in range(200):
            for f in (lambda: t.sum(), lambda: t.clone(), lambda: torch.sort(t),
                      lambda: t + 1.0, lambda: t.exp(), lambda: t.fill_(1.0),
                      lambda: t.index_select(0, torch.arange(10)), lambda: t.to(torch.float64)):
                try:
                    f()
                except RuntimeError as e:          # a shape that changed between calls
                    errors.append(e)
    finally:
        stop.set()
        th.join()


# ---------------------------------------------------------------- 5. the thread pool
@pytest.mark.parametrize("n", [0, -1, 2**31, 2**40, 2**64])
def test_set_num_threads_out_of_range_raises(n):
    before = torch.get_num_threads()
    with pytest.raises((RuntimeError, ValueError, TypeError)):
        torch.set_num_threads(n)
    assert torch.get_num_threads() == before


def test_thread_pool_resizes_and_keeps_results():
    before = torch.get_num_threads()
    x = torch.randn(1_000_000)
    ref = x.sum().item()
    try:
        for n in (3, 1, 5, 2):
            torch.set_num_threads(n)
            assert torch.get_num_threads() == n
            assert x.sum().item() == ref
    finally:
        torch.set_num_threads(before)


# ---------------------------------------------------------------- 6. API traps
def test_send_without_a_destination_raises():
    dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
    try:
        with pytest.raises(ValueError, match="dst"):
            dist.send(torch.ones(2), None)
        with pytest.raises(ValueError, match="dst"):
            dist.isend(torch.ones(2))
    finally:
        dist.destroy_process_group()


# ---------------------------------------------------------------- found by the fuzzer
def test_tensor_from_a_list_holding_a_0d_tensor_where_a_row_belongs():
    # the error message read the type of a list that had just been freed
    with pytest.raises(TypeError, match="not a sequence"):
        torch.tensor([torch.zeros(2), torch.tensor(1.0)])
    with pytest.raises((ValueError, TypeError)):
        torch.BoolTensor([torch.zeros(1, dtype=torch.int8).expand(2), torch.tensor(1.0)])


@pytest.mark.parametrize("call", [
    lambda h: h.unbind(),
    lambda h: h.split(1),
    lambda h: h.chunk(2**62),
    lambda h: torch.zeros(0, 1).chunk(2**63 - 1),
    lambda h: torch.randn(h),
    lambda h: torch.zeros(2, 3).movedim(h, 0),
    lambda h: torch.zeros(2, 3).rot90(1, h),
], ids=["unbind", "split", "chunk", "chunk-empty", "randn-size", "movedim-dims", "rot90-dims"])
def test_results_or_arguments_too_long_for_any_memory_fail_at_once(call):
    huge = torch.zeros(1).expand(2**62)
    with pytest.raises(RuntimeError, match="more memory|at most 64"):
        call(huge)


def test_range_too_long_for_any_memory_fails_at_once():
    with pytest.warns(UserWarning), pytest.raises(RuntimeError, match="more memory"):
        torch.range(-2**31, 2**63 - 1, 2)


def test_chunk_count_must_be_an_int():
    with pytest.raises(TypeError, match="chunks"):
        torch.zeros(4).chunk(1e308)


def test_broadcast_shapes_with_non_int_sizes_raise_instead_of_stopiteration():
    with pytest.raises(TypeError, match="ints"):
        torch.broadcast_shapes((float("nan"),), (2,))
    with pytest.raises(RuntimeError, match="length -3 at -1"):
        torch.broadcast_shapes((2,), (-3,))
    with pytest.raises(ValueError, match="^Attempting to broadcast a dimension with negative length!$"):
        torch.broadcast_shapes((-3,), (2,))
    with pytest.raises(ValueError, match="negative length"):
        torch.broadcast_shapes((1,), (-3,))
    assert torch.broadcast_shapes((2, 1), (3,), 1) == (2, 3)


def test_empty_shapes_whose_other_sizes_overflow():
    # strides of a shape with no elements are computed without overflowing (UBSan); as
    # torch, strides that do not fit int64 are an error
    with pytest.raises(RuntimeError, match="Stride calculation overflowed"):
        torch.zeros(2, 0, 2**62, 2**63 - 1)
    with pytest.raises(RuntimeError, match="Stride calculation overflowed"):
        torch.zeros(4, dtype=torch.int16).tile((0, 2**62, 2**60))
    t = torch.zeros(0, 2**62, 1)
    assert t.numel() == 0 and t.is_contiguous()


def test_bool_tensor_with_bytes_other_than_0_and_1():
    t = torch.tensor([0, 2, 190], dtype=torch.uint8).view(torch.bool)
    assert t.tolist() == [False, True, True]
    repr(torch.empty(3, dtype=torch.bool))


def test_range_takes_numbers_only():
    import numpy as np
    with pytest.warns(UserWarning), pytest.raises(TypeError, match="Number"):
        torch.range([1.0], np.zeros(()))
