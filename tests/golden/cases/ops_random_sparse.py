"""Sparse tensors (common/sparse_tensor.py, ops/sparse.py, ops/table/sparse.py) and random sampling.

Sparse: values, structure, dtypes, printed form, gradients through the values, primitives, errors. Random: the
wheel's generator cannot be reproduced, so these cases record what is deterministic (shapes, dtypes, ranges and
support, errors, same seed → same numbers); the distributions are tested against numpy/scipy in
tests/ops/test_random_distributions.py."""
_COO = ("coo = COOTensor(Tensor(np.array([[0, 1], [1, 2], [2, 0]], np.int64)), "
        "Tensor(np.array([-1.5, 0.5, 2.0], np.float32)), (3, 4))\n")
_CSR = ("csr = CSRTensor(Tensor(np.array([0, 1, 2, 3], np.int32)), Tensor(np.array([3, 0, 2], np.int32)), "
        "Tensor(np.array([-1.5, 0.5, 2.0], np.float32)), (3, 4))\n")
_IMPORT = "from mindspore import COOTensor, CSRTensor, RowTensor\n"
_POS = {"acosh": "ops.abs(v) + 1", "log": "ops.abs(v) + 0.5", "log1p": "ops.abs(v)", "sqrt": "ops.abs(v)",
        "acos": "v / 4", "asin": "v / 4", "atanh": "v / 4"}
UNARY = ["abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh", "exp", "expm1", "floor",
         "inv", "isfinite", "isinf", "isnan", "log", "log1p", "neg", "relu", "relu6", "round", "sigmoid", "sin",
         "sinh", "softsign", "sqrt", "square", "tan", "tanh"]
NO_GRAD = {"ceil", "floor", "isfinite", "isinf", "isnan", "round"}
CASES = {}
for name in UNARY:
    vals = _POS.get(name, "v")
    coo = (f"v = Tensor(np.array([-1.5, 0.5, 2.0], np.float32))\nw = {vals}\n"
           "i = Tensor(np.array([[0, 1], [1, 2], [2, 0]], np.int64))\n")
    CASES[f"coo_{name}"] = _IMPORT + coo + f"out = ops.coo_{name}(COOTensor(i, w, (3, 4)))\n" \
        "result = (out.indices, out.values, out.shape)"
    csr = (f"v = Tensor(np.array([-1.5, 0.5, 2.0], np.float32))\nw = {vals}\n"
           "p = Tensor(np.array([0, 1, 2, 3], np.int32))\ni = Tensor(np.array([3, 0, 2], np.int32))\n")
    CASES[f"csr_{name}"] = _IMPORT + csr + f"out = ops.csr_{name}(CSRTensor(p, i, w, (3, 4)))\n" \
        "result = (out.indptr, out.indices, out.values, out.shape)"
    if name not in NO_GRAD:
        CASES[f"coo_{name}_grad"] = _IMPORT + coo + \
            f"result = ms.grad(lambda a: ops.coo_{name}(COOTensor(i, a, (3, 4))).values.sum())(w)"
CASES.update({
    "coo_parts": _IMPORT + _COO + "result = (coo.indices, coo.values, coo.shape, coo.dtype, coo.ndim, coo.size, "
                                  "coo.itemsize, coo.to_tuple())",
    "coo_print": _IMPORT + _COO + "print(coo)\nresult = str(coo)",
    "coo_int_print": _IMPORT + "x = COOTensor(Tensor([[0, 1]], ms.int32), Tensor([7], ms.int32), (2, 2))\n"
                               "result = str(x)",
    "coo_to_dense": _IMPORT + _COO + "result = coo.to_dense()",
    "coo_to_dense_grad": _IMPORT + _COO + "result = ms.grad(lambda v: (COOTensor(coo.indices, v, (3, 4)).to_dense() "
                                          "* ops.arange(12.0).reshape(3, 4)).sum())(coo.values)",
    "coo_methods": _IMPORT + _COO + "result = (coo.abs().values, coo.astype(ms.float64).values, "
                                    "coo.astype(ms.int32).dtype)",
    "coo_from_coo": _IMPORT + _COO + "y = COOTensor(coo_tensor=coo)\nresult = (y.indices, y.values, y.shape)",
    "sparse_tensor": "from mindspore import SparseTensor\n"
                     "x = SparseTensor(Tensor([[0, 1], [1, 2]]), Tensor([1, 2], ms.float32), (3, 4))\n"
                     "result = (x.indices, x.values, x.shape)",
    "csr_parts": _IMPORT + _CSR + "result = (csr.indptr, csr.indices, csr.values, csr.shape, csr.dtype, csr.ndim, "
                                  "csr.size, csr.itemsize, csr.to_tuple())",
    "csr_print": _IMPORT + _CSR + "print(csr)\nresult = str(csr)",
    "csr_to_dense": _IMPORT + _CSR + "result = (csr.to_dense(), ops.csr_to_dense(csr))",
    "csr_methods": _IMPORT + _CSR + "result = (csr.abs().values, csr.astype(ms.int32).values, (csr + csr).values, "
                                    "csr / 2)",
    "csr_add": _IMPORT + _CSR + ("b = CSRTensor(Tensor(np.array([0, 2, 2, 3], np.int32)), "
                                 "Tensor(np.array([0, 3, 2], np.int32)), Tensor(np.array([1.0, 4.0, 1.0], np.float32)),"
                                 " (3, 4))\nout = ops.csr_add(csr, b, Tensor(2.0, ms.float32), Tensor(-1.0, ms.float32))\n"
                                 "result = (out.indptr, out.indices, out.values, str(out))"),
    "csr_softmax": _IMPORT + ("x = CSRTensor(Tensor([0, 4, 6], ms.int32), Tensor([0, 2, 3, 4, 3, 4], ms.int32), "
                              "Tensor([1, 2, 3, 4, 1, 2], ms.float32), (2, 6))\n"
                              "out = ops.csr_softmax(x, dtype=ms.float32)\nresult = (out.indptr, out.indices, out.values)"),
    "csr_to_coo": _IMPORT + _CSR + "out = ops.csr_to_coo(csr)\nresult = (out.indices, out.values, out.shape)",
    "dense_to_sparse_coo": "x = Tensor([[1, 0, 0], [-5, 0, 2]], ms.float32)\nout = ops.dense_to_sparse_coo(x)\n"
                           "result = (out.indices, out.values, out.shape)",
    "dense_to_sparse_csr": "x = Tensor([[1, 0, 0], [-5, 0, 2]], ms.float32)\nout = ops.dense_to_sparse_csr(x)\n"
                           "result = (out.indptr, out.indices, out.values, out.shape)",
    "tensor_to_coo_csr": "x = Tensor([[0, 3], [-5, 0]], ms.float32)\na = x.to_coo()\nb = x.to_csr()\n"
                         "result = (a.indices, a.values, a.shape, b.indptr, b.indices, b.values, b.shape)",
    "coo_add": _IMPORT + ("i0 = Tensor([[0, 1], [1, 2]], ms.int64)\ni1 = Tensor([[0, 0], [1, 2]], ms.int64)\n"
                          "a = COOTensor(i0, Tensor([1.0, 2.0], ms.float32), (3, 4))\n"
                          "b = COOTensor(i1, Tensor([3.0, -1.5], ms.float32), (3, 4))\n"
                          "out = ops.coo_add(a, b, Tensor(0.6, ms.float32))\nresult = (out.indices, out.values, str(out))"),
    "coo_add_int32_error": _IMPORT + ("i0 = Tensor([[0, 1]], ms.int32)\na = COOTensor(i0, Tensor([1.0]), (3, 4))\n"
                                      "result = ops.coo_add(a, a, Tensor(0.0))"),
    "coo_concat": _IMPORT + ("i0 = Tensor([[0, 1], [1, 2]], ms.int64)\ni1 = Tensor([[0, 0], [1, 1]], ms.int64)\n"
                             "a = COOTensor(i0, Tensor([1, 2], ms.int32), (3, 4))\n"
                             "b = COOTensor(i1, Tensor([3, 4], ms.int32), (3, 4))\n"
                             "r1 = ops.coo_concat((a, b), 1)\nr0 = ops.coo_concat((a, b), 0)\n"
                             "result = (r1.indices, r1.values, r1.shape, r0.indices, r0.values, r0.shape)"),
    "coalesce": "i = Tensor([[0, 0, 1, 0], [1, 1, 2, 0]], ms.int64)\nv = Tensor([1, 5, 4, 2], ms.float32)\n"
                "result = ops.coalesce(i, v, Tensor([3, 3], ms.int64))",
    "coalesce_int32_error": "result = ops.coalesce(Tensor([[0], [1]], ms.int32), Tensor([1.0]), Tensor([3, 3], ms.int64))",
    "row_tensor": _IMPORT + "x = RowTensor(Tensor([0, 2]), Tensor([[1, 2], [3, 4]], ms.float32), (3, 2))\n"
                            "result = (x.indices, x.values, x.dense_shape)",
    "SparseToDense": "result = ops.SparseToDense()(Tensor([[0, 1], [1, 2]]), Tensor([1, 2], ms.float32), (3, 4))",
    "SparseToDense_grad": "i = Tensor([[0, 1], [1, 2]])\nresult = ms.grad(lambda v: (ops.SparseToDense()(i, v, (3, 4)) "
                          "* ops.arange(12.0).reshape(3, 4)).sum())(Tensor([1.0, 2.0]))",
    "nn_SparseToDense": _IMPORT + "x = COOTensor(Tensor([[0, 1], [1, 2]]), Tensor([1, 2], ms.int32), (3, 4))\n"
                                  "result = nn.SparseToDense()(x)",
    "SparseTensorDenseAdd": "result = ops.SparseTensorDenseAdd()(Tensor([[0, 0], [0, 1]], ms.int64), "
                            "Tensor([1, 1], ms.float32), Tensor([3, 3], ms.int64), ops.ones((3, 3), ms.float32))",
    "SparseTensorDenseMatmul": "i = Tensor([[0, 1], [1, 2]], ms.int32)\nv = Tensor([1, 2], ms.float32)\n"
                               "d = Tensor([[1, 1], [2, 2], [3, 3], [4, 4]], ms.float32)\n"
                               "d2 = Tensor(np.arange(6, dtype=np.float32).reshape(3, 2))\n"
                               "result = (ops.SparseTensorDenseMatmul()(i, v, (3, 4), d), "
                               "ops.SparseTensorDenseMatmul(adjoint_st=True)(i, v, (3, 4), d2), "
                               "nn.SparseTensorDenseMatmul()(i, v, (3, 4), d))",
    "SparseTensorDenseMatmul_grad": "i = Tensor([[0, 1], [1, 2]], ms.int32)\n"
                                    "d = Tensor([[1, 1], [2, 2], [3, 3], [4, 4]], ms.float32)\n"
                                    "result = ms.grad(lambda v, m: (ops.SparseTensorDenseMatmul()(i, v, (3, 4), m) "
                                    "* ops.arange(6.0).reshape(3, 2)).sum(), (0, 1))(Tensor([1.0, 2.0]), d)",
    "SparseSlice": "i = Tensor(np.array([[0, 1], [1, 2], [1, 3], [2, 2]], np.int64))\n"
                   "v = Tensor(np.array([1, 2, 3, 4], np.int64))\n"
                   "result = ops.SparseSlice()(i, v, Tensor(np.array([3, 4], np.int64)), "
                   "Tensor(np.array([0, 1], np.int64)), Tensor(np.array([2, 3], np.int64)))",
    "coo_unary_not_coo": "result = ops.coo_abs(Tensor([1.0]))",
})
ERRORS = {
    "coo_error_indices_1d": "COOTensor(Tensor([0, 1], ms.int32), Tensor([1.0, 2.0]), (3, 4))",
    "coo_error_indices_float": "COOTensor(Tensor([[0.0, 1.0]]), Tensor([1.0]), (3, 4))",
    "coo_error_values_2d": "COOTensor(Tensor([[0, 1]], ms.int32), Tensor([[1.0]]), (3, 4))",
    "coo_error_lengths": "COOTensor(Tensor([[0, 1], [1, 1]], ms.int32), Tensor([1.0]), (3, 4))",
    "coo_error_rank": "COOTensor(Tensor([[0, 1]], ms.int32), Tensor([1.0]), (3, 4, 5))",
    "coo_error_shape": "COOTensor(Tensor([[0, 1]], ms.int32), Tensor([1.0]), (3, 0))",
    "coo_error_not_tensor": "COOTensor([[0, 1]], Tensor([1.0]), (3, 4))",
    "csr_error_indptr_length": "CSRTensor(Tensor([0, 1], ms.int32), Tensor([1], ms.int32), Tensor([1.0]), (3, 4))",
    "csr_error_lengths": "CSRTensor(Tensor([0, 1, 1, 1], ms.int32), Tensor([1, 2], ms.int32), Tensor([1.0]), (3, 4))",
    "csr_error_indices_float": "CSRTensor(Tensor([0, 1, 1, 1], ms.int32), Tensor([1.0]), Tensor([1.0]), (3, 4))",
}
for _name, _src in ERRORS.items():
    CASES[_name] = _IMPORT + "result = " + _src
_MSG = ["coo_add_int32_error", "coalesce_int32_error", *ERRORS]
OPTIONS = {name: {"message": True} for name in _MSG}
OPTIONS.update({"coo_print": {"stdout": True}, "csr_print": {"stdout": True},
                "coo_unary_not_coo": {"message_parts": ["coo_abs"], "why": "the wheel's text names its internal "
                                                                            "checker"}})

# -- random: what does not depend on the generator ---------------------------------------------------------------
_DESC = ("def desc(t):\n    a = t.asnumpy()\n    return (t.shape, t.dtype, bool(np.isfinite(a.astype(np.float64)).all()))\n")
RANDOM = {
    "laplace": "out = ops.laplace((2, 3), Tensor(1.0, ms.float32), Tensor(1.0, ms.float32), seed=5)",
    "laplace_broadcast": "out = ops.laplace((4, 1), Tensor([0.0, 1.0], ms.float32), Tensor(2.0, ms.float32), seed=5)",
    "standard_laplace": "out = ops.standard_laplace((4, 4), seed=5)",
    "StandardLaplace": "out = ops.StandardLaplace(seed=2)((4, 16))",
    "random_gamma": "out = ops.random_gamma(Tensor([7, 5], ms.int32), Tensor([0.5, 1.5], ms.float32), seed=5)",
    "random_gamma_f64": "out = ops.random_gamma(Tensor([3], ms.int32), Tensor([[0.5], [1.5]], ms.float64), seed=5)",
    "RandomGamma": "out = ops.RandomGamma(seed=3)(Tensor(np.array([3, 1, 2]), ms.int32), "
                   "Tensor(np.array([[3, 4], [5, 6]]), ms.float32))",
    "random_poisson": "out = ops.random_poisson(Tensor([2, 2], ms.int64), Tensor([[5.0, 10.0], [5.0, 1.0]], "
                      "ms.float32), seed=5, dtype=ms.float64)",
    "random_poisson_int": "out = ops.random_poisson(Tensor([2, 2], ms.int64), Tensor(5.0, ms.float64), seed=5, "
                          "dtype=ms.int64)",
    "RandomPoisson": "out = ops.RandomPoisson(seed=1, seed2=1)(Tensor(np.array([2, 3]), ms.int32), "
                     "Tensor(np.array([2, 2]), ms.int32))",
    "random_categorical": "out = ops.random_categorical(Tensor(np.random.random((10, 5)).astype(np.float32)), 8)",
    "RandomCategorical": "out = ops.RandomCategorical(ms.int32)(Tensor(np.random.random((3, 5)).astype(np.float32)),"
                         " 4, 1)",
    "shuffle": "out = ops.sort(ops.shuffle(Tensor([1, 2, 3, 4], ms.float32), seed=1))[0]",
    "RandomShuffle": "out = ops.sort(ops.RandomShuffle(seed=1, seed2=1)(Tensor(np.array([4, 2, 3, 1]), ms.int32)))[0]",
    "uniform_candidate_sampler": "s, t, e = ops.uniform_candidate_sampler(Tensor(np.array([[1], [3], [4], [6], [3]], "
                                 "np.int64)), 1, 3, False, 4, 1)\nout = e",
    "log_uniform_candidate_sampler": "s, t, e = ops.log_uniform_candidate_sampler(Tensor(np.array([[1, 7], [0, 4], "
                                     "[3, 3]])), 2, 5, True, 5)\nout = ops.sort(s)[0]",
    "TruncatedNormal": "out = ops.TruncatedNormal(seed=1, seed2=1)(Tensor(np.array([20, 30]), ms.int32))",
    "ParameterizedTruncatedNormal": "out = ops.ParameterizedTruncatedNormal(seed=1, seed2=2)("
                                    "Tensor(np.array([2, 30]), ms.int32), Tensor(np.array([0.0, 1.0]), ms.float32), "
                                    "Tensor(np.array([1.0, 1.0]), ms.float32), Tensor(np.array([-0.5, 0.5]), "
                                    "ms.float32), Tensor(np.array([0.5, 2.0]), ms.float32))",
    "LogNormalReverse": "out = ops.LogNormalReverse(2.0, 1.0)(Tensor(np.random.randn(3, 4), ms.float64))",
    "Cauchy": "out = ops.Cauchy([3, 2])()",
    "NonDeterministicInts": "out = ops.NonDeterministicInts(dtype=ms.int32)(Tensor((3, 4), ms.int32))",
    "gumbel_softmax": "out = ops.gumbel_softmax(Tensor(np.array([[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]]), ms.float32), "
                      "1.0, True, -1)",
    "gumbel_softmax_soft": "out = ops.gumbel_softmax(Tensor(np.array([[-0.1, 0.3, 3.6], [0.4, 0.5, -3.2]]), "
                           "ms.float32), 0.5, False, 0)",
    "Bernoulli": "out = ops.Bernoulli()(Tensor([0.1, 0.2, 0.3], ms.float32), Tensor([0.0, 1.0, 1.0], ms.float32))",
    "Bernoulli_all": "out = ops.Bernoulli()(Tensor([0.1, 0.2, 0.3], ms.float64), Tensor([1.0]))",
    "Multinomial": "out = ops.Multinomial(seed=10)(Tensor([[0., 9., 4., 0.]], ms.float32), 2)",
    "Multinomial_one": "out = ops.Multinomial(seed=10)(Tensor([[0., 9., 0., 0.], [0., 0., 0., 1.]], ms.float32), 3)",
    "multinomial_with_replacement": "out = ops.multinomial_with_replacement(Tensor([[0., 9., 0., 0.]], ms.float32), "
                                    "2, 5, 2, True)",
    "MultinomialWithReplacement": "out = ops.MultinomialWithReplacement(numsamples=3, replacement=True)("
                                  "Tensor([[0., 0., 4., 0.]], ms.float32), Tensor(2, ms.int64), Tensor(5, ms.int64))",
    "RandomChoiceWithMask": "y, m = ops.RandomChoiceWithMask(count=4)(Tensor(np.array([[True, False], [False, True]])))"
                            "\nout = (ops.sort(m.astype(ms.int32))[0], y.shape, y.dtype, m.dtype)",
    "choice_with_mask_shape": "y, m = ops.choice_with_mask(Tensor(np.ones((240, 4), np.bool_)))\nout = (y.shape, "
                              "y.dtype, m.shape, bool(m.all()))",
    "ComputeAccidentalHits": "out = ops.ComputeAccidentalHits(2)(Tensor(np.array([[1, 2], [0, 4], [3, 3]]), ms.int64), "
                             "Tensor(np.array([0, 1, 2, 3, 4]), ms.int64))",
    "tensor_cauchy": "x = Tensor(np.zeros((1, 2)), ms.float32)\nout = x.cauchy()",
    "tensor_log_normal": "x = Tensor(np.array([[1, 2], [3, 4]]), ms.float32)\nr = x.log_normal()\n"
                         "out = (r.shape, r.dtype, bool((r > 0).all()))",
    "generator_state": "g = ms.Generator()\nout = (g.initial_seed(), g.manual_seed(5) is g, g.initial_seed(), "
                       "g.get_state())",
    "generator_restore": "g = ms.Generator()\ng.manual_seed(5)\nst = g.get_state()\ng.seed()\ng.set_state(st)\n"
                         "out = (g.initial_seed(), g.get_state())",
    "default_generator": "ms.manual_seed(13)\nout = (ms.initial_seed(), ms.default_generator.initial_seed(), "
                         "ms.get_rng_state().shape, ms.get_rng_state().dtype, isinstance(ms.seed(), int))",
    "set_rng_state": "ms.manual_seed(21)\nst = ms.get_rng_state()\nms.manual_seed(99)\nms.set_rng_state(st)\nout = ms.initial_seed()",
    "manual_seed_error": "g = ms.Generator()\nout = g.manual_seed(1.5)",
}
#: the cases whose numbers do not depend on the generator (probabilities 0 and 1, sorted permutations, ...)
EXACT = {"shuffle", "RandomShuffle", "uniform_candidate_sampler", "log_uniform_candidate_sampler", "Bernoulli",
         "Bernoulli_all", "Multinomial_one", "multinomial_with_replacement", "MultinomialWithReplacement",
         "ComputeAccidentalHits"}
for _name, _src in RANDOM.items():
    CASES[f"random_{_name}"] = _DESC + _src + ("\nresult = out" if _name in EXACT else
                                               "\nresult = desc(out) if isinstance(out, Tensor) else out")
OPTIONS["random_manual_seed_error"] = {"message": True}

#: the CPU wheel has no kernel for ComputeAccidentalHits: the same answer from a program it runs. (The in-place
#: and mint samplers fail or crash in the wheel under this harness — InplaceUniform/InplaceNormal/InplaceRandom —
#: so they are held by tests/ops/test_random_distributions.py and the docstring audit instead.)
VIA = {
    "random_ComputeAccidentalHits": "t = [[1, 2], [0, 4], [3, 3]]\nhits = [(i, j) for i, row in enumerate(t) "
                                    "for j in range(5) if j in row]\n"
                                    "result = (Tensor(np.array([h[0] for h in hits], np.int32)), "
                                    "Tensor(np.array([h[1] for h in hits], np.int32)), "
                                    "Tensor(np.full(len(hits), -np.finfo(np.float32).max, np.float32)))",
}
_WHY = "the CPU wheel has no kernel for it in this harness (Create kernelmod ... failed / Unsupported op)"
for _case in VIA:
    OPTIONS[_case] = {"why": _WHY}

RANDOM_ERRORS = {
    "random_gamma_int_alpha": "ops.random_gamma(Tensor([3], ms.int32), Tensor([1, 2], ms.int32), seed=5)",
    "choice_with_mask_not_bool": "ops.choice_with_mask(Tensor(np.ones((4, 2), np.float32)))",
    "gumbel_softmax_int": "ops.gumbel_softmax(Tensor([[1, 2]], ms.int32))",
    "gumbel_softmax_tau": "ops.gumbel_softmax(Tensor([[1.0, 2.0]]), tau=0.0)",
    "random_categorical_1d": "ops.random_categorical(Tensor([0.1, 0.2]), 2)",
    "shuffle_not_tensor": "ops.shuffle([1, 2, 3])",
    "laplace_not_tensor": "ops.laplace((2,), 1.0, 1.0)",
    "log_uniform_unique_too_many": "ops.log_uniform_candidate_sampler(Tensor(np.array([[1]])), 1, 6, True, 5)",
    "manual_seed_negative": "ms.Generator().manual_seed(-1).initial_seed()",
}
for _name, _src in RANDOM_ERRORS.items():
    CASES[f"random_error_{_name}"] = "result = " + _src
_SHUFFLE = "For Primitive[RandomShuffle], the type of input argument[input_x] must be Tensor but got"
OPTIONS.update({f"random_error_{n}": {"message": True} for n in RANDOM_ERRORS if n != "shuffle_not_tensor"})
OPTIONS["random_error_shuffle_not_tensor"] = {"message_parts": [_SHUFFLE], "why": "the wheel names the list's "
                                              "type in its graph notation (List[Int64*3])"}
