"""bfloat16, which numpy lacks, as its bits (uint16), with the conversions ONNX's Cast
defines: float32 to bfloat16 rounds to nearest even and keeps NaN a (quiet) NaN."""
import numpy as np


def to_bits(f32):
    """float32 values -> bfloat16 bits (uint16), rounded to nearest even."""
    f32 = np.asarray(f32, dtype=np.float32)
    u = f32.reshape(-1).view(np.uint32).astype(np.uint64)
    s16, one = np.uint64(16), np.uint64(1)
    rounded = ((u + np.uint64(0x7FFF) + ((u >> s16) & one)) >> s16).astype(np.uint16)
    quiet_nan = ((u >> s16) | np.uint64(0x40)).astype(np.uint16)
    return np.where(np.isnan(f32.reshape(-1)), quiet_nan, rounded).reshape(f32.shape)


def from_bits(bits):
    """bfloat16 bits (uint16) -> the same values as float32 (exact)."""
    bits = np.asarray(bits, dtype=np.uint16)
    return (bits.reshape(-1).astype(np.uint32) << np.uint32(16)).view(np.float32).reshape(bits.shape)
