"""The tools, handler and generator of the recorder's YAML scenarios, in an importable module so
Agent.to_dict() can name them (a Tool's function is serialized as its dotted path)."""

from typing import Annotated, Any, Literal

from haystack import Document, component
from haystack.dataclasses import ChatMessage


def get_weather(city: Annotated[str, "The city to look up."], unit: Annotated[Literal["celsius", "fahrenheit"], "The unit."] = "celsius") -> str:
    """Get the current weather in a city."""
    return f"Sunny in {city} ({unit})"


def search_docs(query: Annotated[str, "What to search for."], user_id: str, top_k: Annotated[int, "How many documents."] = 3) -> dict[str, Any]:
    """Search the user's documents."""
    return {"documents": [Document(content=f"{query} for {user_id}")][:top_k], "summary": f"1 document for {query}"}


def add_note(note: Annotated[str, "The note's text."]) -> dict[str, Any]:
    """Add a note."""
    return {"note": [note]}


def finish(answer: Annotated[str, "The final answer."]) -> str:
    """Give the final answer."""
    return answer


def keep_last(current: Any, new: Any) -> Any:
    """A state handler: keeps the newest list only."""
    return new


@component
class RecorderChatGenerator:
    """A chat generator with settings only, so an Agent using it serializes (the scenarios never run it)."""

    def __init__(self, model: str = "recorded") -> None:
        self.model = model

    def to_dict(self) -> dict[str, Any]:
        return {"type": f"{type(self).__module__}.{type(self).__name__}", "init_parameters": {"model": self.model}}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "RecorderChatGenerator":
        return cls(**data["init_parameters"])

    @component.output_types(replies=list[ChatMessage])
    def run(self, messages: list[ChatMessage], tools: Any = None, **kwargs: Any) -> dict[str, Any]:
        raise RuntimeError("RecorderChatGenerator is for serialization only.")
