"""Drives the Arclight gateway from Python the way upstream agentlightning (0.3.0) runners do, then adapts
the gateway's spans with upstream's own adapter.

Usage: upstream_roundtrip.py <store-url> <gateway-v1-endpoint> <model>

For a plain and a streamed chat call: starts a rollout in the store (upstream's client), routes the `openai` Python client
through upstream's `ProxyLLM.get_base_url(rollout_id, attempt_id)`, reads back the spans the gateway wrote to
the store over OTLP with upstream's `LightningStoreClient.query_spans`, and runs upstream's
`TracerTraceToTriplet` on them. Prints one line `SUMMARY <json>`.
"""

import asyncio
import json
import sys
import time

from agentlightning.adapter import TracerTraceToTriplet
from agentlightning.store.client_server import LightningStoreClient
from agentlightning.types import ProxyLLM
from openai import OpenAI

MESSAGES = [
    {"role": "system", "content": "You pick rooms."},
    {"role": "user", "content": "Which room has a projector?"},
]


def call(base_url, model, stream):
    client = OpenAI(base_url=base_url, api_key="unused", max_retries=0)
    if not stream:
        response = client.chat.completions.create(model=model, messages=MESSAGES)
        data = response.model_dump()
        return {
            "text": response.choices[0].message.content,
            "prompt_token_ids": data.get("prompt_token_ids"),
            "response_token_ids": data["choices"][0].get("token_ids"),
        }
    prompt_ids = None
    response_ids = []
    text = ""
    for chunk in client.chat.completions.create(model=model, messages=MESSAGES, stream=True):
        data = chunk.model_dump()
        prompt_ids = prompt_ids or data.get("prompt_token_ids")
        for choice in data["choices"]:
            response_ids += choice.get("token_ids") or []
            text += (choice.get("delta") or {}).get("content") or ""
    return {"text": text, "prompt_token_ids": prompt_ids, "response_token_ids": response_ids}


async def spans_of(store, rollout_id, timeout=60.0):
    deadline = time.monotonic() + timeout
    while True:
        spans = list(await store.query_spans(rollout_id))
        if any(span.name == "openai.chat.completion" for span in spans):
            return spans
        if time.monotonic() > deadline:
            raise TimeoutError(f"no gateway span for {rollout_id} after {timeout} s")
        await asyncio.sleep(0.2)


async def main(store_url, endpoint, model):
    store = LightningStoreClient(store_url)
    proxy = ProxyLLM(endpoint=endpoint, model=model)
    out = {}
    try:
        for mode in ("plain", "stream"):
            rollout = await store.start_rollout(input={"mode": mode})
            base_url = proxy.get_base_url(rollout.rollout_id, rollout.attempt.attempt_id)
            returned = call(base_url, model, mode == "stream")
            spans = await spans_of(store, rollout.rollout_id)
            triplets = TracerTraceToTriplet().adapt(spans)
            out[mode] = {
                "rollout_id": rollout.rollout_id,
                "base_url": base_url,
                "returned": returned,
                "span_names": sorted(span.name for span in spans),
                "span_rollouts": sorted({span.rollout_id for span in spans}),
                "triplets": [
                    {
                        "prompt_token_ids": t.prompt["token_ids"],
                        "response_token_ids": t.response["token_ids"],
                        "raw_prompt": t.prompt.get("raw_content"),
                    }
                    for t in triplets
                ],
            }
    finally:
        await store.close()
    print("SUMMARY " + json.dumps(out))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3]))
