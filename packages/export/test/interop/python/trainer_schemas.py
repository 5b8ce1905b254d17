"""What the trainers accept, encoded as checks (TRL itself needs torch and OpenPipe ART a GPU stack, so their
documented rules are replicated here; OpenAI's shapes come from the `openai` package's own types).

Sources: huggingface/trl docs/source/dataset_formats.md (conversational rows, `is_conversational`), TRL
sft_trainer.py (pre-tokenized `input_ids` + `assistant_masks`), OpenPipe ART src/art/trajectories.py
(Trajectory / TrajectoryGroup), OpenAI fine-tuning docs (SFT `messages` + `weight`, DPO `input` /
`preferred_output` / `non_preferred_output`).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Union

import pydantic
from openai.types.chat import ChatCompletionMessageParam, ChatCompletionToolParam
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

ROLES = {"system", "user", "assistant", "tool"}
MESSAGE = TypeAdapter(ChatCompletionMessageParam)
TOOL = TypeAdapter(ChatCompletionToolParam)


class SchemaError(Exception):
    pass


def require(condition: bool, message: str) -> None:
    if not condition:
        raise SchemaError(message)


# --------------------------------------------------------------------------------------------- TRL


def trl_is_conversational(example: Dict[str, Any]) -> bool:
    """TRL's `is_conversational`: a message list under one of the known keys, dicts with role and content."""
    for key in ("prompt", "chosen", "rejected", "completion", "messages"):
        value = example.get(key)
        if isinstance(value, list) and value and isinstance(value[0], dict):
            if "role" in value[0] and "content" in value[0]:
                return True
    return False


def check_trl_messages(messages: Any, where: str, *, tool_args_object: bool = True) -> None:
    require(isinstance(messages, list) and len(messages) > 0, f"{where}: expected a non-empty message list")
    for i, message in enumerate(messages):
        require(isinstance(message, dict), f"{where}[{i}]: not a dict")
        require(message.get("role") in ROLES, f"{where}[{i}].role: {message.get('role')!r}")
        require("content" in message, f"{where}[{i}]: no content key (TRL needs role and content)")
        for call in message.get("tool_calls") or []:
            require(call.get("type") == "function", f"{where}[{i}].tool_calls: type must be function")
            args = call["function"]["arguments"]
            if tool_args_object:
                require(isinstance(args, dict), f"{where}[{i}]: TRL tool-call arguments must be objects")


def check_trl_tools(tools: Any, where: str) -> None:
    if tools is None:
        return
    for tool in tools:
        require(tool.get("type") == "function" and tool["function"].get("name"), f"{where}: bad tool {tool}")


# ------------------------------------------------------------------------------------------ OpenAI


def openai_message(message: Dict[str, Any], where: str) -> Dict[str, Any]:
    """Validates one fine-tuning message with openai's own param types (`weight` is the SFT extra)."""
    stripped = {k: v for k, v in message.items() if k != "weight"}
    if "weight" in message:
        require(message["role"] == "assistant", f"{where}: weight only on assistant messages")
        require(message["weight"] in (0, 1), f"{where}: weight must be 0 or 1")
    try:
        MESSAGE.validate_python(stripped)
    except pydantic.ValidationError as error:
        raise SchemaError(f"{where}: not a ChatCompletionMessageParam: {error}") from error
    for call in stripped.get("tool_calls") or []:
        require(isinstance(call["function"]["arguments"], str), f"{where}: OpenAI arguments must be strings")
    return stripped


def openai_tools(tools: Any, where: str) -> None:
    for tool in tools or []:
        try:
            TOOL.validate_python(tool)
        except pydantic.ValidationError as error:
            raise SchemaError(f"{where}: not a ChatCompletionToolParam: {error}") from error
