"""Video decoding of ``mindspore.dataset.vision``: ``read_video``, ``read_video_timestamps``, ``DecodeVideo``,
``VideoDecoder`` and the ``not_random`` marker.

Decoding is FFmpeg's, through PyAV (imported only when a video is decoded): no codec is written here. Frames come
out as RGB ``uint8`` ``[T, H, W, C]``; YUV frames are converted with nearest-neighbour chroma and accurate
rounding, which is what gives the CPU wheel's bytes. Audio comes out ``[C, L]`` in the stream's own sample type
(``int16`` for 16-bit PCM); a read with no frames gives ``(1, 0)`` of that type, and a file without audio an
empty ``float32`` ``(1, 0)`` array.

A range ``[start_pts, end_pts]`` selects the video frames whose timestamps lie in it after both ends are rounded
to whole ticks of the video stream's time base (halves away from zero; with ``pts_unit="sec"`` the seconds are
first divided by the time base). The audio returned is the samples spanning the selected frames' display time.

Example:
    >>> def twice(x):
    ...     return 2 * x
    >>> not_random(twice).random
    False
"""
from __future__ import annotations

import io
import math
import os
from fractions import Fraction
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

import numpy as np

__all__ = ["read_video", "read_video_timestamps", "DecodeVideo", "VideoDecoder", "not_random"]

_BAR = "-" * 66
Number = Union[float, Fraction, int]


def _pipeline_error(text: str) -> RuntimeError:
    """The CPU wheel's dataset-pipeline error layout (its C++ call stack left out)."""
    return RuntimeError("Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline Error Message'. \n\n"
                        f"{_BAR}\n- Dataset Pipeline Error Message: \n{_BAR}\n[ERROR] {text}\n")


def _av() -> Any:
    try:
        import av
    except ImportError as e:  # pragma: no cover - av is a dependency
        raise ImportError("decoding a video needs PyAV: pip install av") from e
    av.logging.set_level(None)
    return av


def _open(source: Any, name: str) -> Any:
    av = _av()
    try:
        return av.open(source)
    except av.error.FFmpegError as e:
        raise _pipeline_error(f"Failed to open the {name}.") from e


def _round(x: float) -> int:
    """Round halves away from zero (C's ``round``)."""
    return int(math.floor(abs(x) + 0.5)) * (1 if x >= 0 else -1)


def _rgb(frame: Any) -> np.ndarray:
    from av.video.reformatter import Interpolation
    if frame.format.name == "rgb24":
        return frame.to_ndarray()
    flags = Interpolation.POINT | Interpolation.ACCURATE_RND
    return frame.reformat(format="rgb24", interpolation=flags).to_ndarray()


def _audio(frames: List[Any]) -> Optional[np.ndarray]:
    """The decoded audio frames as one ``[C, L]`` array."""
    parts = []
    for fr in frames:
        a = fr.to_ndarray()
        channels = len(fr.layout.channels)
        if not fr.format.is_planar and channels > 1:
            a = a.reshape(-1, channels).T
        parts.append(a)
    return np.concatenate(parts, axis=1) if parts else None


_SAMPLE_DTYPES = {"u8": np.uint8, "s16": np.int16, "s32": np.int32, "s64": np.int64, "flt": np.float32,
                  "dbl": np.float64}


def _sample_dtype(stream: Any) -> Any:
    """The numpy type of an audio stream's samples (an empty read keeps it)."""
    name = stream.format.name if stream.format is not None else "flt"
    return _SAMPLE_DTYPES.get(name.rstrip("p"), np.float32)


def _decode(container: Any, start: Number, end: Optional[Number], unit: str
            ) -> Tuple[np.ndarray, np.ndarray, Dict[str, Any]]:
    meta: Dict[str, Any] = {}
    vstreams, astreams = container.streams.video, container.streams.audio
    if astreams:
        meta["audio_fps"] = int(astreams[0].rate)
    video = np.empty((0, 0, 0, 3), np.uint8)
    t0 = t1 = None
    if vstreams:
        vs = vstreams[0]
        tb = vs.time_base
        meta["video_fps"] = float(vs.average_rate) if vs.average_rate else 0.0
        scale = 1.0 if unit == "pts" else 1.0 / float(tb)
        lo = _round(float(start) * scale)
        hi = None if end is None else _round(float(end) * scale)
        frames = sorted(((f.pts, f) for f in container.decode(video=0) if f.pts is not None), key=lambda p: p[0])
        step = (frames[1][0] - frames[0][0]) if len(frames) > 1 else (
            int(round(1 / (float(vs.average_rate) * float(tb)))) if vs.average_rate else 1)
        chosen = [(p, f) for p, f in frames if p >= lo and (hi is None or p <= hi)]
        height, width = vs.codec_context.height, vs.codec_context.width
        if chosen:
            video = np.stack([_rgb(f) for _, f in chosen])
            t0, t1 = chosen[0][0] * float(tb), (chosen[-1][0] + step) * float(tb)
        else:
            video = np.empty((0, height, width, 3), np.uint8)
    audio = np.empty((1, 0), _sample_dtype(astreams[0]) if astreams else np.float32)
    if astreams and t0 is not None:
        container.seek(0)
        afr = [f for f in container.decode(audio=0)]
        whole = _audio(afr)
        if whole is not None:
            rate = int(astreams[0].rate)
            first = float(afr[0].pts * afr[0].time_base) if afr[0].pts is not None else 0.0
            s = max(_round((t0 - first) * rate), 0)
            e = min(_round((t1 - first) * rate), whole.shape[1])
            audio = np.ascontiguousarray(whole[:, s:e]) if e > s else audio
    return video, audio, meta


def _check_pts(name: str, value: Any) -> None:
    if not isinstance(value, (float, Fraction, int)):
        raise TypeError(f"Input {name} is not of type [{float}, {Fraction}, {int}], but got: {type(value)}")


def read_video(filename: str, start_pts: Number = 0, end_pts: Optional[Number] = None,
               pts_unit: str = "pts") -> Tuple[np.ndarray, np.ndarray, Dict[str, Any]]:
    """The video frames ``[T, H, W, 3]`` uint8, the audio ``[C, L]`` and ``{"audio_fps", "video_fps"}`` of a file.

    Args:
        filename: the video file.
        start_pts: first timestamp to read (``0``: from the beginning).
        end_pts: last timestamp to read (``None``: to the end).
        pts_unit: ``"pts"`` (ticks of the stream's time base) or ``"sec"``.

    Example:
        >>> read_video("no/such.avi")
        Traceback (most recent call last):
        ...
        ValueError: Invalid file path, no/such.avi does not exist.
    """
    if not isinstance(filename, str):
        raise TypeError(f"Input filename is not of type {str}, but got: {type(filename)}.")
    _check_pts("start_pts", start_pts)
    if start_pts < 0.0:
        raise ValueError(f"Not supported start_pts for {start_pts}. The start_pts should be >= 0.")
    if end_pts is not None:
        _check_pts("end_pts", end_pts)
        if end_pts < start_pts:
            raise ValueError(f"Not supported end_pts for {end_pts}. start_pts = {start_pts}. "
                             "The end_pts should be >= start_pts.")
    if not isinstance(pts_unit, str):
        raise TypeError(f"Input pts_unit is not of type {str}, but got: {type(pts_unit)}.")
    if pts_unit not in ("pts", "sec"):
        raise ValueError("Not supported pts_unit for " + pts_unit)
    path = os.path.realpath(filename)
    if not os.path.exists(path):
        raise ValueError(f"Invalid file path, {filename} does not exist.")
    if not os.path.isfile(path):
        raise ValueError(f"Invalid file path, {filename} is not a regular file.")
    with _open(path, f"file {filename}") as container:
        return _decode(container, start_pts, end_pts, pts_unit)


def read_video_timestamps(filename: str, pts_unit: str = "pts") -> Tuple[List[Any], Optional[float]]:
    """The timestamps of a video's frames (ticks, or seconds with ``pts_unit="sec"``) and its frame rate.

    Example:
        >>> read_video_timestamps("no/such.avi")
        Traceback (most recent call last):
        ...
        RuntimeError: Exception thrown from dataset pipeline. ...
    """
    if not isinstance(filename, str):
        raise TypeError(f"Input filename is not of type {str}, but got: {type(filename)}.")
    if not isinstance(pts_unit, str):
        raise TypeError(f"Input pts_unit is not of type {str}, but got: {type(pts_unit)}.")
    path = os.path.realpath(filename)
    if not os.path.exists(path):
        raise _pipeline_error(f"Invalid file path, {filename} does not exist.")
    if not os.path.isfile(path):
        raise _pipeline_error(f"Invalid file path, {filename} is not a regular file.")
    if pts_unit not in ("pts", "sec"):
        raise _pipeline_error(f"ReadVideoTimestamps: Not supported pts_unit for {pts_unit}")
    with _open(path, f"file {filename}") as container:
        if not container.streams.video:
            return [], None
        vs = container.streams.video[0]
        pts = sorted(f.pts for f in container.decode(video=0) if f.pts is not None)
        fps = float(vs.average_rate) if vs.average_rate else 0.0
        tb = float(np.float32(float(vs.time_base)))
    if not pts:
        return [], None
    if pts_unit == "pts":
        return pts, fps
    return [p * tb for p in pts], fps


class DecodeVideo:
    """Decode a video file's bytes (a 1-D uint8 array) into ``(frames [T, H, W, 3] uint8, audio [C, L])``.

    Example:
        >>> import numpy as np
        >>> DecodeVideo()(np.zeros(0, np.uint8))
        Traceback (most recent call last):
        ...
        RuntimeError: Exception thrown from dataset pipeline. ...
    """

    def __call__(self, *inputs: Any) -> Tuple[np.ndarray, np.ndarray]:
        if len(inputs) != 1:
            raise _pipeline_error(f"The input has invalid size {len(inputs)}")
        data = inputs[0]
        if not isinstance(data, np.ndarray):
            raise TypeError(f"Input should be ndarray, got {type(data)}.")
        if data.size == 0:
            raise _pipeline_error("Input Tensor has no data.")
        if data.ndim != 1:
            raise _pipeline_error(f"DecodeVideo: invalid input shape, only support 1D input, got rank: {data.ndim}")
        if data.dtype != np.uint8:
            raise _pipeline_error(f"The type of the elements of input data should be UINT8, but got {data.dtype}.")
        with _open(io.BytesIO(data.tobytes()), "input") as container:
            video, audio, _ = _decode(container, 0, None, "pts")
        return video, audio


class VideoDecoder:
    """A video file's stream metadata (``width``, ``height``, ``duration_seconds``, ``num_frames``,
    ``average_fps``); ``get_frames_at`` is the Ascend backend's, as in MindSpore.

    Example:
        >>> VideoDecoder(3)
        Traceback (most recent call last):
        ...
        TypeError: path: 3 is not string
    """

    def __init__(self, source: str) -> None:
        if not isinstance(source, str):
            raise TypeError(f"path: {source} is not string")
        path = os.path.realpath(source)
        if not os.path.isfile(path) or not os.access(path, os.R_OK):
            raise ValueError(f"The file {path} does not exist or permission denied!")
        self.source = source
        self._metadata = self.metadata

    @property
    def metadata(self) -> Dict[str, Any]:
        """The first video stream's size, duration, frame count and average frame rate."""
        with _open(os.path.realpath(self.source), f"file {self.source}") as container:
            s = container.streams.video[0]
            return {"width": s.width, "height": s.height,
                    "duration_seconds": round(float(s.duration * s.time_base), 6),
                    "num_frames": s.frames, "average_fps": float(s.average_rate)}

    def get_frames_at(self, indices: List[int]) -> np.ndarray:
        """Frames by index: MindSpore decodes them only on the Ascend backend (its DVPP), and so raises here."""
        raise RuntimeError("Method get_frames_at is only supported on Ascend platform.")


def not_random(func: Callable) -> Callable:
    """Mark a Python function deterministic (``func.random = False``) and return it: MindSpore caches only those.

    Example:
        >>> not_random(len) is len
        Traceback (most recent call last):
        ...
        AttributeError: 'builtin_function_or_method' object has no attribute 'random'...
    """
    func.random = False
    return func
