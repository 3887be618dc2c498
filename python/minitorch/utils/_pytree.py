"""Nested containers ("pytrees") flattened to their leaves and rebuilt, as torch.utils._pytree:
tuples, lists, dicts, OrderedDicts, defaultdicts, namedtuples and None are nodes (None has no
children); everything else is a leaf.  More node types register with register_pytree_node."""
import collections

__all__ = ["TreeSpec", "LeafSpec", "tree_flatten", "tree_unflatten", "tree_leaves",
           "tree_structure", "tree_map", "tree_map_only", "register_pytree_node",
           "tree_all", "tree_any"]

# type -> (flatten: node -> (children, context), unflatten: (children, context) -> node)
_NODES = {}


def register_pytree_node(cls, flatten_fn, unflatten_fn, *, serialized_type_name=None,
                         to_dumpable_context=None, from_dumpable_context=None,
                         flatten_with_keys_fn=None):
    if cls in _NODES:
        raise ValueError(f"{cls} is already registered as pytree node.")
    _NODES[cls] = (flatten_fn, unflatten_fn)


register_pytree_node(tuple, lambda t: (list(t), None), lambda c, ctx: tuple(c))
register_pytree_node(list, lambda t: (list(t), None), lambda c, ctx: list(c))
register_pytree_node(dict, lambda d: (list(d.values()), list(d.keys())),
                     lambda c, keys: dict(zip(keys, c)))
register_pytree_node(collections.OrderedDict, lambda d: (list(d.values()), list(d.keys())),
                     lambda c, keys: collections.OrderedDict(zip(keys, c)))
register_pytree_node(collections.defaultdict,
                     lambda d: (list(d.values()), (d.default_factory, list(d.keys()))),
                     lambda c, ctx: collections.defaultdict(ctx[0], zip(ctx[1], c)))
register_pytree_node(type(None), lambda n: ([], None), lambda c, ctx: None)


def _is_namedtuple(x):
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


def _node_of(x):
    if _is_namedtuple(x):
        cls = type(x)
        return cls, (lambda t: (list(t), cls)), (lambda c, ctx: ctx(*c))
    entry = _NODES.get(type(x))
    if entry is None:
        return None
    return type(x), entry[0], entry[1]


class TreeSpec:
    """The structure of a pytree: its node type, context and children's specs."""

    def __init__(self, type, context, children_specs):
        self.type, self.context, self.children_specs = type, context, children_specs
        self.num_leaves = sum(c.num_leaves for c in children_specs)

    def is_leaf(self):
        return False

    def __eq__(self, other):
        return (isinstance(other, TreeSpec) and not other.is_leaf() and self.type is other.type
                and self.context == other.context and self.children_specs == other.children_specs)

    def __repr__(self):
        return f"TreeSpec({self.type.__name__}, {self.context!r}, {self.children_specs!r})"


class LeafSpec(TreeSpec):
    def __init__(self):
        self.type, self.context, self.children_specs, self.num_leaves = None, None, [], 1

    def is_leaf(self):
        return True

    def __eq__(self, other):
        return isinstance(other, LeafSpec)

    def __repr__(self):
        return "*"


def tree_flatten(tree, is_leaf=None):
    """(leaves in order, spec)."""
    leaves = []

    def go(x):
        node = None if (is_leaf is not None and is_leaf(x)) else _node_of(x)
        if node is None:
            leaves.append(x)
            return LeafSpec()
        cls, flatten, _ = node
        children, ctx = flatten(x)
        return TreeSpec(cls, ctx, [go(c) for c in children])
    spec = go(tree)
    return leaves, spec


def tree_unflatten(leaves, treespec):
    leaves = list(leaves)
    if len(leaves) != treespec.num_leaves:
        raise ValueError(f"treespec.unflatten(leaves): `leaves` has length {len(leaves)} but the "
                         f"spec refers to a pytree that holds {treespec.num_leaves} items "
                         f"({treespec}).")
    it = iter(leaves)

    def go(spec):
        if spec.is_leaf():
            return next(it)
        children = [go(c) for c in spec.children_specs]
        if _is_namedtuple_type(spec.type) and spec.type not in _NODES:
            return spec.context(*children)
        return _NODES[spec.type][1](children, spec.context)
    return go(treespec)


def _is_namedtuple_type(t):
    return isinstance(t, type) and issubclass(t, tuple) and hasattr(t, "_fields")


def tree_leaves(tree, is_leaf=None):
    return tree_flatten(tree, is_leaf)[0]


def tree_structure(tree, is_leaf=None):
    return tree_flatten(tree, is_leaf)[1]


def tree_map(func, tree, *rests, is_leaf=None):
    leaves, spec = tree_flatten(tree, is_leaf)
    others = []
    for r in rests:
        rl, rs = tree_flatten(r, is_leaf)
        if rs != spec:
            raise ValueError(f"Tree structure mismatch:\n{rs}\n!=\n{spec}")
        others.append(rl)
    return tree_unflatten([func(*xs) for xs in zip(leaves, *others)], spec)


def tree_map_only(type_or_types, func, tree, is_leaf=None):
    return tree_map(lambda x: func(x) if isinstance(x, type_or_types) else x, tree,
                    is_leaf=is_leaf)


def tree_all(pred, tree, is_leaf=None):
    return all(map(pred, tree_leaves(tree, is_leaf)))


def tree_any(pred, tree, is_leaf=None):
    return any(map(pred, tree_leaves(tree, is_leaf)))
