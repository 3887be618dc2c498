"""vmap by iteration.

Note [vmap by iteration]
vmap(f, in_dims, out_dims)(*args) calls f once per index i of the mapped dimension, with each
mapped tensor replaced by its slice i (select along its in_dim; unmapped arguments as they are),
and stacks the i-th results along out_dims.  The values are those torch's batching rules give,
for the functions vmap is meant for (no side effects across samples); nested vmap, and vmap
over grad/jacrev, compose because each call is ordinary eager code.  randomness: "different"
lets each call draw its own numbers (the generator simply advances); "same" restores the
generator's state before every call, so each sample sees the same draws; "error" (the default)
raises, as torch does, when a call drew random numbers (seen as a change of the default
generator's state).  The cost is one call of f per sample: torch runs each op once over the
whole batch."""
import functools

import minitorch
from minitorch.utils import _pytree as pytree

__all__ = ["vmap"]


def _dims_for(in_dims, args):
    """in_dims expanded to one entry per leaf of args (a pytree)."""
    if isinstance(in_dims, int) or in_dims is None:
        return [in_dims] * len(pytree.tree_leaves(args))
    if not isinstance(in_dims, tuple):
        raise ValueError(f"vmap(in_dims={in_dims!r}): expected `in_dims` to be int or a (potentially "
                         f"nested) tuple matching the structure of inputs, got: {type(in_dims)}.")
    if len(in_dims) != len(args):
        raise ValueError(f"vmap(in_dims={in_dims!r}, ...)(<inputs>): in_dims is not compatible "
                         f"with the structure of `inputs`. in_dims has structure "
                         f"{pytree.tree_structure(in_dims)} but inputs has structure "
                         f"{pytree.tree_structure(args)}.")
    dims = []
    for d, a in zip(in_dims, args):
        n = len(pytree.tree_leaves(a))
        if isinstance(d, int) or d is None:
            dims += [d] * n
        else:
            sub = pytree.tree_leaves(d, is_leaf=lambda x: x is None)
            if len(sub) != n:
                raise ValueError(f"vmap(in_dims={in_dims!r}, ...)(<inputs>): in_dims is not "
                                 "compatible with the structure of `inputs`.")
            dims += sub
    return dims


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """f -> f mapped over a dimension of its inputs (see Note [vmap by iteration])."""
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or "
                           f"'same'. Got {randomness}")
    if chunk_size is not None and (not isinstance(chunk_size, int) or chunk_size <= 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")

    @functools.wraps(func)
    def mapped(*args, **kwargs):
        leaves, spec = pytree.tree_flatten(args)
        dims = _dims_for(in_dims, args)
        size, sizes = None, []
        for leaf, d in zip(leaves, dims):
            if d is None:
                continue
            if not isinstance(d, int):
                raise ValueError(f"vmap(in_dims={in_dims!r}): Got in_dim={d} for an input but "
                                 "in_dim must be either an integer dimension or None.")
            if not isinstance(leaf, minitorch.Tensor):
                raise ValueError(f"vmap(in_dims={in_dims!r}, ...)(<inputs>): Got in_dim={d} for "
                                 f"an input but the input is of type {type(leaf)}. We cannot "
                                 "vmap over non-Tensor arguments, please use None as the "
                                 "respective in_dim")
            if not -leaf.dim() <= d < max(leaf.dim(), 1) or leaf.dim() == 0:
                raise ValueError(f"vmap(in_dims={in_dims!r}, ...)(<inputs>): Got in_dim={d} for "
                                 f"some input, but that input is a Tensor of dimensionality "
                                 f"{leaf.dim()} so expected in_dim to satisfy "
                                 f"-{leaf.dim()} <= in_dim < {leaf.dim()}.")
            sizes.append(leaf.shape[d])
        if not sizes:
            raise ValueError(f"vmap(in_dims={in_dims!r}, ...)(<inputs>): At least one of the "
                             "inputs must be mapped over (in_dim must not be None for every "
                             "input)")
        if len(set(sizes)) != 1:
            raise ValueError("vmap: Expected all tensors to have the same size in the mapped "
                             f"dimension, got sizes {sizes} for the mapped dimension")
        size = sizes[0]
        gen = minitorch.default_generator
        results = []
        for i in range(size):
            sliced = [leaf.select(d, i) if d is not None else leaf
                      for leaf, d in zip(leaves, dims)]
            state = gen.get_state() if randomness != "different" else None
            out = func(*pytree.tree_unflatten(sliced, spec), **kwargs)
            if randomness == "same":
                if i + 1 < size:
                    after = gen.get_state()
                    gen.set_state(state)
                    last = after
                else:
                    last = None
            elif randomness == "error" and not minitorch.equal(state, gen.get_state()):
                raise RuntimeError("vmap: called random operation while in randomness error mode. "
                                   "Please either use the 'same' or 'different' randomness flags "
                                   "on vmap or perform the randomness operation out of vmap")
            results.append(out)
        if randomness == "same" and size > 1 and last is not None:
            gen.set_state(last)
        return _stack(results, out_dims)
    return mapped


def _stack(results, out_dims):
    leaves0, spec = pytree.tree_flatten(results[0])
    per = [pytree.tree_flatten(r)[0] for r in results]
    if isinstance(out_dims, int) or out_dims is None:
        dims = [out_dims] * len(leaves0)
    else:
        dims = pytree.tree_leaves(out_dims, is_leaf=lambda x: x is None)
        if len(dims) != len(leaves0):
            raise ValueError(f"vmap(..., out_dims={out_dims!r}): out_dims is not compatible with "
                             "the structure of `outputs`.")
    out = []
    for j, d in enumerate(dims):
        items = [p[j] for p in per]
        if not all(isinstance(x, minitorch.Tensor) for x in items):
            raise ValueError("vmap: outputs of the function must be Tensors (or pytrees of "
                             f"Tensors), got type {type(items[0])} as a return")
        if d is None:
            out.append(items[0])
            continue
        nd = items[0].dim() + 1
        if not -nd <= d < nd:
            raise ValueError(f"vmap(..., out_dims={out_dims!r}): Dimension out of range "
                             f"(expected to be in range of [{-nd}, {nd - 1}], but got {d})")
        out.append(minitorch.stack(items, dim=d))
    return pytree.tree_unflatten(out, spec)
