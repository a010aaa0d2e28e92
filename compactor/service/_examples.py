"""The documented request examples the routes and their OpenAPI entries share."""

from __future__ import annotations

from typing import Any

#: The trim example of seeds/003: keep the last two messages of a five-message conversation.
TRIM_REQUEST_EXAMPLE: dict[str, Any] = {
    "messages": [
        {"role": "user", "content": "I need running shoes for trail races."},
        {"role": "assistant", "content": "Do you prefer more cushioning or more ground feel?"},
        {"role": "user", "content": "Cushioning. My budget is 150 USD."},
        {
            "role": "assistant",
            "content": "The Trailblazer 4 costs 139 USD and has a cushioned midsole.",
        },
        {"role": "user", "content": "Does it come in wide sizes?"},
    ],
    "keepLastMessages": 2,
}
