"""Upstream's Python LightningStoreClient (agentlightning 0.3.0) against an Arclight server.

Usage: python client_scenario.py <server-url>

Calls every client method, asserts the results, then exports OpenTelemetry spans (a plain span with an event
and an `emit_reward` annotation) through upstream's OtelTracer / LightningStoreOTLPExporter into the
server's /v1/traces. Prints one JSON summary line (prefixed with SUMMARY) for the TypeScript test.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any, Dict, List

import agentlightning as agl
from opentelemetry.trace import Status, StatusCode

CHECKS: List[str] = []


def check(condition: Any, what: str) -> None:
    if not condition:
        raise AssertionError(what)
    CHECKS.append(what)


def make_span(rollout_id: str, attempt_id: str, sequence_id: int, span_id: str, name: str) -> agl.Span:
    return agl.Span.from_attributes(
        attributes={"tool.name": "search", "tool.calls": 2, "tags": ["a", "b"]},
        rollout_id=rollout_id,
        attempt_id=attempt_id,
        sequence_id=sequence_id,
        name=name,
        trace_id="4bf92f3577b34da6a3ce929d0e0e4736",
        span_id=span_id,
        start_time=1_700_000_100.25,
        end_time=1_700_000_101.5,
    )


async def rollouts_and_queue(store: agl.LightningStoreClient, summary: Dict[str, Any]) -> None:
    config = agl.RolloutConfig(max_attempts=2, retry_condition=["failed"])
    queued = await store.enqueue_rollout(input={"q": 1}, mode="train", config=config, metadata={"k": "v"})
    check(queued.status == "queuing" and queued.input == {"q": 1}, "enqueue_rollout returns a queuing rollout")
    check(queued.config.max_attempts == 2 and queued.metadata == {"k": "v"}, "enqueue_rollout keeps config/metadata")

    many = await store.enqueue_many_rollouts(
        [agl.EnqueueRolloutRequest(input={"q": 2}), agl.EnqueueRolloutRequest(input={"q": 3}, mode="val")]
    )
    check([r.input for r in many] == [{"q": 2}, {"q": 3}], "enqueue_many_rollouts preserves order")

    got = await store.dequeue_rollout(worker_id="py-worker")
    check(got is not None and got.rollout_id == queued.rollout_id, "dequeue_rollout is FIFO")
    check(got.attempt.sequence_id == 1 and got.attempt.worker_id == "py-worker", "dequeue creates attempt #1")
    check(got.status == "preparing", "dequeued rollout is preparing")

    batch = await store.dequeue_many_rollouts(limit=5, worker_id="py-worker")
    check([r.rollout_id for r in batch] == [r.rollout_id for r in many], "dequeue_many_rollouts takes the rest")
    check(await store.dequeue_rollout() is None, "dequeue_rollout on an empty queue is None")

    started = await store.start_rollout(input="direct", mode="test", metadata={"m": 1}, worker_id="py-worker")
    check(started.status == "preparing" and started.attempt.status == "preparing", "start_rollout bypasses the queue")

    retried = await store.start_attempt(started.rollout_id, worker_id="py-worker-2")
    check(retried.attempt.sequence_id == 2 and retried.attempt.worker_id == "py-worker-2", "start_attempt adds #2")

    bare = await store.start_attempt(many[1].rollout_id)  # no worker: upstream's client sends no body
    check(bare.attempt.sequence_id == 2 and bare.attempt.worker_id is None, "start_attempt without a worker")

    attempts = await store.query_attempts(started.rollout_id)
    check([a.sequence_id for a in attempts] == [1, 2] and attempts.total == 2, "query_attempts lists both attempts")
    latest = await store.get_latest_attempt(started.rollout_id)
    check(latest is not None and latest.attempt_id == retried.attempt.attempt_id, "get_latest_attempt is #2")

    fetched = await store.get_rollout_by_id(started.rollout_id)
    check(isinstance(fetched, agl.AttemptedRollout) and fetched.attempt.sequence_id == 2, "get_rollout_by_id")
    check(await store.get_rollout_by_id("ro-does-not-exist") is None, "get_rollout_by_id(unknown) is None")
    check(await store.get_latest_attempt("ro-does-not-exist") is None, "get_latest_attempt(unknown) is None")

    page = await store.query_rollouts(status_in=["preparing"], sort_by="start_time", sort_order="asc")
    check(len(page) == 4 and page.total == 4, "query_rollouts(status_in=preparing) finds 4 rollouts")
    page = await store.query_rollouts(rollout_id_in=[queued.rollout_id, started.rollout_id], limit=1, offset=1)
    check(len(page) == 1 and page.total == 2 and page.limit == 1 and page.offset == 1, "query_rollouts paginates")
    page = await store.query_rollouts(rollout_id_contains=started.rollout_id[3:9])
    check(any(r.rollout_id == started.rollout_id for r in page), "query_rollouts(rollout_id_contains)")

    updated = await store.update_rollout(started.rollout_id, metadata={"m": 2}, mode=None)
    check(updated.metadata == {"m": 2} and updated.mode is None, "update_rollout applies set keys, None clears")
    check(updated.input == "direct", "update_rollout leaves unset keys unchanged")

    done = await store.update_attempt(queued.rollout_id, got.attempt.attempt_id, status="succeeded", metadata={"r": 1})
    check(done.status == "succeeded" and done.end_time is not None, "update_attempt(succeeded) sets end_time")
    after = await store.get_rollout_by_id(queued.rollout_id)
    check(after is not None and after.status == "succeeded", "rollout status follows its latest attempt")

    failed = await store.update_attempt(many[0].rollout_id, "latest", status="failed")
    check(failed.status == "failed", "update_attempt accepts 'latest'")

    finished = await store.wait_for_rollouts(rollout_ids=[queued.rollout_id, many[1].rollout_id], timeout=0.1)
    check([r.rollout_id for r in finished] == [queued.rollout_id], "wait_for_rollouts returns the finished subset")
    finished = await store.wait_for_rollouts(rollout_ids=[many[0].rollout_id, "ro-unknown"], timeout=0)
    check([r.status for r in finished] == ["failed"], "wait_for_rollouts(timeout=0) drops unknown ids")
    try:
        await store.wait_for_rollouts(rollout_ids=[queued.rollout_id], timeout=5)
        check(False, "upstream's client refuses wait timeouts above 0.1 s")
    except ValueError:
        check(True, "upstream's client refuses wait timeouts above 0.1 s")

    summary["rollouts"] = {"queued": queued.rollout_id, "started": started.rollout_id}


async def resources(store: agl.LightningStoreClient, summary: Dict[str, Any]) -> None:
    first = await store.add_resources(
        {
            "main_llm": agl.LLM(endpoint="http://llm.local/v1", model="qwen", sampling_parameters={"temperature": 0.2}),
            "prompt": agl.PromptTemplate(template="Solve {task}", engine="f-string"),
        }
    )
    check(first.version == 1 and first.resources_id.startswith("rs-"), "add_resources creates version 1")
    check(isinstance(first.resources["main_llm"], agl.LLM), "resources come back typed (LLM)")
    check(isinstance(first.resources["prompt"], agl.PromptTemplate), "resources come back typed (PromptTemplate)")

    second = await store.update_resources(first.resources_id, {"main_llm": agl.LLM(endpoint="http://b", model="m2")})
    check(second.version == 2 and second.resources_id == first.resources_id, "update_resources bumps the version")
    upserted = await store.update_resources("default", {"proxy": agl.ProxyLLM(endpoint="http://p/v1", model="m")})
    check(upserted.version == 1 and upserted.resources_id == "default", "update_resources upserts unknown ids")
    check(isinstance(upserted.resources["proxy"], agl.ProxyLLM), "ProxyLLM survives the round trip")

    latest = await store.get_latest_resources()
    check(latest is not None and latest.resources_id == "default", "get_latest_resources is the last written")
    by_id = await store.get_resources_by_id(first.resources_id)
    check(by_id is not None and by_id.version == 2, "get_resources_by_id")
    check(await store.get_resources_by_id("rs-missing") is None, "get_resources_by_id(unknown) is None")

    listed = await store.query_resources(sort_by="resources_id", sort_order="desc")
    check(listed.total == 2 and len(listed) == 2, "query_resources lists both snapshots")
    listed = await store.query_resources(resources_id="default")
    check([r.resources_id for r in listed] == ["default"], "query_resources(resources_id)")
    listed = await store.query_resources(resources_id_contains="rs-")
    check([r.resources_id for r in listed] == [first.resources_id], "query_resources(resources_id_contains)")
    summary["resources_id"] = first.resources_id


async def spans(store: agl.LightningStoreClient, summary: Dict[str, Any]) -> None:
    rollout = await store.start_rollout(input="spans")
    rid, aid = rollout.rollout_id, rollout.attempt.attempt_id

    seq = await store.get_next_span_sequence_id(rid, aid)
    check(seq == 1, "get_next_span_sequence_id starts at 1")
    stored = await store.add_span(make_span(rid, aid, seq, "00f067aa0ba902b7", "py.add_span"))
    check(stored is not None and stored.sequence_id == 1, "add_span stores the span")
    check(stored.attributes["tags"] == ["a", "b"], "add_span keeps array attributes")
    dup = await store.add_span(make_span(rid, aid, seq, "00f067aa0ba902b7", "py.add_span"))
    check(dup is None, "add_span of a duplicate returns None")

    many = await store.add_many_spans(
        [make_span(rid, aid, 5, "00f067aa0ba902b8", "py.many.1"), make_span(rid, aid, 6, "00f067aa0ba902b9", "py.many.2")]
    )
    check(len(many) == 2, "add_many_spans stores both")
    check(await store.get_next_span_sequence_id(rid, aid) == 7, "explicit sequence ids push the counter")
    ids = await store.get_many_span_sequence_ids([(rid, aid), (rid, aid)])
    check(list(ids) == [8, 9], "get_many_span_sequence_ids allocates in order")

    # add_otel_span with a real SDK ReadableSpan.
    from opentelemetry.sdk.trace import TracerProvider

    provider = TracerProvider()
    with provider.get_tracer("scenario").start_as_current_span("py.otel", attributes={"x": 1}) as otel_span:
        otel_span.add_event("thinking", {"step": 1})
        otel_span.set_status(Status(StatusCode.OK))
    converted = await store.add_otel_span(rid, aid, otel_span)
    check(converted is not None and converted.sequence_id == 10, "add_otel_span allocates the next sequence id")
    check(converted.events[0].name == "thinking", "add_otel_span keeps events")

    page = await store.query_spans(rid)
    check(page.total == 4 and [s.sequence_id for s in page] == [1, 5, 6, 10], "query_spans sorted by sequence_id")
    page = await store.query_spans(rid, "latest", name_contains="many", sort_by="name", sort_order="desc")
    check([s.name for s in page] == ["py.many.2", "py.many.1"], "query_spans(latest, name_contains, desc)")
    page = await store.query_spans(rid, aid, span_id="00f067aa0ba902b7")
    check([s.name for s in page] == ["py.add_span"], "query_spans(span_id)")
    page = await store.query_spans(rid, name="py.otel", span_id="00f067aa0ba902b7", filter_logic="or")
    check(page.total == 2, "query_spans(filter_logic=or)")
    page = await store.query_spans(rid, limit=2, offset=1)
    check(len(page) == 2 and page.total == 4, "query_spans paginates")

    attempt = await store.get_latest_attempt(rid)
    check(attempt is not None and attempt.status == "running", "a span is a heartbeat (attempt running)")
    summary["spans_rollout"] = rid


async def workers(store: agl.LightningStoreClient, summary: Dict[str, Any]) -> None:
    worker = await store.update_worker("py-hb", heartbeat_stats={"cpu_usage_pct": 12.5, "host": "h"})
    check(worker.worker_id == "py-hb" and worker.last_heartbeat_time is not None, "update_worker stamps heartbeat")
    check(worker.heartbeat_stats == {"cpu_usage_pct": 12.5, "host": "h"}, "update_worker stores heartbeat_stats")
    again = await store.update_worker("py-hb")  # no stats: upstream's client sends no body
    check(again.heartbeat_stats == {"cpu_usage_pct": 12.5, "host": "h"}, "update_worker without stats keeps them")

    got = await store.get_worker_by_id("py-worker-2")
    check(got is not None and got.status == "busy", "get_worker_by_id: the worker of a running attempt is busy")
    check(await store.get_worker_by_id("nobody") is None, "get_worker_by_id(unknown) is None")

    page = await store.query_workers()
    names = sorted(w.worker_id for w in page)
    check(names == ["py-hb", "py-worker", "py-worker-2"], "query_workers lists every worker")
    page = await store.query_workers(status_in=["busy"], sort_by="worker_id")
    check([w.worker_id for w in page] == ["py-worker-2"], "query_workers(status_in)")
    page = await store.query_workers(worker_id_contains="hb")
    check([w.worker_id for w in page] == ["py-hb"], "query_workers(worker_id_contains)")

    stats = await store.statistics()
    check(stats["total_rollouts"] >= 5 and stats["total_workers"] == 3, "statistics counts rollouts and workers")
    summary["statistics"] = {k: stats[k] for k in ("total_rollouts", "total_spans", "total_workers")}


async def otlp_export(store: agl.LightningStoreClient, summary: Dict[str, Any]) -> None:
    """Spans from upstream's own tracer: OtelTracer exports through LightningStoreOTLPExporter to /v1/traces."""
    rollout = await store.start_rollout(input="otlp")
    rid, aid = rollout.rollout_id, rollout.attempt.attempt_id
    check(store.capabilities["otlp_traces"], "the client advertises OTLP, so the tracer exports natively")

    tracer = agl.OtelTracer()
    tracer.init_worker(0, store)
    try:
        async with tracer.trace_context("scenario", rollout_id=rid, attempt_id=aid) as otel_tracer:
            with otel_tracer.start_as_current_span("py.agent.step", attributes={"step": 1, "ok": True}) as span:
                span.add_event("tool_call", {"tool": "calculator"})
            agl.emit_reward(0.75)
        last = tracer.get_last_trace()
        check(any(s.name == "agentlightning.annotation" for s in last), "emit_reward recorded a span locally")
    finally:
        tracer.teardown_worker(0)

    page = await store.query_spans(rid)
    names = [s.name for s in page]
    check("py.agent.step" in names and "agentlightning.annotation" in names, "OTLP spans reached the server")
    check(sorted(s.sequence_id for s in page) == [1, 2], "the server allocated sequence ids for OTLP spans")
    check(agl.find_final_reward(list(page)) == 0.75, "find_final_reward reads the OTLP reward span")
    step = next(s for s in page if s.name == "py.agent.step")
    check(step.events[0].name == "tool_call" and step.attributes["step"] == 1, "OTLP keeps events and attributes")
    check(step.resource.attributes.get("agentlightning.rollout_id") == rid, "resource attribution survives")
    summary["otlp"] = {"rollout_id": rid, "attempt_id": aid, "span_names": sorted(names), "reward": 0.75}


async def main(url: str) -> None:
    store = agl.LightningStoreClient(url, retry_delays=(0.2,), health_retry_delays=(0.1,))
    summary: Dict[str, Any] = {}
    try:
        check(await store.dequeue_rollout() is None, "dequeue_rollout on a fresh store is None")
        await rollouts_and_queue(store, summary)
        await resources(store, summary)
        await spans(store, summary)
        await workers(store, summary)
        await otlp_export(store, summary)
    finally:
        await store.close()
    summary["checks"] = len(CHECKS)
    summary["ok"] = True
    print("SUMMARY " + json.dumps(summary), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
