"""Upstream's side of runner-bench.mjs: agentlightning 0.3.0's Trainer with ClientServerExecutionStrategy
(its LightningStoreServer over an InMemoryLightningStore, N runner processes with LightningStoreClient) running a
no-op `@rollout` agent. Same measurement as the TypeScript bench: wait until every runner has registered, publish one
resources update, enqueue
ROLLOUTS rollouts at once, time until all are finished.

Usage: python upstream_runner_bench.py <runners> <rollouts>
Prints one line: RESULT {"runners": n, "rollouts": n, "succeeded": n, "seconds": s, "cpu": CPU seconds}
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
import time

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import agentlightning as agl  # noqa: E402
import psutil  # noqa: E402 - a dependency of agentlightning (system snapshots)


def cpu_seconds() -> float:
    """CPU seconds used so far by this process and its runner processes."""
    total = 0.0
    me = psutil.Process()
    for proc in [me, *me.children(recursive=True)]:
        try:
            times = proc.cpu_times()
            total += times.user + times.system
        except psutil.Error:
            pass
    return total

RUNNERS = int(sys.argv[1])
ROLLOUTS = int(sys.argv[2])


class Noop(agl.LitAgent):
    """Does nothing (the `@rollout` decorator requires an `llm` or `prompt_template` parameter)."""

    async def training_rollout_async(self, task, resources, rollout):  # noqa: ARG002
        return None

    async def validation_rollout_async(self, task, resources, rollout):  # noqa: ARG002
        return None


@agl.algo
async def timed(*, store) -> None:
    while len((await store.query_workers())) < RUNNERS:
        await asyncio.sleep(0.02)
    await store.update_resources("default", {"prompt": agl.PromptTemplate(template="noop", engine="f-string")})
    cpu_before = cpu_seconds()
    started = time.perf_counter()
    await store.enqueue_many_rollouts([agl.EnqueueRolloutRequest(input=i) for i in range(ROLLOUTS)])

    async def finished(statuses):
        return (await store.query_rollouts(status_in=statuses, limit=1)).total

    while await finished(["succeeded", "failed", "cancelled"]) < ROLLOUTS:
        await asyncio.sleep(0.01)
    seconds = time.perf_counter() - started
    cpu = cpu_seconds() - cpu_before
    succeeded = await finished(["succeeded"])
    result = {"runners": RUNNERS, "rollouts": ROLLOUTS, "succeeded": succeeded, "seconds": seconds, "cpu": cpu}
    print("RESULT " + json.dumps(result), flush=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def main() -> None:
    port = int(os.environ.get("AGL_SERVER_PORT") or free_port())
    os.environ["AGL_SERVER_PORT"] = str(port)
    trainer = agl.Trainer(
        n_runners=RUNNERS,
        algorithm=timed,
        tracer=agl.OtelTracer(),
        runner=agl.LitAgentRunner(
            tracer=agl.OtelTracer(), poll_interval=0.05, interval_jitter=0.01, heartbeat_interval=5.0
        ),
        strategy=agl.ClientServerExecutionStrategy(
            n_runners=RUNNERS, server_host="127.0.0.1", server_port=port, graceful_timeout=10.0
        ),
    )
    trainer.fit(Noop())


if __name__ == "__main__":
    main()
