"""What the random_table programs' disagreements settled by adopting the wheel's behaviour (see the pins of
tests/golden/test_random_table.py and test_random_table_more.py): IndexAdd writing into its input from every front
end, the CPU TopK kernel's order of tied values, NMSWithMask's plain IOU, hinge_embedding_loss's gradient at the
margin, cdist's at a zero distance, deepcopy's, the nuclear norm's, and ceil and round sending no gradient
back (floor and trunc send zeros: a NaN derivative before them shows it)."""
_IDX = ("def mk():\n    return Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))\n"
        "idx = Tensor(np.array([0, 2]), ms.int32)\nsrc = Tensor(np.ones((2, 2), np.float32))\n"
        "w = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3) + 1)\n")
_TIES = ("rng = np.random.RandomState(5)\n"
         "rows = np.stack([rng.choice([-1.0, 0.0, 0.5, 1.0], {n}).astype(np.float32) for _ in range(24)])\n"
         "X = Tensor(rows)\n")


def _index_add(call: str) -> str:
    """``call`` (of ``t``) on a fresh tensor: its result, the tensor after it, and value and gradient taken through
    it on a leaf (which the wheel writes into as well)."""
    return (_IDX + f"def fn(t):\n    return {call}\n"
            "x = mk()\nr = fn(x)\nr2 = fn(x)\nafter = (x, r, r2)\n"
            "x = mk()\nvg = ms.value_and_grad(lambda t: (fn(t) * w).sum() + (t * 0.1).sum())(x)\n"
            "result = (after, vg, x)")


CASES = {
    # ---- IndexAdd writes into its input, whichever front end calls it ----------------------------------------
    "index_add_method_dim": _index_add("t.index_add(1, idx, src, alpha=2)"),
    "index_add_method_keywords": _index_add("t.index_add(dim=1, index=idx, source=src)"),
    "index_add_method_axis_last": _index_add("t.index_add(idx, src, 1)"),
    "index_add_ops": _index_add("ops.index_add(t, idx, src, 1)"),
    "index_add_primitive": _index_add("ops.IndexAdd(1)(t, idx, src)"),
    "index_add_ops_parameter": _IDX + "p = ms.Parameter(mk(), name='p')\nr = ops.index_add(p, idx, src, 1)\n"
                                      "result = (p.value(), r)",
    "index_add_on_a_computed_tensor": _IDX + "y = mk() * 2\nr = y.index_add(1, idx, src)\nresult = (y, r)",
    # ---- TopK's order among tied values (a selection when k <= n // 2, a stable sort otherwise) ---------------
    "top_k_ties_k1": _TIES.format(n=9) + "result = ops.top_k(X, 1)",
    "top_k_ties_k2": _TIES.format(n=9) + "result = ops.top_k(X, 2)",
    "top_k_ties_k4": _TIES.format(n=9) + "result = ops.TopK()(X, 4)",
    "top_k_ties_k5_stable": _TIES.format(n=9) + "result = ops.top_k(X, 5)",
    "top_k_ties_long_rows": _TIES.format(n=40) + "result = (ops.top_k(X, 3), ops.top_k(X, 20))",
    "topk_ties_smallest": _TIES.format(n=9) + "result = ops.topk(X, 3, largest=False)",
    "topk_ties_dim0": _TIES.format(n=6) + "result = ops.topk(X, 3, dim=0)",
    "topk_ties_method": _TIES.format(n=8) + "result = (X.topk(2), X.top_k(3))",
    "top_k_ties_int32": _TIES.format(n=9) + "result = ops.top_k(ops.cast(X * 2, ms.int32), 2)",
    "top_k_ties_grad": _TIES.format(n=9) + "result = ms.grad(lambda t: (ops.top_k(t, 2)[0] * "
                                           "Tensor(np.array([1.0, 2.0], np.float32))).sum())(X)",
    # ---- NMSWithMask: the plain IOU ------------------------------------------------------------------------
    "nms_with_mask_plain_iou": "b = Tensor(np.array([[0, 0, 2, 2, 0.9], [1, 0, 3, 2, 0.8], [0, 1.5, 2, 3.5, 0.7], "
                               "[0, 0, 0.2, 0.2, 0.6]], np.float32))\n"
                               "result = [ops.NMSWithMask(t)(b) for t in (0.1, 0.3, 0.4, 0.6)]",
    # ---- gradients at kinks and limits -----------------------------------------------------------------------
    "hinge_embedding_loss_grad_at_margin": "x = Tensor(np.array([0.3, 1.0, 1.0, 2.0, 0.5], np.float32))\n"
                                           "t = Tensor(np.array([1.0, -1.0, 1.0, -1.0, -1.0], np.float32))\n"
                                           "result = [ms.grad(lambda a: ops.hinge_embedding_loss(a, t, 1.0, r))(x) "
                                           "for r in ('mean', 'sum')]",
    "cdist_grad_at_zero_distance": "a = Tensor(np.array([[[0.5, 1.0], [2.0, -1.0]]], np.float32))\n"
                                   "b = Tensor(np.array([[[0.5, 1.0], [0.0, 0.0]]], np.float32))\n"
                                   "result = [ms.grad(lambda s, t: ms.mint.cdist(s, t, p).sum(), (0, 1))(a, b) "
                                   "for p in (1.0, 2.0, 3.0)]",
    "cdist_ops_grad_at_zero_distance": "a = Tensor(np.array([[0.5, 1.0], [2.0, -1.0]], np.float32))\n"
                                       "result = ms.grad(lambda s: ops.cdist(s, s).sum())(a)",
    "deepcopy_grad": "x = Tensor(np.array([[1.5, -2.0], [0.25, 3.0]], np.float32))\n"
                     "result = ms.grad(lambda t: ops.square(ops.deepcopy(t) * 2).sum())(x)",
    "fast_gelu_grad_at_infinity": "x = Tensor(np.array([-np.inf, -40.0, -1.0, 0.5, 40.0, np.inf], np.float32))\n"
                                  "result = ms.grad(lambda t: ops.fast_gelu(t).sum())(x)",
    "rounding_ops_cut_or_pass_zero_gradients": "x = Tensor(np.array([-np.inf, np.inf, 1.5, -0.3], np.float32))\n"
                                               "fs = (ops.ceil, ops.round, ops.sign, ops.floor, ops.trunc, ms.mint.ceil, "
                                               "ms.mint.floor, ops.Ceil(), ops.Floor(), lambda v: v.ceil(), "
                                               "lambda v: v.floor())\n"
                                               "result = [ms.grad(lambda t: f(ops.fast_gelu(t)).sum())(x) for f in fs]",
    "nuclear_norm_grad": "y = Tensor(np.array([[1.0, 0.0, 0.5, -1.0], [1.0, 1.0, 1.0, -0.5], [1.0, 0.5, 0.0, 1.0]], "
                         "np.float32))\nresult = (ms.grad(lambda t: ops.norm(t, 'nuc'))(y), "
                         "ms.grad(lambda t: ops.norm(t, 2))(y), ms.grad(lambda t: ops.norm(t, -2))(y))",
}

OPTIONS = {name: {"rtol": 1e-5, "atol": 1e-6} for name in CASES}
