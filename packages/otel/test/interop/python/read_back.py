"""Reads spans written by Arclight's tracer back through upstream agentlightning (0.3.0).

Usage: read_back.py <store-url> <cases.json> <rollout-id>...

For each rollout: queries its spans with upstream's LightningStoreClient.query_spans and applies upstream's
emitter readers (find_final_reward, get_reward_value, ...). For the encoding cases in cases.json: runs
upstream's emitters with propagate=False and reports the attributes they build. Prints one line
`SUMMARY <json>`.
"""

import asyncio
import json
import sys

from agentlightning.emitter import (
    emit_annotation,
    emit_message,
    emit_object,
    emit_reward,
    find_final_reward,
    find_reward_spans,
    get_message_value,
    get_object_value,
    get_reward_value,
    get_rewards_from_span,
    operation,
)
from agentlightning.store.client_server import LightningStoreClient
from agentlightning.utils.otel import make_link_attributes, make_tag_attributes


async def read_rollout(client, rollout_id):
    result = await client.query_spans(rollout_id)
    spans = list(result)
    return {
        "spans": [
            {
                "name": span.name,
                "rollout_id": span.rollout_id,
                "attempt_id": span.attempt_id,
                "sequence_id": span.sequence_id,
                "span_id": span.span_id,
                "parent_id": span.parent_id,
                "status": span.status.status_code,
                "attributes": dict(span.attributes),
                "resource": dict(span.resource.attributes),
            }
            for span in spans
        ],
        "final_reward": find_final_reward(spans),
        "reward_values": [get_reward_value(span) for span in find_reward_spans(spans)],
        "reward_dimensions": [
            [reward.model_dump() for reward in get_rewards_from_span(span)] for span in find_reward_spans(spans)
        ],
        "messages": [get_message_value(span) for span in spans if span.name == "agentlightning.message"],
        "objects": [get_object_value(span) for span in spans if span.name == "agentlightning.object"],
    }


def encode_case(case):
    kind = case["kind"]
    if kind == "reward":
        attributes = dict(case.get("attributes") or {})
        if case.get("links"):
            attributes.update(make_link_attributes(case["links"]))
        if case.get("tags"):
            attributes.update(make_tag_attributes(case["tags"]))
        span = emit_reward(
            case["value"], primary_key=case.get("primary_key"), attributes=attributes or None, propagate=False
        )
        return span.attributes
    if kind == "annotation":
        return emit_annotation(case["value"], propagate=False).attributes
    if kind == "message":
        # emit_message returns None upstream: capture what it hands to the (dummy) tracer instead.
        from agentlightning.tracer.dummy import DummyTracer

        captured = {}
        original = DummyTracer.create_span

        def capture(self, name, attributes=None, timestamp=None, status=None):
            captured["attributes"] = dict(attributes or {})
            return original(self, name, attributes, timestamp, status)

        DummyTracer.create_span = capture
        try:
            emit_message(case["value"], case.get("attributes"), propagate=False)
        finally:
            DummyTracer.create_span = original
        return captured["attributes"]
    if kind == "object":
        return emit_object(case["value"], case.get("attributes"), propagate=False).attributes
    if kind == "operation":
        with operation(propagate=False, **case["options"]) as op:
            op.set_input(*case.get("args", []), **case.get("kwargs", {}))
            op.set_output(case["output"])
        return op.span().attributes
    raise ValueError(f"unknown case kind {kind}")


async def main():
    url, cases_path, *rollout_ids = sys.argv[1:]
    with open(cases_path) as handle:
        cases = json.load(handle)
    client = LightningStoreClient(url)
    try:
        rollouts = {rollout_id: await read_rollout(client, rollout_id) for rollout_id in rollout_ids}
    finally:
        await client.close()
    encodings = [encode_case(case) for case in cases]
    print("SUMMARY " + json.dumps({"rollouts": rollouts, "encodings": encodings}), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
