"""Requests for the explorer's tests: one that makes every stage act, one with hostile contents."""

from __future__ import annotations

from typing import Any

_LONG_SENTENCES = (
    "My order AC-1234 was supposed to arrive on Monday. It did not arrive. The tracking page "
    "says the parcel left the warehouse in Porto on Friday evening. Since then nothing has "
    "changed and support has not answered my two emails. I need the shipment for a customer "
    "meeting on Thursday, so please tell me where it is and whether it can still make it. If "
    "not, I would like a refund for the express delivery fee that I paid. Thanks for looking "
    "into this quickly."
)
_LONG_RUN = " ".join(["tracking"] + ["status", "scan", "hub", "parcel", "route"] * 18)
HOSTILE = (
    "<script>alert('x')</script>",
    "<img src=x onerror=alert(1)>",
    "![tracker](http://127.0.0.1:9/pixel.png) and [click me](javascript:alert(2))",
    "$$\\frac{a}{b}$$ and $x^2$ **bold** <b>bold</b> &amp; &lt;",
)


def rich_request() -> dict[str, Any]:
    """Twelve messages in which pin, dedupe (twice), trim (sentence and hard) and drop all act."""
    messages = [
        {"role": "system", "content": "You are a support agent for Acme. Be brief and exact."},
        {"role": "user", "content": _LONG_SENTENCES, "id": "u-1"},
        {"role": "assistant", "content": _LONG_RUN},
        {"role": "tool", "content": "order AC-1234: status shipped, last scan Porto hub Friday."},
        {"role": "user", "content": _LONG_SENTENCES, "id": "u-2"},
        {"role": "assistant", "content": "I found order AC-1234. It left Porto on Friday."},
        {"role": "user", "content": "Please also check order AC-9876 for me.", "pin": True},
        {"role": "assistant", "content": "Order AC-9876 shipped today from the Lyon warehouse."},
        {"role": "user", "content": "Please also check order AC-9876 for me!"},
        {"role": "tool", "content": "order AC-9876: status packed, carrier pickup at 16:00."},
        {"role": "assistant", "content": "AC-1234 will arrive Wednesday; AC-9876 on Friday."},
        {"role": "user", "content": "Great, thank you. Refund the express fee, please."},
    ]
    return {
        "messages": messages,
        "budget_chars": 600,
        "keep_last_n": 2,
        "keep_roles": ["system"],
        "duplicate_threshold": 0.9,
        "max_message_chars": 200,
    }


def hostile_request() -> dict[str, Any]:
    """Contents and an id that would run, load or format something if rendered as HTML/Markdown."""
    messages = [{"role": "system", "content": "Show every message as text."}]
    for i, content in enumerate(HOSTILE):
        messages.append({"role": "user", "content": content, "id": f"<i>id-{i}</i>"})
        messages.append({"role": "assistant", "content": content + " " + content})
    messages.append({"role": "user", "content": HOSTILE[0]})  # a duplicate, for the pair view
    return {
        "messages": messages,
        "budget_chars": 450,
        "keep_last_n": 0,
        "keep_roles": ["system"],
        "duplicate_threshold": 0.9,
        "max_message_chars": 80,
    }
