"""ops.interpolate (nearest, nearest-exact, linear, bilinear, area) and the Dropout primitive's structure (table/nn_resize.py, nn_act.py)."""
_X = 'x1 = Tensor(np.array([[[0.0, 1.0, 3.0, 7.0]]], np.float32))\nx2 = Tensor(np.arange(12, dtype=np.float32).reshape(1, 1, 3, 4))\nw1 = Tensor(np.arange(1, 8, dtype=np.float32).reshape(1, 1, 7))\n'
CASES = {
    'nearest_size': _X + 'result = ops.interpolate(x1, size=7)',
    'nearest_exact': _X + "result = ops.interpolate(x1, size=7, mode='nearest-exact')",
    'linear': _X + "result = ops.interpolate(x1, size=7, mode='linear')",
    'linear_ac': _X + "result = ops.interpolate(x1, size=7, mode='linear', align_corners=True)",
    'linear_down': _X + "result = ops.interpolate(x1, size=3, mode='linear')",
    'linear_scale_recompute': _X + "result = ops.interpolate(x1, scale_factor=1.7, mode='linear', recompute_scale_factor=True)",
    'bilinear': _X + "result = ops.interpolate(x2, size=(5, 6), mode='bilinear')",
    'bilinear_ac': _X + "result = ops.interpolate(x2, size=(5, 6), mode='bilinear', align_corners=True)",
    'nearest_2d': _X + 'result = ops.interpolate(x2, size=(2, 7))',
    'area_2d': _X + "result = ops.interpolate(x2, size=(2, 3), mode='area')",
    'grad_linear': _X + "result = ms.grad(lambda a: (ops.interpolate(a, size=7, mode='linear') * w1).sum())(x1)",
    'grad_bilinear': _X + "result = ms.grad(lambda a: ops.interpolate(a, size=(5, 6), mode='bilinear').sum())(x2)",
    'grad_nearest': _X + 'result = ms.grad(lambda a: (ops.interpolate(a, size=7) * w1).sum())(x1)',
    'err_both': _X + 'result = ops.interpolate(x1, size=3, scale_factor=2.0)',
    'err_mode': _X + "result = ops.interpolate(x1, size=3, mode='foo')",
    'err_bilinear_3d': _X + "result = ops.interpolate(x1, size=3, mode='bilinear')",
    'upsample': _X + "result = ops.upsample(x1, size=5, mode='nearest') if hasattr(ops, 'upsample') else 'none'",
    'dropout_prim': _X + 'result = [t.shape for t in ops.Dropout(keep_prob=0.5)(Tensor(np.ones((2, 3), np.float32)))]',
    'dropout_prim_dtype': _X + 'result = [str(t.dtype) for t in ops.Dropout(keep_prob=0.5)(Tensor(np.ones((2, 3), np.float32)))]',
}
OPTIONS = {'err_both': {'message': True}, 'err_mode': {'message': True}, 'err_bilinear_3d': {'message': True}}
