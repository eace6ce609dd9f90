"""More nn layers and their functional forms: the piecewise, gated and fast activations, padding, pixel and channel
shuffles, channel dropout, 3-D and Lp pooling (values, dtypes, gradients, primitives, Tensor methods, layers, error
texts). mint names the CPU wheel has no kernel for are recorded through ``VIA``: the same program with ``ops``/``nn``
in place of ``mint``."""
_M = "from mindspore import mint\n"
_X = "x = Tensor(np.array([-2.0, -0.5, 0.0, 0.3, 0.5, 1.0, 3.0], np.float32))\n"
_X2 = "x = Tensor(np.array([[0.1, -1.2, 0.3, 0.4], [-0.7, 2.0, 1.5, -0.2]], np.float32))\n"
_P = "x = Tensor(np.arange(12, dtype=np.float32).reshape(1, 2, 2, 3))\n"
_S = "x = Tensor(np.arange(16, dtype=np.float32).reshape(1, 4, 2, 2))\n"
_G2 = ("def grad2(f, a):\n    def loss(t):\n        y = f(t)\n        return (y ** 2 * ops.arange(y.size, dtype=ms.float32).reshape(y.shape)).sum()\n"
       "    return ms.grad(loss)(a)\n")
_V = "v = Tensor(np.random.randn(1, 2, 3, 4, 5).astype(np.float32))\n"
_C = ("x = Tensor(np.random.randn(2, 4, 4, 5, 3).astype(np.float32))\nw = Tensor(np.random.randn(6, 2, 2, 3, 2).astype(np.float32))\n"
      "w4 = Tensor(np.random.randn(6, 4, 2, 3, 2).astype(np.float32) * 0.3)\nb = Tensor(np.random.randn(6).astype(np.float32))\n")
_F = "x = Tensor(np.random.randn(2, 3, 4, 5).astype(np.float32))\n"
_U = ("y = Tensor(np.random.randn(1, 2, 2, 2).astype(np.float32))\n"
      "i = Tensor(np.array([[[[0, 3], [9, 14]], [[1, 2], [12, 15]]]], np.int64))\n")
_G = "def grad(f, a):\n    return ms.grad(lambda t: (f(t) * (1 + t)).sum())(a)\n"

CASES = {
    # activations: values, gradients, dtypes, primitives, methods
    "hardshrink": _X + _G + "result = (ops.hardshrink(x), ops.hardshrink(x, 1.0), grad(ops.hardshrink, x))",
    "hardshrink_f16": _X + "result = ops.hardshrink(x.astype(ms.float16), 0.4)",
    "hardshrink_int_error": "result = ops.hardshrink(Tensor([1, 2]))",
    "softshrink": _X + _G + "result = (ops.softshrink(x), ops.soft_shrink(x, 0.25), grad(ops.softshrink, x))",
    "softshrink_negative_lambd": _X + "result = ops.softshrink(x, -1.0)",
    "shrink_methods": _X + "result = (x.hardshrink(), x.hardshrink(1.0), x.soft_shrink(), x.soft_shrink(0.1))",
    "shrink_primitives": _X + "result = (ops.HShrink()(x), ops.HShrink(lambd=1.0)(x), ops.SoftShrink(0.3)(x))",
    "celu": _X + _G + "result = (ops.celu(x), ops.celu(x, 2.0), ops.CeLU(0.5)(x), grad(lambda t: ops.celu(t, 2.0), x))",
    "celu_float64": _X + "result = ops.celu(x.astype(ms.float64), 1.5)",
    "celu_alpha_zero": _X + "result = ops.celu(x, 0.0)",
    "celu_int_error": "result = ops.celu(Tensor([1, 2]))",
    "hardtanh": _X + _G + ("result = (ops.hardtanh(x), ops.hardtanh(x, -0.5, 0.5), grad(ops.hardtanh, x),\n"
                           "          grad(lambda t: ops.hardtanh(t, -0.5, 0.5), x))"),
    "hardtanh_int": "result = ops.hardtanh(Tensor([1, -2, 0]))",
    "threshold": _X + _G + ("result = (ops.threshold(x, 0.3, 9.0), ops.threshold(x, -1, -7),\n"
                            "          grad(lambda t: ops.threshold(t, 0.3, 9.0), x))"),
    "threshold_int": "result = ops.threshold(Tensor([1, -2, 3]), 1, 5)",
    "tanhshrink": _X + _G + "result = (ops.tanhshrink(x), grad(ops.tanhshrink, x), ops.tanhshrink(Tensor([1, 2])))",
    "fast_gelu": _X + _G + "result = (ops.fast_gelu(x), grad(ops.fast_gelu, x), ops.FastGeLU()(x), ops.FastGelu()(x))",
    "fast_gelu_int_error": "result = ops.fast_gelu(Tensor([1, 2]))",
    "gelu_primitive_alias": _X + "result = ops.Gelu()(x)",
    "glu": _X2 + _G + ("result = (ops.glu(x), ops.glu(x, 0), ops.GLU(axis=0)(x), ms.grad(lambda t: (ops.glu(t) ** 2).sum())(x),\n"
                       "          ms.grad(lambda t: (ops.glu(t, 0) ** 2).sum())(x))"),
    "glu_odd_error": "result = ops.glu(Tensor(np.ones((3, 3), np.float32)))",
    "rrelu_shape": _X2 + "y = ops.rrelu(x)\nresult = (y.shape, y.dtype, (y >= x * 0.34).all(), ops.rrelu(x, 0.2, 0.2))",
    "rrelu_bad_bounds": "result = ops.rrelu(Tensor([1.0]), 0.5, 0.1)",
    # activation layers
    "nn_activations": _X + ("result = [nn.CELU()(x), nn.CELU(0.5)(x), nn.HShrink()(x), nn.SoftShrink(0.1)(x),\n"
                            "          nn.Tanhshrink()(x), nn.Threshold(0.2, 7.0)(x), nn.Hardtanh()(x), nn.Hardtanh(-0.3, 2.0)(x),\n"
                            "          nn.LogSigmoid()(x), nn.Softmin()(x), nn.FastGelu()(x)]"),
    "nn_GLU": _X2 + "result = (nn.GLU()(x), nn.GLU(0)(x))",
    "nn_Softmin_axis": _X2 + "result = nn.Softmin(0)(x)",
    "nn_Softmax2d": "result = (nn.Softmax2d()(Tensor(np.arange(12, dtype=np.float32).reshape(3, 2, 2) / 5)),\n"
                    "          nn.Softmax2d()(Tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 2, 2) / 7)))",
    "nn_Softmax2d_rank_error": "result = nn.Softmax2d()(Tensor(np.ones(8, np.float32)))",
    "nn_RReLU": _X2 + "y = nn.RReLU(0.1, 0.3)(x)\nresult = (y.shape, (y >= x * 0.31).all())",
    "nn_RReLU_bad_bounds": "result = nn.RReLU(0.5, 0.1)",
    "nn_RReLU_bad_type": "result = nn.RReLU('a', 0.1)",
    "nn_Hardtanh_bad_bounds": "result = nn.Hardtanh(2.0, 1.0)",
    "nn_activation_reprs": ("print(nn.CELU(), nn.GLU(), nn.HShrink(), nn.SoftShrink(), nn.Tanhshrink(), nn.Threshold(0.1, 2),\n"
                            "      nn.Hardtanh(), nn.RReLU(), nn.LogSigmoid(), nn.Softmin(), nn.Softmax2d(), nn.FastGelu())\nresult = None"),
    "nn_layer_gradients": _X + _G + "result = [grad(c, x) for c in (nn.CELU(), nn.HShrink(), nn.Hardtanh(), nn.Threshold(0.3, 2.0))]",
    "get_activation_names": _X + ("result = [nn.get_activation(n)(x) for n in ('softmin', 'tanhshrink', 'hardtanh', 'fast_gelu',\n"
                                  "                                            'logsigmoid', 'softshrink', 'hshrink')] + [nn.get_activation('softmax2d')(x.reshape(1, 7, 1))]"),
    # mint activations
    "mint_F_glu": _M + _X2 + "result = (mint.nn.functional.glu(x), mint.nn.functional.glu(x, dim=0))",
    "mint_F_hardshrink": _M + _X + "result = mint.nn.functional.hardshrink(x, 0.4)",
    "mint_F_softshrink": _M + _X + "result = mint.nn.functional.softshrink(x, 0.4)",
    "mint_nn_shrinks": _M + _X + "result = (mint.nn.Hardshrink()(x), mint.nn.Softshrink(0.2)(x), mint.nn.GLU()(x.reshape(1, 7)[:, :6]))",
    "mint_F_hardtanh": _M + _X + "result = mint.nn.functional.hardtanh(x, -0.5, 2.0)",
    "mint_F_hardtanh_": _M + _X + "y = mint.nn.functional.hardtanh_(x)\nresult = (x, y)",
    "mint_F_threshold": _M + _X + "result = mint.nn.functional.threshold(x, 0.3, -1.0)",
    "mint_F_threshold_": _M + _X + "y = mint.nn.functional.threshold_(x, 0.3, -1.0)\nresult = (x, y)",
    "mint_nn_Hardtanh": _M + _X + "result = mint.nn.Hardtanh(-0.5, 0.5)(x)",
    "mint_nn_Threshold": _M + _X + "result = mint.nn.Threshold(0.3, 5.0)(x)",
    # padding layers
    "nn_ConstantPad": _P + ("result = [nn.ConstantPad1d(1, 0.5)(x), nn.ConstantPad1d((1, 2), 3)(x), nn.ConstantPad2d((1, 0, 2, 1), 1.5)(x),\n"
                            "          nn.ConstantPad2d((1, 2), -1.0)(x), nn.ConstantPad3d(1, 2.0)(x), nn.ConstantPad1d(-1, 0.0)(x),\n"
                            "          nn.ZeroPad2d(1)(x), nn.ZeroPad2d((0, 1, 1, 0))(x)]"),
    "nn_ConstantPad_int": "result = (nn.ConstantPad1d(1, 2)(Tensor(np.arange(3).reshape(1, 3))), nn.ConstantPad1d(1, 2.5)(Tensor(np.arange(3).reshape(1, 3))))",
    "nn_ConstantPad_grad": _P + "f = nn.ConstantPad2d((1, 0, 2, 1), 1.5)\nresult = ms.grad(lambda a: (f(a) ** 2).sum())(x)",
    "nn_ReflectionPad": _P + "result = [nn.ReflectionPad1d(1)(x), nn.ReflectionPad1d((2, 0))(x), nn.ReflectionPad2d((1, 1, 1, 0))(x), nn.ReflectionPad3d(1)(x)]",
    "nn_ReflectionPad_grad": _P + "f = nn.ReflectionPad2d(1)\nresult = ms.grad(lambda a: (f(a) ** 2 * (1 + a.sum())).sum())(x)",
    "nn_ReflectionPad_2d_input": "result = nn.ReflectionPad1d(1)(Tensor(np.arange(3, dtype=np.float32).reshape(1, 3)))",
    "nn_ReplicationPad": _P + ("x3 = x[0]\nx5 = Tensor(np.arange(24, dtype=np.float32).reshape(1, 2, 2, 2, 3))\n"
                               "result = [nn.ReplicationPad1d(2)(x3), nn.ReplicationPad1d((0, 1))(Tensor(np.ones((2, 3), np.float32))),\n"
                               "          nn.ReplicationPad2d(1)(x), nn.ReplicationPad2d((1, 2, 0, 1))(x3), nn.ReplicationPad3d(1)(x5)]"),
    "nn_ReplicationPad_grad": _P + "f = nn.ReplicationPad2d((2, 0, 1, 1))\nresult = ms.grad(lambda a: (f(a) ** 2).sum())(x)",
    "nn_Pad_modes": ("x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))\n"
                     "result = [nn.Pad(((0, 0), (1, 1)))(x), nn.Pad(((0, 0), (1, 2)), mode='REFLECT')(x),\n"
                     "          nn.Pad(((1, 0), (1, 2)), mode='SYMMETRIC')(x), nn.Pad(((1, 1), (2, 0)), 'CONSTANT')(x)]"),
    "nn_Pad_grad": "x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))\nf = nn.Pad(((1, 0), (1, 2)), mode='SYMMETRIC')\nresult = ms.grad(lambda a: (f(a) ** 2).sum())(x)",
    "pad_reprs": "print(nn.ConstantPad1d(1, 0.5), nn.ReflectionPad2d(1), nn.ReplicationPad3d(1), nn.ZeroPad2d(1), nn.Pad(((0, 0), (1, 1))))\nresult = None",
    "nn_ConstantPad_bad_type": "result = nn.ConstantPad1d(1.5, 0.5)",
    "nn_ConstantPad1d_bad_len": "result = nn.ConstantPad1d((1, 2, 1, 1), 0.5)",
    "nn_ConstantPad2d_odd_len": "result = nn.ConstantPad2d((1, 2, 3), 0.5)",
    "nn_ConstantPad_bad_value": "result = nn.ConstantPad1d(1, 'a')",
    "nn_ConstantPad3d_rank_error": "result = nn.ConstantPad3d(1, 0.0)(Tensor(np.ones((2, 3), np.float32)))",
    "nn_ReflectionPad_bad_type": "result = nn.ReflectionPad2d(1.5)",
    "nn_ReflectionPad_odd_len": "result = nn.ReflectionPad2d((1, 2, 3))",
    "nn_ReflectionPad_too_wide": _P + "result = nn.ReflectionPad1d(5)(x)",
    "nn_ReflectionPad3d_rank_error": "result = nn.ReflectionPad3d(1)(Tensor(np.ones((2, 3), np.float32)))",
    "nn_ReplicationPad1d_rank_error": _P + "result = nn.ReplicationPad1d(2)(x)",
    "nn_ReplicationPad2d_rank_error": "result = nn.ReplicationPad2d(1)(Tensor(np.ones((2, 3), np.float32)))",
    "nn_ReplicationPad3d_rank_error": "result = nn.ReplicationPad3d(1)(Tensor(np.ones((2, 2, 3), np.float32)))",
    "nn_Pad_bad_mode": "result = nn.Pad(((0, 0), (1, 1)), mode='BAD')",
    "nn_Pad_list": "result = nn.Pad([[0, 0], [1, 1]])",
    "nn_Pad_rank_error": "result = nn.Pad(((0, 0), (1, 1)))(Tensor(np.ones((2, 3, 4), np.float32)))",
    "nn_Pad_reflect_too_wide": "result = nn.Pad(((0, 0), (1, 2)), mode='REFLECT')(Tensor(np.ones((2, 2), np.float32)))",
    "nn_Pad_symmetric_too_wide": "result = nn.Pad(((0, 0), (1, 2)), mode='SYMMETRIC')(Tensor(np.ones((2, 1), np.float32)))",
    # mint padding layers (no CPU kernel: recorded through nn's)
    "mint_nn_pads": _M + _P + ("result = [mint.nn.ConstantPad1d((1, 2), 0.5)(x), mint.nn.ConstantPad2d(1, 2.0)(x),\n"
                               "          mint.nn.ConstantPad3d((1, 0, 0, 1, 1, 0), 1.0)(x), mint.nn.ZeroPad1d(2)(x),\n"
                               "          mint.nn.ZeroPad2d((1, 0, 0, 1))(x), mint.nn.ZeroPad3d(1)(x)]"),
    "mint_nn_mirror_pads": _M + _P + ("x5 = Tensor(np.arange(24, dtype=np.float32).reshape(1, 2, 2, 2, 3))\n"
                                      "result = [mint.nn.ReflectionPad1d((2, 1))(x), mint.nn.ReflectionPad2d(1)(x), mint.nn.ReflectionPad3d(1)(x5),\n"
                                      "          mint.nn.ReplicationPad1d((0, 2))(x[0]), mint.nn.ReplicationPad2d((1, 0, 2, 1))(x), mint.nn.ReplicationPad3d(1)(x5)]"),
    "mint_pad_reprs": _M + "print(mint.nn.ConstantPad1d(1, 0.5), mint.nn.ZeroPad1d(1), mint.nn.ReflectionPad2d(1), mint.nn.ReplicationPad3d(1))\nresult = None",
    "mint_pad_bad_padding": _M + "result = mint.nn.ConstantPad1d(1.5, 0.5)",
    "mint_pad_bad_len": _M + "result = mint.nn.ConstantPad2d((1, 2, 3), 0.5)",
    "mint_reflect_bad_len": _M + "result = mint.nn.ReflectionPad1d((1, 2, 3))",
    # pixel and channel shuffles, Unflatten
    "pixel_shuffle": _S + _G2 + "result = (ops.pixel_shuffle(x, 2), grad2(lambda a: ops.pixel_shuffle(a, 2), x), ops.pixel_shuffle(x[0], 2))",
    "pixel_unshuffle": _S + _G2 + ("y = ops.pixel_shuffle(x, 2)\n"
                                   "result = (ops.pixel_unshuffle(y, 2), grad2(lambda a: ops.pixel_unshuffle(a, 2), y), ops.pixel_unshuffle(y, 1).shape)"),
    "pixel_shuffle_int": "result = ops.pixel_shuffle(Tensor(np.arange(8).reshape(2, 4, 1, 1)), 2)",
    "pixel_shuffle_bad_channels": _S + "result = ops.pixel_shuffle(x, 3)",
    "pixel_shuffle_rank_error": "result = ops.pixel_shuffle(Tensor(np.ones((4, 2), np.float32)), 2)",
    "pixel_unshuffle_bad_size": _S + "result = ops.pixel_unshuffle(x, 3)",
    "nn_PixelShuffle": _S + "result = (nn.PixelShuffle(2)(x), nn.PixelUnshuffle(2)(nn.PixelShuffle(2)(x)))",
    "nn_ChannelShuffle": _S + _G2 + "result = (nn.ChannelShuffle(2)(x), grad2(nn.ChannelShuffle(4), x), nn.ChannelShuffle(2)(x.reshape(2, 8)))",
    "nn_ChannelShuffle_bad_groups": "result = nn.ChannelShuffle(0)",
    "nn_ChannelShuffle_indivisible": _S + "result = nn.ChannelShuffle(3)(x)",
    "nn_Unflatten": _S + "result = (nn.Unflatten(1, (2, 2))(x).shape, nn.Unflatten(1, (2, -1))(x), nn.Unflatten(-1, (1, 2))(x).shape)",
    "nn_Unflatten_bad_size": _S + "result = nn.Unflatten(1, (3, 2))(x)",
    "shuffle_reprs": "print(nn.PixelShuffle(2), nn.PixelUnshuffle(2), nn.ChannelShuffle(2), nn.Unflatten(1, (2, 2)))\nresult = None",
    "mint_pixel_shuffle": _M + _S + "result = (mint.nn.functional.pixel_shuffle(x, 2), mint.nn.PixelShuffle(2)(x))",
    # channel dropout
    "dropout2d_values": ("x = Tensor(np.ones((4, 8, 3, 3), np.float32))\ny = ops.dropout2d(x, 0.5)\n"
                         "v = y.asnumpy()\nresult = (y.shape, y.dtype, sorted(set(v.ravel().tolist())) in ([0.0, 2.0], [2.0], [0.0]),\n"
                         "          bool((v == v[:, :, :1, :1]).all()))"),
    "dropout_channel_identity": ("x = Tensor(np.arange(24, dtype=np.float32).reshape(1, 2, 3, 4))\n"
                                 "result = (ops.dropout2d(x, 0.0), ops.dropout2d(x, 0.7, training=False), ops.dropout2d(x, 1.0),\n"
                                 "          ops.dropout1d(x[0], 0.5, training=False), ops.dropout3d(x.reshape(1, 2, 1, 3, 4), 0.0))"),
    "dropout1d_shapes": "result = (ops.dropout1d(Tensor(np.ones((2, 3, 4), np.float32))).shape, ops.dropout1d(Tensor(np.ones((3, 4), np.float32))).shape)",
    "dropout2d_bad_p": "result = ops.dropout2d(Tensor(np.ones((1, 2, 2, 2), np.float32)), 1.5)",
    "dropout2d_rank_error": "result = ops.dropout2d(Tensor(np.ones((2, 3, 4), np.float32)), 0.5)",
    "dropout3d_rank_error": "result = ops.dropout3d(Tensor(np.ones((2, 3, 4), np.float32)), 0.5)",
    "Dropout2D_primitive": ("out, mask = ops.Dropout2D(1.0)(Tensor(np.ones((1, 2, 1, 2), np.float32)))\n"
                            "o2, m2 = ops.Dropout3D(0.5)(Tensor(np.ones((2, 3, 1, 2, 2), np.float32)))\n"
                            "result = (out, mask, m2.dtype, o2.shape)"),
    "nn_channel_dropouts": ("x = Tensor(np.ones((1, 2, 1, 2), np.float32))\n"
                            "layers = [nn.Dropout1d(0.3), nn.Dropout2d(), nn.Dropout3d(0.2), nn.Dropout2dExt()]\n"
                            "print(*layers)\nresult = (layers[1](x), layers[0](x[0]), layers[3](x))"),
    "nn_Dropout2d_train": ("d = nn.Dropout2d(0.5)\nd.set_train()\ny = d(Tensor(np.ones((4, 8, 2, 2), np.float32))).asnumpy()\n"
                           "result = (sorted(set(y.ravel().tolist())) in ([0.0, 2.0], [2.0], [0.0]), bool((y == y[:, :, :1, :1]).all()))"),
    "nn_Dropout2d_bad_p": "result = nn.Dropout2d(1.5)",
    "mint_dropout2d": _M + ("x = Tensor(np.arange(8, dtype=np.float32).reshape(1, 2, 2, 2))\n"
                            "result = (mint.nn.functional.dropout2d(x, 0.5, training=False), mint.nn.Dropout2d()(x))"),
    # 3-D, adaptive and Lp pooling
    "max_pool3d": _V + _G2 + ("result = (ops.max_pool3d(v, 2, 1, 1, return_indices=True), ops.max_pool3d(v, 2, 2, ceil_mode=True),\n"
                              "          ops.max_pool3d(v, (1, 2, 3), (1, 1, 2), dilation=(1, 2, 1)), grad2(lambda a: ops.max_pool3d(a, 2, 1), v))"),
    "avg_pool3d": _V + _G2 + ("result = (ops.avg_pool3d(v, 2, 2, 1), ops.avg_pool3d(v, 2, 2, 1, count_include_pad=False),\n"
                              "          ops.avg_pool3d(v, 2, 2, 1, ceil_mode=True), ops.avg_pool3d(v, (1, 2, 2), 2, divisor_override=3),\n"
                              "          ops.avg_pool3d(v, 3, 2, 1, True, False), grad2(lambda a: ops.avg_pool3d(a, 2, 2, 1), v))"),
    "avg_pool3d_rank_error": _V + "result = ops.avg_pool3d(v[0], 2)",
    "avg_pool3d_int_error": "result = ops.avg_pool3d(Tensor(np.ones((1, 1, 2, 2, 2), np.int32)), 2)",
    "max_pool3d_rank_error": _V + "result = ops.max_pool3d(v[0], 2)",
    "pool3d_primitives": _V + ("result = (ops.MaxPool3D(2, 1)(v), ops.MaxPool3D(2, 1, 'SAME')(v), ops.MaxPool3D(2, 1, 'PAD', (1, 0, 1, 0, 1, 0))(v),\n"
                               "          ops.AvgPool3D(2, 1)(v), ops.AvgPool3D(2, 1, 'same')(v), ops.AvgPool3D(2, 2, 'pad', (1, 0, 1, 0, 1, 0))(v),\n"
                               "          ops.AvgPool3D(3, 2, 'pad', 1, count_include_pad=False)(v))"),
    "MaxPool3DWithArgmax": _V + ("result = (ops.MaxPool3DWithArgmax(2, 1, 1)(v), ops.MaxPool3DWithArgmax((1, 2, 2), (1, 2, 2), 0, ceil_mode=True)(v),\n"
                                 "          ops.MaxPool3DWithArgmax(2, 1, 0, argmax_type=ms.int32)(v)[1].dtype)"),
    "MaxPoolWithArgmaxV2": _V + "result = (ops.MaxPoolWithArgmaxV2(2, 1, 1)(v[0]), ops.MaxPoolWithArgmaxV2(3, 2, argmax_type=ms.int32)(v[0]))",
    "adaptive_avg_pool3d": _V + _G2 + ("result = (ops.adaptive_avg_pool3d(v, (2, None, 3)), ops.adaptive_avg_pool3d(v[0], 2),\n"
                                       "          grad2(lambda a: ops.adaptive_avg_pool3d(a, (2, 3, 2)), v))"),
    "adaptive_max_pool3d": _V + _G2 + ("result = (ops.adaptive_max_pool3d(v, (2, 3, 3), True), ops.adaptive_max_pool3d(v[0], 2),\n"
                                       "          grad2(lambda a: ops.adaptive_max_pool3d(a, (2, 2, 3)), v))"),
    "adaptive_max_pool1d": _V + _G2 + "w = v[0, 0, :, :, :4]\nresult = (ops.adaptive_max_pool1d(w, 2), ops.adaptive_max_pool1d(w, 4), grad2(lambda a: ops.adaptive_max_pool1d(a, 2), w))",
    "adaptive_max_pool1d_rank_error": _V + "result = ops.adaptive_max_pool1d(v[0, 0, 0, :, :4], 2)",
    "adaptive_max_pool1d_indivisible": _V + "result = ops.adaptive_max_pool1d(v[0, 0], 3)",
    "adaptive_primitives": _V + ("result = (ops.AdaptiveAvgPool2D((2, None))(v[0, 0]), ops.AdaptiveAvgPool3D((1, 2, 3))(v),\n"
                                 "          ops.AdaptiveMaxPool2D((2, 2))(v[0, 0]), ops.AdaptiveMaxPool3D()(v, Tensor([1, 2, 2], ms.int32)))"),
    "lp_pool": _V + _G2 + ("result = (ops.lp_pool1d(v[0, 0], 2, 2), ops.lp_pool1d(v[0, 0], 3, 2), ops.lp_pool2d(v[0], 2, 2, 1),\n"
                           "          ops.lp_pool2d(v[0], 1.5, 2, 1), ops.lp_pool1d(v[0, 0], 1, 3, 2, ceil_mode=True),\n"
                           "          grad2(lambda a: ops.lp_pool2d(a, 2, 2, 1), v[0]), grad2(lambda a: ops.lp_pool1d(a, 4, 2), v[0, 0]))"),
    "nn_pool3d": _V + ("result = (nn.AvgPool3d(2, 1)(v), nn.AvgPool3d(2, 1, 'same')(v), nn.AvgPool3d(2, 1, 'pad', 1)(v), nn.AvgPool3d(2, 2)(v[0]),\n"
                       "          nn.AvgPool3d(3, 2, 'pad', 1, count_include_pad=False)(v), nn.MaxPool3d(2, 1)(v), nn.MaxPool3d(2, 1, 'same')(v),\n"
                       "          nn.MaxPool3d(2, 1, 'pad', 1, return_indices=True)(v), nn.MaxPool3d(2, 2)(v[0]))"),
    "nn_adaptive_pools": _V + ("result = (nn.AdaptiveAvgPool3d((2, None, 3))(v), nn.AdaptiveMaxPool3d((1, 2, 2))(v), nn.AdaptiveMaxPool3d((1, 2, 2), True)(v),\n"
                               "          nn.AdaptiveAvgPool1d(2)(v[0, 0, :, :, :4]), nn.AdaptiveMaxPool1d(4)(v[0, 0, :, :, :4]))"),
    "nn_AdaptiveAvgPool1d_indivisible": _V + "result = nn.AdaptiveAvgPool1d(2)(v[0, 0])",
    "nn_LPPool": _V + "result = (nn.LPPool1d(2, 2)(v[0, 0]), nn.LPPool1d(1, 3, 1)(v[0, 0]), nn.LPPool2d(2, 2)(v[0]), nn.LPPool2d(3, (2, 1), 1)(v[0]))",
    "pool_more_reprs": ("print(nn.AdaptiveAvgPool1d(2), nn.AdaptiveMaxPool1d(2), nn.AdaptiveAvgPool3d(2), nn.AdaptiveMaxPool3d(2),\n"
                        "      nn.AvgPool3d(2), nn.MaxPool3d(2, 1, 'same'), nn.LPPool1d(2, 2), nn.LPPool2d(2, 2))\nresult = None"),
    "nn_AvgPool3dExt": _V + "result = (nn.AvgPool3dExt(2)(v), nn.AvgPool3dExt(2, 1, 1, count_include_pad=False)(v), nn.AvgPool3dExt((1, 2, 2), divisor_override=2)(v[0]))",
    "mint_pool3d": _M + _V + ("result = (mint.nn.functional.avg_pool3d(v, 2), mint.nn.functional.avg_pool3d(v, 2, 1, 1, ceil_mode=True),\n"
                              "          mint.nn.AvgPool3d(2, 2, 1, count_include_pad=False)(v))"),
    "mint_adaptive_pools": _M + _V + ("result = (mint.nn.functional.adaptive_avg_pool3d(v, (1, 2, 3)), mint.nn.AdaptiveAvgPool3d(2)(v),\n"
                                      "          mint.nn.functional.adaptive_max_pool1d(v[0, 0, :, :, :4], 2), mint.nn.AdaptiveMaxPool1d(4)(v[0, 0, :, :, :4]))"),
    # 3-D convolutions, transposed convolutions
    "conv3d": _C + _G2 + ("result = (ops.conv3d(x, w4, b), ops.conv3d(x, w, None, (1, 2, 1), 'pad', (1, 0, 1), 1, 2),\n"
                          "          ops.conv3d(x, w[:, :2], None, 2, 'same', 0, (1, 2, 1), 2),\n"
                          "          ms.grad(lambda a, k: (ops.conv3d(a, k, b, 1, 'same') ** 2).sum(), (0, 1))(x, w4))"),
    "conv3d_bad_padding": _C + "result = ops.conv3d(x, w, None, 1, 'pad', (1, 0, 1, 1, 0, 1))",
    "Conv3D_primitive": _C + ("result = (ops.Conv3D(6, (2, 3, 2))(x, w4), ops.Conv3D(6, (2, 3, 2), pad_mode='pad', pad=(1, 0, 1, 1, 0, 1),\n"
                              "          stride=(1, 2, 1), group=2)(x, w), ops.Conv3D(6, (2, 3, 2), pad_mode='same', dilation=2)(x, w4))"),
    "Conv3DTranspose_primitive": _C + ("wt = Tensor(np.random.randn(4, 3, 2, 3, 2).astype(np.float32))\n"
                                       "wg = Tensor(np.random.randn(4, 3, 2, 2, 2).astype(np.float32))\n"
                                       "result = (ops.Conv3DTranspose(4, 3, (2, 3, 2), pad_mode='pad', pad=1, stride=2, output_padding=1)(x, wt),\n"
                                       "          ops.Conv3DTranspose(4, 3, (2, 3, 2), pad_mode='same', stride=2)(x, wt),\n"
                                       "          ops.Conv3DTranspose(4, 6, 2, stride=2, group=2)(x, wg),\n"
                                       "          ms.grad(lambda a, k: (ops.Conv3DTranspose(4, 3, (2, 3, 2), stride=(1, 2, 1))(a, k) ** 2).sum(), (0, 1))(x, wt))"),
    "Conv2DBackpropInput": ("dout = Tensor(np.random.randn(2, 3, 3, 4).astype(np.float32))\nw = Tensor(np.random.randn(3, 2, 3, 2).astype(np.float32))\n"
                            "result = (ops.Conv2DBackpropInput(3, (3, 2))(dout, w, (2, 2, 5, 5)),\n"
                            "          ops.Conv2DBackpropInput(3, (3, 2), pad_mode='same', stride=2)(dout, w, (2, 2, 6, 7)),\n"
                            "          ops.Conv2DBackpropInput(3, (3, 2), pad_mode='pad', pad=(1, 0, 1, 1), stride=2)(dout, w, (2, 2, 6, 7)),\n"
                            "          ops.Conv2DTranspose(3, (3, 2), pad_mode='same')(dout, w, (2, 2, 3, 4)))"),
    "nn_Conv3d": _C + ("w0 = Tensor(np.random.randn(3, 4, 2, 2, 3).astype(np.float32))\n"
                       "net = nn.Conv3d(4, 3, (2, 2, 3), stride=(1, 2, 1), has_bias=True, weight_init=w0, bias_init='ones')\n"
                       "net2 = nn.Conv3d(4, 6, (2, 3, 2), pad_mode='pad', padding=(1, 0, 1, 1, 0, 1), group=2, weight_init=w)\n"
                       "gx, gw = ms.value_and_grad(lambda a: (net(a) ** 2).sum(), 0, net.trainable_params())(x)[1]\n"
                       "result = (net(x), net2(x), gx, gw, [n for n, p in net.parameters_and_names()], net.weight.shape)"),
    "nn_Conv3dTranspose": _C + ("wt = Tensor(np.random.randn(4, 2, 3, 3, 3).astype(np.float32))\n"
                                "result = (nn.Conv3dTranspose(4, 2, 3, stride=2, weight_init=wt)(x), nn.Conv3dTranspose(4, 2, 3, 2, 'valid', weight_init=wt)(x),\n"
                                "          nn.Conv3dTranspose(4, 2, 3, 2, 'pad', 1, output_padding=1, weight_init=wt, has_bias=True, bias_init='ones')(x))"),
    "nn_Conv1dTranspose": ("x1 = Tensor(np.random.randn(2, 3, 5).astype(np.float32))\nw1 = Tensor(np.random.randn(3, 2, 3).astype(np.float32))\n"
                           "result = (nn.Conv1dTranspose(3, 2, 3, stride=2, weight_init=w1)(x1), nn.Conv1dTranspose(3, 2, 3, 2, 'valid', weight_init=w1)(x1),\n"
                           "          nn.Conv1dTranspose(3, 2, 3, 2, 'pad', 1, weight_init=w1)(x1), nn.Conv1dTranspose(3, 2, 3).weight.shape)"),
    "nn_Conv1dTranspose_4d_weight": "result = nn.Conv1dTranspose(3, 2, 3, weight_init=Tensor(np.ones((3, 2, 1, 3), np.float32)))",
    "conv_nd_reprs": "print(nn.Conv3d(2, 4, 3).extend_repr().split(', weight_init')[0]); print(nn.Conv1dTranspose(2, 4, 3, stride=2).extend_repr().split(', weight_init')[0])\nresult = None",
    "mint_conv": _M + _C + ("result = (mint.nn.functional.conv3d(x, w4, b, 1, 1), mint.nn.functional.conv3d(x, w, None, 2, 0, 1, 2),\n"
                            "          mint.nn.functional.conv1d(x[:, :, 0, 0], w4[:, :, 0, 0], b, 1, 1))"),
    # sliding blocks: unfold, fold, col2im
    "unfold": _F + _G2 + ("result = (ops.unfold(x, 2), ops.unfold(x, (2, 3), 1, 1, (1, 2)), ops.unfold(x, 2, 2, 1, 1), x.unfold(2),\n"
                          "          grad2(lambda a: ops.unfold(a, 2, 1, 1, 2), x))"),
    "unfold_rank_error": _F + "result = ops.unfold(x[0], 2)",
    "fold": _F + _G2 + ("c = Tensor(np.random.randn(2, 12, 6).astype(np.float32))\n"
                        "result = (ops.fold(c, Tensor([3, 4], ms.int32), 2), ops.fold(Tensor(np.random.randn(1, 12, 15).astype(np.float32)), Tensor([4, 5], ms.int32), 2, 1, 1, (1, 2)),\n"
                        "          c.fold(Tensor([3, 4], ms.int32), 2), grad2(lambda a: ops.fold(a, Tensor([3, 4], ms.int32), 2), c))"),
    "fold_roundtrip": _F + "result = ops.fold(ops.unfold(x, (2, 3), 1, 1, 1), Tensor([4, 5], ms.int32), (2, 3), 1, 1, 1)",
    "fold_tuple_size": "result = ops.fold(Tensor(np.ones((2, 12, 6), np.float32)), (3, 4), 2)",
    "fold_blocks_mismatch": "result = ops.fold(Tensor(np.ones((2, 12, 6), np.float32)), Tensor([3, 5], ms.int32), 2)",
    "fold_bad_shape": "result = ops.fold(Tensor(np.ones((12, 6), np.float32)), Tensor([3, 4], ms.int32), 2)",
    "col2im": ("c = Tensor(np.random.randn(1, 3, 4, 6).astype(np.float32))\n"
               "result = (ops.col2im(c, Tensor([3, 4], ms.int32), 2, 1, 0, 1), ops.col2im(c, Tensor([3, 4], ms.int32), (2, 2), (1, 1), (0, 0), (1, 1)),\n"
               "          c.col2im(Tensor([3, 4], ms.int32), 2, 1, 0, 1), ops.Col2Im(2)(c, Tensor([3, 4], ms.int32)),\n"
               "          ops.Col2Im(2, padding=1, stride=2)(Tensor(np.random.randn(1, 2, 4, 6).astype(np.float32)), Tensor([2, 5], ms.int32)))"),
    "Im2Col": _F + "result = (ops.Im2Col(2)(x), ops.Im2Col((2, 3), 1, 1, 1)(x), ops.Im2Col(2, 2, 1, 1)(x))",
    "nn_Unfold": _F + "result = (nn.Unfold([1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1])(x), nn.Unfold([1, 2, 3, 1], [1, 2, 1, 1], [1, 1, 2, 1], 'same')(x))",
    "mint_unfold_fold": _M + _F + ("result = (mint.nn.functional.unfold(x, 2, 1, 1, 2), mint.nn.Unfold((2, 3))(x),\n"
                                   "          mint.nn.functional.fold(ops.unfold(x, 2), (4, 5), 2), mint.nn.Fold((4, 5), 2, 1, 1, 1)(ops.unfold(x, 2, 1, 1, 1)))"),
    # max unpooling
    "max_unpool": _U + _G2 + ("result = (ops.max_unpool2d(y, i, 2), ops.max_unpool2d(y, i, 2, output_size=(1, 2, 5, 5)), ops.max_unpool2d(y[0], i[0], 2),\n"
                              "          ops.max_unpool1d(y[0, :, 0], i[0, :, 0] % 4, 2), ops.max_unpool3d(y[None], i[None], (1, 2, 2)),\n"
                              "          ops.max_unpool2d(y, i.astype(ms.int32), 2, 2, 0, (5, 5)), grad2(lambda a: ops.max_unpool2d(a, i, 2), y))"),
    "max_unpool_roundtrip": ("v, j = ops.max_pool2d(Tensor(np.random.randn(1, 2, 4, 6).astype(np.float32)), 2, return_indices=True)\n"
                             "result = ops.max_unpool2d(v, j, 2)"),
    "max_unpool_index_out_of_range": _U + "result = ops.max_unpool2d(y, i * 3, 2)",
    "max_unpool_float_indices": _U + "result = ops.max_unpool2d(y, i.astype(ms.float32), 2)",
    "MaxUnpool_primitives": _U + "result = (ops.MaxUnpool2D((2, 2), (2, 2))(y, i), ops.MaxUnpool2D(2, 2, output_shape=(1, 2, 5, 5))(y, i), ops.MaxUnpool3D((1, 2, 2), (1, 2, 2))(y[None], i[None]))",
    "nn_MaxUnpool": _U + "result = (nn.MaxUnpool2d(2)(y, i), nn.MaxUnpool1d(2)(y[0, :, 0], i[0, :, 0] % 4), nn.MaxUnpool3d((1, 2, 2))(y[None], i[None]), nn.MaxUnpool2d(2, 2)(y, i, (5, 5)))",
    "unpool_reprs": "print(nn.MaxUnpool1d(2), nn.MaxUnpool2d(2), nn.MaxUnpool3d(2))\nresult = None",
    "mint_max_unpool2d": _M + _U + "result = (mint.nn.functional.max_unpool2d(y, i, 2), mint.nn.MaxUnpool2d(2)(y, i))",
    # normalization and composed layers
    "lrn": ("x = Tensor(np.random.randn(2, 5, 2, 3).astype(np.float32))\n" + _G2 +
            "result = (ops.lrn(x), ops.lrn(x, 2, 1.5, 0.3, 0.75), ops.LRN(1, 2.0, 0.5, 0.6)(x), nn.LRN(1, 2.0, 0.5, 0.6)(x),\n"
            "          grad2(lambda a: ops.lrn(a, 2, 1.5, 0.3, 0.75), x))"),
    "lrn_bad_region": "result = ops.lrn(Tensor(np.ones((1, 2, 1, 1), np.float32)), 2, norm_region='WITHIN')",
    "lrn_rank_error": "result = ops.lrn(Tensor(np.ones((2, 1, 1), np.float32)), 2)",
    "lrn_int_error": "result = ops.lrn(Tensor([[[[1]]]]), 2)",
    "nn_BatchNorm3d": ("x = Tensor(np.random.randn(2, 3, 2, 3, 4).astype(np.float32))\nnet = nn.BatchNorm3d(3)\nnet.set_train()\n"
                       "y = net(x)\nnet.set_train(False)\n"
                       "result = (y, net(x), [(p.name, p.asnumpy()) for p in net.get_parameters()])"),
    "nn_BatchNorm3d_rank_error": "result = nn.BatchNorm3d(3)(Tensor(np.ones((2, 3, 2, 2), np.float32)))",
    "nn_ReduceLogSumExp": "x = Tensor(np.random.randn(3, 4, 5).astype(np.float32))\nresult = (nn.ReduceLogSumExp(1, keep_dims=True)(x), nn.ReduceLogSumExp((0, 2))(x))",
    "nn_ClipByNorm": ("x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))\n"
                      "result = (nn.ClipByNorm()(x, Tensor(2.0)), nn.ClipByNorm()(x, Tensor(100.0)), nn.ClipByNorm(0)(x[:1], Tensor(1.0)))"),
    "nn_ClipByNorm_axis": "x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))\nresult = nn.ClipByNorm(1)(x, Tensor(2.0))",
    "nn_CentralCrop": ("x = Tensor(np.arange(2 * 7 * 5, dtype=np.float32).reshape(2, 7, 5))\n"
                       "result = (nn.CentralCrop(0.6)(x), nn.CentralCrop(1.0)(x), nn.CentralCrop(0.5)(x[None]))"),
    "nn_CentralCrop_bad_fraction": "result = nn.CentralCrop(1.5)",
    "nn_ImageGradients": ("result = (nn.ImageGradients()(Tensor(np.arange(12, dtype=np.float32).reshape(1, 2, 2, 3) ** 2)),\n"
                          "          nn.ImageGradients()(Tensor(np.array([[[[1, 2], [3, 4]]]]), ms.int32)))"),
    "nn_ImageGradients_rank_error": "result = nn.ImageGradients()(Tensor(np.ones((1, 2, 3), np.float32)))",
    "nn_TimeDistributed": ("x = Tensor(np.random.randn(4, 5, 3).astype(np.float32))\nd = nn.Dense(3, 2, weight_init=Tensor(np.arange(6, dtype=np.float32).reshape(2, 3) / 5), bias_init='zeros')\n"
                           "result = (nn.TimeDistributed(d, 1, 0)(x), nn.TimeDistributed(d, 1)(x), nn.TimeDistributed(d, 0, 1)(x), nn.TimeDistributed(d, 0)(x))"),
    "nn_DenseBnAct": ("x = Tensor(np.random.randn(4, 3).astype(np.float32))\nw = Tensor(np.arange(12, dtype=np.float32).reshape(4, 3) / 7 - 0.5)\n"
                      "net = nn.DenseBnAct(3, 4, weight_init=w, has_bn=True, activation='relu')\nnet.set_train()\n"
                      "result = (net(x), nn.DenseBnAct(3, 4, weight_init=w, activation='leakyrelu', alpha=0.1)(x), nn.DenseBnAct(3, 4, weight_init=w)(x),\n"
                      "          [p.name for p in net.get_parameters()])"),
    "nn_Conv2dBnAct": ("x = Tensor(np.random.randn(2, 2, 4, 4).astype(np.float32))\nw = Tensor(np.random.randn(3, 2, 3, 3).astype(np.float32))\n"
                       "net = nn.Conv2dBnAct(2, 3, 3, weight_init=w, has_bn=True, activation='relu')\n"
                       "result = (net(x), nn.Conv2dBnAct(2, 3, 3, 2, 'valid', weight_init=w, activation='sigmoid')(x), [p.name for p in net.get_parameters()])"),
    "combined_reprs": "print(nn.LRN(), nn.ReduceLogSumExp(1), nn.ClipByNorm(), nn.CentralCrop(0.5), nn.ImageGradients())\nresult = None",
    "mint_nn_BatchNorm3d": _M + ("x = Tensor(np.random.randn(2, 3, 2, 3, 4).astype(np.float32))\nm = mint.nn.BatchNorm3d(3)\nm.set_train(True)\n"
                                 "result = m(x)"),
    "mint_nn_BatchNorm3d_params": _M + "m = mint.nn.BatchNorm3d(3)\nresult = ([(p.name, p.shape, p.requires_grad) for p in m.get_parameters()], m.training)",
    # fused Ascend ops (no CPU kernel in the wheel: recorded through their formulas)
    "swiglu": "x = Tensor(np.random.randn(3, 4).astype(np.float32))\nresult = (ops.swiglu(x), ops.swiglu(x[:2], 0))",
    "rms_norm": ("x = Tensor(np.random.randn(2, 3, 4).astype(np.float32))\ng = Tensor(np.random.randn(4).astype(np.float32))\n"
                 "result = (ops.rms_norm(x, g), ops.rms_norm(x, g, 1e-3))"),
    "add_rms_norm": ("x = Tensor(np.random.randn(2, 3, 4).astype(np.float32))\ny = Tensor(np.random.randn(2, 3, 4).astype(np.float32))\n"
                     "g = Tensor(np.random.randn(4).astype(np.float32))\nresult = ops.add_rms_norm(x, y, g)"),
    "add_layer_norm": ("x = Tensor(np.random.randn(2, 3, 4).astype(np.float32))\ny = Tensor(np.random.randn(2, 3, 4).astype(np.float32))\n"
                       "g = Tensor(np.random.randn(4).astype(np.float32))\nb = Tensor(np.random.randn(4).astype(np.float32))\n"
                       "result = ops.add_layer_norm(x, y, g, b, 1e-5, True)"),
    "rotary_position_embedding": ("x = Tensor(np.random.randn(1, 2, 3, 4).astype(np.float32))\n"
                                  "c = Tensor(np.random.randn(1, 1, 3, 4).astype(np.float32))\ns = Tensor(np.random.randn(1, 1, 3, 4).astype(np.float32))\n"
                                  "result = (ops.rotary_position_embedding(x, c, s), ops.rotary_position_embedding(x, c, s, 1))"),
    "adaptive_avg_pool2d_ext": "x = Tensor(np.random.randn(2, 3, 5, 7).astype(np.float32))\nresult = (ops.adaptive_avg_pool2d_ext(x, (2, 3)), ops.adaptive_avg_pool2d_ext(x[0], (None, 4)))",
    "mint_upsampling": _M + ("x = Tensor(np.arange(6, dtype=np.float32).reshape(1, 1, 2, 3))\n"
                             "result = (mint.nn.UpsamplingNearest2d((3, 5))(x), mint.nn.UpsamplingBilinear2d((3, 4))(x))"),
    "nn_InstanceNorm": ("x = Tensor(np.random.randn(2, 3, 4, 5).astype(np.float32))\n"
                        "g = Tensor(np.array([1.0, 2.0, 0.5], np.float32))\nb = Tensor(np.array([0.0, 1.0, -1.0], np.float32))\n"
                        "result = (nn.InstanceNorm2d(3, gamma_init=g, beta_init=b)(x), nn.InstanceNorm1d(3)(x[:, :, 0]),\n"
                        "          nn.InstanceNorm3d(3)(x[:, :, None]))"),
    "nn_InstanceNorm_params": ("net = nn.InstanceNorm2d(3)\nprint(net)\n"
                               "result = [(p.name, p.shape, p.requires_grad) for p in net.get_parameters()]"),
    "nn_InstanceNorm_rank_error": "result = nn.InstanceNorm2d(3)(Tensor(np.ones((2, 3, 4), np.float32)))",
    # resize primitives
    "resize_primitives": ("x = Tensor(np.random.randn(1, 2, 3, 5).astype(np.float32))\n"
                          "result = (ops.ResizeNearestNeighbor((2, 7))(x), ops.ResizeNearestNeighbor((5, 3), True)(x),\n"
                          "          ops.ResizeNearestNeighborV2()(x, Tensor([4, 4], ms.int32)), ops.ResizeNearestNeighborV2(False, True)(x, Tensor([4, 7], ms.int32)),\n"
                          "          ops.ResizeNearestNeighborV2(True, False)(x, Tensor([2, 8], ms.int32)), ops.ResizeBilinearV2()(x, (4, 7)),\n"
                          "          ops.ResizeBilinearV2(True)(x, (4, 7)), ops.ResizeBilinearV2(False, True)(x, (2, 8)),\n"
                          "          ops.ResizeLinear1D()(x[0], (7,)), ops.ResizeLinear1D('half_pixel')(x[0], (8,)))"),
    "resize_primitives_grad": ("x = Tensor(np.random.randn(1, 2, 3, 5).astype(np.float32))\n" + _G2 +
                               "result = (grad2(lambda a: ops.ResizeBilinearV2(False, True)(a, (4, 7)), x), grad2(lambda a: ops.ResizeNearestNeighbor((5, 8))(a), x))"),
    "ResizeLinear1D_asymmetric": "result = ops.ResizeLinear1D('asymmetric')(Tensor(np.ones((1, 2, 3), np.float32)), (5,))",
    "upsample_3d_primitives": ("v = Tensor(np.random.randn(1, 2, 2, 3, 4).astype(np.float32))\n"
                               "result = (ops.UpsampleNearest3D()(v, [3, 4, 5], None), ops.UpsampleNearest3D()(v, None, [1.5, 2.0, 0.5]),\n"
                               "          ops.UpsampleTrilinear3D()(v, [3, 5, 6], None), ops.UpsampleTrilinear3D(True)(v, [3, 5, 6], None))"),
    # sampling grids
    "grid_sample": ("x = Tensor(np.random.randn(2, 3, 4, 5).astype(np.float32))\ng = Tensor(np.random.uniform(-1.2, 1.2, (2, 3, 2, 2)).astype(np.float32))\n"
                    "result = [ops.grid_sample(x, g, m, p, a) for m in ('bilinear', 'nearest') for p in ('zeros', 'border', 'reflection')\n"
                    "          for a in (False, True)]"),
    "grid_sample_grad": ("x = Tensor(np.random.randn(2, 3, 4, 5).astype(np.float32))\ng = Tensor(np.random.uniform(-1.2, 1.2, (2, 3, 2, 2)).astype(np.float32))\n"
                         "f = lambda p, a: ms.grad(lambda u, v: (ops.grid_sample(u, v, 'bilinear', p, a) ** 2).sum(), (0, 1))(x, g)\n"
                         "result = [f(p, a) for p in ('zeros', 'border', 'reflection') for a in (False, True)]"),
    "affine_grid": ("th = Tensor(np.random.randn(2, 2, 3).astype(np.float32))\nth3 = Tensor(np.random.randn(2, 3, 4).astype(np.float32))\n"
                    "result = (ops.affine_grid(th, (2, 1, 3, 4), False), ops.affine_grid(th, (2, 1, 3, 4), True), ops.affine_grid(th3, (2, 1, 2, 3, 2), False),\n"
                    "          ops.AffineGrid(True)(th, (2, 3, 2, 5)), ms.grad(lambda t: (ops.affine_grid(t, (2, 1, 3, 4)) ** 2).sum())(th))"),
    "GridSampler2D": ("x = Tensor(np.random.randn(1, 2, 3, 4).astype(np.float32))\ng = Tensor(np.random.uniform(-1, 1, (1, 2, 3, 2)).astype(np.float32))\n"
                      "result = (ops.GridSampler2D()(x, g), ops.GridSampler2D('nearest', 'border', True)(x, g))"),
    "mint_grid_sample": _M + ("x = Tensor(np.random.randn(1, 2, 3, 4).astype(np.float32))\ng = Tensor(np.random.uniform(-1, 1, (1, 2, 3, 2)).astype(np.float32))\n"
                              "result = (mint.nn.functional.grid_sample(x, g), mint.nn.functional.grid_sample(x, g, 'nearest', 'reflection', True))"),
}

VIA = {}


def _via(case, *pairs):
    src = CASES[case]
    for old, new in pairs:
        assert old in src, (case, old)
        src = src.replace(old, new)
    VIA[case] = src


_via("mint_F_hardtanh", ("mint.nn.functional.hardtanh", "ops.hardtanh"))
_via("mint_F_hardtanh_", ("y = mint.nn.functional.hardtanh_(x)", "x = ops.hardtanh(x)\ny = x"))
_via("mint_F_threshold", ("mint.nn.functional.threshold", "ops.threshold"))
_via("mint_F_threshold_", ("y = mint.nn.functional.threshold_(x, 0.3, -1.0)", "x = ops.threshold(x, 0.3, -1.0)\ny = x"))
_via("mint_nn_Hardtanh", ("mint.nn.Hardtanh(-0.5, 0.5)", "nn.Hardtanh(-0.5, 0.5)"))
_via("mint_nn_Threshold", ("mint.nn.Threshold(0.3, 5.0)", "nn.Threshold(0.3, 5.0)"))
_via("mint_nn_pads", ("mint.nn.ConstantPad1d((1, 2), 0.5)", "nn.ConstantPad1d((1, 2), 0.5)"),
     ("mint.nn.ConstantPad2d(1, 2.0)", "nn.ConstantPad2d(1, 2.0)"),
     ("mint.nn.ConstantPad3d((1, 0, 0, 1, 1, 0), 1.0)", "nn.ConstantPad3d((1, 0, 0, 1, 1, 0), 1.0)"),
     ("mint.nn.ZeroPad1d(2)", "nn.ConstantPad1d(2, 0.0)"), ("mint.nn.ZeroPad2d((1, 0, 0, 1))", "nn.ZeroPad2d((1, 0, 0, 1))"),
     ("mint.nn.ZeroPad3d(1)", "nn.ConstantPad3d(1, 0.0)"))
_via("mint_nn_mirror_pads", ("mint.nn.ReflectionPad1d((2, 1))", "nn.ReflectionPad1d((2, 1))"),
     ("mint.nn.ReflectionPad2d(1)", "nn.ReflectionPad2d(1)"), ("mint.nn.ReflectionPad3d(1)", "nn.ReflectionPad3d(1)"),
     ("mint.nn.ReplicationPad1d((0, 2))", "nn.ReplicationPad1d((0, 2))"),
     ("mint.nn.ReplicationPad2d((1, 0, 2, 1))", "nn.ReplicationPad2d((1, 0, 2, 1))"),
     ("mint.nn.ReplicationPad3d(1)", "nn.ReplicationPad3d(1)"))
_via("nn_AvgPool3dExt", ("nn.AvgPool3dExt(2)(v)", "ops.avg_pool3d(v, 2, 2)"),
     ("nn.AvgPool3dExt(2, 1, 1, count_include_pad=False)(v)", "ops.avg_pool3d(v, 2, 1, 1, count_include_pad=False)"),
     ("nn.AvgPool3dExt((1, 2, 2), divisor_override=2)(v[0])", "ops.avg_pool3d(v, (1, 2, 2), (1, 2, 2), divisor_override=2)[0]"))
_via("mint_pool3d", ("mint.nn.functional.avg_pool3d(v, 2)", "ops.avg_pool3d(v, 2, 2)"),
     ("mint.nn.functional.avg_pool3d(v, 2, 1, 1, ceil_mode=True)", "ops.avg_pool3d(v, 2, 1, 1, ceil_mode=True)"),
     ("mint.nn.AvgPool3d(2, 2, 1, count_include_pad=False)(v)", "ops.avg_pool3d(v, 2, 2, 1, count_include_pad=False)"))
_via("mint_adaptive_pools", ("mint.nn.functional.adaptive_avg_pool3d(v, (1, 2, 3))", "ops.adaptive_avg_pool3d(v, (1, 2, 3))"),
     ("mint.nn.AdaptiveAvgPool3d(2)(v)", "ops.adaptive_avg_pool3d(v, 2)"),
     ("mint.nn.functional.adaptive_max_pool1d(v[0, 0, :, :, :4], 2)", "ops.adaptive_max_pool1d(v[0, 0, :, :, :4], 2)"),
     ("mint.nn.AdaptiveMaxPool1d(4)(v[0, 0, :, :, :4])", "ops.adaptive_max_pool1d(v[0, 0, :, :, :4], 4)"))
_via("mint_conv", ("mint.nn.functional.conv3d(x, w4, b, 1, 1)", "ops.conv3d(x, w4, b, 1, 'pad', 1)"),
     ("mint.nn.functional.conv3d(x, w, None, 2, 0, 1, 2)", "ops.conv3d(x, w, None, 2, 'valid', 0, 1, 2)"),
     ("mint.nn.functional.conv1d(x[:, :, 0, 0], w4[:, :, 0, 0], b, 1, 1)", "ops.conv1d(x[:, :, 0, 0], w4[:, :, 0, 0], b, 1, 'pad', 1)"))
_via("nn_Unfold", ("nn.Unfold([1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1])(x)",
                   "ops.unfold(x, 2).reshape(2, 3, 4, 3, 4).transpose(0, 2, 1, 3, 4).reshape(2, 12, 3, 4)"),
     ("nn.Unfold([1, 2, 3, 1], [1, 2, 1, 1], [1, 1, 2, 1], 'same')(x)",
      "ops.unfold(ops.pad(x, (2, 2, 0, 0)), (2, 3), (1, 2), 0, (2, 1)).reshape(2, 3, 6, 2, 5).transpose(0, 2, 1, 3, 4).reshape(2, 18, 2, 5)"))
_via("mint_unfold_fold", ("mint.nn.functional.unfold(x, 2, 1, 1, 2)", "ops.unfold(x, 2, 1, 1, 2)"),
     ("mint.nn.Unfold((2, 3))(x)", "ops.unfold(x, (2, 3))"),
     ("mint.nn.functional.fold(ops.unfold(x, 2), (4, 5), 2)", "ops.fold(ops.unfold(x, 2), Tensor([4, 5], ms.int32), 2)"),
     ("mint.nn.Fold((4, 5), 2, 1, 1, 1)(ops.unfold(x, 2, 1, 1, 1))", "ops.fold(ops.unfold(x, 2, 1, 1, 1), Tensor([4, 5], ms.int32), 2, 1, 1, 1)"))
_via("mint_max_unpool2d", ("mint.nn.functional.max_unpool2d(y, i, 2), mint.nn.MaxUnpool2d(2)(y, i)",
                           "ops.max_unpool2d(y, i, 2), nn.MaxUnpool2d(2)(y, i)"))
_via("mint_nn_BatchNorm3d", ("m = mint.nn.BatchNorm3d(3)", "m = nn.BatchNorm3d(3)"))
_via("swiglu", ("ops.swiglu(x), ops.swiglu(x[:2], 0)",
                "x[:, :2] * ops.sigmoid(x[:, :2]) * x[:, 2:], x[:1] * ops.sigmoid(x[:1]) * x[1:2]"))
_RMS = "(x * ops.rsqrt((x * x).mean(-1, keep_dims=True) + {e}) * g, ops.rsqrt((x * x).mean(-1, keep_dims=True) + {e}))"
_via("rms_norm", ("ops.rms_norm(x, g), ops.rms_norm(x, g, 1e-3)", _RMS.format(e="1e-6") + ", " + _RMS.format(e="1e-3")))
_via("add_rms_norm", ("result = ops.add_rms_norm(x, y, g)", "x = x + y\nresult = " + _RMS.format(e="1e-6")[:-1] + ", x)"))
_via("add_layer_norm", ("result = ops.add_layer_norm(x, y, g, b, 1e-5, True)",
                        "x = x + y\nm = x.mean(-1, keep_dims=True)\nr = ops.rsqrt(((x - m) ** 2).mean(-1, keep_dims=True) + 1e-5)\n"
                        "result = ((x - m) * r * g + b, m, r, x)"))
_via("rotary_position_embedding", ("(ops.rotary_position_embedding(x, c, s), ops.rotary_position_embedding(x, c, s, 1))",
                                   "(x * c + ops.cat((-x[..., 2:], x[..., :2]), -1) * s,\n"
                                   "          x * c + ops.stack((-x[..., 1::2], x[..., ::2]), -1).reshape(x.shape) * s)"))
_via("adaptive_avg_pool2d_ext", ("ops.adaptive_avg_pool2d_ext(x, (2, 3)), ops.adaptive_avg_pool2d_ext(x[0], (None, 4))",
                                 "ops.adaptive_avg_pool2d(x, (2, 3)), ops.adaptive_avg_pool2d(x[0], (None, 4))"))
_via("mint_upsampling", ("mint.nn.UpsamplingNearest2d((3, 5))(x)", "ops.interpolate(x, size=(3, 5), mode='nearest')"),
     ("mint.nn.UpsamplingBilinear2d((3, 4))(x)", "ops.interpolate(x, size=(3, 4), mode='bilinear', align_corners=True)"))
_IN = "((x - x.mean({a}, keep_dims=True)) * ops.rsqrt(((x - x.mean({a}, keep_dims=True)) ** 2).mean({a}, keep_dims=True) + 1e-5))"
_via("nn_InstanceNorm", ("result = (nn.InstanceNorm2d(3, gamma_init=g, beta_init=b)(x), nn.InstanceNorm1d(3)(x[:, :, 0]),\n"
                         "          nn.InstanceNorm3d(3)(x[:, :, None]))",
                         "y = " + _IN.format(a="(2, 3)") + " * g.reshape(1, 3, 1, 1) + b.reshape(1, 3, 1, 1)\n"
                         "x1 = x[:, :, 0]\ny1 = " + _IN.format(a="2").replace("x", "x1").replace("x1.mean", "x1.mean") + "\n"
                         "result = (y, y1, " + _IN.format(a="(2, 3)") + "[:, :, None])"))
_via("mint_dropout2d", ("mint.nn.functional.dropout2d(x, 0.5, training=False)", "ops.dropout2d(x, 0.5, training=False)"))

OPTIONS = {case: {"why": "the CPU wheel has no kernel for it: the answer is an equivalent program's, with ops or nn"}
           for case in VIA}
OPTIONS["nn_Unfold"] = {"why": "the CPU wheel has no ExtractImagePatches kernel: the equivalent is ops.unfold with the "
                               "columns regrouped as (patch row, patch column, channel), MindSpore's documented order"}
for _case in ("hardshrink_int_error", "softshrink_negative_lambd", "celu_alpha_zero", "celu_int_error", "glu_odd_error",
              "rrelu_bad_bounds", "nn_Softmax2d_rank_error", "nn_RReLU_bad_bounds", "nn_RReLU_bad_type",
              "nn_Hardtanh_bad_bounds", "nn_ConstantPad_bad_type", "nn_ConstantPad1d_bad_len", "nn_ConstantPad2d_odd_len",
              "nn_ConstantPad_bad_value", "nn_ConstantPad3d_rank_error", "nn_ReflectionPad_bad_type",
              "nn_ReflectionPad_odd_len", "nn_ReflectionPad_too_wide", "nn_ReflectionPad3d_rank_error",
              "nn_ReplicationPad1d_rank_error", "nn_ReplicationPad2d_rank_error", "nn_ReplicationPad3d_rank_error",
              "nn_Pad_bad_mode", "nn_Pad_list", "nn_Pad_rank_error", "nn_Pad_reflect_too_wide", "nn_Pad_symmetric_too_wide",
              "mint_pad_bad_padding", "mint_pad_bad_len", "mint_reflect_bad_len", "pixel_shuffle_bad_channels",
              "pixel_shuffle_rank_error", "pixel_unshuffle_bad_size", "nn_ChannelShuffle_bad_groups",
              "nn_ChannelShuffle_indivisible", "nn_Unflatten_bad_size", "dropout2d_bad_p", "dropout2d_rank_error",
              "dropout3d_rank_error", "nn_Dropout2d_bad_p", "avg_pool3d_rank_error", "avg_pool3d_int_error",
              "max_pool3d_rank_error", "adaptive_max_pool1d_indivisible", "nn_AdaptiveAvgPool1d_indivisible",
              "conv3d_bad_padding", "adaptive_max_pool1d_rank_error", "unfold_rank_error", "fold_tuple_size", "fold_blocks_mismatch", "fold_bad_shape",
              "max_unpool_index_out_of_range", "max_unpool_float_indices", "lrn_bad_region", "lrn_rank_error",
              "lrn_int_error", "nn_Conv1dTranspose_4d_weight", "nn_InstanceNorm_rank_error", "ResizeLinear1D_asymmetric", "nn_BatchNorm3d_rank_error", "nn_CentralCrop_bad_fraction", "nn_ImageGradients_rank_error"):
    OPTIONS[_case] = {"message": True}
OPTIONS["fast_gelu_int_error"] = {"message_parts": ["FastGeLU", "Int64"],
                                  "why": "mskernel's dtype check names the accepted dtypes as its float ops do"}
for _case in ("nn_activation_reprs", "pad_reprs", "mint_pad_reprs", "shuffle_reprs", "nn_channel_dropouts",
              "pool_more_reprs", "conv_nd_reprs", "unpool_reprs", "combined_reprs",
              "nn_InstanceNorm_params"):
    OPTIONS[_case] = {"stdout": True}
OPTIONS["nn_ClipByNorm_axis"] = {
    "differs": "with an axis, the wheel divides every row after the first by a norm mixing that row's first element with "
               "the first row's others; mskernel clips each row by its own L2 norm, as the layer documents",
    "oracle": ("x = np.arange(6, dtype=np.float32).reshape(2, 3)\n"
               "n = np.sqrt((x * x).sum(1, keepdims=True))\nresult = as_tensor((x * 2.0 / np.maximum(n, 2.0)).astype(np.float32))")}
for _case in ("conv3d", "Conv3D_primitive", "Conv3DTranspose_primitive", "nn_Conv3d", "nn_Conv3dTranspose", "mint_conv",
              "Conv2DBackpropInput", "nn_Conv1dTranspose"):
    OPTIONS[_case] = {**OPTIONS.get(_case, {}), "rtol": 1e-4, "atol": 1e-4}  # float32 sums of many products, another order
