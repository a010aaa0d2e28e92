"""Meaning-level near-duplicates: same fact, different words (optional: the ``semantic`` extra).

Dedupe compares word sets (Jaccard), so "The parcel left Berlin on Monday" and "Your package was
shipped from Berlin on Monday" share too few words to count as duplicates. Here each message is
embedded with WordLlama's small static model (``l2_supercat``, 256 dimensions: the average of
per-token vectors), which its wheel ships; it is loaded from the package folder with downloads
disabled, so nothing reaches the network. Similarity is the cosine of two embeddings. A
*semantic pair* is two messages of the same role whose cosine reaches ``threshold`` while their
word overlap stays under ``duplicate_threshold`` (so dedupe keeps both). Static embeddings see
topic and wording more than facts: two messages about the same order with different amounts can
score high, so a pair is a hint to look, not proof; the contract engine never uses it.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from compactor.wording import install_command

INSTALL_HINT = f"meaning-level similarity needs the semantic extra: {install_command('semantic')}"
#: Cosine from which two messages count as the same meaning. With this static model, short
#: paraphrases written with different words (tests/compactor/analyses/paraphrases.py) score
#: 0.18 to 0.76 and unrelated sentences -0.10 to 0.27, but whole messages of one conversation
#: share their topic: half of the same-role pairs in the samples score over 0.2 to 0.4. 0.5
#: flags about one pair in ten there, and few short paraphrases (recall and precision of the
#: written pairs at every threshold are in docs/tokens.md); lower it to see more.
DEFAULT_THRESHOLD = 0.5
MODEL = "l2_supercat"
DIMENSIONS = 256


class SemanticUnavailable(RuntimeError):
    """wordllama is not installed; the message says how to install it."""


def semantic_available() -> bool:
    """Whether wordllama can be imported (imported as :func:`model` imports it, so that its
    import does not turn on every library's INFO messages)."""
    root = logging.getLogger()
    placeholder = logging.NullHandler()
    root.addHandler(placeholder)
    try:
        import wordllama  # noqa: F401
    except ImportError:
        return False
    finally:
        root.removeHandler(placeholder)
    return True


@functools.cache
def model() -> Any:
    """WordLlama's model from the files in its wheel (once per process; never downloads).

    ``WordLlama.load`` looks for the tokenizer in a ``tokenizer/`` folder while the wheel ships
    it in ``tokenizers/``, and then downloads it; so the two files are opened here directly.
    """
    root = logging.getLogger()
    # Importing wordllama calls logging.basicConfig(level=INFO), which would make every
    # library's INFO messages print; a handler already on the root logger turns that into a
    # no-op, and is taken off again.
    placeholder = logging.NullHandler()
    root.addHandler(placeholder)
    try:
        import wordllama
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer
        from wordllama import WordLlamaInference
    except ImportError:
        raise SemanticUnavailable(INSTALL_HINT) from None
    finally:
        root.removeHandler(placeholder)
    folder = Path(wordllama.__file__).parent
    weights = load_file(str(folder / "weights" / f"{MODEL}_{DIMENSIONS}.safetensors"))
    tokenizer = Tokenizer.from_file(str(folder / "tokenizers" / f"{MODEL}_tokenizer_config.json"))
    return WordLlamaInference(weights["embedding.weight"], tokenizer)


def embed(texts: Sequence[str]) -> np.ndarray:
    """Unit-length embeddings of ``texts``, one row each."""
    if not texts:
        return np.zeros((0, DIMENSIONS), dtype=np.float32)
    vectors = model().embed(list(texts), norm=False)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1, norms)


def semantic_similarity(contents: Sequence[str], roles: Sequence[str]) -> np.ndarray:
    """``similarity[i, j]``: the cosine of messages ``j < i`` of the same role; NaN elsewhere
    (the layout of :attr:`compactor.text._profile.TextAnalysis.similarity`)."""
    n = len(contents)
    vectors = embed(contents)
    cosine = np.clip(vectors @ vectors.T, -1.0, 1.0).astype(np.float64)
    same_role = np.array(roles)[:, None] == np.array(roles)[None, :]
    earlier = np.tri(n, n, -1, dtype=bool)
    out = np.where(same_role & earlier, cosine, np.nan)
    out.flags.writeable = False
    return out
