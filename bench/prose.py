"""Seeded, realistic prose for benchmarks: sentences with ends, repeated vocabulary, ids."""

from __future__ import annotations

import random

_COMMON = [
    "the",
    "a",
    "to",
    "of",
    "and",
    "in",
    "is",
    "that",
    "for",
    "it",
    "on",
    "with",
    "as",
    "was",
    "be",
    "this",
    "are",
    "have",
    "not",
    "you",
    "at",
    "by",
    "from",
    "we",
    "or",
    "an",
    "they",
    "but",
    "can",
    "will",
    "if",
    "all",
    "there",
    "one",
    "so",
    "what",
    "about",
    "which",
    "when",
    "out",
    "up",
    "their",
    "would",
    "has",
    "more",
    "been",
    "no",
    "also",
    "into",
    "only",
    "other",
    "some",
    "time",
    "could",
    "these",
    "two",
    "may",
    "then",
    "do",
    "first",
    "any",
    "new",
    "like",
    "now",
    "than",
    "very",
    "after",
    "should",
    "where",
    "most",
    "over",
    "such",
    "through",
    "because",
    "each",
    "just",
    "those",
    "how",
    "too",
    "much",
    "before",
    "well",
    "same",
    "right",
    "still",
    "back",
    "here",
    "being",
    "both",
    "under",
    "last",
    "never",
    "while",
]
_DOMAIN = [
    "customer",
    "order",
    "shipment",
    "invoice",
    "refund",
    "account",
    "payment",
    "delivery",
    "warehouse",
    "address",
    "ticket",
    "agent",
    "request",
    "response",
    "deployment",
    "service",
    "database",
    "replica",
    "cluster",
    "latency",
    "timeout",
    "retry",
    "backlog",
    "release",
    "version",
    "config",
    "migration",
    "schema",
    "index",
    "query",
    "cache",
    "budget",
    "forecast",
    "quarter",
    "revenue",
    "contract",
    "renewal",
    "discount",
    "policy",
    "approval",
    "manager",
    "schedule",
    "meeting",
    "deadline",
    "priority",
    "incident",
    "outage",
    "alert",
    "metric",
    "dashboard",
    "report",
    "function",
    "variable",
    "module",
    "package",
    "dependency",
    "error",
    "exception",
    "traceback",
    "commit",
    "branch",
    "review",
    "merge",
    "pipeline",
    "artifact",
    "container",
    "memory",
    "context",
    "message",
    "history",
    "summary",
]
_NAMES = [
    "Hamburg",
    "Lyon",
    "Porto",
    "Berlin",
    "Oslo",
    "Madrid",
    "Alice",
    "Bruno",
    "Chen",
    "Dana",
    "Emil",
    "Farah",
]


def _sentence(rng: random.Random, words: list[str], weights: list[float]) -> str:
    body = rng.choices(words, weights, k=rng.randint(6, 24))
    if rng.random() < 0.3:
        body.insert(rng.randrange(len(body)), rng.choice(_NAMES))
    if rng.random() < 0.2:
        body.insert(
            rng.randrange(len(body)),
            f"{rng.choice('ABCDEFGH')}{rng.choice('XYZQ')}-{rng.randint(100, 9999)}",
        )
    if len(body) > 10 and rng.random() < 0.5:
        body[rng.randrange(3, len(body) - 2)] += ","
    text = " ".join(body)
    return text[0].upper() + text[1:] + rng.choice("....!?")


def prose(rng: random.Random, chars: int) -> str:
    """About ``chars`` characters of prose, never more, ending at a sentence end when it can."""
    words = _COMMON + _DOMAIN
    weights = [1.0 / (rank + 1) ** 0.9 for rank in range(len(words))]
    out: list[str] = []
    length = 0
    while length < chars:
        sentence = _sentence(rng, words, weights)
        out.append(sentence)
        length += len(sentence) + 1
        if rng.random() < 0.15:
            out.append("\n\n")
    text = " ".join(out).replace(" \n\n ", "\n\n")
    return text[:chars].rstrip()


def largest_request(seed: int = 20261130) -> dict:
    """The largest valid request: 200 messages of close to 8,000 characters each."""
    rng = random.Random(seed)
    roles = ["system"] + [
        rng.choice(["user", "assistant", "assistant", "tool"]) for _ in range(199)
    ]
    messages = [{"role": role, "content": prose(rng, rng.randint(7800, 8000))} for role in roles]
    return {"messages": messages, "budget_chars": 120_000}
