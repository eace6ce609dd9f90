"""The structural, reduction, scan and linear-algebra ops of the op table: gradients against central
differences (first and, where the backward is built from ops, second order) and every error path."""
from __future__ import annotations

import numpy as np
import pytest

import mskernel as ms
from mskernel import ops

RNG = np.random.default_rng(7)


def t(*shape, positive=False):
    a = RNG.standard_normal(shape)
    return ms.Tensor(np.abs(a) + 0.5 if positive else a)


FIRST_AND_SECOND = {
    "flip": (lambda x: ops.flip(x, (0, 1)), (t(2, 3),)),
    "roll": (lambda x: ops.roll(x, (1, -1), (0, 1)), (t(2, 3),)),
    "tile": (lambda x: ops.tile(x, (2, 1, 2)), (t(2, 3),)),
    "repeat_interleave": (lambda x: ops.repeat_interleave(x, ms.Tensor([1, 3]), 0), (t(2, 3),)),
    "pad_reflect": (lambda x: ops.pad(x, (2, 1), mode="reflect"), (t(2, 4),)),
    "pad_circular_crop": (lambda x: ops.pad(x, (-1, 2, 1, 0), mode="circular"), (t(2, 4),)),
    "pad_constant_value": (lambda x: ops.pad(x, (1, 1), value=3.0), (t(2, 2),)),
    "diag": (lambda x: ops.diag(x), (t(3),)),
    "diagonal": (lambda x: ops.diagonal(x, 1), (t(3, 4),)),
    "diag_embed": (lambda x: ops.diag_embed(x, -1), (t(2, 3),)),
    "trace": (lambda x: ops.trace(x), (t(3, 3),)),
    "tril": (lambda x: ops.tril(x, -1), (t(3, 3),)),
    "rot90": (lambda x: ops.rot90(x, 3, (0, 1)), (t(2, 3),)),
    "split": (lambda x: ops.split(x, [1, 2], 1)[1] * 2, (t(2, 3),)),
    "strided_slice": (lambda x: ops.strided_slice(x, (0, 2), (2, 0), (1, -1)), (t(2, 3),)),
    "meshgrid": (lambda a, b: ops.meshgrid(a, b)[0] * ops.meshgrid(a, b)[1], (t(3), t(2))),
    "movedim": (lambda x: ops.movedim(x, (0, 1), (2, 0)), (t(2, 3, 4),)),
    "hstack": (lambda a, b: ops.hstack([a, b]), (t(2, 1), t(2, 2))),
    "var": (lambda x: ops.var(x, 1, ddof=1), (t(2, 4),)),
    "std": (lambda x: ops.std(x, (0, 1)), (t(2, 3),)),
    "logsumexp": (lambda x: ops.logsumexp(x, 1), (t(2, 3),)),
    "prod": (lambda x: ops.prod(x, 1), (t(2, 3),)),
    "norm_p3": (lambda x: ops.norm(x, 3, dim=1), (t(2, 3, positive=True),)),
    "cumsum_reverse_exclusive": (lambda x: ops.CumSum(exclusive=True, reverse=True)(x, 1), (t(2, 3),)),
    "cumprod": (lambda x: ops.cumprod(x, 1), (t(2, 3, positive=True),)),
    "max_axis": (lambda x: ops.max(x, 1)[0] * ops.max(x, 1)[0], (t(2, 3),)),
    "outer": (lambda a, b: ops.outer(a, b), (t(2), t(3))),
    "einsum": (lambda a, b: ops.einsum("ij,jk->ik", a, b), (t(2, 3), t(3, 2))),
    "einsum_sum_inside": (lambda a, b: ops.einsum("ij,k->ik", a, b), (t(2, 3), t(4))),
    "kron": (lambda a, b: ops.kron(a, b), (t(2, 2), t(2, 1))),
    "cross": (lambda a, b: ops.cross(a, b), (t(2, 3), t(2, 3))),
    "cdist": (lambda a, b: ops.cdist(a, b), (t(1, 3, 2), t(1, 2, 2))),
    "tensor_dot": (lambda a, b: ops.tensor_dot(a, b, ((0,), (1,))), (t(3, 2), t(4, 3))),
    "inverse": (lambda x: ops.inverse(x), (ms.Tensor(np.eye(3) * 2 + RNG.standard_normal((3, 3)) * 0.1),)),
    "det": (lambda x: ops.det(x), (ms.Tensor(np.eye(3) * 2 + RNG.standard_normal((3, 3)) * 0.1),)),
    "matrix_power": (lambda x: ops.matrix_power(x, -2),
                     (ms.Tensor(np.eye(2) * 2 + RNG.standard_normal((2, 2)) * 0.1),)),
    "logit": (lambda x: ops.logit(x), (ms.Tensor(RNG.uniform(0.2, 0.8, (3,))),)),
    "gather_batch_dims": (lambda x: ops.gather(x, ms.Tensor([[0, 2], [1, 1]]), 1, batch_dims=1), (t(2, 3),)),
    "gather_elements": (lambda x: ops.gather_elements(x, 0, ms.Tensor([[1, 0, 1]])), (t(2, 3),)),
    "gather_nd": (lambda x: ops.gather_nd(x, ms.Tensor([[0, 1], [0, 1], [1, 2]])), (t(2, 3),)),
    "masked_select": (lambda x: ops.masked_select(x, ms.Tensor([[True, False, True]])), (t(2, 3),)),
    "masked_fill_tensor_value": (lambda x, v: ops.masked_fill(x, ms.Tensor([True, False, True]), v), (t(2, 3), t())),
    "topk": (lambda x: ops.topk(x, 2, dim=0)[0], (t(3, 2),)),
    "sort_descending": (lambda x: ops.sort(x, descending=True)[0], (t(2, 4),)),
    "scatter_update_last_wins": (lambda x, u: ops.scatter(x, 1, ms.Tensor([[1, 1]]), u), (t(1, 3), t(1, 2))),
    "tensor_scatter_add": (lambda x, u: ops.tensor_scatter_add(x, ms.Tensor([[0], [0]]), u), (t(2, 2), t(2, 2))),
    "index_add": (lambda x, y: ops.index_add(x, ms.Tensor([2, 0]), y, 1), (t(2, 3), t(2, 2))),
    "setitem_recorded": (lambda x, v: _assign(x * 1.0, v), (t(3, 2), t(2))),
}


def _assign(b, v):
    b[1] = v
    b[b > 10.0] = 0.0
    return b


@pytest.mark.parametrize("name", sorted(FIRST_AND_SECOND))
def test_gradients_first_and_second_order(name):
    fn, inputs = FIRST_AND_SECOND[name]
    assert ms.gradcheck(fn, inputs, raise_exception=False).passed
    assert ms.gradgradcheck(fn, inputs, raise_exception=False).passed


def test_setitem_on_a_leaf_that_requires_grad_is_refused_while_recording():
    x = ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")

    def f(w):
        w[0] = 5.0
        return w.sum()
    with pytest.raises(RuntimeError, match="A leaf tensor that need grad is being used in an inplace operator"):
        ms.grad(f, None, [x])(x)


def test_cumprod_and_prod_gradients_are_exact_at_zeros():
    x = ms.Tensor([2.0, 0.0, 3.0], ms.float64)
    assert ms.gradcheck(lambda a: ops.cumprod(a, 0), (x,), raise_exception=False).passed
    zeros = ms.Tensor([[1.0, 0.0, 2.0], [3.0, 0.0, 0.0]])
    assert ms.gradcheck(lambda a: ops.prod(a, 0), (zeros,), raise_exception=False).passed
    grad = ms.grad(lambda a: ops.prod(a))(ms.Tensor([1.0, 0.0, 2.0]))
    assert grad.asnumpy().tolist() == [0.0, 2.0, 0.0]


def test_running_extremes_send_gradient_to_the_running_argmax():
    x = ms.Tensor([[1.0, 5.0, 2.0, 7.0]])
    values, indices = ops.cummax(x, 1)
    assert indices.asnumpy().tolist() == [[0, 1, 1, 3]]
    g = ms.grad(lambda a: ops.cummax(a, 1)[0].sum())(x)
    assert g.asnumpy().tolist() == [[1.0, 2.0, 0.0, 1.0]]


def test_tensor_max_has_both_mindspore_forms():
    x = ms.Tensor([[1.0, 5.0], [3.0, 2.0]])
    values, indices = x.max(1)
    assert indices.asnumpy().tolist() == [1, 0]
    assert x.max(axis=1).asnumpy().tolist() == [5.0, 3.0]
    assert x.min(dim=0, keepdim=True)[1].asnumpy().tolist() == [[0, 1]]
    assert float(x.max(initial=9.0)) == 9.0


def test_random_ops_repeat_under_set_seed_and_keep_their_ranges():
    ms.set_seed(5)
    a = (ops.randn(3), ops.rand(2, 2), ops.randint(0, 4, (6,)), ops.uniform((3,), ms.Tensor(1.0), ms.Tensor(2.0)))
    ms.set_seed(5)
    b = (ops.randn(3), ops.rand(2, 2), ops.randint(0, 4, (6,)), ops.uniform((3,), ms.Tensor(1.0), ms.Tensor(2.0)))
    for x, y in zip(a, b):
        assert np.array_equal(x.asnumpy(), y.asnumpy())
    assert a[2].asnumpy().min() >= 0 and a[2].asnumpy().max() < 4
    assert 1.0 <= a[3].asnumpy().min() and a[3].asnumpy().max() < 2.0
    assert np.array_equal(ops.randn(4, seed=3).asnumpy(), ops.randn(4, seed=3).asnumpy())
    assert sorted(ops.randperm(5).asnumpy().tolist()) == [0, 1, 2, 3, 4]
    counts = np.bincount(ops.multinomial(ms.Tensor([1.0, 3.0]), 4000).asnumpy(), minlength=2)
    assert 0.7 < counts[1] / 4000 < 0.8


ERRORS = [
    (lambda: ops.max(ms.Tensor([[1.0]]), 3), ValueError,
     r"For primitive\[ArgMaxWithValue\], the axis must be in \[-2,2\), but got 3"),
    (lambda: ops.cumsum(ms.Tensor([[1.0]]), 2), ValueError, r"For primitive\[CumSum\], the axis must be in \[-2,2\)"),
    (lambda: ops.var(ms.Tensor([1, 2])), TypeError, "must be a type of"),
    (lambda: ops.tile(ms.Tensor([1.0]), (-1,)), ValueError,
     "cannot contain negative integer numbers, but got -1 in 0th"),
    (lambda: ops.tril(ms.Tensor([1.0])), ValueError, "rank must be greater than or equal to 2, but got 1"),
    (lambda: ops.flip(ms.Tensor([[1.0]]), (0, -2)), ValueError,
     "^For ReverseV2, 'axis' cannot contain duplicate dimensions, but got 0$"),
    (lambda: ops.narrow(ms.Tensor([1.0, 2.0]), 0, 1, 2), ValueError,
     r"^The input value must be in range of \[1, 1\], but got 2 with type 'int'\.$"),
    (lambda: ops.narrow(ms.Tensor([1.0, 2.0]), 0, 3, 1), ValueError,
     r"^The input value must be in range of \[0, 2\), but got 3 with type 'int'\.$"),
    (lambda: ops.split(ms.Tensor([1.0, 2.0, 3.0]), [1, 1]), ValueError, "should be equal to 3, but got 2"),
    (lambda: ops.chunk(ms.Tensor([1.0]), 0), ValueError, "'chunks' must be greater than 0"),
    (lambda: ops.pad(ms.Tensor([1.0]), (1, 1), mode="foo"), ValueError,
     r"^For 'PadV3', the 'mode' must be str and must be in '\['constant', 'reflect', 'edge', 'circular'\]', but got "
     r"'foo'\.$"),
    (lambda: ops.pad(ms.Tensor([1.0]), (1, 1, 1)), ValueError, "must be even"),
    (lambda: ops.Split(0, 2)(ms.Tensor([1.0, 2.0, 3.0])), ValueError, "divisible by 'output_num' 2"),
    (lambda: ops.Slice()(ms.Tensor([1.0]), (0, 0), (1,)), ValueError, "rank 1"),
    (lambda: ops.movedim(ms.Tensor([[1.0]]), (0, 1), 0), ValueError, "same length"),
    (lambda: ops.arange(0, 5, 0), ValueError, "delta cannot be equal to zero"),
    (lambda: ops.linspace(0, 1, 0), ValueError, "'steps' must be positive"),
    (lambda: ops.randint(3, 3, (2,)), ValueError, "'low' must be less than 'high'"),
    (lambda: ops.randint_like(ms.Tensor([1.0]), 0, 3), ValueError, "must be an int type, but got Float32"),
    (lambda: ops.rand_like(ms.Tensor([1])), ValueError, "For 'rand_like', the 'dtype' must be a float type"),
    (lambda: ops.multinomial(ms.Tensor([1.0, 0.0]), 2, replacement=False), ValueError, "must not exceed"),
    (lambda: ops.dot(ms.Tensor([1.0]), ms.Tensor([1.0])), ValueError, "dimension >= 2"),
    (lambda: ops.bmm(ms.Tensor([[1.0]]), ms.Tensor([[1.0]])), ValueError, "both inputs must be at least 3-D"),
    (lambda: ops.einsum("ij->j", ms.Tensor([1.0]), ms.Tensor([1.0])), ValueError, "names 1 operands, but got 2"),
    (lambda: ops.einsum("...i->i", ms.Tensor([1.0])), ValueError, "ellipses"),
    (lambda: ops.cross(ms.Tensor([[1.0, 2.0]]), ms.Tensor([[1.0, 2.0]])), ValueError, "no dimension of size 3"),
    (lambda: ops.norm(ms.Tensor([[1.0]]), "bad"), ValueError, "matrix norm 'ord'"),
    (lambda: ops.trace(ms.Tensor([1.0])), ValueError, "must be 2-D"),
    (lambda: ops.gather(ms.Tensor([1.0]), ms.Tensor([3]), 0), RuntimeError,
     r"should be in the range \[0, 1\), but got 3"),
    (lambda: ops.gather(ms.Tensor([1.0]), ms.Tensor([0.0]), 0), TypeError, "must be a Tensor of int32 or int64"),
    (lambda: ops.masked_fill(ms.Tensor([1.0]), ms.Tensor([1]), 0.0), TypeError, "'mask' must be a bool Tensor"),
    (lambda: ops.topk(ms.Tensor([1.0, 2.0]), 3), ValueError, r"'k' must be in range \[0, 2\]"),
    (lambda: ops.one_hot(ms.Tensor([1]), -1), ValueError, "'depth' must be non-negative"),
    (lambda: ops.bincount(ms.Tensor([-1])), ValueError, "must be non-negative"),
]


@pytest.mark.parametrize("call, exc, text", ERRORS, ids=[e[2][:30] for e in ERRORS])
def test_errors_name_the_op_and_what_was_wrong(call, exc, text):
    with pytest.raises(exc, match=text):
        call()


def test_new_entries_build_primitives_and_methods_from_the_table():
    x = ms.Tensor([[1.0, 5.0, 2.0], [3.0, 2.0, 6.0]])
    idx, val = ops.ArgMaxWithValue(axis=1)(x)
    assert idx.dtype == ms.int64 and val.asnumpy().tolist() == [5.0, 6.0]
    assert ops.Argmax()(x).dtype == ms.int32 and ops.Argmax(output_type=ms.int64)(x).dtype == ms.int64
    assert x.cumsum().shape == (6,) and x.argmin(axis=1).dtype == ms.int32
    assert ops.Pad(((1, 0), (0, 2)))(x).shape == (3, 5)
    assert [p.shape for p in ops.Unstack(axis=1)(x)] == [(2,)] * 3
    assert x.permute(1, 0).shape == (3, 2) and x.expand_as(ops.zeros((4, 2, 3))).shape == (4, 2, 3)
    assert x.to(ms.int32).dtype == ms.int32 and x.long().dtype == ms.int64 and x.type() == "Float32"
    y = ms.Tensor([1.0, 2.0])
    y.fill_(4.0)
    assert y.asnumpy().tolist() == [4.0, 4.0]
    y.zero_()
    assert y.asnumpy().tolist() == [0.0, 0.0]
