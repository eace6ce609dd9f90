"""FractionalMaxPool3DWithFixedKsize's size bound, found while measuring the third wave of random table programs
(tests/golden/cases/random_table_wave3.py): the CPU wheel refuses a pooling whose window and output together
exceed the input along an axis (``ksize + output_shape > input``, checked depth, height, width in turn), which is
stricter than the 2-d FractionalMaxPoolWithFixedKsize's ``ksize + output_shape - 1 <= input``: an output of the
input's own size with 1-wide windows is refused in 3-d. Shapes at and around the bound, through the primitive and
``ops.fractional_max_pool3d``."""
_X = ("x = Tensor(np.arange(27, dtype=np.float32).reshape(1, 1, 3, 3, 3))\n"
      "u = Tensor(np.array([[[0.3, 0.7, 0.5]]], np.float32))\n")
_P = "result = ops.FractionalMaxPool3DWithFixedKsize({k}, {o})(x, u)"
CASES = {
    "fmp3d_at_the_bound": _X + _P.format(k=1, o=(2, 2, 2)),
    "fmp3d_at_the_bound_depth_window": _X + _P.format(k=(2, 1, 1), o=(1, 2, 2)),
    "fmp3d_one_window": _X + _P.format(k=2, o=(1, 1, 1)),
    "fmp3d_identity_size": _X + _P.format(k=1, o=(3, 3, 3)),
    "fmp3d_height_too_large": _X + _P.format(k=1, o=(2, 3, 3)),
    "fmp3d_width_too_large": _X + _P.format(k=(1, 1, 2), o=(1, 2, 2)),
    "fmp3d_whole_window": _X + _P.format(k=3, o=(1, 1, 1)),
    "fmp3d_depth_window_too_large": _X + _P.format(k=(2, 1, 1), o=(2, 2, 2)),
    "fmp3d_functional_too_large": _X + "result = ops.fractional_max_pool3d(x, 1, output_size=(3, 2, 2), "
                                      "_random_samples=u)",
    "fmp3d_functional_ratio": "x = Tensor(np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4))\n"
                              "result = ops.fractional_max_pool3d(x, 1, output_ratio=0.5, "
                              "_random_samples=Tensor(np.array([[[0.3, 0.7, 0.5]]], np.float32)))",
}
OPTIONS = {case: {"message": True} for case in CASES}
