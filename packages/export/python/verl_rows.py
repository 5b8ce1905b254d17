"""Load @arclight/export verl rows into the tensors agent-lightning's VERL daemon builds (v0.3 `daemon.py`).

Rows come from `--format verl-parquet` / `verl-trajectory-parquet` (or the `-jsonl` variants). Padding follows
upstream: prompts left-padded to `max_prompt_length` (longer ones truncated and flagged in `is_drop_mask`, to be
dropped after advantage computation), responses right-padded/truncated to `max_response_length`, the reward on
the last valid token, `uid` = the task id (GRPO groups). Needs numpy and pyarrow; torch and verl only for
`to_data_proto`.

    import verl_rows
    rows = verl_rows.read_rows("data/verl.parquet")
    arrays = verl_rows.rows_to_arrays(rows, max_prompt_length=2048, max_response_length=8192, pad_token_id=0)
    batch = verl_rows.to_data_proto(arrays)          # verl.DataProto; then batch.non_tensor_batch["uid"] ...
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Sequence

import numpy as np

TENSOR_KEYS = (
    "prompts",
    "responses",
    "input_ids",
    "attention_mask",
    "position_ids",
    "response_mask",
    "token_level_scores",
    "is_drop_mask",
)


def read_rows(path: str) -> List[Dict[str, Any]]:
    """Rows of a verl Parquet (pyarrow) or JSONL export, as dicts."""
    if path.endswith(".parquet"):
        import pyarrow.parquet as pq

        return pq.read_table(path).to_pylist()
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _left_pad(ids: Sequence[int], length: int, pad: int) -> tuple[list[int], list[int]]:
    return [pad] * (length - len(ids)) + list(ids), [0] * (length - len(ids)) + [1] * len(ids)


def _right_pad(ids: Sequence[Any], length: int, pad: Any) -> tuple[list[Any], list[int]]:
    return list(ids) + [pad] * (length - len(ids)), [1] * len(ids) + [0] * (length - len(ids))


def rows_to_arrays(
    rows: Sequence[Dict[str, Any]], max_prompt_length: int, max_response_length: int, pad_token_id: int
) -> Dict[str, np.ndarray]:
    """The daemon's batch as numpy arrays (tensors) plus object arrays (non-tensor batch)."""
    prompts, prompt_masks, responses, response_attn, masks, logps, drops, scores = [], [], [], [], [], [], [], []
    has_logprobs = all(row.get("rollout_log_probs") is not None for row in rows)
    for row in rows:
        prompt = list(row["prompt_ids"])
        drops.append(len(prompt) > max_prompt_length)
        prompt = prompt[:max_prompt_length]
        response = list(row["response_ids"])[:max_response_length]
        mask = list(row["response_mask"])[:max_response_length]
        p, pm = _left_pad(prompt, max_prompt_length, pad_token_id)
        r, ra = _right_pad(response, max_response_length, pad_token_id)
        m, _ = _right_pad(mask, max_response_length, 0)
        prompts.append(p)
        prompt_masks.append(pm)
        responses.append(r)
        response_attn.append(ra)
        masks.append(m)
        if has_logprobs:
            lp, _ = _right_pad(list(row["rollout_log_probs"])[:max_response_length], max_response_length, 0.0)
            logps.append(lp)
        score = [0.0] * max_response_length
        if response:
            score[len(response) - 1] = float(row["reward"])  # reward on the last valid token
        scores.append(score)

    prompts_a = np.asarray(prompts, dtype=np.int64).reshape(len(rows), max_prompt_length)
    responses_a = np.asarray(responses, dtype=np.int64).reshape(len(rows), max_response_length)
    attention = np.concatenate(
        [
            np.asarray(prompt_masks, dtype=np.int64).reshape(len(rows), max_prompt_length),
            np.asarray(response_attn, dtype=np.int64).reshape(len(rows), max_response_length),
        ],
        axis=1,
    )
    arrays: Dict[str, np.ndarray] = {
        "prompts": prompts_a,
        "responses": responses_a,
        "input_ids": np.concatenate([prompts_a, responses_a], axis=1),
        "attention_mask": attention,
        "position_ids": np.clip(np.cumsum(attention, axis=1) - 1, 0, None),
        "response_mask": np.asarray(masks, dtype=np.int64).reshape(len(rows), max_response_length),
        "token_level_scores": np.asarray(scores, dtype=np.float32).reshape(len(rows), max_response_length),
        "is_drop_mask": np.asarray(drops, dtype=bool),
        "uid": np.asarray([row["uid"] for row in rows], dtype=object),
        "data_id_list": np.asarray([row["data_id"] for row in rows], dtype=object),
        "rollout_id_list": np.asarray([row["rollout_id"] for row in rows], dtype=object),
        "turn_index_list": np.asarray([row["turn_index"] for row in rows], dtype=object),
    }
    if has_logprobs:
        arrays["rollout_log_probs"] = np.asarray(logps, dtype=np.float32).reshape(len(rows), max_response_length)
    return arrays


def to_data_proto(arrays: Dict[str, np.ndarray]) -> Any:
    """A `verl.DataProto` (tensors from the numeric arrays, `non_tensor_batch` from the object arrays)."""
    import torch
    from verl import DataProto

    tensors = {k: torch.from_numpy(v) for k, v in arrays.items() if v.dtype != object}
    non_tensors = {k: v for k, v in arrays.items() if v.dtype == object}
    return DataProto.from_dict(tensors=tensors, non_tensors=non_tensors)
