"""An "algorithm" in Python (agentlightning 0.3.0) that drives a TypeScript worker through a LightningStore.

Usage:
    python e2e_algorithm.py --url <store-url> --rollouts N      # use an existing server (e.g. Arclight's)
    python e2e_algorithm.py --serve <port> --rollouts N         # serve upstream's own store on <port>

Publishes resources, enqueues N rollouts, waits for a worker to finish them (wait_for_rollouts, polled with
upstream's 0.1 s limit), then reads each rollout's reward with upstream's emitter helpers
(find_final_reward / get_reward_value). Prints "READY <url>" once the store is usable and one
"SUMMARY <json>" line at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from typing import Any, Dict, List

import agentlightning as agl
from agentlightning.emitter import find_final_reward, find_reward_spans, get_reward_value


async def drive(url: str, count: int, deadline_seconds: float) -> Dict[str, Any]:
    store = agl.LightningStoreClient(url)
    try:
        resources = await store.update_resources(
            "default",
            {
                "main_llm": agl.LLM(endpoint="http://llm.local/v1", model="qwen-0.5b", sampling_parameters={"temperature": 0.7}),
                "prompt": agl.PromptTemplate(template="Q: {question} A:", engine="f-string"),
            },
        )
        rollouts = await store.enqueue_many_rollouts(
            [
                agl.EnqueueRolloutRequest(
                    input={"question": f"What is {k}+{k}?", "k": k},
                    mode="train",
                    resources_id=resources.resources_id,
                    metadata={"algorithm": "python-e2e"},
                )
                for k in range(count)
            ]
        )
        ids = [r.rollout_id for r in rollouts]

        deadline = time.monotonic() + deadline_seconds
        finished: List[agl.Rollout] = []
        while time.monotonic() < deadline:
            finished = await store.wait_for_rollouts(rollout_ids=ids, timeout=0.1)
            if len(finished) == len(ids):
                break
            await asyncio.sleep(0.05)
        if len(finished) != len(ids):
            raise AssertionError(f"only {len(finished)} of {len(ids)} rollouts finished before the deadline")

        report: List[Dict[str, Any]] = []
        for rollout in finished:
            spans = list(await store.query_spans(rollout.rollout_id))
            reward_spans = find_reward_spans(spans)
            attempt = await store.get_latest_attempt(rollout.rollout_id)
            report.append(
                {
                    "rollout_id": rollout.rollout_id,
                    "k": rollout.input["k"],
                    "status": rollout.status,
                    "worker_id": attempt.worker_id if attempt else None,
                    "final_reward": find_final_reward(spans),
                    "last_reward_span_value": get_reward_value(reward_spans[-1]) if reward_spans else None,
                    "span_names": [s.name for s in spans],
                    "span_sequence_ids": [s.sequence_id for s in spans],
                    "prompt": next(
                        (s.attributes.get("gen_ai.prompt") for s in spans if "gen_ai.prompt" in s.attributes), None
                    ),
                }
            )
        return {"resources_id": resources.resources_id, "rollouts": report}
    finally:
        await store.close()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url")
    parser.add_argument("--serve", type=int)
    parser.add_argument("--rollouts", type=int, default=3)
    parser.add_argument("--deadline", type=float, default=180.0)
    args = parser.parse_args()

    server = None
    url = args.url
    if args.serve:
        server = agl.LightningStoreServer(
            agl.InMemoryLightningStore(thread_safe=True), host="127.0.0.1", port=args.serve, launch_mode="thread"
        )
        await server.start()
        url = f"http://127.0.0.1:{args.serve}"
    if not url:
        raise SystemExit("pass --url or --serve")
    print(f"READY {url}", flush=True)
    try:
        summary = await drive(url, args.rollouts, args.deadline)
    finally:
        if server is not None:
            await server.stop()
    print("SUMMARY " + json.dumps(summary), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
