"""Record what Haystack itself does, as JSON fixtures toolwright's tests compare against (issue #33).

Runs each scenario below on one Haystack checkout (the one on PYTHONPATH) with a scripted chat
generator, and writes test/haystack/fixtures/<version>/<scenario>.json. See README.md beside this
file for the Haystack commits, how the environment was made and the command.
"""

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, Callable

import haystack
from haystack import component
from haystack.components.agents import Agent
from haystack.components.agents.state import State
from haystack.components.builders import ChatPromptBuilder
from haystack.dataclasses import ChatMessage, ImageContent, TextContent, ToolCall
from haystack.tools import Tool
from recorder_handlers import custom_merge

# A 1x1 PNG, so an image part can be built without a file.
PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="

SCENARIOS: dict[str, Callable[[], dict[str, Any]]] = {}


def scenario(name: str) -> Callable[[Callable[[], dict[str, Any]]], Callable[[], dict[str, Any]]]:
    """Register a scenario under the file name its fixture gets."""

    def register(fn: Callable[[], dict[str, Any]]) -> Callable[[], dict[str, Any]]:
        SCENARIOS[name] = fn
        return fn

    return register


@component
class ScriptedChatGenerator:
    """Answers each call with the next entry of its script (a list of replies), as Haystack's own agent tests' mocks do."""

    def __init__(self, script: list[list[ChatMessage]]) -> None:
        self.script = list(script)
        self.requests: list[list[dict[str, Any]]] = []

    @component.output_types(replies=list[ChatMessage])
    def run(self, messages: list[ChatMessage], tools: Any = None, **kwargs: Any) -> dict[str, Any]:
        self.requests.append([m.to_dict() for m in messages])
        if len(self.requests) > len(self.script):
            raise RuntimeError(f"ScriptedChatGenerator received call {len(self.requests)}, but its script has {len(self.script)} entries.")
        return {"replies": self.script[len(self.requests) - 1]}


def jsonable(value: Any) -> Any:
    """A JSON form of a value Haystack returned: ChatMessage and dataclasses through their to_dict, a Tool by its name."""
    if isinstance(value, (ChatMessage, ToolCall, TextContent, ImageContent, State)):
        return value.to_dict()
    if isinstance(value, Tool):
        return {"tool": value.name}
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return {"__repr__": repr(value), "__type__": type(value).__name__}


def error_of(error: BaseException) -> dict[str, Any]:
    """An exception as data: its class, message and the chain of causes."""
    out: dict[str, Any] = {"class": type(error).__name__, "message": str(error)}
    if error.__cause__ is not None:
        out["cause"] = error_of(error.__cause__)
    return out


def user(text: str) -> ChatMessage:
    return ChatMessage.from_user(text)


def calls(*tool_calls: tuple[str, dict[str, Any], str]) -> ChatMessage:
    """An assistant reply calling tools: (name, arguments, id) each."""
    return ChatMessage.from_assistant(tool_calls=[ToolCall(tool_name=n, arguments=a, id=i) for n, a, i in tool_calls])


def obj_schema(**props: str) -> dict[str, Any]:
    return {"type": "object", "properties": {k: {"type": t} for k, t in props.items()}, "required": list(props)}


def search_tool() -> Tool:
    """The plain search tool several scenarios give the Agent."""
    return Tool(name="search", description="Search.", parameters=obj_schema(query="string"), function=lambda query: f"results for {query}")


def run_agent(
    *,
    script: list[list[ChatMessage]],
    messages: list[ChatMessage],
    agent_kwargs: dict[str, Any],
    run_kwargs: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Build and run an Agent on the scripted replies; record the construction or run outcome."""
    generator = ScriptedChatGenerator(script)
    record: dict[str, Any] = {
        "input": {"messages": [m.to_dict() for m in messages], "run_kwargs": jsonable(run_kwargs or {})},
        "script": [[m.to_dict() for m in entry] for entry in script],
    }
    try:
        agent = Agent(chat_generator=generator, **agent_kwargs)
    except Exception as error:  # the construction outcome is the behaviour being recorded
        record["construction_error"] = error_of(error)
        return record
    try:
        result = agent.run(messages=messages, **(run_kwargs or {}))
    except Exception as error:
        record["run_error"] = error_of(error)
        record["model_calls"] = len(generator.requests)
        return record
    record["model_calls"] = len(generator.requests)
    record["result"] = {k: jsonable(v) for k, v in result.items() if k != "last_message"}
    record["result_keys"] = sorted(result.keys())
    return record


def fail(message: str) -> Callable[..., Any]:
    def boom(*args: Any, **kwargs: Any) -> Any:
        raise ValueError(message)

    boom.__name__ = "boom"
    return boom


# ---------------------------------------------------------------- run semantics


@scenario("exit-tool-succeeds-other-exit-tool-fails")
def exit_tool_succeeds_other_fails() -> dict[str, Any]:
    finish = Tool(name="finish", description="Finish.", parameters=obj_schema(answer="string"), function=lambda answer: f"final: {answer}")
    abort = Tool(name="abort", description="Abort.", parameters=obj_schema(reason="string"), function=fail("abort failed"))
    return run_agent(
        script=[[calls(("finish", {"answer": "42"}, "c1"), ("abort", {"reason": "x"}, "c2"))], [ChatMessage.from_assistant("after the failed exit")]],
        messages=[user("go")],
        agent_kwargs={"tools": [finish, abort], "exit_conditions": ["finish", "abort"]},
    )


@scenario("no-tools-empty-reply")
def no_tools_empty_reply() -> dict[str, Any]:
    return run_agent(
        script=[[ChatMessage.from_assistant("")], [ChatMessage.from_assistant("second call")]],
        messages=[user("hi")],
        agent_kwargs={},
    )


@scenario("tools-empty-reply")
def tools_empty_reply() -> dict[str, Any]:
    search = search_tool()
    return run_agent(
        script=[[ChatMessage.from_assistant("")], [ChatMessage.from_assistant("second call")]],
        messages=[user("hi")],
        agent_kwargs={"tools": [search]},
    )


@scenario("whitespace-only-reply")
def whitespace_only_reply() -> dict[str, Any]:
    search = search_tool()
    return run_agent(
        script=[[ChatMessage.from_assistant("  \n ")], [ChatMessage.from_assistant("second call")]],
        messages=[user("hi")],
        agent_kwargs={"tools": [search]},
    )


@scenario("exit-condition-names-run-time-tool")
def exit_condition_names_run_time_tool() -> dict[str, Any]:
    search = search_tool()
    finish = Tool(name="finish", description="Finish.", parameters=obj_schema(answer="string"), function=lambda answer: f"final: {answer}")
    return run_agent(
        script=[[calls(("finish", {"answer": "42"}, "c1"))], [ChatMessage.from_assistant("not reached")]],
        messages=[user("go")],
        agent_kwargs={"tools": [search], "exit_conditions": ["finish"]},
        run_kwargs={"tools": [search, finish]},
    )


@scenario("read-after-write-reader-requested-first")
def read_after_write() -> dict[str, Any]:
    reader = Tool(
        name="read_note",
        description="Read the note.",
        parameters={"type": "object", "properties": {}},
        function=lambda note: f"note is {note}",
        inputs_from_state={"note": "note"},
    )
    writer = Tool(
        name="write_note",
        description="Write the note.",
        parameters=obj_schema(text="string"),
        function=lambda text: {"note": text},
        outputs_to_state={"note": {"source": "note"}},
    )
    record = run_agent(
        script=[[calls(("read_note", {}, "c1"), ("write_note", {"text": "new"}, "c2"))], [ChatMessage.from_assistant("done")]],
        messages=[user("go")],
        agent_kwargs={"tools": [reader, writer], "state_schema": {"note": {"type": str}}},
        run_kwargs={"note": "old"},
    )
    record["note"] = "read_note (inputs_from_state note) is requested before write_note (outputs_to_state note) in one step; state note starts as 'old'."
    return record


@scenario("unknown-tool-error-position")
def unknown_tool_error_position() -> dict[str, Any]:
    search = search_tool()
    lookup = Tool(name="lookup", description="Look up.", parameters=obj_schema(key="string"), function=lambda key: f"value of {key}")
    return run_agent(
        script=[[calls(("search", {"query": "a"}, "c1"), ("nope", {}, "c2"), ("lookup", {"key": "b"}, "c3"))], [ChatMessage.from_assistant("done")]],
        messages=[user("go")],
        agent_kwargs={"tools": [search, lookup]},
    )


def throwing_merge(current: Any, new: Any) -> Any:
    """A state merge handler that always fails."""
    raise ValueError("merge failed")


@scenario("schema-merge-handler-throws")
def schema_merge_handler_throws() -> dict[str, Any]:
    add = Tool(
        name="add_item",
        description="Add an item.",
        parameters=obj_schema(item="string"),
        function=lambda item: {"items": [item]},
        outputs_to_state={"items": {"source": "items"}},
    )
    return run_agent(
        script=[[calls(("add_item", {"item": "a"}, "c1"))], [ChatMessage.from_assistant("done")]],
        messages=[user("go")],
        agent_kwargs={"tools": [add], "state_schema": {"items": {"type": list[str], "handler": throwing_merge}}, "raise_on_tool_invocation_failure": False},
    )


@scenario("outputs-to-state-handler-throws")
def outputs_to_state_handler_throws() -> dict[str, Any]:
    add = Tool(
        name="add_item",
        description="Add an item.",
        parameters=obj_schema(item="string"),
        function=lambda item: {"items": [item]},
        outputs_to_state={"items": {"source": "items", "handler": throwing_merge}},
    )
    return run_agent(
        script=[[calls(("add_item", {"item": "a"}, "c1"))], [ChatMessage.from_assistant("done")]],
        messages=[user("go")],
        agent_kwargs={"tools": [add], "state_schema": {"items": {"type": list[str]}}, "raise_on_tool_invocation_failure": False},
    )


@scenario("outputs-to-string-handler-throws")
def outputs_to_string_handler_throws() -> dict[str, Any]:
    lookup = Tool(
        name="lookup",
        description="Look up.",
        parameters=obj_schema(key="string"),
        function=lambda key: {"value": f"v-{key}", "count": 2},
        outputs_to_string={"source": "value", "handler": fail("format failed")},
    )
    return run_agent(
        script=[[calls(("lookup", {"key": "k"}, "c1"))], [ChatMessage.from_assistant("done")]],
        messages=[user("go")],
        agent_kwargs={"tools": [lookup], "raise_on_tool_invocation_failure": False},
    )


# ---------------------------------------------------------------- the older Differences from Haystack (items 1-5)


@scenario("model-argument-overrides-inputs-from-state")
def model_overrides_inputs_from_state() -> dict[str, Any]:
    """Item 1: the model sends a value for a parameter inputs_from_state fills."""
    lookup = Tool(
        name="lookup",
        description="Look up an order.",
        parameters=obj_schema(order="string"),
        function=lambda order, user_id: f"order {order} of {user_id}",
        inputs_from_state={"user": "user_id"},
    )
    return run_agent(
        script=[[calls(("lookup", {"order": "o-1", "user_id": "someone-else"}, "c1"))], [ChatMessage.from_assistant("done")]],
        messages=[user("go")],
        agent_kwargs={"tools": [lookup], "state_schema": {"user": {"type": str}}},
        run_kwargs={"user": "u-1"},
    )


@scenario("parameter-named-like-state-key")
def parameter_named_like_state_key() -> dict[str, Any]:
    """Item 2: a tool without inputs_from_state whose function has a parameter named like a state key."""

    def lookup(order: str, user: str = "nobody") -> str:
        return f"order {order} of {user}"

    tool_ = Tool(name="lookup", description="Look up an order.", parameters=obj_schema(order="string"), function=lookup)
    return run_agent(
        script=[[calls(("lookup", {"order": "o-1"}, "c1"))], [ChatMessage.from_assistant("done")]],
        messages=[user("go")],
        agent_kwargs={"tools": [tool_], "state_schema": {"user": {"type": str}}},
        run_kwargs={"user": "u-1"},
    )


@scenario("arguments-not-matching-schema")
def arguments_not_matching_schema() -> dict[str, Any]:
    """Item 3: the model sends a string for an integer parameter and leaves out a required one."""
    repeat = Tool(
        name="repeat",
        description="Repeat a word.",
        parameters=obj_schema(word="string", times="integer"),
        function=lambda word="?", times=1: f"{type(times).__name__}: " + " ".join([word] * (times if isinstance(times, int) else 2)),
    )
    return run_agent(
        script=[[calls(("repeat", {"times": "2"}, "c1"))], [ChatMessage.from_assistant("done")]],
        messages=[user("go")],
        agent_kwargs={"tools": [repeat]},
    )


@scenario("tool-error-with-injected-value")
def tool_error_with_injected_value() -> dict[str, Any]:
    """Item 4: a tool filled from state fails; what the model is told."""
    def charge_card(amount: int, card_number: str) -> str:
        raise ValueError("card declined")

    charge = Tool(name="charge", description="Charge the card.", parameters=obj_schema(amount="integer"), function=charge_card, inputs_from_state={"card": "card_number"})
    return run_agent(
        script=[[calls(("charge", {"amount": 5}, "c1"))], [ChatMessage.from_assistant("done")]],
        messages=[user("go")],
        agent_kwargs={"tools": [charge], "state_schema": {"card": {"type": str}}},
        run_kwargs={"card": "4111-1111-1111-1111"},
    )


@scenario("state-value-of-another-type")
def state_value_of_another_type() -> dict[str, Any]:
    """Item 5: a tool writes a number into a str key, and the run starts with a key the schema lacks."""
    count = Tool(
        name="count",
        description="Count.",
        parameters={"type": "object", "properties": {}},
        function=lambda: {"total": 3},
        outputs_to_state={"label": {"source": "total"}},
    )
    record = run_agent(
        script=[[calls(("count", {}, "c1"))], [ChatMessage.from_assistant("done")]],
        messages=[user("go")],
        agent_kwargs={"tools": [count], "state_schema": {"label": {"type": str}}},
        run_kwargs={"label": "none yet"},
    )
    try:
        State(schema={"label": {"type": str}}, data={"label": "x", "unknown": 1})
        record["unknown_initial_key"] = "accepted"
    except Exception as error:
        record["unknown_initial_key"] = error_of(error)
    return record


# ---------------------------------------------------------------- features


def format_docs(docs: list[dict[str, Any]]) -> str:
    """The handler of the multi-output scenario: one line per document."""
    return "\n".join(f"- {d['title']}" for d in docs)


@scenario("multi-output-outputs-to-string")
def multi_output_outputs_to_string() -> dict[str, Any]:
    search = Tool(
        name="search",
        description="Search.",
        parameters=obj_schema(query="string"),
        function=lambda query: {"docs": [{"title": "Alpha"}, {"title": "Bét"}], "total": 2, "debug": "hidden"},
        outputs_to_string={"docs": {"source": "docs", "handler": format_docs}, "total": {"source": "total"}},
    )
    return run_agent(
        script=[[calls(("search", {"query": "q"}, "c1"))], [ChatMessage.from_assistant("done")]],
        messages=[user("go")],
        agent_kwargs={"tools": [search]},
    )


@scenario("raw-result-parts")
def raw_result_parts() -> dict[str, Any]:
    shot = Tool(
        name="screenshot",
        description="Take a screenshot.",
        parameters=obj_schema(url="string"),
        function=lambda url: [TextContent(text=f"shot of {url}"), ImageContent(base64_image=PNG_1X1, mime_type="image/png")],
        outputs_to_string={"raw_result": True},
    )
    return run_agent(
        script=[[calls(("screenshot", {"url": "https://example.com"}, "c1"))], [ChatMessage.from_assistant("done")]],
        messages=[user("go")],
        agent_kwargs={"tools": [shot]},
    )


@scenario("raw-result-dict")
def raw_result_dict() -> dict[str, Any]:
    lookup = Tool(
        name="lookup",
        description="Look up.",
        parameters=obj_schema(key="string"),
        function=lambda key: {"value": f"v-{key}", "count": 2},
        outputs_to_string={"raw_result": True},
    )
    return run_agent(
        script=[[calls(("lookup", {"key": "k"}, "c1"))], [ChatMessage.from_assistant("done")]],
        messages=[user("go")],
        agent_kwargs={"tools": [lookup]},
    )


MESSAGE_TEMPLATE = (
    '{% message role="system" %}You answer questions about {{ topic }}.{% endmessage %}\n'
    '{% message role="user" %}Hello {{ name }}!\nLine two.{% endmessage %}'
)


@scenario("chat-prompt-builder-message-blocks")
def chat_prompt_builder_message_blocks() -> dict[str, Any]:
    variables = {"topic": "rivers", "name": "Ada"}
    record: dict[str, Any] = {"input": {"template": MESSAGE_TEMPLATE, "variables": variables}}
    try:
        builder = ChatPromptBuilder(template=MESSAGE_TEMPLATE)
        record["prompt"] = [m.to_dict() for m in builder.run(**variables)["prompt"]]
        record["variables"] = sorted(builder.variables)
    except Exception as error:
        record["error"] = error_of(error)
    return record


@scenario("agent-user-prompt-message-block")
def agent_user_prompt_message_block() -> dict[str, Any]:
    generator_script = [[ChatMessage.from_assistant("hello back")]]
    record = run_agent(
        script=generator_script,
        messages=[],
        agent_kwargs={"user_prompt": '{% message role="user" %}Hello {{ name }}!{% endmessage %}', "system_prompt": "You help {{ name }}."},
        run_kwargs={"name": "Ada"},
    )
    return record


def usage(prompt: int, completion: int) -> dict[str, Any]:
    return {"usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}}


@scenario("usage-summed-and-tool-call-counts")
def usage_summed() -> dict[str, Any]:
    search = search_tool()
    lookup = Tool(name="lookup", description="Look up.", parameters=obj_schema(key="string"), function=lambda key: f"value of {key}")
    first = ChatMessage.from_assistant(tool_calls=[ToolCall(tool_name="search", arguments={"query": "a"}, id="c1"), ToolCall(tool_name="search", arguments={"query": "b"}, id="c2")], meta=usage(10, 5))
    second = ChatMessage.from_assistant(tool_calls=[ToolCall(tool_name="search", arguments={"query": "c"}, id="c3")], meta=usage(20, 7))
    final = ChatMessage.from_assistant("done", meta=usage(30, 2))
    record = run_agent(script=[[first], [second], [final]], messages=[user("go")], agent_kwargs={"tools": [search, lookup]})
    missing = [key for key in ("token_usage", "tool_call_counts") if key not in record.get("result", {})]
    if missing:
        record["unsupported"] = f"the Agent's result has no {' and no '.join(missing)}"
    return record


@scenario("outputs-to-state-without-source-non-dict-result")
def outputs_to_state_without_source_non_dict() -> dict[str, Any]:
    listing = Tool(
        name="list_items",
        description="List items.",
        parameters={"type": "object", "properties": {}},
        function=lambda: ["a", "b"],
        outputs_to_state={"items": {}},
    )
    return run_agent(
        script=[[calls(("list_items", {}, "c1"))], [ChatMessage.from_assistant("done")]],
        messages=[user("go")],
        agent_kwargs={"tools": [listing], "state_schema": {"items": {"type": list[str]}}},
        run_kwargs={"items": ["start"]},
    )


# ---------------------------------------------------------------- JSON interop


def from_dict_record(data: dict[str, Any]) -> dict[str, Any]:
    record: dict[str, Any] = {"input": data}
    try:
        message = ChatMessage.from_dict(data)
    except Exception as error:
        record["error"] = error_of(error)
        return record
    record["to_dict"] = message.to_dict()
    record["texts"] = message.texts
    record["role"] = message.role.value
    return record


@scenario("chat-message-pre-2.9-content-string")
def pre_29_content_string() -> dict[str, Any]:
    return from_dict_record({"role": "user", "content": "Hello there", "name": None, "meta": {"lang": "en"}})


@scenario("chat-message-2.9-to-2.12-underscore-form")
def underscore_form() -> dict[str, Any]:
    return from_dict_record(
        {
            "_role": "assistant",
            "_content": [{"text": "Let me check."}, {"tool_call": {"tool_name": "search", "arguments": {"query": "x"}, "id": "c1"}}],
            "_name": None,
            "_meta": {"model": "m"},
        }
    )


@scenario("chat-message-flat-parts")
def flat_parts() -> dict[str, Any]:
    return from_dict_record(
        {
            "role": "assistant",
            "meta": {},
            "name": None,
            "content": [
                {"text": "Calling."},
                {"tool_name": "search", "arguments": {"query": "x"}, "id": "c1"},
                {"reasoning_text": "think", "extra": {}},
            ],
        }
    )


@scenario("chat-message-flat-tool-result")
def flat_tool_result() -> dict[str, Any]:
    return from_dict_record(
        {
            "role": "tool",
            "meta": {},
            "name": None,
            "content": [{"result": "42", "origin": {"tool_name": "search", "arguments": {"query": "x"}, "id": "c1"}, "error": False}],
        }
    )


@scenario("tool-call-extra-round-trip")
def tool_call_extra() -> dict[str, Any]:
    data = {
        "role": "assistant",
        "meta": {},
        "name": None,
        "content": [{"tool_call": {"tool_name": "search", "arguments": {"query": "x"}, "id": "c1", "extra": {"thought_signature": "c2ln"}}}],
    }
    record = from_dict_record(data)
    if "error" not in record:
        record["round_trip_equal"] = ChatMessage.from_dict(data).to_dict() == data
    return record


@scenario("tool-call-raw-string-arguments")
def tool_call_raw_string_arguments() -> dict[str, Any]:
    raw = '{"query": "x"'
    data = {"role": "assistant", "meta": {}, "name": None, "content": [{"tool_call": {"tool_name": "search", "arguments": raw, "id": "c1"}}]}
    record = from_dict_record(data)
    if "error" in record:
        return record
    message = ChatMessage.from_dict(data)
    record["arguments_type"] = type(message.tool_call.arguments).__name__
    try:
        record["openai_dict"] = message.to_openai_dict_format()
    except Exception as error:
        record["openai_dict_error"] = error_of(error)
    return record


@scenario("state-to-dict-from-dict")
def state_round_trip() -> dict[str, Any]:
    schema = {
        "name": {"type": str},
        "count": {"type": int, "handler": custom_merge},
        "tags": {"type": list[str]},
        "messages": {"type": list[ChatMessage]},
        "info": {"type": dict},
    }
    data = {
        "name": "Ada",
        "count": 3,
        "tags": ["a", "b"],
        "messages": [ChatMessage.from_user("hi"), ChatMessage.from_assistant("hello")],
        "info": {"k": [1, 2], "nested": {"x": True}},
    }
    record: dict[str, Any] = {"input": {"schema": {k: {"type": type_name(v["type"]), "handler": getattr(v.get("handler"), "__name__", None)} for k, v in schema.items()}, "data": jsonable(data)}}
    state = State(schema=schema, data=data)
    serialized = state.to_dict()
    record["to_dict"] = serialized
    try:
        restored = State.from_dict(json.loads(json.dumps(serialized)))
    except Exception as error:
        # main refuses a handler from a module not on its deserialization allowlist; record that, then allow this one.
        record["from_dict_error"] = error_of(error)
        from haystack.core.serialization_security import allow_deserialization_module

        allow_deserialization_module(custom_merge.__module__)
        record["from_dict_allowed_module"] = custom_merge.__module__
        restored = State.from_dict(json.loads(json.dumps(serialized)))
    record["from_dict_data"] = jsonable(restored.data)
    record["from_dict_types"] = {
        k: type(v).__name__ + (f"[{type(v[0]).__name__}]" if isinstance(v, list) and v else "") for k, v in restored.data.items()
    }
    record["from_dict_schema"] = {k: {"type": type_name(v["type"]), "handler": getattr(v.get("handler"), "__name__", None)} for k, v in restored.schema.items()}
    record["round_trip_to_dict_equal"] = restored.to_dict() == serialized
    return record


# ---------------------------------------------------------------- Agent YAML (import-haystack)


def agent_for_yaml(*, hooks: bool) -> Agent:
    """One Agent with every setting import-haystack converts, built the way this version takes them."""
    from haystack import Document
    from haystack.components.agents.state.state_utils import merge_lists
    from haystack.tools import Toolset, create_tool_from_function
    from recorder_tools import RecorderChatGenerator, add_note, finish, get_weather, keep_last, search_docs

    weather = create_tool_from_function(get_weather)
    search = create_tool_from_function(
        search_docs,
        inputs_from_state={"user": "user_id"},
        outputs_to_state={"documents": {"source": "documents", "handler": merge_lists}},
        outputs_to_string={"source": "summary"},
    )
    note = create_tool_from_function(add_note, outputs_to_state={"notes": {"source": "note", "handler": keep_last}})
    done = create_tool_from_function(finish)
    settings: dict[str, Any] = {
        "chat_generator": RecorderChatGenerator(model="recorded-model"),
        "tools": [weather, Toolset([search, note, done])],
        "system_prompt": "You help {{ user_name }}.",
        "user_prompt": '{% message role="user" %}Question: {{ query }}{% endmessage %}' if hooks else "Question: {{ query }}",
        "required_variables": "*",
        "state_schema": {"documents": {"type": list[Document]}, "notes": {"type": list[str], "handler": keep_last}, "user": {"type": str}},
        "exit_conditions": ["text", "finish"],
        "max_agent_steps": 10,
        "raise_on_tool_invocation_failure": False,
    }
    if hooks:
        from haystack.hooks.budget.hooks import TokenBudgetHook
        from haystack.hooks.human_in_the_loop.hooks import ConfirmationHook
        from haystack.hooks.human_in_the_loop.policies import AskOncePolicy
        from haystack.hooks.human_in_the_loop.strategies import BlockingConfirmationStrategy
        from haystack.hooks.human_in_the_loop.user_interfaces import SimpleConsoleUI

        strategy = BlockingConfirmationStrategy(confirmation_policy=AskOncePolicy(), confirmation_ui=SimpleConsoleUI())
        settings["tool_concurrency_limit"] = 3
        settings["hooks"] = {
            "before_tool": [ConfirmationHook(confirmation_strategies={"add_note": strategy})],
            "before_llm": [TokenBudgetHook(max_total_tokens=5000)],
        }
    else:
        from haystack.human_in_the_loop import AskOncePolicy, BlockingConfirmationStrategy, SimpleConsoleUI

        settings["tool_invoker_kwargs"] = {"max_workers": 3}
        settings["confirmation_strategies"] = {"add_note": BlockingConfirmationStrategy(confirmation_policy=AskOncePolicy(), confirmation_ui=SimpleConsoleUI())}
    return Agent(**settings)


def uses_hooks() -> bool:
    import inspect

    return "hooks" in inspect.signature(Agent.__init__).parameters


@scenario("agent-yaml")
def agent_yaml() -> dict[str, Any]:
    """Agent.to_dict() written by Haystack's YAML marshaller, as a Pipeline's component YAML is."""
    from haystack.marshal import YamlMarshaller

    hooks = uses_hooks()
    return {"form": "hooks" if hooks else "confirmation_strategies", "yaml": YamlMarshaller().marshal(agent_for_yaml(hooks=hooks).to_dict())}


@scenario("pipeline-yaml")
def pipeline_yaml() -> dict[str, Any]:
    """A Pipeline holding the Agent as its component 'assistant', dumped by Pipeline.dumps()."""
    from haystack import Pipeline
    from haystack.components.builders import ChatPromptBuilder as Builder

    hooks = uses_hooks()
    pipeline = Pipeline()
    pipeline.add_component("prompt", Builder(template=[ChatMessage.from_user("{{ query }}")], required_variables=["query"]))
    pipeline.add_component("assistant", agent_for_yaml(hooks=hooks))
    pipeline.connect("prompt.prompt", "assistant.messages")
    return {"form": "hooks" if hooks else "confirmation_strategies", "component": "assistant", "yaml": pipeline.dumps()}


def type_name(t: Any) -> str:
    """A schema type as written in code: str, list[str], dict."""
    return t.__name__ if isinstance(t, type) else str(t)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--version", required=True, help="the fixture folder name, e.g. main or v2.31.0")
    parser.add_argument("--commit", required=True, help="the Haystack commit the checkout on PYTHONPATH was made from")
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "fixtures"))
    parser.add_argument("scenarios", nargs="*", help="scenario names (default: all)")
    args = parser.parse_args()
    if os.environ.get("HAYSTACK_TELEMETRY_ENABLED") != "False":
        sys.exit("Set HAYSTACK_TELEMETRY_ENABLED=False before recording.")
    haystack_root = Path(haystack.__file__).resolve().parent.parent
    haystack_version = (haystack_root / "VERSION.txt").read_text().strip()
    out = Path(args.out) / args.version
    out.mkdir(parents=True, exist_ok=True)
    for name in args.scenarios or list(SCENARIOS):
        record = SCENARIOS[name]()
        fixture = {"scenario": name, "haystack": {"version": haystack_version, "commit": args.commit}, **record}
        (out / f"{name}.json").write_text(json.dumps(fixture, indent=2, ensure_ascii=False) + "\n")
        print(f"{args.version}/{name}.json")


if __name__ == "__main__":
    main()
