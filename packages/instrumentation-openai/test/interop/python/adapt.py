"""Runs upstream agentlightning 0.3.0's adapters over spans written by @arclight/instrumentation-openai.

Reads a JSON list of stored spans (the LightningStore wire format) on stdin and prints
{"triplets": [...], "messages": [...]} built by TracerTraceToTriplet and TraceToMessages.
"""

import json
import os
import sys

from agentlightning.adapter.messages import TraceToMessages
from agentlightning.adapter.triplet import TracerTraceToTriplet
from agentlightning.types import Span


def main() -> None:
    # The answer goes to the result channel (fd 3): whatever the libraries print cannot corrupt it.
    answer = os.fdopen(int(os.environ["ARCLIGHT_RESULT_FD"]), "w")
    spans = [Span.model_validate(item) for item in json.load(sys.stdin)]
    triplets = TracerTraceToTriplet().adapt(spans)
    messages = TraceToMessages().adapt(spans)
    json.dump(
        {
            "triplets": [triplet.model_dump(mode="json") for triplet in triplets],
            "messages": json.loads(json.dumps(messages, default=str)),
        },
        answer,
    )
    answer.close()


if __name__ == "__main__":
    main()
