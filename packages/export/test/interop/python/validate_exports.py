"""Validates @arclight/export outputs the way their consumers read them, in one process.

Usage: python validate_exports.py MANIFEST.json
MANIFEST: {"outputs": [{"format", "path", "name"?, "rows"?, "groups"?: [[rollout ids of one task], ...],
"row_groups"?}]}. Prints `RESULT {json}` ({name or format: {"ok", "rows", "error"}}) and exits 1 if any check
failed.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from typing import Any, Callable, Dict, List

import pyarrow as pa
import pyarrow.parquet as pq
from datasets import load_dataset
from trainer_schemas import (
    SchemaError,
    check_trl_messages,
    check_trl_tools,
    openai_message,
    openai_tools,
    require,
    trl_is_conversational,
)

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "python"))
import verl_rows  # noqa: E402  (the documented loader, packages/export/python/verl_rows.py)

VERL_SCHEMA = pa.schema(
    [
        pa.field("uid", pa.string(), nullable=False),
        pa.field("data_id", pa.string(), nullable=False),
        pa.field("rollout_id", pa.string(), nullable=False),
        pa.field("attempt_id", pa.string()),
        pa.field("mode", pa.string()),
        pa.field("level", pa.string(), nullable=False),
        pa.field("turn_index", pa.int32(), nullable=False),
        pa.field("turn_indices", pa.list_(pa.field("element", pa.int32(), nullable=False)), nullable=False),
        pa.field("agent_name", pa.string()),
        pa.field("prompt_ids", pa.list_(pa.field("element", pa.int32(), nullable=False)), nullable=False),
        pa.field("response_ids", pa.list_(pa.field("element", pa.int32(), nullable=False)), nullable=False),
        pa.field("response_mask", pa.list_(pa.field("element", pa.int32(), nullable=False)), nullable=False),
        pa.field("rollout_log_probs", pa.list_(pa.field("element", pa.float64(), nullable=False))),
        pa.field("reward", pa.float64(), nullable=False),
    ]
)


def dataset_rows(path: str) -> List[Dict[str, Any]]:
    """Loads JSONL the way TRL users do (Arrow infers one schema for all rows, or fails)."""
    return load_dataset("json", data_files=path, split="train").to_list()


def check_groups(rows: List[Dict[str, Any]], groups: List[List[str]]) -> None:
    """Rows of rollouts of one task share one uid; different tasks have different uids."""
    uid_of: Dict[str, str] = {}
    for row in rows:
        require(row["uid"] == row["data_id"], "uid must equal data_id")
        previous = uid_of.setdefault(row["rollout_id"], row["uid"])
        require(previous == row["uid"], f"rollout {row['rollout_id']} has two uids")
    seen = set()
    for group in groups:
        uids = {uid_of[r] for r in group if r in uid_of}
        require(len(uids) <= 1, f"rollouts {group} of one task have uids {uids}")
        require(not (uids & seen), f"uid {uids} shared by two tasks")
        seen |= uids


def check_verl_rows(rows: List[Dict[str, Any]], entry: Dict[str, Any]) -> None:
    for row in rows:
        n = len(row["response_ids"])
        require(len(row["response_mask"]) == n, "response_mask length != response_ids length")
        require(set(row["response_mask"]) <= {0, 1} and 1 in row["response_mask"], "mask must be 0/1, some 1")
        require(row["rollout_log_probs"] is None or len(row["rollout_log_probs"]) == n, "logprob length")
        require(row["turn_indices"][0] == row["turn_index"], "turn_index != turn_indices[0]")
        if row["level"] == "transition":
            require(len(row["turn_indices"]) == 1 and all(m == 1 for m in row["response_mask"]), "transition")
    check_groups(rows, entry.get("groups", []))
    arrays = verl_rows.rows_to_arrays(rows, max_prompt_length=256, max_response_length=256, pad_token_id=0)
    require(arrays["input_ids"].shape == (len(rows), 512), "input_ids shape")
    for i, row in enumerate(rows):
        last = len(row["response_ids"]) - 1
        require(float(arrays["token_level_scores"][i, last]) == float(row["reward"]), "reward position")
        require(int(arrays["response_mask"][i].sum()) == sum(row["response_mask"]), "response_mask tensor")
    require(list(arrays["uid"]) == [r["uid"] for r in rows], "uid non-tensor")


def verl_parquet(entry: Dict[str, Any]) -> int:
    schema = pq.read_schema(entry["path"])
    require(schema.remove_metadata().equals(VERL_SCHEMA), f"parquet schema differs:\n{schema}")
    if "row_groups" in entry:
        groups = pq.ParquetFile(entry["path"]).metadata.num_row_groups
        require(groups == entry["row_groups"], f"{groups} row groups, expected {entry['row_groups']}")
    rows = pq.read_table(entry["path"]).to_pylist()
    check_verl_rows(rows, entry)
    return len(rows)


def verl_jsonl(entry: Dict[str, Any]) -> int:
    rows = dataset_rows(entry["path"])
    check_verl_rows(rows, entry)
    return len(rows)


def triplets(entry: Dict[str, Any]) -> int:
    with open(entry["path"], encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    for row in rows:
        for key in ("rollout_id", "attempt_id", "task_id", "mode", "turn_index", "agent_name", "reward"):
            require(key in row, f"missing {key}")
        require(isinstance(row["prompt"]["token_ids"], list), "prompt.token_ids")
        logprobs = row["response"]["logprobs"]
        require(logprobs is None or len(logprobs) == len(row["response"]["token_ids"]), "logprobs length")
    table = pa.Table.from_pylist([{k: r[k] for k in ("rollout_id", "turn_index", "reward")} for r in rows])
    require(table.num_rows == len(rows), "arrow")
    return len(rows)


def trl_sft(entry: Dict[str, Any]) -> int:
    rows = dataset_rows(entry["path"])
    for row in rows:
        require(trl_is_conversational(row), "not conversational")
        check_trl_messages(row["messages"], "messages")
        require(any(m["role"] == "assistant" for m in row["messages"]), "no assistant turn")
        check_trl_tools(row.get("tools"), "tools")
    return len(rows)


def trl_sft_tokens(entry: Dict[str, Any]) -> int:
    rows = dataset_rows(entry["path"])
    for row in rows:
        require(set(row) == {"input_ids", "assistant_masks"}, f"columns {set(row)}")
        require(len(row["input_ids"]) == len(row["assistant_masks"]), "mask length")
        require(set(row["assistant_masks"]) <= {0, 1} and 1 in row["assistant_masks"], "mask values")
        require(row["assistant_masks"][0] == 0, "prompt tokens must not be trained")
    return len(rows)


def trl_dpo(entry: Dict[str, Any]) -> int:
    rows = dataset_rows(entry["path"])
    for row in rows:
        require(set(row) - {"tools"} == {"prompt", "chosen", "rejected"}, f"columns {set(row)}")
        check_trl_tools(row.get("tools"), "tools")
        require(trl_is_conversational(row), "not conversational")
        for key in ("prompt", "chosen", "rejected"):
            check_trl_messages(row[key], key)
        require(row["prompt"][-1]["role"] != "assistant", "prompt must end before the reply")
        require(row["chosen"][0]["role"] == "assistant" == row["rejected"][0]["role"], "replies first")
        require(row["chosen"] != row["rejected"], "chosen == rejected")
    return len(rows)


def trl_kto(entry: Dict[str, Any]) -> int:
    rows = dataset_rows(entry["path"])
    for row in rows:
        require(set(row) - {"tools"} == {"prompt", "completion", "label"}, f"columns {set(row)}")
        check_trl_tools(row.get("tools"), "tools")
        require(isinstance(row["label"], bool), "label must be bool")
        check_trl_messages(row["prompt"], "prompt")
        check_trl_messages(row["completion"], "completion")
        require(row["completion"][0]["role"] == "assistant", "completion starts with the reply")
    require({True, False} <= {r["label"] for r in rows}, "KTO needs desirable and undesirable examples")
    return len(rows)


def trl_prompt(entry: Dict[str, Any]) -> int:
    rows = dataset_rows(entry["path"])
    task_ids = [r["task_id"] for r in rows]
    require(len(set(task_ids)) == len(task_ids), "one row per task")
    for row in rows:
        check_trl_messages(row["prompt"], "prompt")
        require(row["prompt"][-1]["role"] != "assistant", "prompt-only rows end before the reply")
        json.loads(row["task_input"])
    return len(rows)


def verl_chat(entry: Dict[str, Any]) -> int:
    """verl-sft / verl-rlhf: nested Parquet read back by pyarrow as lists of message dicts (verl reads it so)."""
    table = pq.read_table(entry["path"])
    key = "messages" if entry["format"] == "verl-sft" else "prompt"
    require(pa.types.is_list(table.schema.field(key).type), f"{key} must be a list column")
    rows = table.to_pylist()
    for row in rows:
        for m in row[key]:
            require(isinstance(m["role"], str) and isinstance(m["content"], str), "role and text content")
        if entry["format"] == "verl-rlhf":
            require(isinstance(row["data_source"], str), "data_source")
            require(isinstance(row["reward_model"]["ground_truth"], str), "reward_model.ground_truth")
            require(isinstance(row["extra_info"]["index"], int), "extra_info.index")
        for tool in row.get("tools") or []:
            require(tool["type"] == "function" and isinstance(tool["function"]["name"], str), "tool")
    return len(rows)


def openai_sft(entry: Dict[str, Any]) -> int:
    rows = dataset_rows(entry["path"])
    for row in rows:
        messages = [openai_message({k: v for k, v in m.items() if v is not None or k == "content"}, "msg")
                    for m in row["messages"]]
        require(any(m.get("weight") == 1 for m in row["messages"]), "nothing to train")
        require(messages[-1]["role"] == "assistant", "SFT example must end with an assistant message")
        openai_tools(row.get("tools"), "tools")
    return len(rows)


def openai_dpo(entry: Dict[str, Any]) -> int:
    with open(entry["path"], encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    for row in rows:
        require(set(row) == {"input", "preferred_output", "non_preferred_output"}, f"keys {set(row)}")
        for m in row["input"]["messages"]:
            openai_message(m, "input")
        require(row["input"]["messages"][-1]["role"] != "assistant", "input ends before the reply")
        openai_tools(row["input"].get("tools"), "tools")
        for key in ("preferred_output", "non_preferred_output"):
            require(len(row[key]) == 1 and row[key][0]["role"] == "assistant", f"{key}: one assistant message")
            openai_message(row[key][0], key)
        require(row["preferred_output"] != row["non_preferred_output"], "identical outputs")
    return len(rows)


CHECKS: Dict[str, Callable[[Dict[str, Any]], int]] = {
    "triplets": triplets,
    "verl-jsonl": verl_jsonl,
    "verl-parquet": verl_parquet,
    "verl-trajectory-jsonl": verl_jsonl,
    "verl-trajectory-parquet": verl_parquet,
    "trl-sft": trl_sft,
    "trl-sft-tokens": trl_sft_tokens,
    "trl-dpo": trl_dpo,
    "trl-kto": trl_kto,
    "trl-prompt": trl_prompt,
    "verl-sft": verl_chat,
    "verl-rlhf": verl_chat,
    "openai-sft": openai_sft,
    "openai-dpo": openai_dpo,
}


def main() -> int:
    with open(sys.argv[1], encoding="utf-8") as f:
        manifest = json.load(f)
    results: Dict[str, Any] = {}
    for entry in manifest["outputs"]:
        try:
            rows = CHECKS[entry["format"]](entry)
            if "rows" in entry:
                require(rows == entry["rows"], f"{rows} rows read, {entry['rows']} written")
            results[entry.get("name", entry["format"])] = {"ok": True, "rows": rows, "error": None}
        except (SchemaError, Exception) as error:  # noqa: BLE001 — every failure is reported per format
            detail = "".join(traceback.format_exception_only(type(error), error)).strip()
            results[entry.get("name", entry["format"])] = {"ok": False, "rows": None, "error": detail[-2000:]}
    print("RESULT " + json.dumps(results))
    return 0 if all(r["ok"] for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
