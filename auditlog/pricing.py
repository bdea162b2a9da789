"""What a model call cost, estimated from its token counts and the public list prices.

An estimate, not a bill: list prices in US dollars per million tokens, as the model's
vendor publishes them for its API (docs/transcripts.md has the table and its limits:
no discounts, batch or subscription plans, no long-context surcharges, no server tools).
A model not in the table gets no cost, only its tokens: a wrong figure would be worse
than none. Standard library only (the index computes it as it adds a turn).
"""

from __future__ import annotations

import re

# model: (input, output, cache write 5 min, cache write 1 h, cache read), USD per 1M tokens.
# Cache writes are 1.25x (5 min) and 2x (1 h) the input price, cache reads 0.1x.
PRICES: dict[str, tuple[float, float, float, float, float]] = {
    "claude-opus-4-6": (5.0, 25.0, 6.25, 10.0, 0.50),
    "claude-opus-4-5": (5.0, 25.0, 6.25, 10.0, 0.50),
    "claude-opus-4-1": (15.0, 75.0, 18.75, 30.0, 1.50),
    "claude-opus-4": (15.0, 75.0, 18.75, 30.0, 1.50),
    "claude-sonnet-4-5": (3.0, 15.0, 3.75, 6.0, 0.30),
    "claude-sonnet-4": (3.0, 15.0, 3.75, 6.0, 0.30),
    "claude-3-7-sonnet": (3.0, 15.0, 3.75, 6.0, 0.30),
    "claude-3-5-sonnet": (3.0, 15.0, 3.75, 6.0, 0.30),
    "claude-haiku-4-5": (1.0, 5.0, 1.25, 2.0, 0.10),
    "claude-3-5-haiku": (0.80, 4.0, 1.0, 1.6, 0.08),
    "claude-3-opus": (15.0, 75.0, 18.75, 30.0, 1.50),
    "claude-3-haiku": (0.25, 1.25, 0.30, 0.50, 0.03),
}
# Decorations around a model id that do not change its price: a release date, a cloud
# provider's prefix and version suffix, a context-window tag.
_PREFIX = re.compile(r"^(?:[a-z]{2,6}\.)?(?:anthropic[./])?")
_SUFFIX = re.compile(r"(?:[-@]\d{8}|-latest)?(?:-v\d+(?::\d+)?)?(?:\[[^\]]*\])?$")


def price_key(model: str | None) -> str | None:
    """The table's name for ``model`` (``claude-sonnet-4-5-20250929`` → ``claude-sonnet-4-5``)."""
    if not model:
        return None
    name = _SUFFIX.sub("", _PREFIX.sub("", model.strip().lower()), count=1)
    return name if name in PRICES else None


def tokens(usage: dict) -> tuple[int, int, int, int, int]:
    """(input, output, cache write 5 min, cache write 1 h, cache read) of a turn's usage;
    cache writes not split by duration count as 5-minute ones (the default)."""
    def count(key: str) -> int:
        value = usage.get(key)
        return value if isinstance(value, int) and value > 0 else 0

    split = usage.get("cache_creation") if isinstance(usage.get("cache_creation"), dict) else {}
    hour = split.get("ephemeral_1h_input_tokens") if isinstance(split.get("ephemeral_1h_input_tokens"), int) else 0
    written = count("cache_creation_input_tokens")
    return count("input_tokens"), count("output_tokens"), max(written - hour, 0), hour, count("cache_read_input_tokens")


def cost_usd(model: str | None, usage: dict) -> float | None:
    """The estimated cost of one turn, or ``None`` when the model's price is unknown."""
    key = price_key(model)
    if key is None:
        return None
    return sum(n * price for n, price in zip(tokens(usage), PRICES[key], strict=True)) / 1_000_000
