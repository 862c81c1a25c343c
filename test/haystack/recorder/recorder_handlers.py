"""State handlers the recorder's scenarios use, in an importable module so State.from_dict can find them by name."""

from typing import Any


def custom_merge(current: Any, new: Any) -> Any:
    """A custom state handler: keeps the larger number."""
    return max(current or 0, new)
