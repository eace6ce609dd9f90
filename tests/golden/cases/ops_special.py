"""Special functions and elementwise math helpers (table modules special.py, numeric.py, complex.py): values,
gradients, dtypes, primitive and Tensor-method forms, aliases, errors."""
_P = "x = Tensor(np.array([[0.3, 0.7, 1.2], [2.5, 1.9, 0.05]], np.float32))\n"   # positive
_X = "x = Tensor(np.array([[0.3, -0.7, 1.2], [2.5, -1.9, 0.05]], np.float32))\n"
_Y = "y = Tensor(np.array([[1.5, 2.0, -0.5], [0.25, 3.0, -1.5]], np.float32))\n"
_U = "x = Tensor(np.array([[0.3, -0.7, 0.2], [0.5, -0.9, 0.05]], np.float32))\n"  # inside (-1, 1)
_Z = "z = Tensor(np.array([[3 + 4j, -1 + 1j, 0], [2.5 - 0.5j, -3j, 1.5]], np.complex64))\n"
_M = "from mindspore import mint\n"
_I = "a = Tensor(np.array([7, -8, 9, 0, 12], np.int32))\nb = Tensor(np.array([14, 6, -12, 5, 0], np.int32))\n"

BESSEL = {"bessel_i0": ("BesselI0", _X), "bessel_i0e": ("BesselI0e", _X), "bessel_i1": ("BesselI1", _X),
          "bessel_i1e": ("BesselI1e", _X), "bessel_j0": ("BesselJ0", _X), "bessel_j1": ("BesselJ1", _X),
          "bessel_y0": ("BesselY0", _P), "bessel_y1": ("BesselY1", _P), "bessel_k0": ("BesselK0", _P),
          "bessel_k0e": ("BesselK0e", _P), "bessel_k1": ("BesselK1", _P), "bessel_k1e": ("BesselK1e", _P)}

CASES = {}
for name, (prim, data) in BESSEL.items():
    CASES[f"{name}_value"] = data + f"result = (ops.{name}(x), ops.{prim}()(x))"
    CASES[f"{name}_grad"] = data + f"result = ms.grad(lambda a: ops.{name}(a).sum())(x)"
    CASES[f"{name}_float64"] = data + f"result = ops.{name}(x.astype(ms.float64))"
    CASES[f"{name}_float16"] = data + f"result = ops.{name}(x.astype(ms.float16))"
CASES.update({
    "bessel_i0_int_error": "result = ops.bessel_i0(Tensor(np.array([1, 2], np.int32)))",
    "bessel_k1e_int_error": "result = ops.bessel_k1e(Tensor(np.array([1, 2], np.int32)))",
    "bessel_grad_at_zero": "x = Tensor(np.array([0.0, 1.0], np.float32))\n"
                           "result = (ms.grad(lambda a: ops.bessel_i1(a).sum())(x), "
                           "ms.grad(lambda a: ops.bessel_j1(a).sum())(x), ms.grad(lambda a: ops.bessel_i1e(a).sum())(x))",
    "i0": _X + "result = (ops.i0(x), x.i0())",
    # gamma family
    "digamma": _X + "result = (ops.digamma(x), ops.Digamma()(x), x.digamma())",
    "digamma_grad": _P + "result = ms.grad(lambda a: ops.digamma(a).sum())(x)",
    "digamma_float16": "result = ops.Digamma()(Tensor(np.array([1.5, 0.5, 9]).astype(np.float16)))",
    "digamma_int_error": "result = ops.digamma(Tensor(np.array([1, 2], np.int32)))",
    "lgamma": _X + "result = (ops.lgamma(x), ops.Lgamma()(x), x.lgamma())",
    "lgamma_grad": _X + "result = ms.grad(lambda a: ops.lgamma(a).sum())(x)",
    "lgamma_int": "result = ops.lgamma(Tensor(np.array([1, 2, 5], np.int32)))",
    "polygamma": _X + "result = tuple(ops.polygamma(Tensor(n), x) for n in (0, 1, 2, 3))",
    "polygamma_prim": _P + "result = ops.Polygamma()(Tensor(np.array(2), ms.int64), x.astype(ms.float64))",
    "polygamma_grad": _P + "result = ms.grad(lambda a: ops.polygamma(Tensor(1), a).sum())(x)",
    "igamma": _P + "y = Tensor(np.array([[1.5, 2.0, 0.5], [0.25, 3.0, 1.5]], np.float32))\n"
                   "result = (ops.igamma(x, y), ops.Igamma()(x, y), x.igamma(y), ops.igammac(x, y), "
                   "ops.Igammac()(x, y), x.igammac(y))",
    "igamma_grad": _P + "y = Tensor(np.array([[1.5, 2.0, 0.5], [0.25, 3.0, 1.5]], np.float32))\n"
                        "result = (ms.grad(lambda a, b: ops.igamma(a, b).sum(), (0, 1))(x, y), "
                        "ms.grad(lambda a, b: ops.igammac(a, b).sum(), (0, 1))(x, y))",
    "igamma_dtype_error": "result = ops.igamma(Tensor(np.array([1.0], np.float32)), Tensor(np.array([1.0])))",
    "igamma_int_error": "result = ops.igamma(Tensor(np.array([1, 2], np.int32)), Tensor(np.array([1, 2], np.int32)))",
    "zeta": _P + "q = Tensor(np.array([[1.0, 2.0, 0.5], [3.0, 0.7, 1.1]], np.float32))\n"
                 "result = (ops.zeta(x + 1.5, q), ops.Zeta()(x + 1.5, q))",
    "zeta_broadcast": _P + "q = Tensor(np.array([1.0, 2.0, 0.5], np.float32))\nresult = ops.zeta(x + 1.5, q)",
    "zeta_shape_error": _P + "q = Tensor(np.array([1.0, 2.0, 0.5], np.float32))\nresult = ops.Zeta()(x + 1.5, q)",
    "zeta_grad": _P + "q = Tensor(np.array([[1.0, 2.0, 0.5], [3.0, 0.7, 1.1]], np.float32))\n"
                      "result = ms.grad(lambda a, b: ops.zeta(a, b).sum(), (0, 1))(x + 1.5, q)",
    "mvlgamma": _P + "result = (ops.mvlgamma(x + 2, 3), ops.Mvlgamma(p=2)(x + 1), (x + 1).mvlgamma(1))",
    "mvlgamma_grad": _P + "result = ms.grad(lambda a: ops.mvlgamma(a, 3).sum())(x + 2)",
    "mvlgamma_domain_error": "result = ops.mvlgamma(Tensor(np.array([0.5, 3.0], np.float32)), 3)",
    "sinc": _X + "result = (ops.sinc(x), x.sinc(), ops.sinc(Tensor(np.array([0.0, 1.0, 2.0], np.float32))))",
    "sinc_int": "result = ops.sinc(Tensor(np.array([0, 1, 2], np.int32)))",
    "sinc_grad": "x = Tensor(np.array([0.0, 0.3, -0.7, 1.5], np.float32))\n"
                 "result = ms.grad(lambda a: ops.sinc(a).sum())(x)",
    "betainc": "a = Tensor(np.array([0.3, 0.1, 0.4], np.float32))\nb = Tensor(np.array([0.4, 0.5, 0.9], np.float32))\n"
               "x = Tensor(np.array([0.2, 0.6, 0.5], np.float32))\nresult = ops.Betainc()(a, b, x)",
    "betainc_grad": "a = Tensor(np.array([1.3, 2.1, 0.4], np.float32))\n"
                    "b = Tensor(np.array([0.4, 1.5, 0.9], np.float32))\n"
                    "x = Tensor(np.array([0.2, 0.6, 0.5], np.float32))\n"
                    "result = ms.grad(lambda c: ops.Betainc()(a, b, c).sum())(x)",
    # integers and bits
    "gcd_lcm": _I + "result = (ops.gcd(a, b), ops.lcm(a, b), ops.Lcm()(a, b), a.gcd(b), a.lcm(b))",
    "gcd_int16": "result = ops.gcd(Tensor(np.array([4, 6], np.int16)), Tensor(np.array([6, 9], np.int16)))",
    "lcm_float_error": "result = ops.lcm(Tensor(np.array([4.0], np.float32)), Tensor(np.array([6.0], np.float32)))",
    "shifts": "x = Tensor(np.array([1, 2, -4, 8], np.int32))\n"
              "s = Tensor(np.array([0, 1, 2, 3], np.int32))\n"
              "result = (ops.bitwise_left_shift(x, s), ops.bitwise_right_shift(x, s), ops.bitwise_left_shift(x, 1), "
              "x.bitwise_left_shift(s), x.bitwise_right_shift(1), "
              "ops.LeftShift()(x, s), ops.RightShift()(x, s))",
    "shift_prims_int8": "x = Tensor(np.array([1, 2, 3], np.int8))\ny = Tensor(np.array([0, 1, -1], np.int8))\n"
                        "result = (ops.LeftShift()(x, y), ops.RightShift()(x, y))",
    "population_count": "result = (ops.population_count(Tensor(np.array([0, 1, 3, -1, 255], np.int16))), "
                        "ops.PopulationCount()(Tensor(np.array([7, -1], np.int64))), "
                        "ops.population_count(Tensor(np.array([7, 200], np.uint8))))",
    "invert": "x = Tensor(np.array([25, 4, 13, 9], np.int16))\nresult = (ops.invert(x), x.invert())",
    "inv": _X + "result = (ops.inv(x), ops.Inv()(x), x.inv(), ops.inv(Tensor(np.array([1, 2, -1], np.int32))))",
    "inv_grad": _X + "result = ms.grad(lambda a: ops.inv(a).sum())(x)",
    # floating-point helpers
    "ldexp": _X + "e = Tensor(np.array([1, -2, 3], np.int32))\n"
                  "result = (ops.ldexp(x, e), x.ldexp(e), ops.ldexp(Tensor(np.array([1, 2], np.int32)), "
                  "Tensor(np.array([3, 4], np.int32))))",
    "ldexp_grad": _X + "e = Tensor(np.array([1.0, -2.0, 3.0], np.float32))\n"
                       "result = ms.grad(lambda a, b: ops.ldexp(a, b).sum(), (0, 1))(x, e)",
    "copysign": _X + _Y + "result = (ops.copysign(x, y), ops.copysign(x, -2), x.copysign(y), "
                          "ops.copysign(Tensor(np.array([1, -2], np.int32)), Tensor(np.array([-1, 1], np.int32))), "
                          "ops.copysign(x, y.astype(ms.float64)))",
    "copysign_grad": _X + _Y + "result = ms.grad(lambda a: ops.copysign(a, y).sum())(x)",
    "nextafter": _X + _Y + "result = (ops.nextafter(x, y), ops.NextAfter()(x, y), x.nextafter(y))",
    "nextafter_int_error": "result = ops.nextafter(Tensor(np.array([1, 2], np.int32)), "
                           "Tensor(np.array([1, 2], np.int32)))",
    "heaviside": "x = Tensor(np.array([[-2.0, 0, 3], [5, -1, 0]], np.float32))\n"
                 "v = Tensor(np.array([2, 0.5, 1], np.float32))\n"
                 "result = (ops.heaviside(x, v), ops.Heaviside()(x, v), x.heaviside(v), "
                 "ops.heaviside(Tensor(np.array([-1, 0, 2], np.int32)), Tensor(np.array([7], np.int32))))",
    "heaviside_dtype_error": "result = ops.heaviside(Tensor(np.array([1.0], np.float32)), Tensor(np.array([1.0])))",
    "fmax": _X + "y = Tensor(np.array([[1.5, np.nan, -0.5], [np.nan, 3.0, -1.5]], np.float32))\n"
                 "result = (ops.fmax(x, y), ops.Fmax()(x, y), x.fmax(y), "
                 "ops.fmax(Tensor(np.array([1, 5], np.int32)), Tensor(np.array([4, 2], np.int64))))",
    "fmax_grad": _X + _Y + "result = ms.grad(lambda a, b: ops.fmax(a, b).sum(), (0, 1))(x, y)",
    "float_power": _X + _Y + "result = (ops.float_power(x, 2), ops.float_power(ops.abs(x), y), "
                             "x.float_power(Tensor(np.array([2, 3, 1], np.int32))), "
                             "ops.float_power(Tensor(np.array([1, 2, 3])), Tensor(np.array([2, -3, -4]))))",
    "float_power_grad": _P + _Y + "result = ms.grad(lambda a, b: ops.float_power(a, b).sum(), (0, 1))(x, y)",
    "xdivy": _X + _Y + "result = (ops.xdivy(x * (x > 0), y), ops.Xdivy()(x, y), x.xdivy(y))",
    "xdivy_grad": _X + _Y + "result = ms.grad(lambda a, b: ops.xdivy(a, b).sum(), (0, 1))(x * (x > 0), y)",
    "xdivy_int_error": "result = ops.xdivy(Tensor(np.array([1, 2], np.int32)), Tensor(np.array([1, 2], np.int32)))",
    "truncate": _X + _Y + _I + "result = (ops.truncate_div(x, y), ops.truncate_mod(x, y), "
                               "ops.TruncateDiv()(a, b + (b == 0)), ops.TruncateMod()(a, b + (b == 0)), "
                               "ops.truncate_div(a, 3), ops.truncate_mod(a, -3))",
    "floor_mod_div": _X + _Y + _I + "result = (ops.floor_mod(x, y), ops.floormod(x, y), ops.floor_div(x, y), "
                                    "ops.floordiv(x, y), ops.floor_mod(a, 5), ops.floor_div(a, -5))",
    "mod_prim": "x = Tensor(np.array([-4.0, 5.0, 6.0], np.float32))\ny = Tensor(np.array([3.0, 2.0, 3.0], np.float32))\n"
                "result = ops.Mod()(x, y)",
    "deg_rad": _X + "result = (ops.deg2rad(x), ops.rad2deg(x), x.deg2rad(), x.rad2deg())",
    "deg_rad_grad": _X + "result = (ms.grad(lambda a: ops.deg2rad(a).sum())(x), "
                         "ms.grad(lambda a: ops.rad2deg(a).sum())(x))",
    "deg2rad_int_error": "result = ops.deg2rad(Tensor(np.array([1, 2], np.int32)))",
    "inf_tests": "x = Tensor(np.array([-1, 3, np.inf, -np.inf, np.nan], np.float32))\n"
                 "result = (ops.isneginf(x), ops.isposinf(x), x.isneginf(), x.isposinf(), ops.isnan_ext(x))",
    "logcumsumexp": "x = Tensor(np.array([[9., 3, 4, 5], [5, 2, 7, 4], [8, 1, 3, 6]], np.float32))\n"
                    "result = (ops.logcumsumexp(x, 0), ops.logcumsumexp(x, 1), x.logcumsumexp(-1))",
    "logcumsumexp_grad": _X + "result = (ms.grad(lambda a: ops.logcumsumexp(a, 1).sum())(x), "
                              "ms.grad(lambda a: (ops.logcumsumexp(a, 0) * a).sum())(x))",
    "approximate_equal": _X + "result = (ops.approximate_equal(x, x + 1e-6), ops.ApproximateEqual(0.5)(x, x + 0.4), "
                              "x.approximate_equal(x + 0.1, 0.2))",
    "approximate_equal_shape_error": _X + "result = ops.approximate_equal(x, x[0])",
    "div_mul_no_nan": "x = Tensor(np.array([[-1.0, 6.0, np.inf], [np.nan, -7.0, 4.0]], np.float32))\n"
                      "y = Tensor(np.array([[-1.0, 4.0, 0], [0, -3.0, 1.0]], np.float32))\n"
                      "result = (ops.DivNoNan()(x, y), ops.MulNoNan()(x, y), ops.MulNoNan()(y, x))",
    "div_mul_no_nan_grad": _X + _Y + "z = y * (y > 0)\n"
                                     "result = (ms.grad(lambda a, b: ops.DivNoNan()(a, b).sum(), (0, 1))(x, z), "
                                     "ms.grad(lambda a, b: ops.MulNoNan()(a, b).sum(), (0, 1))(x, z))",
    "rint": "x = Tensor(np.array([-1.6, -0.5, 0.5, 1.5, 2.5, 2.0], np.float32))\nresult = ops.Rint()(x)",
    "positive_negative": _X + "result = (ops.positive(x), x.positive(), x.negative(), "
                              "ops.positive(Tensor(np.array([1, -2], np.int32))))",
    "sgn_real": _X + "result = (ops.sgn(x), x.sgn(), ops.sgn(Tensor(np.array([3, 0, -2], np.int32))))",
    # aliases and primitive forms of existing ops
    "tensor_aliases": _X + _Y + "result = (ops.tensor_add(x, y), ops.tensor_sub(x, y), ops.tensor_mul(x, y), "
                                "ops.tensor_div(x, y), ops.tensor_mod(x, y), ops.tensor_pow(ops.abs(x), y), "
                                "ops.tensor_exp(x), ops.tensor_expm1(x), ops.tensor_floordiv(x, y), "
                                "ops.tensor_gt(x, y), ops.tensor_lt(x, y), ops.tensor_ge(x, y), ops.tensor_le(x, y), "
                                "ops.tensor_muls(x, 2.0))",
    "prim_aliases": _X + _Y + "result = (ops.TensorAdd()(x, y), ops.Hypot()(x, y))",
    "method_aliases": _X + _Y + "u = x / 3\n"
                                "result = (x.absolute(), u.arccos(), u.arcsin(), x.arctan(), x.arcsinh(), "
                                "(ops.abs(x) + 1).arccosh(), u.arctanh(), x.arctan2(y), x.divide(y), x.multiply(y), "
                                "x.subtract(y), x.eq(y), x.ne(y), x.lt(y), x.le(y), x.gt(y), x.ge(y))",
    # complex numbers
    "complex_parts": _Z + "result = (ops.real(z), ops.imag(z), ops.conj(z), ops.angle(z), ops.Imag()(z), "
                          "ops.Real()(z), ops.Conj()(z), ops.Angle()(z), z.real(), z.imag(), z.conj(), z.angle(), "
                          "ops.ComplexAbs()(z), ops.view_as_real(z), ops.isreal(z), z.isreal(), ops.sgn(z))",
    "complex_parts_float64": _Z + "z = z.astype(ms.complex128)\n"
                                  "result = (ops.real(z), ops.imag(z), ops.angle(z), ops.ComplexAbs()(z))",
    "complex_from_parts": _X + _Y + "result = (ops.Complex()(x, y), ops.polar(ops.abs(x), y), ops.Polar()(x, y), "
                                    "ops.Complex()(x.astype(ms.float64), y.astype(ms.float64)))",
    "is_complex": _Z + _X + "result = (ops.is_complex(z), ops.is_complex(x), z.is_complex(), x.is_complex())",
    "real_of_real": _X + "i = Tensor(np.array([1, -2], np.int32))\n"
                         "result = (ops.real(x), ops.imag(x), ops.conj(x), ops.imag(i), ops.conj(i), ops.isreal(x))",
    "real_grad": _X + "result = ms.grad(lambda a: (ops.real(a) * 2).sum())(x)",
    "polar_grad": _P + _Y + "result = ms.grad(lambda a, b: (ops.real(ops.polar(a, b)) + 2 * ops.imag(ops.polar(a, b)))"
                            ".sum(), (0, 1))(x, y)",
    "polar_dtype_error": _X + "result = ops.polar(x, x.astype(ms.float64))",
    "complex_dtype_error": _X + "result = ops.Complex()(x.astype(ms.float16), x.astype(ms.float16))",
    "view_as_real_float": _X + "result = ops.view_as_real(x)",
    "sgn_bool_error": "result = ops.sgn(Tensor(np.array([True, False])))",
    "isposinf_int_error": "result = ops.isposinf(Tensor(np.array([1, 2], np.int32)))",
    # nn layers and mint front ends
    "nn_math": _P + _Y + "y = ops.abs(y) + 0.5\n"
                         "result = (nn.DiGamma()(x), nn.LGamma()(x), nn.IGamma()(x, y), nn.LBeta()(x, y))",
    "nn_math_grad": _P + "result = (ms.grad(lambda a: nn.DiGamma()(a).sum())(x), "
                         "ms.grad(lambda a: nn.LGamma()(a).sum())(x))",
    "mint_fronts": _M + _X + _Y + _I + "result = (mint.gcd(a, b), mint.sinc(x), mint.special.sinc(x), "
                                  "mint.float_power(x, 2), mint.polar(ops.abs(x), y))",
    "mint_isneginf": _M + _X + "result = mint.isneginf(x / 0)",
    "mint_real_imag": _M + _Z + "result = (mint.real(z), mint.imag(z))",
    # in-place methods
    "inplace_remainder": "x = Tensor(np.array([2, 4, -1], np.int32))\nr = x.remainder_(Tensor(np.array([3, -6, -2], "
                         "np.int32)))\nresult = (r, x)",
    "inplace_floor_divide": "x = Tensor(np.array([2, 4, -1], np.int32))\n"
                            "r = x.floor_divide_(Tensor(np.array([3, 3, 3], np.int32)))\nresult = (r, x)",
    "inplace_unary": _U + "result = tuple(getattr(x.copy(), m)() for m in ('floor_', 'sigmoid_', 'tanh_', 'sign_'))",
    "inplace_erfinv": _U + "r = x.erfinv_()\nresult = (r, x)",
    "inplace_log": _P + "r = x.log_()\nresult = (r, x)",
    # more dtype rules and errors
    "functional_inplace": _U + "r = ops.tanh_(x)\nresult = (r, x)",
    "functional_inplace_erfinv": _U + "r = ops.erfinv_(x)\nresult = (r, x)",
    "lgamma_bool_error": "result = ops.lgamma(Tensor(np.array([True, False])))",
    "sinc_bool": "result = ops.sinc(Tensor(np.array([True, False])))",
    "population_count_float_error": "result = ops.population_count(Tensor(np.array([1.0], np.float32)))",
    "invert_float_error": "result = ops.invert(Tensor(np.array([1.0], np.float32)))",
    "inv_bool_error": "result = ops.inv(Tensor(np.array([True, False])))",
    "conj_bool_error": "result = ops.conj(Tensor(np.array([True, False])))",
    "approximate_equal_int_error": "result = ops.approximate_equal(Tensor(np.array([1, 2], np.int32)), "
                                   "Tensor(np.array([1, 2], np.int32)))",
    "shift_dtype_error": "result = ops.bitwise_left_shift(Tensor(np.array([1, 2], np.int64)), "
                         "Tensor(np.array([1, 2], np.int32)))",
    "shift_float_error": "result = ops.bitwise_left_shift(Tensor(np.array([1.0], np.float32)), 1)",
    "shift_float_count_error": "result = ops.bitwise_right_shift(Tensor(np.array([1, 2], np.int32)), 1.5)",
    "mvlgamma_p_error": _P + "result = ops.mvlgamma(x + 2, 0)",
    "logcumsumexp_int_error": "result = ops.logcumsumexp(Tensor(np.array([1, 2], np.int32)), 0)",
    "logcumsumexp_float64": _X + "result = ops.logcumsumexp(x.astype(ms.float64), 0)",
    "igamma_float64": _P + "y = Tensor(np.array([[1.5, 2.0, 0.5], [0.25, 3.0, 1.5]], np.float64))\n"
                           "result = (ops.igamma(x.astype(ms.float64), y), ops.igammac(x.astype(ms.float64), y))",
    "polygamma_float_n_error": _P + "result = ops.polygamma(Tensor(np.array(1.0, np.float32)), x)",
    "gcd_broadcast": "result = ops.gcd(Tensor(np.array([[4], [6]], np.int32)), Tensor(np.array([6, 9, 15], np.int32)))",
    "copysign_float64_first": _X + _Y + "result = ops.copysign(x.astype(ms.float64), y)",
    "heaviside_float64": _X + "result = ops.heaviside(x.astype(ms.float64), Tensor(np.array(0.5)))",
    "fmin_values": _X + "y = Tensor(np.array([[1.5, np.nan, -0.5], [np.nan, 3.0, -1.5]], np.float32))\n"
                        "result = (ops.fmin(x, y), ops.Fmin()(x, y), x.fmin(y))",
})

OPTIONS = {
    "bessel_k1_float16": {"rtol": 2e-3}, "bessel_k0_float16": {"rtol": 2e-3}, "bessel_k1e_float16": {"rtol": 2e-3},
    "bessel_k0e_float16": {"rtol": 2e-3}, "bessel_y0_float16": {"rtol": 2e-3}, "bessel_y1_float16": {"rtol": 2e-3},
    "bessel_i0_float16": {"rtol": 2e-3}, "bessel_i0e_float16": {"rtol": 2e-3}, "bessel_i1_float16": {"rtol": 2e-3},
    "bessel_i1e_float16": {"rtol": 2e-3}, "bessel_j0_float16": {"rtol": 2e-3}, "bessel_j1_float16": {"rtol": 2e-3},
    "igamma": {"rtol": 1e-4}, "igamma_grad": {"rtol": 1e-3}, "zeta_grad": {"rtol": 1e-4},
    "betainc": {"rtol": 1e-4}, "betainc_grad": {"rtol": 1e-4}, "polygamma": {"rtol": 1e-4},
}
for _case in ("bessel_i0_int_error", "bessel_k1e_int_error", "digamma_int_error", "igamma_dtype_error",
              "igamma_int_error", "lcm_float_error", "nextafter_int_error", "heaviside_dtype_error", "xdivy_int_error",
              "deg2rad_int_error", "approximate_equal_shape_error", "mvlgamma_domain_error",
              "zeta_shape_error", "polar_dtype_error", "complex_dtype_error", "view_as_real_float",
              "lgamma_bool_error", "population_count_float_error", "invert_float_error",
              "conj_bool_error", "approximate_equal_int_error", "shift_dtype_error", "shift_float_error",
              "shift_float_count_error", "mvlgamma_p_error", "logcumsumexp_int_error", "polygamma_float_n_error"):
    OPTIONS.setdefault(_case, {})["message"] = True

_KERNELS = "the wheel goes on to list its CPU kernels' dtype signatures in the print form of its C++ vectors"
OPTIONS["sgn_bool_error"] = {"message_parts": ["Select CPU operator[Sign] fail! Unsupported data type!"],
                             "why": _KERNELS}
OPTIONS["inv_bool_error"] = {"message_parts": ["Select CPU operator[Inv] fail! Unsupported data type!"],
                             "why": _KERNELS + " and a graph node with internal ids"}
OPTIONS["isposinf_int_error"] = {"message_parts": ["Select CPU operator[IsInf] fail! Unsupported data type!"],
                                 "why": _KERNELS}

# In-place methods: MindSpore 2.10's CPU wheel has no kernel for InplaceFloor, InplaceSigmoid, InplaceTanh,
# InplaceSign, InplaceLog, InplaceErfinv, and its remainder_/floor_divide_ return the result without writing it
# into the tensor (as its add_, see ops_elementwise); mskernel updates the tensor in place, as MindSpore documents.
_INPLACE = ("MindSpore 2.10's CPU wheel has no kernel for it, or returns the result and leaves the tensor unchanged; "
            "mskernel writes the result into the tensor, as MindSpore documents the in-place methods")
_UO = "x = Tensor(np.array([[0.3, -0.7, 0.2], [0.5, -0.9, 0.05]], np.float32))\n"
OPTIONS["inplace_unary"] = {"differs": _INPLACE, "oracle": _UO + (
    "result = tuple(as_tensor(v.astype(np.float32)) for v in (np.floor(x), 1 / (1 + np.exp(-x)), np.tanh(x), "
    "np.sign(x)))")}
OPTIONS["inplace_log"] = {"differs": _INPLACE, "oracle": (
    "x = Tensor(np.array([[0.3, 0.7, 1.2], [2.5, 1.9, 0.05]], np.float32))\nr = np.log(x)\n"
    "result = (as_tensor(r), as_tensor(r))")}
OPTIONS["inplace_erfinv"] = {"differs": _INPLACE, "oracle": _UO + (
    "erf = np.vectorize(math.erf)\nr = np.zeros_like(x, dtype=np.float64)\n"
    "for _ in range(60):\n    r = r - (erf(r) - x) / (2 / math.sqrt(math.pi) * np.exp(-r * r))\n"
    "result = (as_tensor(r.astype(np.float32)), as_tensor(r.astype(np.float32)))")}
OPTIONS["inplace_remainder"] = {"differs": _INPLACE, "oracle": (
    "r = np.mod(np.array([2, 4, -1], np.int32), np.array([3, -6, -2], np.int32))\n"
    "result = (as_tensor(r), as_tensor(r))")}
OPTIONS["inplace_floor_divide"] = {"differs": _INPLACE, "oracle": (
    "r = np.floor_divide(np.array([2, 4, -1], np.int32), np.array([3, 3, 3], np.int32))\n"
    "result = (as_tensor(r), as_tensor(r))")}

# MindSpore 2.10 gives a real input's gradient through ops.real as Complex64 (2+0j); mskernel's engine gives each
# input's gradient in the input's own dtype, the real 2.
OPTIONS["real_grad"] = {"differs": "MindSpore 2.10 returns a Complex64 gradient for a Float32 input of ops.real; "
                                   "mskernel returns it in the input's dtype",
                        "oracle": "result = as_tensor(np.full((2, 3), 2.0, np.float32))"}

# The CPU wheel has no kernel for mint.isneginf ("The kernel IsNegInf unregistered"): its answer is ops.isneginf's.
VIA = {"mint_isneginf": CASES["mint_isneginf"].replace("mint.isneginf", "ops.isneginf")}
OPTIONS["mint_isneginf"] = {"why": "the CPU wheel has no kernel for mint.isneginf; the answer is ops.isneginf's"}
# The CPU wheel has no Fmin kernel ("Unsupported op [Fmin] on CPU"): its answer is -fmax(-x, -y).
VIA["fmin_values"] = CASES["fmin_values"].replace("ops.fmin(x, y)", "-ops.fmax(-x, -y)").replace(
    "ops.Fmin()(x, y)", "-ops.Fmax()(-x, -y)").replace("x.fmin(y)", "-ops.fmax(-x, -y)")
OPTIONS["fmin_values"] = {"why": "the CPU wheel has no kernel for Fmin; the answer is -fmax(-x, -y)'s"}
OPTIONS["functional_inplace"] = {"differs": _INPLACE, "oracle": _UO + "r = np.tanh(x)\nresult = (as_tensor(r), "
                                                                      "as_tensor(r))"}
OPTIONS["functional_inplace_erfinv"] = {"differs": _INPLACE, "oracle": OPTIONS["inplace_erfinv"]["oracle"]}
