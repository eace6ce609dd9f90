"""Fourier transforms and windows (ops/table/fft.py): values, dtypes, n/s/dim/norm, gradients, primitives,
errors. All of these are deterministic, so the wheel's values are the oracle."""
_X = "x = Tensor(np.array([1.0, 2.0, -1.0, 0.5], np.float32))\n"
_C = "x = Tensor(np.array([1 + 2j, -0.5 + 1j, 3 - 1j, 0.25 + 0j], np.complex64))\n"
_M = "x = Tensor(np.arange(12, dtype=np.float32).reshape(3, 4) * 0.5 - 1.0)\n"
_B = "x = Tensor(np.sin(np.arange(24, dtype=np.float32)).reshape(2, 3, 4))\n"

ONE_D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
CASES = {}
for name in ONE_D:
    CASES[f"{name}_value"] = _X + f"result = ops.{name}(x)"
    CASES[f"{name}_n_pad"] = _X + f"result = ops.{name}(x, n=6)"
    CASES[f"{name}_n_crop"] = _X + f"result = ops.{name}(x, n=3, norm='ortho')"
    CASES[f"{name}_forward_norm"] = _M + f"result = ops.{name}(x, dim=0, norm='forward')"
    CASES[f"{name}_float64"] = f"result = ops.{name}(Tensor(np.array([1.0, 2.0, -1.0, 0.5])))"
    CASES[f"{name}_int"] = f"result = ops.{name}(Tensor(np.array([1, 2, -1, 0], np.int32)))"
    CASES[f"{name}2_value"] = _B + f"result = ops.{name}2(x)"
    CASES[f"{name}2_s_dim"] = _B + f"result = ops.{name}2(x, s=(3, 5), dim=(0, 2), norm='ortho')"
    CASES[f"{name}n_value"] = _B + f"result = ops.{name}n(x)"
    CASES[f"{name}n_s"] = _B + f"result = ops.{name}n(x, s=(2, 3), norm='forward')"
    if name not in ("rfft", "ihfft"):
        CASES[f"{name}_complex"] = _C + f"result = ops.{name}(x)"
for name in ("irfft", "hfft"):
    CASES[f"{name}_grad"] = _X + f"result = ms.grad(lambda a: (ops.{name}(a) * ops.arange(6.0)).sum())(x)"
    CASES[f"{name}_grad_n_ortho"] = _X + \
        f"result = ms.grad(lambda a: (ops.{name}(a, n=5, norm='ortho') * ops.arange(5.0)).sum())(x)"
    CASES[f"{name}n_grad"] = _B + f"result = ms.grad(lambda a: (ops.{name}n(a) ** 2).sum())(x)"
for name in ("fft", "ifft", "rfft", "ihfft"):  # complex outputs: through abs (its gradient is g z / |z|)
    CASES[f"{name}_abs_grad"] = _X + f"result = ms.grad(lambda a: ops.abs(ops.{name}(a, n=5)).sum())(x)"
    CASES[f"{name}2_abs_grad"] = _B + f"result = ms.grad(lambda a: ops.abs(ops.{name}2(a, norm='ortho')).sum())(x)"
    CASES[f"{name}n_abs_grad"] = _B + f"result = ms.grad(lambda a: ops.abs(ops.{name}n(a, s=(2, 3))).sum())(x)"
CASES["fft_complex_abs_grad"] = _C + "result = ms.grad(lambda a: ops.abs(ops.fft(a)).sum())(x)"
CASES["irfft_complex_grad"] = _C + "result = ms.grad(lambda a: (ops.irfft(a) * ops.arange(6.0)).sum())(x)"
CASES.update({
    "fft_errors_n": _X + "result = ops.fft(x, n=0)",
    "fft_errors_dim": _X + "result = ops.fft(x, dim=2)",
    "fft_errors_norm": _X + "result = ops.fft(x, norm='bad')",
    "fft2_errors_1d": _X + "result = ops.fft2(x)",
    "fftfreq": "result = (ops.fftfreq(5), ops.fftfreq(4, 0.5), ops.fftfreq(5, dtype=ms.float64))",
    "rfftfreq": "result = (ops.rfftfreq(5), ops.rfftfreq(4, 0.5), ops.rfftfreq(6, dtype=ms.float64))",
    "fftfreq_error": "result = ops.fftfreq(0)",
    "fftshift": _M + "result = (ops.fftshift(x), ops.fftshift(x, dim=0), ops.fftshift(x, (1,)))",
    "ifftshift": _M + "result = (ops.ifftshift(x), ops.ifftshift(x, dim=1), ops.ifftshift(x, (0, 1)))",
    "fftshift_int": "result = ops.fftshift(Tensor(np.array([0, 1, 2, 3, 4, -5, -4, -3, -2, -1], np.int32)))",
    "fftshift_grad": _M + "result = ms.grad(lambda a: (ops.fftshift(a) * ops.arange(12.0).reshape(3, 4)).sum())(x)",
    "stft_default": "x = Tensor(np.arange(32, dtype=np.float32))\nresult = ops.stft(x, 8)",
    "stft_complex": "x = Tensor(np.cos(np.arange(40, dtype=np.float32)))\n"
                    "result = ops.stft(x, 8, hop_length=3, return_complex=True)",
    "stft_window_batch": "x = Tensor(np.sin(np.arange(60, dtype=np.float32)).reshape(2, 30))\n"
                         "w = Tensor(np.hanning(6).astype(np.float32))\n"
                         "result = ops.stft(x, 8, hop_length=4, win_length=6, window=w, normalized=True, "
                         "return_complex=True)",
    "stft_constant_pad": "x = Tensor(np.arange(20, dtype=np.float32))\n"
                         "result = ops.stft(x, 4, center=True, pad_mode='CONSTANT', return_complex=True)",
    "stft_no_center": "x = Tensor(np.arange(20, dtype=np.float32))\n"
                      "result = ops.stft(x, 4, center=False, onesided=False, return_complex=True)",
    "STFT_prim": "x = Tensor(np.sin(np.arange(40, dtype=np.float32)))\nw = Tensor(np.hanning(8).astype(np.float32))\n"
                 "result = (ops.STFT(8, 4, 8, False, True, True)(x, w), ops.STFT(8, 2, 8, True, True, False)(x, w))",
    "FFTWithSize_c2c": "x = Tensor(np.array([2, 1, 2]), ms.complex64)\n"
                       "f = ops.FFTWithSize(signal_ndim=1, inverse=False, real=False)(x)\n"
                       "result = (f, ops.FFTWithSize(signal_ndim=1, inverse=True, real=False)(f))",
    "FFTWithSize_r2c": "x = Tensor(np.array([[2, 1, 2], [3, 1, 6]]), ms.float32)\n"
                       "f = ops.FFTWithSize(signal_ndim=2, inverse=False, real=True)(x)\n"
                       "result = (f, ops.FFTWithSize(signal_ndim=2, inverse=True, real=True, "
                       "signal_sizes=x.shape)(f), ops.FFTWithSize(2, False, True, norm='ortho')(x))",
    "bartlett_window": "n = Tensor(5)\nresult = (ops.bartlett_window(n), ops.bartlett_window(n, periodic=False), "
                       "ops.bartlett_window(Tensor(6, ms.int32), dtype=ms.float64), ops.bartlett_window(Tensor(1)), "
                       "ops.bartlett_window(Tensor(0)))",
    "blackman_window": "n = Tensor(7)\nresult = (ops.blackman_window(n), ops.blackman_window(n, periodic=False), "
                       "ops.blackman_window(Tensor(4), dtype=ms.float64), ops.blackman_window(Tensor(1)))",
    "hamming_window": "result = (ops.hamming_window(6), ops.hamming_window(7, periodic=False), "
                      "ops.hamming_window(5, alpha=0.5, beta=0.5), ops.hamming_window(4, dtype=ms.float64), "
                      "ops.hamming_window(1))",
    "hann_window": "result = (ops.hann_window(5), ops.hann_window(5, False), ops.hann_window(6, dtype=ms.float32), "
                   "ops.hann_window(1), ops.hann_window(0))",
    "kaiser_window": "result = (ops.kaiser_window(5), ops.kaiser_window(5, periodic=False), "
                     "ops.kaiser_window(6, beta=3.0, dtype=ms.float32), ops.kaiser_window(1))",
    "BartlettWindow": "result = (ops.BartlettWindow()(Tensor(5, ms.int32)), "
                      "ops.BartlettWindow(periodic=False, dtype=ms.float64)(Tensor(5, ms.int64)))",
    "BlackmanWindow": "result = (ops.BlackmanWindow()(Tensor(5)), ops.BlackmanWindow(False, ms.float16)(Tensor(6)))",
    "HammingWindow": "result = (ops.HammingWindow()(Tensor(np.array([6], np.int32))), "
                     "ops.HammingWindow(periodic=False, alpha=0.6, beta=0.4)(Tensor(np.array([7], np.int64))))",
    "bartlett_error_int": "result = ops.bartlett_window(5)",
    "bartlett_error_float": "result = ops.bartlett_window(Tensor(5.0))",
    "bartlett_error_negative": "result = ops.bartlett_window(Tensor(-1))",
    "bartlett_error_dtype": "result = ops.bartlett_window(Tensor(5), dtype=ms.int32)",
    "hann_error_negative": "result = ops.hann_window(-1)",
    "hann_error_float": "result = ops.hann_window(5.0)",
    "HammingWindow_error_scalar": "result = ops.HammingWindow()(Tensor(5))",
})
OPTIONS = {
    "fft_errors_n": {"message": True}, "fft_errors_dim": {"message": True}, "fft_errors_norm": {"message": True},
    "fft2_errors_1d": {"message": True}, "fftfreq_error": {"message": True},
    "bartlett_error_int": {"message": True}, "bartlett_error_float": {"message": True},
    "bartlett_error_negative": {"message": True}, "bartlett_error_dtype": {"message": True},
    "hann_error_negative": {"message": True}, "hann_error_float": {"message": True},
    "HammingWindow_error_scalar": {"message": True},
    "stft_default": {"atol": 1e-5}, "stft_complex": {"atol": 1e-5}, "stft_window_batch": {"atol": 1e-5},
    "stft_constant_pad": {"atol": 1e-5}, "stft_no_center": {"atol": 1e-5}, "STFT_prim": {"atol": 1e-5},
    "FFTWithSize_c2c": {"atol": 1e-5}, "FFTWithSize_r2c": {"atol": 1e-5},
}
for _k in CASES:
    if _k.startswith(("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")) and _k not in OPTIONS:
        OPTIONS[_k] = {"rtol": 1e-4, "atol": 1e-5}

_B_NP = "x = np.sin(np.arange(24, dtype=np.float32)).reshape(2, 3, 4).astype(np.float64)\n"
_WHY_IHFFT = ("the wheel's ihfft gradient is not the derivative of |ihfft| (float64 central differences disagree "
              "with it); mskernel's is the adjoint, which they confirm")
OPTIONS.update({
    "ihfft_abs_grad": {"differs": _WHY_IHFFT, "oracle": "x = np.array([1.0, 2.0, -1.0, 0.5])\nresult = as_tensor("
                       "numeric_grad(lambda a: np.abs(np.fft.ihfft(a, n=5)).sum(), x).astype(np.float32))",
                       "rtol": 1e-4, "atol": 1e-5},
    "ihfft2_abs_grad": {"differs": _WHY_IHFFT, "oracle": _B_NP + "result = as_tensor(numeric_grad(lambda a: np.abs("
                        "np.fft.rfftn(a, axes=(-2, -1), norm='ortho')).sum(), x).astype(np.float32))",
                        "rtol": 1e-4, "atol": 1e-5},
    "ihfftn_abs_grad": {"differs": _WHY_IHFFT, "oracle": _B_NP + "result = as_tensor(numeric_grad(lambda a: np.abs("
                        "np.fft.rfftn(a, s=(2, 3), axes=(-2, -1), norm='forward')).sum(), x).astype(np.float32))",
                        "rtol": 1e-4, "atol": 1e-5},
})
