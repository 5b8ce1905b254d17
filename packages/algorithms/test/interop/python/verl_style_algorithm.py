"""A Python Agent Lightning (agentlightning 0.3.0) algorithm driving TypeScript runners the way upstream's VERL
daemon (`agentlightning/verl/daemon.py`, store mode "v1") does, without the GPU part:

1. publish `{"main_llm": ProxyLLM(...)}` (what `LLMProxy.as_resource()` returns) plus a prompt template;
2. enqueue the tasks with `metadata={"data_id": <uuid>, "is_train": True}`;
3. poll `wait_for_rollouts(timeout=0)` until all are finished;
4. per rollout: `query_spans(rollout_id, attempt_id="latest")` -> `TracerTraceToTriplet().adapt(spans)`, the final
   reward as the daemon takes it (last non-None triplet reward) and as `find_final_reward` reads it, and the
   triplets' token ids (what VERL trains on).

Usage: python verl_style_algorithm.py --url http://127.0.0.1:<port> --llm http://127.0.0.1:<proxy> --rollouts N
Prints one "SUMMARY <json>" line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
import uuid
from typing import Any, Dict, List

import agentlightning as agl
from agentlightning.emitter import find_final_reward


async def drive(url: str, llm_endpoint: str, count: int, deadline_seconds: float) -> Dict[str, Any]:
    store = agl.LightningStoreClient(url)
    try:
        resources = await store.add_resources(
            {
                "main_llm": agl.ProxyLLM(
                    endpoint=llm_endpoint, model="fixture-model", sampling_parameters={"temperature": 0.7}
                ),
                "prompt": agl.PromptTemplate(template="Answer with a number only. What is {a} + {b}?", engine="f-string"),
            }
        )
        requests = []
        for k in range(count):
            requests.append(
                agl.EnqueueRolloutRequest(
                    input={"a": k, "b": k, "k": k},
                    mode="train",
                    resources_id=resources.resources_id,
                    metadata={"data_id": str(uuid.uuid4()), "is_train": True},
                )
            )
        rollouts = await store.enqueue_many_rollouts(requests)
        ids = [r.rollout_id for r in rollouts]

        deadline = time.monotonic() + deadline_seconds
        finished: List[agl.Rollout] = []
        while time.monotonic() < deadline:
            finished = await store.wait_for_rollouts(rollout_ids=ids, timeout=0.0)
            if len(finished) == len(ids):
                break
            await asyncio.sleep(0.2)
        if len(finished) != len(ids):
            raise AssertionError(f"only {len(finished)} of {len(ids)} rollouts finished before the deadline")

        adapter = agl.TracerTraceToTriplet()
        report: List[Dict[str, Any]] = []
        for rollout in finished:
            spans = list(await store.query_spans(rollout.rollout_id, attempt_id="latest"))
            triplets = adapter.adapt(spans)
            daemon_reward = next((t.reward for t in reversed(triplets) if t.reward is not None), None)
            attempt = await store.get_latest_attempt(rollout.rollout_id)
            report.append(
                {
                    "rollout_id": rollout.rollout_id,
                    "attempt_id": attempt.attempt_id if attempt else None,
                    "k": rollout.input["k"],
                    "status": rollout.status,
                    "worker_id": attempt.worker_id if attempt else None,
                    "final_reward": find_final_reward(spans),
                    "daemon_reward": daemon_reward,
                    "span_names": [s.name for s in spans],
                    "triplets": [
                        {
                            "prompt_ids": list(t.prompt.get("token_ids", [])),
                            "response_ids": list(t.response.get("token_ids", [])),
                            "reward": t.reward,
                        }
                        for t in triplets
                    ],
                }
            )
        return {"resources_id": resources.resources_id, "rollouts": report}
    finally:
        await store.close()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--llm", required=True)
    parser.add_argument("--rollouts", type=int, default=4)
    parser.add_argument("--deadline", type=float, default=120.0)
    args = parser.parse_args()
    summary = await drive(args.url, args.llm, args.rollouts, args.deadline)
    print("SUMMARY " + json.dumps(summary), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
