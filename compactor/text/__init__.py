"""The text layer: what a conversation's text decides on its own, whatever the parameters.

Words, sentence ends and grapheme-safe cuts (:mod:`~compactor.text._words`), word ids
(:mod:`~compactor.text._wordids`), the parameter-free profile every stage reads
(:mod:`~compactor.text._profile`) and its incremental form for replays
(:mod:`~compactor.text._incremental`), the pairs' similarity, sparse or whole
(:mod:`~compactor.text._pairs`), real token counts (:mod:`~compactor.text._tokens`, the
``tokens`` extra), meaning-level similarity (:mod:`~compactor.text._semantic`, the
``semantic`` extra) and relevance to a focus by BM25 (:mod:`~compactor.text._relevance`, the
``focus`` extra). Nothing here knows a parameter, a stage or a result."""

from compactor.text._call_line import CALL_HEAD, CALL_LINE, call_head, call_line
from compactor.text._incremental import (
    IncrementalAnalysis,
)
from compactor.text._pairs import PairSimilarity, Reaching
from compactor.text._profile import (
    TextAnalysis,
    analyse,
)
from compactor.text._relevance import (
    FILLER,
    Cover,
    Relevance,
    RelevanceUnavailable,
    query_terms,
    rare_word_cover,
    relevance,
    relevance_available,
    says_nothing,
)
from compactor.text._relevance import (
    INSTALL_HINT as RELEVANCE_HINT,
)
from compactor.text._salient import UNIT_CHARS, salient_terms, salient_terms_of, units
from compactor.text._semantic import (
    DEFAULT_THRESHOLD as SEMANTIC_THRESHOLD,
)
from compactor.text._semantic import (
    INSTALL_HINT as SEMANTIC_HINT,
)
from compactor.text._semantic import (
    SemanticUnavailable,
    semantic_available,
    semantic_similarity,
)
from compactor.text._tokens import (
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
from compactor.text._tokens import (
    INSTALL_HINT as TOKENS_HINT,
)
from compactor.text._words import (
    cut,
    cut_lengths,
    grapheme_floor,
    word_runs,
    word_spans,
    words,
)

__all__ = [
    "analyse",
    "CALL_HEAD",
    "CALL_LINE",
    "call_head",
    "call_line",
    "CHARS_PER_TOKEN",
    "count_tokens",
    "Cover",
    "cut",
    "cut_lengths",
    "DEFAULT_ENCODING",
    "ENCODINGS",
    "estimate_tokens",
    "FILLER",
    "grapheme_floor",
    "history_tokens",
    "IncrementalAnalysis",
    "PairSimilarity",
    "query_terms",
    "Reaching",
    "rare_word_cover",
    "Relevance",
    "relevance",
    "relevance_available",
    "RELEVANCE_HINT",
    "RelevanceUnavailable",
    "salient_terms",
    "salient_terms_of",
    "says_nothing",
    "semantic_available",
    "SEMANTIC_HINT",
    "semantic_similarity",
    "SEMANTIC_THRESHOLD",
    "SemanticUnavailable",
    "text_kind",
    "TextAnalysis",
    "tokenizer",
    "TokenizerUnavailable",
    "tokens_available",
    "TOKENS_HINT",
    "UNIT_CHARS",
    "units",
    "word_runs",
    "word_spans",
    "words",
]
