"""Starts upstream agentlightning 0.3.0's LLMProxy (LiteLLM proxy) in front of a backend, for bench/latency.mjs.

Usage: upstream_llm_proxy.py <port> <backend-v1-url>

Serves `fixture-model` as `hosted_vllm/fixture-model` at the backend, recording into an in-memory store with the
default middlewares and callbacks (rollout_attempt, stream_conversion; return_token_ids, opentelemetry), and
prints READY once it answers. Runs until SIGTERM.
"""

import asyncio
import signal
import sys

from agentlightning.llm_proxy import LLMProxy
from agentlightning.store.memory import InMemoryLightningStore


async def main(port, backend):
    store = InMemoryLightningStore(thread_safe=True)
    proxy = LLMProxy(
        port=port,
        host="127.0.0.1",
        model_list=[
            {
                "model_name": "fixture-model",
                "litellm_params": {"model": "hosted_vllm/fixture-model", "api_base": backend},
            }
        ],
        store=store,
        launch_mode="thread",
    )
    await proxy.start()
    print("READY", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await proxy.stop()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), sys.argv[2]))
