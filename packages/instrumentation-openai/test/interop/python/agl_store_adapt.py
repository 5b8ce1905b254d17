"""Reads spans of @arclight/instrumentation-openai back from upstream's Python `agl store` and adapts them (agentlightning 0.3.0).

Usage: agl_store_adapt.py <store-url> <rollout-id>...

For each rollout: queries its spans with upstream's LightningStoreClient.query_spans, runs TracerTraceToTriplet
and TraceToMessages over them, reads the rewards with upstream's reward helpers and reports the rollout's status
as the store sees it. Prints one line `RESULT <json>` (one process: importing agentlightning is slow).
"""

import asyncio
import json
import sys

from agentlightning import LightningStoreClient
from agentlightning.adapter.messages import TraceToMessages
from agentlightning.adapter.triplet import TracerTraceToTriplet
from agentlightning.emitter import find_final_reward, find_reward_spans, get_reward_value


async def read_rollout(client, rollout_id):
    spans = list(await client.query_spans(rollout_id))
    rollout = await client.get_rollout_by_id(rollout_id)
    attempt = await client.get_latest_attempt(rollout_id)
    triplets = TracerTraceToTriplet().adapt(spans)
    messages = TraceToMessages().adapt(spans)
    return {
        "status": rollout.status if rollout else None,
        "attempt_status": attempt.status if attempt else None,
        "span_names": [span.name for span in spans],
        "span_ids": sorted({(span.rollout_id, span.attempt_id) for span in spans}),
        "llm_spans": [
            {
                "response_id": span.attributes.get("gen_ai.response.id"),
                "prompt_token_ids": span.attributes.get("prompt_token_ids"),
                "response_token_ids": span.attributes.get("response_token_ids"),
            }
            for span in spans
            if span.name == "openai.chat.completion"
        ],
        "triplets": [triplet.model_dump(mode="json") for triplet in triplets],
        "messages": json.loads(json.dumps(messages, default=str)),
        "final_reward": find_final_reward(spans),
        "reward_values": [get_reward_value(span) for span in find_reward_spans(spans)],
    }


async def main(url, rollout_ids):
    client = LightningStoreClient(url)
    try:
        return {rollout_id: await read_rollout(client, rollout_id) for rollout_id in rollout_ids}
    finally:
        await client.close()


if __name__ == "__main__":
    result = asyncio.run(main(sys.argv[1], sys.argv[2:]))
    print("RESULT " + json.dumps(result), flush=True)
