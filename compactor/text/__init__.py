"""The text layer: what a conversation's text decides on its own, whatever the parameters.

Words, sentence ends and grapheme-safe cuts (:mod:`~compactor.text.words`), word ids
(:mod:`~compactor.text.wordids`), the parameter-free profile every stage reads
(:mod:`~compactor.text.profile`) and its incremental form for replays
(:mod:`~compactor.text.incremental`), real token counts (:mod:`~compactor.text.tokens`, the
``tokens`` extra) and meaning-level similarity (:mod:`~compactor.text.semantic`, the
``semantic`` extra). Nothing here knows a parameter, a stage or a result."""

from compactor.text.incremental import (
    IncrementalAnalysis,
)
from compactor.text.profile import (
    TextAnalysis,
    analyse,
)
from compactor.text.semantic import (
    DEFAULT_THRESHOLD as SEMANTIC_THRESHOLD,
)
from compactor.text.semantic import (
    INSTALL_HINT as SEMANTIC_HINT,
)
from compactor.text.semantic import (
    SemanticUnavailable,
    semantic_available,
    semantic_similarity,
)
from compactor.text.tokens import (
    CHARS_PER_TOKEN,
    DEFAULT_ENCODING,
    ENCODINGS,
    TokenizerUnavailable,
    count_tokens,
    estimate_tokens,
    history_tokens,
    text_kind,
    tokenizer,
    tokens_available,
)
from compactor.text.tokens import (
    INSTALL_HINT as TOKENS_HINT,
)
from compactor.text.words import (
    cut,
    grapheme_floor,
    word_runs,
    word_spans,
    words,
)

__all__ = [
    "CHARS_PER_TOKEN",
    "DEFAULT_ENCODING",
    "ENCODINGS",
    "IncrementalAnalysis",
    "SEMANTIC_HINT",
    "SEMANTIC_THRESHOLD",
    "SemanticUnavailable",
    "TOKENS_HINT",
    "TextAnalysis",
    "TokenizerUnavailable",
    "analyse",
    "count_tokens",
    "cut",
    "estimate_tokens",
    "grapheme_floor",
    "history_tokens",
    "semantic_available",
    "semantic_similarity",
    "text_kind",
    "tokenizer",
    "tokens_available",
    "word_runs",
    "word_spans",
    "words",
]
