"""Write the test videos of the ``video_and_rest`` golden suite with PyAV (run by hand; the files are committed).

Five 24x16 frames at 5 fps whose pixels are a known function of (frame, row, column); some files carry one second
of a 8 kHz mono 16-bit sine. Codecs: ffv1 and png (lossless), mpeg4 at the finest quantiser (deterministic).
"""
from __future__ import annotations

from pathlib import Path

import av
import numpy as np

HERE = Path(__file__).resolve().parent


def frames(n: int = 5, h: int = 16, w: int = 24) -> list:
    out = []
    for t in range(n):
        a = np.zeros((h, w, 3), np.uint8)
        a[..., 0] = (np.arange(w) * 10 + t * 20) % 256
        a[..., 1] = (np.arange(h)[:, None] * 15 + t * 7) % 256
        a[..., 2] = t * 40 % 256
        out.append(a)
    return out


def write(name: str, codec: str, pix: str, audio: bool = False) -> None:
    c = av.open(str(HERE / name), "w")
    s = c.add_stream(codec, rate=5)
    s.width, s.height, s.pix_fmt = 24, 16, pix
    if codec == "mpeg4":
        s.options = {"qscale": "1"}
    if audio:
        a = c.add_stream("pcm_s16le", rate=8000)
        a.layout = "mono"
    for f in frames():
        for p in s.encode(av.VideoFrame.from_ndarray(f, format="rgb24")):
            c.mux(p)
    for p in s.encode():
        c.mux(p)
    if audio:
        samples = (np.sin(np.arange(8000) / 10.0) * 10000).astype(np.int16)[None]
        af = av.AudioFrame.from_ndarray(samples, format="s16", layout="mono")
        af.sample_rate, af.pts = 8000, 0
        for p in a.encode(af):
            c.mux(p)
        for p in a.encode():
            c.mux(p)
    c.close()


if __name__ == "__main__":
    write("png.avi", "png", "rgb24")
    write("mpeg4.mp4", "mpeg4", "yuv420p")
    write("ffv1_audio.avi", "ffv1", "bgr0", audio=True)
    write("mpeg4_audio.avi", "mpeg4", "yuv420p", audio=True)
