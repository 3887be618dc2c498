"""The op table: every public tensor op of minitorch, declared once.

Each ``op(...)`` row names an op, where it is implemented and which forms it has; everything
else is generated from the rows:
  - the C method and function tables of minitorch._C (``tools/gen_op_table.py``, run by the
    build, writes ``mt_op_table.h``, which each csrc binding file expands),
  - the Python-implemented Tensor methods and every ``minitorch.<name>`` function
    (``_op_forms.py``, at import).
So an op is added by writing its implementation and one row here; a row whose C entry point is
missing fails the build, and one whose Python implementation is missing fails the import.

op(name, impl, forms, *, aliases=(), function=None, inplace=None, call=None, grad=None)
  impl     "C:<family>"  C entry points in csrc/<family>_binding.c (family "tensor":
                         csrc/tensor_methods.c) named by convention: method mt_m_<name>,
                         in-place method mt_m_<name>_, function mt_f_<name>;
           "py:<module>[.<attr>]"  a Python function in minitorch.<module> (attr defaults to
                         name) taking the tensor first: it is the method and the function;
           "Tensor"      a method the Tensor class defines itself (_tensor.py or the C type).
  forms    f  minitorch.<name> function     m  Tensor.<name> method
           i  Tensor.<name>_ in-place method (from impl's family for C ops, else the generic
              in-place form: compute, check shape and dtype, copy into self)
           j  minitorch.<name>_ function of the in-place form
           g  minitorch.<name>(t, ...) calls t.<name>(...)
           o  takes out= (checked by tests/test_op_table.py)
           n  an op of minitorch.nn.functional: its recorded Python form, which nn.functional
              calls (_op_forms.nn_ops())
           k  the in-place form of an n op (the generic one), as nn_ops()["<name>_"]
           l  a function of minitorch.linalg (the row's name without "linalg_")
  aliases  other names with the same forms (torch's aliases: absolute for abs, ...)
  function, inplace   where that form lives when not where impl says ("C:<family>" or "py:...")
  call     C calling convention when not METH_FASTCALL | METH_KEYWORDS: "noargs", "o", "varargs"
  grad     the derivative: d(signature, **formulas), a declaration (Note [Derivative
           declarations] in autograd/_dsl.py: compiled to C at build time and to Python at
           import); or the name of a Python formula in autograd/formulas.py; "nondiff" (no
           derivative: the outputs never require grad); None until it exists

The table is data only: it imports nothing, so the build can read it without minitorch."""

OPS = []


def d(signature, node=None, using=None, joint=None, **formulas):
    """A derivative declaration (Note [Derivative declarations] in autograd/_dsl.py)."""
    return {"signature": signature, "formulas": formulas, "node": node, "using": using or {},
            "joint": joint or {}}


# signatures shared by several rows
_BINARY = 'Tensor|Scalar self, Tensor|Scalar other'
_UNARY = 'Tensor self'


def op(name, impl, forms, *, aliases=(), function=None, inplace=None, call=None, grad=None):
    OPS.append({"name": name, "impl": impl, "forms": forms, "aliases": tuple(aliases),
                "function": function, "inplace": inplace, "call": call, "grad": grad})


op('abs',                 'C:ops',                   'fmio', aliases=('absolute',), grad=d(_UNARY, self='grad * self.sgn()'))
op('acos',                'C:ops',                   'fmio', aliases=('arccos',), grad=d(_UNARY, self='-grad / conj((1 - self * self).sqrt())'))
op('acosh',               'C:ops',                   'fmio', aliases=('arccosh',), grad=d(_UNARY, self='grad / conj((self * self - 1).sqrt())'))
op('add',                  'C:ops', 'fmio', grad=d(_BINARY + ', *, Scalar alpha=1', self='grad',
                      other='grad if alpha == 1 else grad * conj(alpha)'))
op('addbmm',              'py:_linalg',              'fmi')
op('addcdiv',             'py:_pointwise',           'fmio', inplace='generic')
op('addcmul',             'py:_pointwise',           'fmio', inplace='generic')
op('addmm',               'C:linalg',                'fmio', inplace='generic', grad=d('Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1',
    self='grad if beta == 1 else grad * conj(beta)',
    mat1='grad.mm(conj(mat2).mT) if alpha == 1 else grad.mm(conj(mat2).mT) * conj(alpha)',
    mat2='conj(mat1).mT.mm(grad) if alpha == 1 else conj(mat1).mT.mm(grad) * conj(alpha)'))
op('addmv',               'C:linalg',                'fmio', inplace='generic', grad=d('Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1',
    self='grad if beta == 1 else grad * conj(beta)',
    mat='grad.unsqueeze(1) * conj(vec).unsqueeze(0) * conj(alpha)',
    vec='(conj(mat).mT @ grad) * conj(alpha)'))
op('addr',                'py:_linalg',              'fmi')
op('all',                 'C:reduce',                'fmo', grad='nondiff')
op('allclose',            'py:_ops',                 'fm', grad='nondiff')
op('amax',                'C:reduce',                'fmo', grad='amax')
op('amin',                'C:reduce',                'fmo', grad='amin')
op('aminmax',             'py:_pointwise',           'fmo')
op('angle',               'C:ops',                   'fmio', grad='angle')
op('any',                 'C:reduce',                'fmo', grad='nondiff')
op('arange',              'C:tensor',                'f', grad='nondiff')
op('argmax',              'C:reduce',                'fmo', grad='nondiff')
op('argmin',              'C:reduce',                'fmo', grad='nondiff')
op('argsort',             'py:_sorting',           'fm', grad='nondiff')
op('argwhere',            'py:_gather_scatter',           'fm', grad='nondiff')
op('as_strided',          'C:tensor',                'gmi', grad='as_strided')
op('as_tensor',           'C:tensor',                'f', grad='nondiff')
op('asin',                'C:ops',                   'fmio', aliases=('arcsin',), grad=d(_UNARY, self='grad / conj((1 - self * self).sqrt())'))
op('asinh',               'C:ops',                   'fmio', aliases=('arcsinh',), grad=d(_UNARY, self='grad / conj((self * self + 1).sqrt())'))
op('atan',                'C:ops',                   'fmio', aliases=('arctan',), grad=d(_UNARY, self='grad / conj(1 + self * self)'))
op('atan2',               'C:ops',                   'fmio', aliases=('arctan2',), grad=d('Tensor self, Tensor other',
    using={'recip': '(self * self + other * other).reciprocal().masked_fill('
                    '(self == 0) & (other == 0), 0)'},
    self='grad * other * recip', other='-grad * self * recip'))
op('atanh',               'C:ops',                   'fmio', aliases=('arctanh',), grad=d(_UNARY, self='grad / conj(1 - self * self)'))
op('atleast_1d',          'py:_joining',           'f')
op('atleast_2d',          'py:_joining',           'f')
op('atleast_3d',          'py:_joining',           'f')
op('baddbmm',             'C:linalg',                'fmio', inplace='generic', grad=d('Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1',
    self='grad if beta == 1 else grad * conj(beta)',
    batch1='grad.bmm(conj(batch2).mT) * conj(alpha)',
    batch2='conj(batch1).mT.bmm(grad) * conj(alpha)'))
op('bernoulli',           'py:_random',              'fmi', inplace="py:_random.bernoulli_", grad='nondiff')
op('bfloat16',            'C:tensor',                'm', grad=d('Tensor self, *, Any memory_format=None', node='ToCopyBackward0', self='grad'))
op('bincount',            'py:_searching',           'fm', grad='nondiff')
op('bitwise_and',         'C:ops',                   'fmio', grad='nondiff')
op('bitwise_left_shift',  'C:ops',                   'fmio', grad='nondiff')
op('bitwise_not',         'C:ops',                   'fmio', grad='nondiff')
op('bitwise_or',          'C:ops',                   'fmio', grad='nondiff')
op('bitwise_right_shift', 'C:ops',                   'fmio', grad='nondiff')
op('bitwise_xor',         'C:ops',                   'fmio', grad='nondiff')
op('block_diag',          'py:_joining',           'f')
op('bmm',                 'C:linalg',                'fmo', grad=d('Tensor self, Tensor mat2', self='grad.bmm(conj(mat2).mT)', mat2='conj(self).mT.bmm(grad)'))
op('bool',                'C:tensor',                'm', grad='nondiff')
op('broadcast_shapes',    'py:_broadcasting',           'f', grad='nondiff')
op('broadcast_tensors',   'py:_broadcasting',           'f')
op('bucketize',           'py:_searching',           'f', grad='nondiff')
op('byte',                'C:tensor',                'm', grad='nondiff')
op('can_cast',            'C:ops',                   'f', grad='nondiff')
op('cartesian_prod',      'py:_joining',           'f')
op('cat',                 'C:index',                 'fo', aliases=('concat', 'concatenate',), grad='cat')
op('cauchy_',             'py:_random',              'm', grad='nondiff')
op('cdouble',             'py:_complex',             'm')
op('ceil',                'C:ops',                   'fmio', grad=d(_UNARY, self='zeros_like(grad)'))
op('complex',             'py:_complex',             'fo')
op('cfloat',              'py:_complex',             'm')
op('char',                'C:tensor',                'm', grad='nondiff')
op('as_subclass',         'py:_subclass',            'm', grad='identity')
op('chunk',               'Tensor',                  'gm')
op('clamp',               'py:_ops',                 'fmij', aliases=('clip',), grad='clamp')
op('clamp_max',           'py:_pointwise',           'fmijo', inplace='generic', grad='clamp_max')
op('clamp_min',           'py:_pointwise',           'fmijo', inplace='generic', grad='clamp_min')
op('clone',               'C:tensor',                'gm', grad=d('Tensor self, *, Any memory_format=None', self='grad'))
op('column_stack',        'py:_joining',           'f')
op('conj',                'py:_complex',             'fm')
op('conj_physical',       'C:ops',                   'fmio', grad='conj')
op('contiguous',          'C:tensor',                'm', grad=d('Tensor self, *, Any memory_format=None', self='grad'))
op('copy_',               'C:tensor',                'm', grad='copy_')
op('copysign',            'C:ops',                   'fmio', grad=d('Tensor self, Tensor|Scalar other',
    self='(grad * result / self).masked_fill(self == 0, 0)', other='zeros_like(grad)'))
op('cos',                 'C:ops',                   'fmio', grad=d(_UNARY, self='grad * -conj(self.sin())'))
op('cosh',                'C:ops',                   'fmio', grad=d(_UNARY, self='grad * conj(self.sinh())'))
op('count_nonzero',       'py:_reductions',          'fm', grad='nondiff')
op('cpu',                 'C:tensor',                'm', grad=d('Tensor self, *, Any memory_format=None', node='ToCopyBackward0', self='grad'))
op('cuda',                'C:tensor',                'm', grad=d('Tensor self, Any device=None, Any non_blocking=False, *, Any memory_format=None', node='ToCopyBackward0', self='grad'))
op('cummax',              'py:_reductions',          'fmo', grad='cummax')
op('cummin',              'py:_reductions',          'fmo', grad='cummin')
op('cumprod',             'C:reduce',                'fmio', inplace='generic', grad='cumprod')
op('cumsum',              'C:reduce',                'fmio', inplace='generic', grad=d('Tensor self, int dim, *, ScalarType? dtype=None',
    self='grad.flip(dim).cumsum(dim).flip(dim)'))
op('deg2rad',             'C:ops',                   'fmio', grad=d(_UNARY, self='grad * 0.017453292519943295'))
op('detach',              'C:tensor',                'gmi', call='noargs', grad='nondiff')
op('diag',                'py:_rearranging',           'fm', grad='diag')
op('diag_embed',          'py:_rearranging',           'fm', grad='diag_embed')
op('diagflat',            'py:_rearranging',           'fm', grad='diagflat')
op('diagonal',            'py:_rearranging',           'fm')
op('div',                  'C:ops', 'fmio', aliases=('divide', 'true_divide',), grad=d(
    _BINARY + ', *, str? rounding_mode=None',
    self='grad / conj(other) if rounding_mode is None else grad * 0',
    other='-grad * conj(result) / conj(other) if rounding_mode is None else grad * 0'))
op('dot',                 'C:linalg',                'fmo', grad=d('Tensor self, Tensor tensor', self='grad * conj(tensor)', tensor='grad * conj(self)'))
op('double',              'C:tensor',                'm', grad=d('Tensor self, *, Any memory_format=None', node='ToCopyBackward0', self='grad'))
op('dsplit',              'py:_joining',           'fm')
op('dstack',              'py:_joining',           'f')
op('einsum',              'py:_linalg',              'f')
op('empty',               'C:tensor',                'f', grad='nondiff')
op('empty_like',          'py:_factories',           'f', grad='nondiff')
op('empty_strided',       'C:tensor',                'f', grad='nondiff')
op('eq',                  'C:ops',                   'fmio', grad='nondiff')
op('equal',               'py:_ops',                 'fm', grad='nondiff')
op('erf',                 'C:ops',                   'fmio', grad=d(_UNARY, self='grad * 1.1283791670955126 * (-self * self).exp()'))
op('erfc',                'C:ops',                   'fmio', grad=d(_UNARY, self='grad * -1.1283791670955126 * (-self * self).exp()'))
op('erfinv',              'C:ops',                   'fmio', grad=d(_UNARY, self='grad * 0.8862269254527579 * (result * result).exp()'))
op('exp',                  'C:ops', 'fmio', grad=d(_UNARY, self='grad * conj(result)'))
op('exp2',                'C:ops',                   'fmio', grad=d(_UNARY, self='grad * conj(result) * 0.6931471805599453'))
op('expand',              'C:tensor',                'm', grad=d('Tensor self, int[]... size, *, bool implicit=False', self='grad'))
op('expand_as',           'C:tensor',                'm', call='o', grad=d('Tensor self, Tensor other', self='grad'))
op('expm1',               'C:ops',                   'fmio', grad=d(_UNARY, self='grad * conj(result + 1)'))
op('exponential_',        'py:_random',              'm', grad='nondiff')
op('eye',                 'C:tensor',                'f', grad='nondiff')
op('fill_',               'C:tensor',                'm', grad='fill_')
op('flatten',             'C:tensor',                'gm', grad=d('Tensor self, int start_dim=0, int end_dim=-1', self='grad.reshape(self.shape)'))
op('flip',                'py:_rearranging',           'fm', grad=d('Tensor self, int[]... dims', self='grad.flip(dims)'))
op('fliplr',              'py:_rearranging',           'fm', grad=d(_UNARY, self='grad.flip((1,))'))
op('flipud',              'py:_rearranging',           'fm', grad=d(_UNARY, self='grad.flip((0,))'))
op('float',               'C:tensor',                'm', grad=d('Tensor self, *, Any memory_format=None', node='ToCopyBackward0', self='grad'))
op('floor',               'C:ops',                   'fmio', grad=d(_UNARY, self='zeros_like(grad)'))
op('floor_divide',        'C:ops',                   'fmio', grad='nondiff')
op('fmax',                'C:ops',                   'fmio', grad=d('Tensor self, Tensor other',
    self='where(self == other, grad / 2, grad).masked_fill((self < other) | (self.isnan() & other.isnan().logical_not()), 0)',
    other='where(self == other, grad / 2, grad).masked_fill((self > other) | other.isnan(), 0)'))
op('fmin',                'C:ops',                   'fmio', grad=d('Tensor self, Tensor other',
    self='where(self == other, grad / 2, grad).masked_fill((self > other) | (self.isnan() & other.isnan().logical_not()), 0)',
    other='where(self == other, grad / 2, grad).masked_fill((self < other) | other.isnan(), 0)'))
op('fmod',                'C:ops',                   'fmio', grad=d('Tensor self, Tensor|Scalar other', self='grad', other='-grad * (self / other).trunc()'))
op('frac',                'C:ops',                   'fmio', grad=d(_UNARY, self='grad'))
op('from_numpy',          'C:tensor',                'f', call='o', grad='nondiff')
op('full',                'C:tensor',                'f', grad='nondiff')
op('full_like',           'py:_factories',           'f', grad='nondiff')
op('gather',              'py:_gather_scatter',           'fm', grad=d('Tensor self, int dim, Tensor index, *, bool sparse_grad=False',
    self='grad.new_zeros(self.shape).scatter_add(dim, index, grad)'))
op('ge',                  'C:ops',                   'fmio', aliases=('greater_equal',), grad='nondiff')
op('geometric_',          'py:_random',              'm', grad='nondiff')
op('ger',                 'py:_linalg',              'fm')
op('gt',                  'C:ops',                   'fmio', aliases=('greater',), grad='nondiff')
op('half',                'C:tensor',                'm', grad=d('Tensor self, *, Any memory_format=None', node='ToCopyBackward0', self='grad'))
op('hsplit',              'py:_joining',           'fm')
op('hstack',              'py:_joining',           'f')
op('hypot',               'C:ops',                   'fmio', grad=d('Tensor self, Tensor other', self='grad * self / result', other='grad * other / result'))
op('imag',                'py:_complex',             'f', grad='imag')
op('index_add',           'py:_gather_scatter',           'fmi', inplace="py:_gather_scatter._index_add_", grad='index_add')
op('index_copy',          'py:_gather_scatter',           'fmi', inplace="py:_gather_scatter._index_copy_", grad='index_copy')
op('index_fill',          'py:_gather_scatter',           'fmi', inplace="py:_gather_scatter._index_fill_", grad='index_fill')
op('index_put',           'py:_gather_scatter',           'fmij', inplace="py:_gather_scatter.index_put_", grad='index_put')
op('index_select',        'py:_rearranging',           'fm', grad='index_select')
op('inner',               'py:_pointwise',           'fmo')
op('int',                 'C:tensor',                'm', grad='nondiff')
op('is_complex',          'py:_complex',             'fm', grad='nondiff')
op('is_conj',             'py:_complex',             'fm', grad='nondiff')
op('is_floating_point',   'Tensor',                  'g', grad='nondiff')
op('is_neg',              'py:_complex',             'fm', grad='nondiff')
op('is_pinned',           'Tensor',                  'm', grad='nondiff')
op('is_shared',           'Tensor',                  'm', grad='nondiff')
op('histc',               'py:_searching',           'fmo', grad='nondiff')
op('isclose',             'py:_ops',                 'fm', grad='nondiff')
op('isfinite',            'C:ops',                   'fmio', grad='nondiff')
op('isin',                'py:_sorting',           'f', grad='nondiff')
op('isinf',               'C:ops',                   'fmio', grad='nondiff')
op('isnan',               'C:ops',                   'fmio', grad='nondiff')
op('isneginf',            'py:_pointwise',           'fmo', grad='nondiff')
op('isposinf',            'py:_pointwise',           'fmo', grad='nondiff')
op('kron',                'py:_pointwise',           'fmo')
op('kthvalue',            'py:_sorting',           'fm', grad='kthvalue')
op('le',                  'C:ops',                   'fmio', aliases=('less_equal',), grad='nondiff')
op('lerp',                'py:_ops',                 'fmi', grad=d('Tensor self, Tensor end, Tensor|Scalar weight', self='grad * conj(1 - weight)',
    end='grad * conj(weight)', weight='grad * conj(end - self)'))
op('lgamma',              'C:ops',                   'fmio', grad='lgamma')
op('linspace',            'C:tensor',                'f', grad='nondiff')
op('log',                  'C:ops', 'fmio', grad=d(_UNARY, self='grad / conj(self)'))
op('log10',               'C:ops',                   'fmio', grad=d(_UNARY, self='grad / (conj(self) * 2.302585092994046)'))
op('log1p',               'C:ops',                   'fmio', grad=d(_UNARY, self='grad / conj(self + 1)'))
op('log2',                'C:ops',                   'fmio', grad=d(_UNARY, self='grad / (conj(self) * 0.6931471805599453)'))
op('log_normal_',         'py:_random',              'm', grad='nondiff')
op('logaddexp',           'C:ops',                   'fmio', grad=d('Tensor self, Tensor other', self='grad * (self - result).exp()',
    other='grad * (other - result).exp()'))
op('logaddexp2',          'C:ops',                   'fmio', grad=d('Tensor self, Tensor other', self='grad * (self - result).exp2()',
    other='grad * (other - result).exp2()'))
op('logcumsumexp',        'C:reduce',                'fmo', grad='logcumsumexp')
op('logical_and',         'C:ops',                   'fmio', grad='nondiff')
op('logical_not',         'C:ops',                   'fmio', grad='nondiff')
op('logical_or',          'C:ops',                   'fmio', grad='nondiff')
op('logical_xor',         'C:ops',                   'fmio', grad='nondiff')
op('logit',               'py:_pointwise',           'fmio', inplace='generic')
op('logspace',            'C:tensor',                'f', grad='nondiff')
op('log_softmax',         'py:_softmax',             'fm', grad=d('Tensor self, int? dim=None, ScalarType? dtype=None, *, Any _stacklevel=3',
    self='softmax_backward(grad, result, dim, True)'))
op('logsumexp',           'py:_reductions',          'fm')
op('long',                'C:tensor',                'm', grad='nondiff')
op('lt',                  'C:ops',                   'fmio', aliases=('less',), grad='nondiff')
op('masked_fill',         'C:ops',                   'gmi', grad=d('Tensor self, Tensor mask, Tensor|Scalar value',
    self='grad.masked_fill(mask, 0)', value='grad.masked_fill(mask.logical_not(), 0).sum()'))
op('masked_scatter',      'py:_gather_scatter',           'fmi', inplace="py:_gather_scatter._masked_scatter_")
op('masked_select',       'py:_gather_scatter',           'fm')
op('matmul',              'C:linalg',                'fmo', grad=d('Tensor self, Tensor other',
    self='grad * conj(other) if self.dim() == 1 and other.dim() == 1 else '
         '((grad.unsqueeze(-2) @ conj(other).mT).squeeze(-2) if self.dim() == 1 else '
         '(grad.unsqueeze(-1) @ conj(other).unsqueeze(-2) if other.dim() == 1 else '
         'grad @ conj(other).mT))',
    other='grad * conj(self) if self.dim() == 1 and other.dim() == 1 else '
          '(conj(self).unsqueeze(-1) @ grad.unsqueeze(-2) if self.dim() == 1 else '
          '((conj(self).mT @ grad.unsqueeze(-1)).squeeze(-1) if other.dim() == 1 else '
          'conj(self).mT @ grad))'))
op('max',                 'py:_reductions',          'fm', grad='max')
op('maximum',             'C:ops',                   'fmio', grad=d('Tensor self, Tensor|Scalar other',
    self='where(self == other, grad / 2, grad).masked_fill(self < other, 0)',
    other='where(self == other, grad / 2, grad).masked_fill(self > other, 0)'))
op('mean',                'py:_reductions',          'fm', grad=d('Tensor self, int[]? dim=None, bool keepdim=False, *, ScalarType? dtype=None',
    self='reduce_backward(grad, self.shape, dim, keepdim) * '
         '(grad.numel() / self.numel() if self.numel() > 0 else nan)'))
op('median',              'py:_sorting',           'fm', grad='median')
op('meshgrid',            'py:_joining',           'f')
op('min',                 'py:_reductions',          'fm', grad='min')
op('minimum',             'C:ops',                   'fmio', grad=d('Tensor self, Tensor|Scalar other',
    self='where(self == other, grad / 2, grad).masked_fill(self > other, 0)',
    other='where(self == other, grad / 2, grad).masked_fill(self < other, 0)'))
op('mm',                   'C:linalg', 'fmo', grad=d('Tensor self, Tensor mat2', self='grad.mm(conj(mat2).mT)',
                                  mat2='conj(self).mT.mm(grad)'))
op('mode',                'py:_sorting',           'fm', grad='mode')
op('movedim',             'py:_rearranging',           'fm', aliases=('moveaxis',))
op('msort',               'py:_sorting',           'fm', grad='msort')
op('mul',                  'C:ops', 'fmio', aliases=('multiply',), grad=d(_BINARY, self='grad * conj(other)',
                                        other='grad * conj(self)'))
op('multinomial',         'py:_random',              'fm', grad='nondiff')
op('mv',                  'C:linalg',                'fmo', grad=d('Tensor self, Tensor vec', self='grad.unsqueeze(1) * conj(vec).unsqueeze(0)',
    vec='conj(self).mT @ grad'))
op('nan_to_num',          'py:_pointwise',           'fmio', inplace='generic', grad=d('Tensor self, float? nan=0.0, float? posinf=None, float? neginf=None',
    self='grad * self.isfinite()'))
op('nanmean',             'py:_pointwise',           'fmo')
op('nanmedian',           'py:_sorting',           'fm', grad='median')
op('nanquantile',         'py:_sorting',           'fm')
op('nansum',              'py:_pointwise',           'fmo')
op('narrow',              'C:tensor',                'gm', grad=d('Tensor self, int dim, int start, int length',
    self='embed(grad, self.shape, dim, start)'))
op('ne',                  'C:ops',                   'fmio', aliases=('not_equal',), grad='nondiff')
op('neg',                  'C:ops', 'fmio', aliases=('negative',), grad=d(_UNARY, self='-grad'))
op('new_empty',           'Tensor',                  'm', grad='nondiff')
op('new_full',            'Tensor',                  'm', grad='nondiff')
op('new_ones',            'Tensor',                  'm', grad='nondiff')
op('new_tensor',          'Tensor',                  'm', grad='nondiff')
op('new_zeros',           'Tensor',                  'm', grad='nondiff')
op('nonzero',             'py:_gather_scatter',           'fm', grad='nondiff')
op('norm',                'py:_linalg_norms',        'fm')
op('normal',              'py:_random',              'fi', inplace="py:_random.normal_", grad='nondiff')
op('numel',               'Tensor',                  'g', grad='nondiff')
op('numpy',               'C:tensor',                'm', grad='nondiff')
op('one_hot',             'py:_gather_scatter',           'f', grad='nondiff')
op('ones',                'C:tensor',                'f', grad='nondiff')
op('ones_like',           'py:_factories',           'f', grad='nondiff')
op('outer',               'py:_linalg',              'fm')
op('permute',             'C:tensor',                'gm', grad=d('Tensor self, int[]... dims', self='permute_back(grad, dims)'))
op('pin_memory',          'Tensor',                  'm', grad=d('Tensor self, Any device=None', node='PinMemoryBackward0', self='grad'))
op('poisson',             'py:_random',              'f', grad='nondiff')
op('positive',            'py:_pointwise',           'fm', grad='identity')
op('polar',               'py:_complex',             'fo')
op('pow',                 'C:ops',                   'fmio', grad=d(_BINARY.replace('other', 'exponent'),
    self='(grad * conj(exponent * self.pow(exponent - 1))).masked_fill((exponent == 0) & '
         '(self == 0), 0) if is_tensor(exponent) else (grad * 0 if exponent == 0 else '
         'grad * conj(exponent * self.pow(exponent - 1)))',
    # 0 ** e for a real e >= 0 has no slope in e (a complex e: its imaginary part 0)
    # (a real base with a complex exponent: the complex log, defined for a negative base)
    exponent='(grad * conj(result * self.to(result.dtype).log())).masked_fill((self == 0) & '
             '(exponent.real >= 0) & (exponent == exponent.real), 0) if is_tensor(self) else '
             '((grad * conj(result) * slog(self)).masked_fill((exponent.real >= 0) & (exponent == '
             'exponent.real), 0) if self == 0 else grad * conj(result * (zeros_like(result) + '
             'self).log()))'))
op('prod',                'C:reduce',                'fmo', grad='prod')
op('promote_types',       'C:ops',                   'f', grad='nondiff')
op('quantile',            'py:_sorting',           'fm')
op('rad2deg',             'C:ops',                   'fmio', grad=d(_UNARY, self='grad * 57.29577951308232'))
op('rand',                'py:_random',              'f', grad='nondiff')
op('rand_like',           'py:_random',              'f', grad='nondiff')
op('randint',             'py:_random',              'f', grad='nondiff')
op('randint_like',        'py:_random',              'f', grad='nondiff')
op('randn',               'py:_random',              'f', grad='nondiff')
op('randn_like',          'py:_random',              'f', grad='nondiff')
op('random_',             'py:_random',              'm', grad='nondiff')
op('randperm',            'py:_random',              'f', grad='nondiff')
op('range',               'py:_factories',           'f', grad='nondiff')
op('real',                'py:_complex',             'f', grad='real')
op('reciprocal',          'C:ops',                   'fmio', grad=d(_UNARY, self='grad * -conj(result * result)'))
op('relu',                 'C:ops', 'fmio', grad=d(_UNARY, self='relu_backward(grad, result)'))
op('remainder',           'C:ops',                   'fmio', grad=d(_BINARY, self='grad', other='-grad * (self / other).floor()'))
op('repeat',              'py:_rearranging',           'fm')
op('repeat_interleave',   'py:_rearranging',           'fm')
op('requires_grad_',      'C:tensor',                'm', grad='nondiff')
op('reshape',             'C:tensor',                'gm', grad=d('Tensor self, int[]... shape', self='grad.reshape(self.shape)'))
op('reshape_as',          'Tensor',                  'm', grad=d('Tensor self, Tensor other', self='grad.reshape(self.shape)'))
op('resize_',             'C:tensor',                'm', grad='nondiff')
op('resize_as_',          'C:tensor',                'm', grad='nondiff')
op('resolve_conj',        'py:_complex',             'fm')
op('resolve_neg',         'py:_complex',             'fm')
op('result_type',         'C:ops',                   'f', grad='nondiff')
op('roll',                'py:_rearranging',           'fm')
op('rot90',               'py:_rearranging',           'fm', grad='rot90')
op('round',               'C:ops',                   'fmio', grad=d('Tensor self, *, int decimals=0', self='zeros_like(grad)'))
op('rsqrt',               'C:ops',                   'fmio', grad=d(_UNARY, self='grad * -0.5 * conj(result.pow(3))'))
op('rsub',                'py:_ops',                 'fm')
op('scalar_tensor',       'py:_pointwise',           'f', grad='nondiff')
op('scatter',             'py:_gather_scatter',           'fmi', inplace="C:index", grad='scatter')
op('scatter_add',         'py:_gather_scatter',           'fmi', inplace="C:index", grad='scatter_add')
op('scatter_reduce',      'py:_gather_scatter',           'fmi', inplace="py:_gather_scatter._scatter_reduce_", grad='scatter_reduce')
op('searchsorted',        'py:_searching',           'f', grad='nondiff')
op('select',              'C:tensor',                'gm', grad=d('Tensor self, int dim, int index',
    self='embed(grad.unsqueeze(dim), self.shape, dim, index)'))
op('sgn',                 'C:ops',                   'fmio', grad='sgn')
op('share_memory_',       'Tensor',                  'm')
op('short',               'C:tensor',                'm', grad='nondiff')
op('sigmoid',              'C:ops', 'fmio', grad=d(_UNARY, self='grad * conj(result * (1 - result))'))
op('sign',                'C:ops',                   'fmio', grad=d(_UNARY, self='zeros_like(grad)'))
op('signbit',             'C:ops',                   'fmio', grad='nondiff')
op('sin',                 'C:ops',                   'fmio', grad=d(_UNARY, self='grad * conj(self.cos())'))
op('sinc',                'C:ops',                   'fmio', grad=d(_UNARY, self='(grad * ((pi * self).cos() - result) / self).masked_fill(self == 0, 0)'))
op('sinh',                'C:ops',                   'fmio', grad=d(_UNARY, self='grad * conj(self.cosh())'))
op('softmax',             'py:_softmax',             'fm', grad=d('Tensor self, int? dim=None, ScalarType? dtype=None, *, Any _stacklevel=3',
    self='softmax_backward(grad, result, dim, False)'))
op('sort',                'py:_sorting',           'fm', grad='sort')
op('split',               'py:_splitting',           'gm')
op('_split',              'py:_splitting',           'f', grad='split_pieces')
op('sqrt',                 'C:ops', 'fmio', grad=d(_UNARY, self='grad / (2 * conj(result))'))
op('square',               'C:ops', 'fmio', grad=d(_UNARY, self='grad * 2 * conj(self)'))
op('squeeze',             'C:tensor',                'gmi', grad=d('Tensor self, int[]? dim=None', self='grad.reshape(self.shape)'))
op('stack',               'py:_joining',           'f')
op('std',                 'py:_reductions',          'fm', grad='std')
op('std_mean',            'py:_reductions',          'f', grad='std_mean')
op('sub',                  'C:ops', 'fmio', aliases=('subtract',), grad=d(_BINARY + ', *, Scalar alpha=1', self='grad',
                      other='-grad if alpha == 1 else -grad * conj(alpha)'))
op('sum',                  'C:reduce', 'fmo', grad=d('Tensor self, int[]? dim=None, bool keepdim=False, *, ScalarType? dtype=None',
                                  self='reduce_backward(grad, self.shape, dim, keepdim)'))
op('t',                    'C:tensor', 'gmi', call='noargs', grad=d(_UNARY, self='grad.t()'))
op('take',                'py:_gather_scatter',           'fm', grad='take')
op('take_along_dim',      'py:_gather_scatter',           'fm')
op('tan',                 'C:ops',                   'fmio', grad=d(_UNARY, self='grad * conj(1 + result * result)'))
op('tanh',                 'C:ops', 'fmio', grad=d(_UNARY, self='grad * conj(1 - result * result)'))
op('tensor',              'C:tensor',                'f', grad='nondiff')
op('tensor_split',        'py:_joining',           'fm')
op('tensordot',           'py:_linalg',              'f')
op('tile',                'py:_rearranging',           'fm')
op('to',                  'C:tensor',                'm', grad=d('Tensor self, Any device=None, Any dtype=None, Any non_blocking=False, Any copy=False, *, Any memory_format=None', node='ToCopyBackward0', self='grad'))
op('topk',                'py:_sorting',           'fm', grad='topk')
op('trace',               'py:_rearranging',           'fm')
op('transpose',            'C:tensor', 'gmi', aliases=('swapdims',), grad=d('Tensor self, int dim0, int dim1',
                                                       self='grad.transpose(dim0, dim1)'))
op('tril',                'py:_rearranging',           'fmi', grad='tril')
op('tril_indices',        'py:_joining',           'f', grad='nondiff')
op('triu',                'py:_rearranging',           'fmi', grad='triu')
op('triu_indices',        'py:_joining',           'f', grad='nondiff')
op('trunc',               'C:ops',                   'fmio', aliases=('fix',), grad=d(_UNARY, self='zeros_like(grad)'))
op('type',                'py:_legacy.tensor_type',  'm', grad='identity')
op('type_as',             'Tensor',                  'm', grad='identity')
op('unbind',              'py:_splitting',           'gm', grad='unbind')
op('unflatten',           'C:tensor',                'gm', grad=d('Tensor self, int dim, int[] sizes', self='grad.reshape(self.shape)'))
op('unfold',              'C:tensor',                'm', grad='unfold')
op('uniform_',            'py:_random',              'm', grad='nondiff')
op('unique',              'py:_sorting',           'fm')
op('unique_consecutive',  'py:_sorting',           'fm', grad='unique_consecutive')
op('unsqueeze',           'C:tensor',                'gmi', grad=d('Tensor self, int dim', self='grad.reshape(self.shape)'))
op('var',                 'py:_reductions',          'fm')
op('var_mean',            'py:_reductions',          'f', grad='var_mean')
op('vdot',                'C:linalg',                'fmo', grad='vdot')
op('view',                'C:tensor',                'm', grad=d('Tensor self, int[]... size', self='grad.reshape(self.shape)'))
op('view_as',             'Tensor',                  'm', grad=d('Tensor self, Tensor other', self='grad.reshape(self.shape)'))
op('view_as_complex',     'py:_complex',             'f', grad='view_as_complex')
op('view_as_real',        'py:_complex',             'f', grad='view_as_real')
op('vsplit',              'py:_joining',           'fm')
op('vstack',              'py:_joining',           'f', aliases=('row_stack',))
op('where',               'C:ops',                   'fmo', function="py:_gather_scatter", grad='where')
op('xlogy',               'C:ops',                   'fmio', grad=d(_BINARY,
    self='(grad * other.log()).masked_fill((self == 0) & (other <= 0), 0) if is_tensor(other) '
         'else grad * slog(other)',
    other='grad * self / other'))
op('zero_',               'C:tensor',                'm', call='noargs', grad='zeros')
op('zeros',               'C:tensor',                'f', grad='nondiff')
op('zeros_like',          'py:_factories',           'f', grad='nondiff')

# view API: swapaxes under NumPy's argument names, set_, adjoint
op('swapaxes',            'C:tensor',                'gmi', grad=d('Tensor self, int axis0, int axis1', self='grad.transpose(axis0, axis1)'))
op('set_',                'C:tensor',                'm', grad='nondiff')
op('adjoint',             'py:_rearranging',         'fm')
op('alias_copy',          'py:_view_copies',         'fo')
op('as_strided_copy',     'py:_view_copies',         'fo')
op('detach_copy',         'py:_view_copies',         'fo', grad='nondiff')
op('diagonal_copy',       'py:_view_copies',         'fo')
op('expand_copy',         'py:_view_copies',         'fo')
op('narrow_copy',         'py:_view_copies',         'fmo')
op('permute_copy',        'py:_view_copies',         'fo')
op('select_copy',         'py:_view_copies',         'fo')
op('slice_copy',          'py:_view_copies',         'fo')
op('split_copy',          'py:_view_copies',         'fo')
op('split_with_sizes_copy', 'py:_view_copies',       'fo')
op('squeeze_copy',        'py:_view_copies',         'fo')
op('t_copy',              'py:_view_copies',         'fo')
op('transpose_copy',      'py:_view_copies',         'fo')
op('unbind_copy',         'py:_view_copies',         'fo')
op('unfold_copy',         'py:_view_copies',         'fo')
op('unsqueeze_copy',      'py:_view_copies',         'fo')
op('view_as_complex_copy', 'py:_view_copies',        'fo', grad='view_as_complex')
op('view_as_real_copy',   'py:_view_copies',         'fo', grad='view_as_real')
op('view_copy',           'py:_view_copies',         'fo')
op('ravel',               'py:_rearranging',         'fm', grad=d(_UNARY, self='grad.reshape(self.shape)'))
op('broadcast_to',        'py:_broadcasting',        'fm', grad=d('Tensor self, int[] size', self='grad'))
op('is_set_to',           'C:tensor',                'm', call='o', grad='nondiff')

# nn.functional's ops (forms n: recorded, called by nn.functional; k: its in-place form too)
op('linear',              'py:nn._ops',              'n', grad=d(
    'Tensor self, Tensor weight, Tensor? bias=None',
    self='grad @ conj(weight)',
    weight='grad.reshape((-1, grad.shape[-1])).mT.mm(conj(self).reshape((-1, self.shape[-1])))',
    bias='grad.reshape((-1, grad.shape[-1])).sum(0)'))
op('gelu',                'py:nn._ops',              'n', grad=d(
    "Tensor self, *, str approximate='none'", self='gelu_backward(grad, self, approximate)'))
op('silu',                'py:nn._ops',              'nk', grad=d(
    _UNARY, using={'s': 'self.sigmoid()'}, self='grad * s * (1 + self * (1 - s))'))
op('softplus',            'py:nn._ops',              'n', grad=d(
    'Tensor self, Scalar beta=1.0, Scalar threshold=20.0',
    self='where(self * beta > threshold, grad, grad * (self * beta).sigmoid())'))
op('mish',                'py:nn._ops',              'nk', grad=d(
    _UNARY, using={'t': 'self.exp().log1p().tanh()'},
    self='grad * (t + self * self.sigmoid() * (1 - t * t))'))
op('elu',                 'py:nn._ops',              'nk', grad=d(
    'Tensor self, Scalar alpha=1.0, Scalar scale=1.0, Scalar input_scale=1.0',
    self='where(self > 0, grad * scale, grad * (self * input_scale).exp() * '
         '(alpha * scale * input_scale))'))
op('leaky_relu',          'py:nn._ops',              'nk', grad=d(
    'Tensor self, Scalar negative_slope=0.01',
    self='leaky_relu_backward(grad, self, negative_slope)'))
op('hardtanh',            'py:nn._ops',              'nk', grad=d(
    'Tensor self, Scalar min_val=-1.0, Scalar max_val=1.0',
    self='grad.masked_fill((self <= min_val) | (self >= max_val), 0)'))
op('threshold',           'py:nn._ops',              'nk', grad='threshold')
op('hardswish',           'py:nn._ops',              'nk', grad=d(
    _UNARY, self='where(self <= 3, grad * (self / 3 + 0.5), grad).masked_fill(self < -3, 0)'))
op('hardsigmoid',         'py:nn._ops',              'nk', grad=d(
    _UNARY, self='(grad / 6).masked_fill((self <= -3) | (self >= 3), 0)'))
op('hardshrink',          'py:nn._ops',              'n', grad=d(
    'Tensor self, Scalar lambd=0.5', self='grad.masked_fill((self >= -lambd) & (self <= lambd), 0)'))
op('softshrink',          'py:nn._ops',              'n', grad=d(
    'Tensor self, Scalar lambd=0.5', self='grad.masked_fill((self >= -lambd) & (self <= lambd), 0)'))
op('logsigmoid',          'py:nn._ops',              'n', grad=d(_UNARY, self='grad * (-self).sigmoid()'))
op('prelu',               'py:nn._ops',              'n', grad=d(
    'Tensor self, Tensor weight', self='where(self > 0, grad, grad * weight)',
    weight='(grad * self).masked_fill(self > 0, 0)'))
op('smooth_l1',           'py:nn._ops',              'n', grad=d(
    'Tensor self, Scalar beta', self='where(self.abs() < beta, grad * self / beta, grad * self.sign())'))
op('huber',               'py:nn._ops',              'n', grad=d(
    'Tensor self, Scalar delta',
    self='where(self.abs() < delta, grad * self, grad * self.sign() * delta)'))
op('nll',                 'py:nn._ops',              'n', grad=d(
    'Tensor self, Tensor target, Tensor? coef, str reduction, int cls_dim',
    using={'g': '(grad if reduction == "none" else grad.expand(target.shape))',
           'w': '(-g if coef is None else -g * coef)',
           'gm': '((w / coef.sum()).masked_fill(coef == 0, 0) if coef is not None else '
                 'w / target.numel())'},
    self='grad.new_zeros(self.shape).scatter(cls_dim, target.unsqueeze(cls_dim), '
         '(gm if reduction == "mean" else w).unsqueeze(cls_dim))'))
op('layer_norm',          'py:nn._ops',              'n', grad=d(
    'Tensor self, int n, Tensor? weight=None, Tensor? bias=None, float eps=1e-5',
    joint={'self, weight, bias': 'layer_norm_backward(grads[0], grads[1] if has_grad(1) else '
                                 'None, grads[2] if has_grad(2) else None, self, results[1], '
                                 'results[2], weight, n)'}))
op('batch_norm',          'py:nn._ops',              'n', grad=d(
    'Tensor self, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, '
    'float momentum, float eps',
    using={'rstd': 'results[2]', 'xhat': '((self - results[1]) * results[2])',
           'gh': '(grad if weight is None else grad * weight.reshape(results[1].shape))',
           'dims': 'all_dims_but(self.ndim, 1)',
           'first': '((gh - gh.mean(dims, keepdim=True) - '
                    'xhat * (gh * xhat).mean(dims, keepdim=True)) * rstd)'},
    self='first if not (has_grad(1) or has_grad(2)) else first + '
         '(grads[1] - grads[2] * rstd * rstd * xhat) * (results[1].numel() / self.numel())',
    weight='(grad * xhat).sum(dims)', bias='grad.sum(dims)'))
op('embedding',           'py:nn._ops',              'n', grad=d(
    'Tensor weight, Tensor indices, int padding_idx=-1, bool scale_grad_by_freq=False',
    weight='embedding_backward(grad.reshape((-1, weight.shape[1])), weight.shape[0], '
           'indices.reshape(-1), padding_idx, scale_grad_by_freq)'))
op('bce_logits',          'py:nn._ops',              'n', grad=d(
    'Tensor self, Tensor target, Tensor? pos_weight=None',
    using={'s': '(-self).sigmoid()',
           # softplus(-self) as in bce_logits_loss below: derivative -1/2 at 0
           'sp': '((-self.abs()).exp().log1p() + (self.abs() - self) * 0.5)'},
    self='grad * ((1 - target) - s) if pos_weight is None else '
         'grad * ((1 - target) - ((pos_weight - 1) * target + 1) * s)',
    target='-grad * self if pos_weight is None else grad * ((pos_weight - 1) * sp - self)',
    pos_weight='grad * target * sp'))
op('bce',                 'py:nn._ops',              'n', grad=d(
    'Tensor self, Tensor target',
    self='grad * (self - target) / ((1 - self) * self).clamp_min(9.999999960041972e-13)',
    target='grad * ((1 - self).log().clamp_min(-100) - self.log().clamp_min(-100))'))
# ---- attention -----------------------------------------------------------------------------
# torch's CPU kernel behind F.scaled_dot_product_attention: (output, logsumexp), see
# Note [Fused attention] in aten_lite/attention.h
op('_scaled_dot_product_flash_attention_for_cpu', 'py:_attention', 'f', grad='sdpa_flash')


# ---- autocast ------------------------------------------------------------------------------
# A row's `autocast` key names the policy torch's CPU autocast applies to the op ('lower':
# run in the autocast dtype, 'fp32': run in float32); see Note [Autocast] in csrc/autocast.h.

def autocast(policy, *names):
    for r in OPS:
        if r["name"] in names:
            r["autocast"] = policy


# distributions: the samplers torch has as ops and the implicit gradients of the gamma family
# (see Note [Implicit reparameterisation] in _sampling.py)
op('_standard_gamma',     'py:_sampling',            'f', grad='_standard_gamma')
op('_standard_gamma_grad', 'py:_sampling',           'f', grad='nondiff')
op('_sample_dirichlet',   'py:_sampling',            'f', grad='nondiff')
op('_dirichlet_grad',     'py:_sampling',            'f', grad='nondiff')
op('binomial',            'py:_sampling',            'f', grad='nondiff')

# weight normalisation (nn.utils.weight_norm, nn.utils.parametrizations.weight_norm)
op('norm_except_dim',     'py:_weight_norm',         'f')
op('_weight_norm',        'py:_weight_norm',         'f')
# ---- linear algebra (LAPACK): minitorch.linalg and torch's top-level names for it ----------------
# Form 'l' (these rows only): a function of minitorch.linalg, named by the row's name without its
# "linalg_" prefix; the row's name is torch's, so a node is named as torch's (LinalgSvdBackward0).
op('linalg_cholesky',         'py:_linalg_solve',        'l')
op('linalg_cholesky_ex',      'py:_linalg_solve',        'l', grad='linalg_cholesky_ex')
op('linalg_cond',             'py:_linalg_norms',        'l')
op('linalg_cross',            'py:_linalg_products',     'l', grad='linalg_cross')
op('linalg_det',              'py:_linalg_solve',        'l', grad='linalg_det')
op('linalg_diagonal',         'py:_linalg_products',     'l')
op('linalg_eig',              'py:_linalg_decomp',       'l', grad='linalg_eig')
op('linalg_eigh',             'py:_linalg_decomp',       'l', grad='linalg_eigh')
op('linalg_eigvals',          'py:_linalg_decomp',       'l')
op('linalg_eigvalsh',         'py:_linalg_decomp',       'l')
op('linalg_inv',              'py:_linalg_solve',        'l')
op('linalg_inv_ex',           'py:_linalg_solve',        'l', grad='linalg_inv_ex')
op('linalg_lstsq',            'py:_linalg_decomp',       'l', grad='linalg_lstsq')
op('linalg_lu',               'py:_linalg_solve',        'l', grad='linalg_lu')
op('linalg_lu_factor',        'py:_linalg_solve',        'l')
op('linalg_lu_factor_ex',     'py:_linalg_solve',        'l', grad='linalg_lu_factor_ex')
op('linalg_lu_solve',         'py:_linalg_solve',        'l', grad='linalg_lu_solve')
op('linalg_matmul',           'py:_linalg_products',     'l')
op('linalg_matrix_exp',       'py:_linalg_products',     'l', grad='linalg_matrix_exp')
op('linalg_matrix_norm',      'py:_linalg_norms',        'l')
op('linalg_matrix_power',     'py:_linalg_products',     'l')
op('linalg_matrix_rank',      'py:_linalg_decomp',       'l', grad='nondiff')
op('linalg_multi_dot',        'py:_linalg_products',     'l')
op('linalg_norm',             'py:_linalg_norms',        'l')
op('linalg_pinv',             'py:_linalg_decomp',       'l', grad='linalg_pinv')
op('linalg_qr',               'py:_linalg_decomp',       'l', grad='linalg_qr')
op('linalg_slogdet',          'py:_linalg_solve',        'l', grad='linalg_slogdet')
op('linalg_solve',            'py:_linalg_solve',        'l')
op('linalg_solve_ex',         'py:_linalg_solve',        'l', grad='linalg_solve_ex')
op('linalg_solve_triangular', 'py:_linalg_solve',        'l', grad='linalg_solve_triangular')
op('linalg_svd',              'py:_linalg_decomp',       'l', grad='linalg_svd')
op('linalg_svdvals',          'py:_linalg_decomp',       'l')
op('linalg_tensorinv',        'py:_linalg_products',     'l')
op('linalg_tensorsolve',      'py:_linalg_products',     'l')
op('linalg_vecdot',           'py:_linalg_products',     'l')
op('linalg_vector_norm',      'py:_linalg_norms',        'l', grad='linalg_vector_norm')
op('linalg_householder_product', 'py:_linalg_decomp',    'l')
op('linalg_matrix_sqrth',     'py:_linalg_decomp',       'l', grad='linalg_matrix_sqrth')
op('linalg_polar',            'py:_linalg_decomp',       'l', grad='linalg_polar')
op('linalg_vander',           'py:_linalg_products',     'l')
op('linalg_ldl_factor',       'py:_linalg_solve',        'l')
op('linalg_ldl_factor_ex',    'py:_linalg_solve',        'l')
op('linalg_ldl_solve',        'py:_linalg_solve',        'l')
# torch's names, and (grad='nondiff') those it removed, which raise its errors
op('chain_matmul',            'py:_linalg_products',     'fo')
op('cholesky',                'py:_linalg_solve',        'fm', grad='nondiff')
op('cholesky_inverse',        'py:_linalg_solve',        'fm')
op('cholesky_solve',          'py:_linalg_solve',        'fm')
op('cross',                   'py:_linalg_products',     'fmo')
op('det',                     'py:_linalg_solve',        'fm')
op('eig',                     'py:_linalg_decomp',       'fm', grad='nondiff')
op('geqrf',                   'py:_linalg_decomp',       'fm', grad='geqrf')
op('inverse',                 'py:_linalg_solve',        'fm')
op('logdet',                  'py:_linalg_solve',        'fm')
op('lstsq',                   'py:_linalg_decomp',       'fm', grad='nondiff')
op('lu',                      'py:_linalg_solve',        'fm')
op('lu_solve',                'py:_linalg_solve',        'fm')
op('lu_unpack',               'py:_linalg_solve',        'f')
op('matrix_exp',              'py:_linalg_products',     'fm')
op('matrix_power',            'py:_linalg_products',     'fm')
op('matrix_rank',             'py:_linalg_decomp',       'f', grad='nondiff')
op('orgqr',                   'py:_linalg_decomp',       'fm')
op('ormqr',                   'py:_linalg_decomp',       'fm')
op('pinverse',                'py:_linalg_decomp',       'fm')
op('qr',                      'py:_linalg_decomp',       'fm', grad='nondiff')
op('slogdet',                 'py:_linalg_solve',        'fm')
op('solve',                   'py:_linalg_solve',        'fm', grad='nondiff')
op('svd',                     'py:_linalg_decomp',       'fm')
op('symeig',                  'py:_linalg_decomp',       'fm', grad='nondiff')
op('triangular_solve',        'py:_linalg_solve',        'fm')
op('lstm_layer',          'py:nn._rnn_ops',          'n', grad=d(
    'Tensor x, int[] batch_sizes, Tensor h0, Tensor c0, Tensor w_ih, Tensor w_hh, '
    'Tensor? b_ih=None, Tensor? b_hh=None, Tensor? w_hr=None, bool reverse=False',
    joint={'x, h0, c0, w_ih, w_hh, b_ih, b_hh, w_hr':
           'lstm_backward(grads[0], grads[1], grads[2], x, batch_sizes, h0, c0, w_ih, w_hh, '
           'b_ih, b_hh, w_hr, reverse, results[0], results[3], results[4], results[5])'}))
# nn: shuffles, padding, CTC, embedding bags, sampling grids, losses (torch-level functions)
op('pixel_shuffle',       'py:_shuffles',            'f', grad='pixel_shuffle')
op('pixel_unshuffle',     'py:_shuffles',            'f', grad='pixel_unshuffle')
op('channel_shuffle',     'py:_shuffles',            'f', aliases=('native_channel_shuffle',), grad='channel_shuffle')
op('cosine_similarity',   'py:_distance',            'f')
op('pairwise_distance',   'py:_distance',            'f')
op('grid_sampler',        'py:_grid_sample',         'f')
op('affine_grid_generator', 'py:_grid_sample',       'f')
op('embedding_bag',       'py:_embedding_bag',       'f')
op('rrelu',               'py:_rrelu',               'f')
op('rrelu_',              'py:_rrelu',               'f')
op('selu',                'py:_rrelu',               'f')
op('selu_',               'py:_rrelu',               'f')
op('celu',                'py:_rrelu',               'f')
op('celu_',               'py:_rrelu',               'f')
op('_ctc_loss',           'py:_ctc',                 'f', grad='ctc')
op('_ctc_loss_backward',  'py:_ctc',                 'f', grad='ctc_backward')
op('ctc_loss',            'py:_ctc',                 'f')
op('triplet_margin_loss', 'py:_losses',              'f')
op('margin_ranking_loss', 'py:_losses',              'f')
op('cosine_embedding_loss', 'py:_losses',            'f')
op('hinge_embedding_loss', 'py:_losses',             'f')
op('poisson_nll_loss',    'py:_losses',              'f')
# special functions: kernels in aten_lite/cpu/special.c, entry points in csrc/special_binding.c;
# the '_special_<name>' rows are the functions of minitorch.special (special.py) that torch has
# only there
op('digamma',             'C:special',               'fmio', grad='digamma')
op('i0',                  'C:special',               'fmijo', grad='i0')
op('polygamma',           'C:special',               'fmio', grad='polygamma')
op('igamma',              'C:special',               'fmio', grad='igamma')
op('igammac',             'C:special',               'fmio', grad='igammac')
op('heaviside',           'C:special',               'fmio', grad='heaviside')
op('nextafter',           'C:special',               'fmio', grad='nextafter')
op('gcd',                 'C:special',               'fmijo', grad='nondiff')
op('lcm',                 'C:special',               'fmijo', grad='nondiff')
op('frexp',               'py:_special_ops',         'fmo', grad='frexp')
op('mvlgamma',            'py:_special_ops',         'fmio', inplace='generic', grad='mvlgamma')
op('_special_i0e',        'C:special',               'fo', grad='special_i0e')
op('_special_i1',         'C:special',               'fo', grad='special_i1')
op('_special_i1e',        'C:special',               'fo', grad='special_i1e')
op('_special_erfcx',      'C:special',               'fo', grad='special_erfcx')
op('_special_ndtr',       'C:special',               'fo', grad='special_ndtr')
op('_special_ndtri',      'C:special',               'fo', grad='special_ndtri')
op('_special_log_ndtr',   'C:special',               'fo', grad='special_log_ndtr')
op('_special_entr',       'C:special',               'fo', grad='special_entr')
op('_special_airy_ai',    'C:special',               'fo', grad='nondiff')
op('_special_bessel_j0',  'C:special',               'fo', grad='special_bessel_j0')
op('_special_bessel_j1',  'C:special',               'fo', grad='special_bessel_j1')
op('_special_bessel_y0',  'C:special',               'fo', grad='special_bessel_y0')
op('_special_bessel_y1',  'C:special',               'fo', grad='special_bessel_y1')
op('_special_modified_bessel_i0', 'C:special',       'fo', grad='special_modified_bessel_i0')
op('_special_modified_bessel_i1', 'C:special',       'fo', grad='special_modified_bessel_i1')
op('_special_modified_bessel_k0', 'C:special',       'fo', grad='special_modified_bessel_k0')
op('_special_modified_bessel_k1', 'C:special',       'fo', grad='special_modified_bessel_k1')
op('_special_scaled_modified_bessel_k0', 'C:special', 'fo', grad='nondiff')
op('_special_scaled_modified_bessel_k1', 'C:special', 'fo', grad='nondiff')
op('_special_spherical_bessel_j0', 'C:special',      'fo', grad='nondiff')
op('_special_zeta',       'C:special',               'fo', grad='special_zeta')
op('_special_xlog1py',    'C:special',               'fo', grad='special_xlog1py')
op('_special_chebyshev_polynomial_t', 'C:special',   'fo', grad='nondiff')
op('_special_chebyshev_polynomial_u', 'C:special',   'fo', grad='nondiff')
op('_special_chebyshev_polynomial_v', 'C:special',   'fo', grad='nondiff')
op('_special_chebyshev_polynomial_w', 'C:special',   'fo', grad='nondiff')
op('_special_shifted_chebyshev_polynomial_t', 'C:special', 'fo', grad='nondiff')
op('_special_shifted_chebyshev_polynomial_u', 'C:special', 'fo', grad='nondiff')
op('_special_shifted_chebyshev_polynomial_v', 'C:special', 'fo', grad='nondiff')
op('_special_shifted_chebyshev_polynomial_w', 'C:special', 'fo', grad='nondiff')
op('_special_hermite_polynomial_h', 'C:special',     'fo', grad='nondiff')
op('_special_hermite_polynomial_he', 'C:special',    'fo', grad='nondiff')
op('_special_laguerre_polynomial_l', 'C:special',    'fo', grad='nondiff')
op('_special_legendre_polynomial_p', 'C:special',    'fo', grad='nondiff')

# distances, powers, scatters into copies, differences and integrals, products, padding,
# splitting, dropout, statistics (python/minitorch/_distance.py, _exponents.py,
# _scatter_family.py, _calculus.py, _padding.py, _splitting.py, _dropout_ops.py,
# _statistics.py, _renorm.py)
op('cdist',               'py:_distance',            'f', grad='cdist')
op('pdist',               'py:_distance',            'f')
op('dist',                'py:_distance',            'fm')
op('float_power',         'py:_exponents',           'fmio', inplace='py:_exponents.float_power_')
op('ldexp',               'py:_exponents',           'fmijo', inplace='py:_exponents.ldexp_')
op('put',                 'py:_scatter_family',      'fmi', inplace='py:_scatter_family.put_')
op('index_reduce',        'py:_scatter_family',      'fmi', inplace='generic')
op('slice_scatter',       'py:_scatter_family',      'fm')
op('select_scatter',      'py:_scatter_family',      'fm')
op('diagonal_scatter',    'py:_scatter_family',      'fm')
op('as_strided_scatter',  'py:_scatter_family',      'fm')
op('diff',                'py:_calculus',            'fmo')
op('trapezoid',           'py:_calculus',            'f')
op('trapz',               'py:_calculus',            'f')
op('cumulative_trapezoid', 'py:_calculus',           'f')
op('constant_pad_nd',     'py:_padding',             'f')
op('split_with_sizes',    'py:_splitting',           'fm', grad='split_pieces')
op('unsafe_split',        'py:_splitting',           'fm')
op('unsafe_chunk',        'py:_splitting',           'fm')
op('unsafe_split_with_sizes', 'py:_splitting',       'fm')
op('dropout',             'py:_dropout_ops',         'f')
op('dropout_',            'py:_dropout_ops',         'f')
op('feature_dropout',     'py:_dropout_ops',         'f')
op('feature_dropout_',    'py:_dropout_ops',         'f')
op('alpha_dropout',       'py:_dropout_ops',         'f')
op('alpha_dropout_',      'py:_dropout_ops',         'f')
op('feature_alpha_dropout', 'py:_dropout_ops',       'f')
op('feature_alpha_dropout_', 'py:_dropout_ops',      'f')
op('cov',                 'py:_statistics',          'fm')
op('corrcoef',            'py:_statistics',          'fm')
op('histogram',           'py:_statistics',          'fmo')
op('renorm',              'py:_renorm',              'fmi', inplace='generic')
# spatial ops: convolution (derivatives in autograd/formulas.py, "spatial" block)
op('convolution',         'py:_convolution',         'f', grad='convolution')
op('_convolution_backward', 'py:_convolution',       'f', grad='_convolution_backward')
op('conv1d',              'py:_convolution',         'f')
op('conv2d',              'py:_convolution',         'f')
op('conv3d',              'py:_convolution',         'f')
op('conv_transpose1d',    'py:_convolution',         'f')
op('conv_transpose2d',    'py:_convolution',         'f')
op('conv_transpose3d',    'py:_convolution',         'f')
# pooling, 2-D and 3-D (_pooling.py; each backward a row too: derivatives of every order are recorded)
op('max_pool3d',          'py:_pooling',             'f')
op('adaptive_max_pool1d', 'py:_pooling',             'f')
op('_max_pool2d_with_indices',       'py:_pooling', 'f', grad='_max_pool2d_with_indices')
op('_max_pool2d_backward',           'py:_pooling', 'f', grad='_max_pool2d_backward')
op('_avg_pool2d',                    'py:_pooling', 'f', grad='_avg_pool2d')
op('_avg_pool2d_backward',           'py:_pooling', 'f', grad='_avg_pool2d_backward')
op('_adaptive_avg_pool2d',           'py:_pooling', 'f', grad='_adaptive_avg_pool2d')
op('_adaptive_avg_pool2d_backward',  'py:_pooling', 'f', grad='_adaptive_avg_pool2d_backward')
op('_adaptive_max_pool2d',           'py:_pooling', 'f', grad='_adaptive_max_pool2d')
op('_adaptive_max_pool2d_backward',  'py:_pooling', 'f', grad='_adaptive_max_pool2d_backward')
op('_max_pool3d_with_indices',       'py:_pooling', 'f', grad='_max_pool3d_with_indices')
op('_max_pool3d_backward',           'py:_pooling', 'f', grad='_max_pool3d_backward')
op('_avg_pool3d',                    'py:_pooling', 'f', grad='_avg_pool3d')
op('_avg_pool3d_backward',           'py:_pooling', 'f', grad='_avg_pool3d_backward')
op('_adaptive_avg_pool3d',           'py:_pooling', 'f', grad='_adaptive_avg_pool3d')
op('_adaptive_avg_pool3d_backward',  'py:_pooling', 'f', grad='_adaptive_avg_pool3d_backward')
op('_adaptive_max_pool3d',           'py:_pooling', 'f', grad='_adaptive_max_pool3d')
op('_adaptive_max_pool3d_backward',  'py:_pooling', 'f', grad='_adaptive_max_pool3d_backward')
# spatial ops: resampling (nn.functional.interpolate); the two rows are each other's derivative
op('_upsample',           'py:_upsampling',          'f', grad='_upsample')
op('_upsample_backward',  'py:_upsampling',          'f', grad='_upsample_backward')
# discrete Fourier transforms (_fft.py, Note [FFT primitives]): minitorch.fft is made of these
op('_fft_c2c',            'py:_fft',                 'f', grad='_fft_c2c')
op('_fft_r2c',            'py:_fft',                 'f', grad='_fft_r2c')
op('_fft_c2r',            'py:_fft',                 'f', grad='_fft_c2r')
# window functions and the short-time Fourier transform (_spectral.py)
op('hann_window',         'py:_spectral',            'f', grad='nondiff')
op('hamming_window',      'py:_spectral',            'f', grad='nondiff')
op('blackman_window',     'py:_spectral',            'f', grad='nondiff')
op('bartlett_window',     'py:_spectral',            'f', grad='nondiff')
op('kaiser_window',       'py:_spectral',            'f', grad='nondiff')
op('stft',                'py:_spectral',            'fm')
op('istft',               'py:_spectral',            'fm')


# autocast policies (after every row: a policy applies to the rows declared before it)
autocast('lower', 'addbmm', 'addmm', 'baddbmm', 'bmm', 'matmul', 'mm', 'conv1d', 'conv2d',
         'conv3d', 'conv_transpose1d', 'conv_transpose2d', 'conv_transpose3d')
autocast('fp32', 'nanquantile', 'prod', 'quantile', 'trace', 'view_as_complex')
# sparse COO tensors (_sparse_coo.py): the kernels of sparse x dense products (_sparse_mm.py),
# each the other's derivative
op('_coo_spmm',           'py:_sparse_mm',           'f', grad='_coo_spmm')
op('_coo_sampled_dot',    'py:_sparse_mm',           'f', grad='_coo_sampled_dot')
# unique's recorded forms (as torch records unique): their derivatives raise, as torch's
op('_unique',             'py:_sorting',             'f', grad='_unique')
op('_unique2',            'py:_sorting',             'f', grad='_unique2')
op('_unique_dim',         'py:_sorting',             'f', grad='_unique_dim')

# ---- node names: rows whose recorded node torch names after the kernel it runs (a program
# printing grad_fn sees NativeLayerNormBackward0, not LayerNormBackward0); nll is named for
# inputs of up to 2 dimensions (torch's NllLoss2DBackward0 for more) ------------------------
_TORCH_NODE_NAMES = {
    'batch_norm': 'NativeBatchNormBackward0', 'layer_norm': 'NativeLayerNormBackward0',
    'nll': 'NllLossBackward0', 'contiguous': 'CloneBackward0', 'narrow': 'SliceBackward0',
}
for _row in OPS:
    if _row['name'] in _TORCH_NODE_NAMES and isinstance(_row['grad'], dict):
        _row['grad']['node'] = _TORCH_NODE_NAMES[_row['name']]
del _row

# ---- losses with their reduction as one node (nn.functional's mse_loss and
# binary_cross_entropy_with_logits without weight: MseLossBackward0,
# BinaryCrossEntropyWithLogitsBackward0 as torch's); self and target of one shape ------------
op('mse_loss',            'py:nn._ops',              'n', grad=d(
    'Tensor self, Tensor target, str reduction',
    using={'g': '(grad if reduction == "none" else grad.expand(self.shape))',
           'gd': '(g * (self - target) * 2 / self.numel() if reduction == "mean" else '
                 'g * (self - target) * 2)'},
    self='gd', target='-gd'))
op('bce_logits_loss',     'py:nn._ops',              'n', grad=d(
    'Tensor self, Tensor target, Tensor? pos_weight, str reduction',
    node='BinaryCrossEntropyWithLogitsBackward0',
    using={'s': '(-self).sigmoid()',
           # softplus(-self), its relu(-self) part written (|self| - self) / 2 so that the
           # derivative at 0 is -1/2 (as the function's), not that of one side
           'sp': '((-self.abs()).exp().log1p() + (self.abs() - self) * 0.5)',
           'g': '(grad.expand(self.shape) / self.numel() if reduction == "mean" else '
                '(grad if reduction == "none" else grad.expand(self.shape)))'},
    self='g * ((1 - target) - s) if pos_weight is None else '
         'g * ((1 - target) - ((pos_weight - 1) * target + 1) * s)',
    target='-g * self if pos_weight is None else g * ((pos_weight - 1) * sp - self)',
    pos_weight='g * target * sp'))

# ---- torch namespace additions: buffer and permuted factories, predicates, combinatorics ----
op('asarray',             'py:_factories',           'f', grad='nondiff')
op('frombuffer',          'py:_factories',           'f', grad='nondiff')
op('empty_permuted',      'py:_factories',           'f', grad='nondiff')
op('nonzero_static',      'py:_gather_scatter',      'fm', grad='nondiff')
op('isreal',              'py:_complex',             'fm', grad='nondiff')
op('is_nonzero',          'py:_predicates',          'fm', grad='nondiff')
op('is_same_size',        'py:_predicates',          'fm', grad='nondiff')
op('combinations',        'py:_joining',             'f')
op('vander',              'py:_joining',             'f')
# ---- threshold's derivative as an op (its node under create_graph: ThresholdBackwardBackward0) --
op('_threshold_backward', 'py:nn._ops',              'n', grad='_threshold_backward')
# ---- Tensor methods: element callables, diagonal fill, summing to a size ------------------
op('apply_',              'Tensor',                  'm', grad='nondiff')
op('map_',                'Tensor',                  'm', grad='nondiff')
op('map2_',               'Tensor',                  'm', grad='nondiff')
op('fill_diagonal_',      'py:_gather_scatter',      'm')
op('sum_to_size',         'py:_reductions',          'm')
