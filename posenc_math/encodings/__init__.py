"""numpy implementations of positional encodings."""

from .binary import binary
from .sinusoidal import frequencies, sinusoidal, timing_signal, wavelengths
from .translation import translation_matrix

__all__ = [
    "binary",
    "frequencies",
    "sinusoidal",
    "timing_signal",
    "translation_matrix",
    "wavelengths",
]
