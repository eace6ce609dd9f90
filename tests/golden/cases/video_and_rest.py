"""Video decoding of mindspore.dataset.vision (mskernel/dataset/vision/video.py) on the test videos in
tests/golden/video_fixtures (written by its make.py): frames, audio, metadata, timestamps, ranges, errors; and
not_random.
"""
_V = ("import os\nimport mindspore.dataset.vision as V\nfrom fractions import Fraction\n"
      "import sys\n"  # the golden harness (tests/golden/harness.py) runs the case: the videos are beside it
      "os.chdir(os.path.join(os.path.dirname(sys.modules['harness'].__file__), 'video_fixtures'))\n")


def _read(*args: str) -> str:
    return _V + "result = [" + ", ".join(f"list(V.read_video({a}))" for a in args) + "]\n"


CASES = {
    "read_video_ffv1_audio": _read("'ffv1_audio.avi'"),
    "read_video_png": _read("'png.avi'"),
    "read_video_mpeg4": _read("'mpeg4.mp4'", "'mpeg4_audio.avi'"),
    "read_video_pts_ranges": _read("'ffv1_audio.avi', 1, 2", "'ffv1_audio.avi', 1, 1", "'ffv1_audio.avi', 0, 0",
                                   "'ffv1_audio.avi', 1.5, 1.8", "'ffv1_audio.avi', 1.5, 3.5", "'ffv1_audio.avi', 4, 4",
                                   "'ffv1_audio.avi', 3"),
    "read_video_empty_ranges": _read("'ffv1_audio.avi', 10, 20", "'ffv1_audio.avi', 4.5, 9", "'png.avi', 7"),
    "read_video_sec_ranges": _read("'ffv1_audio.avi', 0, 0.1, 'sec'", "'ffv1_audio.avi', 0.2, 0.4, 'sec'",
                                   "'ffv1_audio.avi', 0.25, 0.65, 'sec'", "'ffv1_audio.avi', 0.5, 0.5, 'sec'",
                                   "'ffv1_audio.avi', 0.13, 0.77, 'sec'", "'ffv1_audio.avi', 0.9, 5, 'sec'"),
    "read_video_mp4_ranges": _read("'mpeg4.mp4', 2048, 4096", "'mpeg4.mp4', 1, 2", "'mpeg4.mp4', 0.2, 0.5, 'sec'",
                                   "'mpeg4.mp4', Fraction(1, 5), Fraction(3, 5), 'sec'"),
    "read_video_fraction": _read("'png.avi', Fraction(1, 2), Fraction(5, 2)"),
    "timestamps": _V + "result = [V.read_video_timestamps(f, u) for f in ('png.avi', 'mpeg4.mp4', 'ffv1_audio.avi') "
                       "for u in ('pts', 'sec')]",
    "decode_video": _V + "import numpy as np\nresult = [list(V.DecodeVideo()(np.fromfile(f, np.uint8))) "
                         "for f in ('ffv1_audio.avi', 'mpeg4.mp4', 'png.avi')]",
    "video_decoder_metadata": _V + "result = [V.VideoDecoder(f).metadata for f in ('png.avi', 'mpeg4.mp4', "
                                   "'mpeg4_audio.avi')]",
    "not_random": _V + "def f(x):\n    return x\ng = V.not_random(f)\nresult = [g is f, g.random, g(3)]",
    "not_random_error": _V + "result = V.not_random(3)",
    "video_decoder_frames_error": _V + "result = V.VideoDecoder('png.avi').get_frames_at([0])",
    "video_decoder_type_error": _V + "result = V.VideoDecoder(3)",
    "read_video_filename_error": _V + "result = V.read_video(1)",
    "read_video_start_type_error": _V + "result = V.read_video('png.avi', 'a')",
    "read_video_end_type_error": _V + "result = V.read_video('png.avi', 0, 'x')",
    "read_video_negative_error": _V + "result = V.read_video('png.avi', -1)",
    "read_video_order_error": _V + "result = V.read_video('png.avi', 3, 1)",
    "read_video_unit_error": _V + "result = V.read_video('png.avi', 0, None, 'ms')",
    "read_video_unit_type_error": _V + "result = V.read_video('png.avi', 0, None, 3)",
    "read_video_missing_error": _V + "result = V.read_video('nofile.avi')",
    "read_video_dir_error": _V + "result = V.read_video('.')",
    "read_video_bad_file_error": _V + "result = V.read_video('make.py')",
    "timestamps_filename_error": _V + "result = V.read_video_timestamps(3)",
    "timestamps_unit_type_error": _V + "result = V.read_video_timestamps('png.avi', 1)",
    "timestamps_unit_error": _V + "result = V.read_video_timestamps('png.avi', 'ms')",
    "timestamps_missing_error": _V + "result = V.read_video_timestamps('nofile.avi')",
    "timestamps_bad_file_error": _V + "result = V.read_video_timestamps('make.py')",
    "decode_video_rank_error": _V + "import numpy as np\nresult = V.DecodeVideo()(np.fromfile('png.avi', np.uint8)[:100].reshape(50, 2))",
    "decode_video_dtype_error": _V + "import numpy as np\nresult = V.DecodeVideo()(np.fromfile('png.avi', np.uint8).astype(np.int32))",
    "decode_video_empty_error": _V + "import numpy as np\nresult = V.DecodeVideo()(np.zeros(0, np.uint8))",
    "decode_video_garbage_error": _V + "import numpy as np\nresult = V.DecodeVideo()(np.frombuffer(b'garbage' * 20, np.uint8))",
    "decode_video_list_error": _V + "result = V.DecodeVideo()([1, 2, 3])",
    "decode_video_two_inputs_error": _V + "import numpy as np\nx = np.fromfile('png.avi', np.uint8)\nresult = V.DecodeVideo()(x, x)",
}

_PIPE = "the wheel wraps the text in its pipeline banner and appends its C++ source location"
OPTIONS = {case: {"message": True} for case in CASES if case.endswith("_error")}
for _case, _part in {"read_video_bad_file_error": "[ERROR] Failed to open the file make.py.",
                     "timestamps_unit_error": "[ERROR] ReadVideoTimestamps: Not supported pts_unit for ms",
                     "timestamps_missing_error": "[ERROR] Invalid file path, nofile.avi does not exist.",
                     "timestamps_bad_file_error": "[ERROR] Failed to open the file make.py.",
                     "decode_video_rank_error": "[ERROR] DecodeVideo: invalid input shape, only support 1D input, got rank: 2",
                     "decode_video_dtype_error": "[ERROR] The type of the elements of input data should be UINT8, but got int32.",
                     "decode_video_empty_error": "[ERROR] Input Tensor has no data.",
                     "decode_video_garbage_error": "[ERROR] Failed to open the input.",
                     "decode_video_two_inputs_error": "[ERROR] The input has invalid size 2"}.items():
    OPTIONS[_case] = {"message_parts": ["Exception thrown from dataset pipeline.", _part], "why": _PIPE}

_AF = ("from mindspore import Parameter\n"
       "def adafactor(shape, gn, flags=(False, False, False), plain=False):\n"
       "    rng = np.random.default_rng(0)\n"
       "    p = Parameter(Tensor(rng.normal(size=shape).astype(np.float32)), name='p')\n"
       "    m = Parameter(Tensor(rng.normal(size=shape).astype(np.float32) * 0.1), name='m')\n"
       "    r = Parameter(Tensor(np.full(shape[:-1], 0.5, np.float32)), name='r')\n"
       "    c = Parameter(Tensor(np.full(shape[:-2] + shape[-1:], 0.25, np.float32)), name='c')\n"
       "    s = Parameter(Tensor(np.full(shape, 0.3, np.float32)), name='s')\n"
       "    g = Tensor(rng.normal(size=shape).astype(np.float32) * 3)\n"
       "    args = (Tensor(np.array([1e-30, 1e-3], np.float32)), 1.0, 0.9, Tensor(0.8, ms.float32), 0.01, 0.1, g, p, m, "
       "r, c, s)\n"
       "    ops.FusedAdaFactorWithGlobalNorm(*flags)(*args, Tensor(gn, ms.float32))\n"
       "    return [p, m, r, c, s]\n")
CASES.update({
    "fused_adafactor_global_norm_2d": _AF + "result = [adafactor((2, 3), gn) for gn in (0.5, 1.0, 2.0, 3.0)]",
    "fused_adafactor_global_norm_1d": _AF + "result = [adafactor((4,), gn) for gn in (0.5, 3.0)]",
    "fused_adafactor_global_norm_flags": _AF + "result = [adafactor((3, 4), 2.5, f) for f in ((True, False, False), "
                                              "(False, True, False), (False, False, True), (True, True, True))]",
    "fused_adafactor_global_norm_3d": _AF + "result = adafactor((2, 2, 3), 1.7, (True, True, True))",
})
OPTIONS.update({c: {"rtol": 1e-5, "atol": 1e-6} for c in CASES if c.startswith("fused_adafactor")})
