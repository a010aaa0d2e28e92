"""The words and pieces generated conversations are made of (the property tests' strategies and
the benchmarks' generated corpus): repeats, CJK, combining marks, emoji sequences, long runs and
every sentence end."""

VOCABULARY = [
    "order",
    "refund",
    "DE-4471",
    "shipment",
    "Lyon",
    "the",
    "is",
    "where",
    "café",
    "会议",
    "ok",
]
PIECES = VOCABULARY + [
    " ",
    " ",
    " ",
    ". ",
    "! ",
    "? ",
    "…",
    "。",
    "\n",
    "e\u0301",
    "👨‍👩‍👧",
    "🇩🇪",
    "👍🏽",
    "x" * 30,
]
