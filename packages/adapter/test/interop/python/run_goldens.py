"""Runs upstream agentlightning 0.3.0's adapters over the adapter golden traces, in one process.

stdin: {"cases": [{"name", "spans", "triplet": [<TracerTraceToTriplet kwargs>, ...], "messages": bool}],
        "record": {"base_url": "<OpenAI-compatible server>"} | null}
stdout: {"results": {name: {"triplet": [<outcome>, ...], "messages": <outcome> | null}},
         "recorded": [<case recorded with upstream's own AgentOpsTracer, same shape as an input case>]}
An outcome is {"ok": <JSON>} or {"error": "<ExceptionType>: <message>"}.

With "record", upstream's AgentOpsTracer (its default tracer: AgentOps' OpenAI instrumentation plus Agent
Lightning's token-id patch) records rollouts of the real `openai` Python SDK talking to that server, into an
InMemoryLightningStore; the stored spans come back as extra cases, adapted by upstream like the others.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any, Callable, Dict, List

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import agentlightning as agl  # noqa: E402
from agentlightning.adapter.messages import TraceToMessages  # noqa: E402

TRIPLET_OPTIONS = [{}, {"reward_match": "first_sibling"}]


def _no_lazy_values(value: Any) -> Any:
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


def outcome(fn: Callable[[], Any]) -> Dict[str, Any]:
    try:
        return {"ok": fn()}
    except Exception as exc:  # noqa: BLE001 - every failure is an outcome to compare
        return {"error": f"{type(exc).__name__}: {exc}"}


def run_case(case: Dict[str, Any]) -> Dict[str, Any]:
    spans = [agl.Span.model_validate(item) for item in case["spans"]]

    def triplets(options: Dict[str, Any]) -> Callable[[], Any]:
        def run() -> Any:
            adapted = agl.TracerTraceToTriplet(**options).adapt(spans)
            return [triplet.model_dump(mode="json") for triplet in adapted]

        return run

    def messages() -> Any:
        return json.loads(json.dumps(TraceToMessages().adapt(spans), default=_no_lazy_values))

    return {
        "triplet": [outcome(triplets(options)) for options in case["triplet"]],
        "messages": outcome(messages) if case.get("messages", True) else None,
    }


async def record(base_url: str) -> List[Dict[str, Any]]:
    """Rollouts traced by upstream's AgentOpsTracer into its InMemoryLightningStore."""
    import openai
    from agentlightning.store.memory import InMemoryLightningStore

    store = InMemoryLightningStore()
    tracer = agl.AgentOpsTracer()
    tracer.init()
    tracer.init_worker(0, store)
    client = openai.AsyncOpenAI(base_url=base_url, api_key="unused", max_retries=0)
    token_ids = {"return_token_ids": True, "logprobs": True, "top_logprobs": 1}
    weather = {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Weather for a city",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        },
    }
    cases: List[Dict[str, Any]] = []
    try:
        rollout = await store.start_rollout(input={"task": "chat"})
        async with tracer.trace_context(
            "chat", rollout_id=rollout.rollout_id, attempt_id=rollout.attempt.attempt_id
        ):
            first = await client.chat.completions.create(
                model="fixture-model", messages=[{"role": "user", "content": "Hello"}], extra_body=token_ids
            )
            agl.emit_reward(0.25)
            await client.chat.completions.create(
                model="fixture-model",
                messages=[
                    {"role": "user", "content": "Hello"},
                    {"role": "assistant", "content": first.choices[0].message.content},
                    {"role": "user", "content": "And again?"},
                ],
                extra_body=token_ids,
            )
            agl.emit_reward({"task": 1.0, "style": 0.5}, primary_key="task")
        cases.append({"name": "python-agentops:chat", "rollout_id": rollout.rollout_id})

        rollout = await store.start_rollout(input={"task": "tools"})
        async with tracer.trace_context(
            "tools", rollout_id=rollout.rollout_id, attempt_id=rollout.attempt.attempt_id
        ):
            user = {"role": "user", "content": "Weather in Lima?"}
            first = await client.chat.completions.create(
                model="fixture-tools", messages=[user], tools=[weather], extra_body=token_ids
            )
            call = first.choices[0].message.tool_calls[0]
            await client.chat.completions.create(
                model="fixture-tools",
                messages=[
                    user,
                    {"role": "assistant", "content": None, "tool_calls": [call.model_dump()]},
                    {"role": "tool", "tool_call_id": call.id, "content": "sunny"},
                ],
                tools=[weather],
                extra_body=token_ids,
            )
            agl.emit_reward(1.0)
        cases.append({"name": "python-agentops:tools", "rollout_id": rollout.rollout_id})

        for case in cases:
            spans = await store.query_spans(case.pop("rollout_id"))
            case["spans"] = [span.model_dump(mode="json") for span in spans]
            case["triplet"] = TRIPLET_OPTIONS
            case["messages"] = True
    finally:
        tracer.teardown_worker(0)
        tracer.teardown()
    return cases


def main() -> None:
    # The answer goes to the result channel (fd 3): whatever the libraries print cannot corrupt it.
    answer = os.fdopen(int(os.environ["ARCLIGHT_RESULT_FD"]), "w")
    request = json.load(sys.stdin)
    recorded: List[Dict[str, Any]] = []
    if request.get("record"):
        recorded = asyncio.run(record(request["record"]["base_url"]))
    results = {case["name"]: run_case(case) for case in [*request["cases"], *recorded]}
    json.dump({"results": results, "recorded": recorded}, answer)
    answer.close()


if __name__ == "__main__":
    main()
