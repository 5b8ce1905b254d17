"""Loads each @arclight/export output with the real consumer the README names and takes one training step with
a tiny random model (built from a config; no hub). Usage: python train_exports.py manifest.json result.json
manifest: {"outputs": [{"name": key, "format": name, "path": file}], "verl_rows": path to packages/export/python}
result: {key (default: the format): {"ok": bool, "error": str|null, "detail": {...}}}
"""
from __future__ import annotations

import json
import math
import os
import sys
import tempfile
import traceback
from typing import Any, Callable, Dict

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("WANDB_MODE", "disabled")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no network at import

import torch  # noqa: E402
from datasets import load_dataset  # noqa: E402

torch.manual_seed(0)
WORK = tempfile.mkdtemp(prefix="arclight-trainers-")

# A ChatML-like template that renders tools and tool calls and is a concatenation of per-message renderings.
CHAT_TEMPLATE = (
    "{%- if tools %}<|im_start|>system{{ '\\n' }}Tools: {{ tools | tojson }}<|im_end|>{{ '\\n' }}{%- endif %}"
    "{%- for m in messages %}<|im_start|>{{ m['role'] }}{{ '\\n' }}"
    "{%- if m['content'] is string %}{{ m['content'] }}{%- endif %}"
    "{%- if m['tool_calls'] %}{%- for c in m['tool_calls'] %}<tool_call>{{ c['function']['name'] }} "
    "{%- if c['function']['arguments'] is string %}{{ c['function']['arguments'] }}"
    "{%- else %}{{ c['function']['arguments'] | tojson }}{%- endif %}</tool_call>{%- endfor %}{%- endif %}"
    "<|im_end|>{{ '\\n' }}{%- endfor %}"
    "{%- if add_generation_prompt %}<|im_start|>assistant{{ '\\n' }}{%- endif %}"
)
SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|sentinel|>"]


def build_tokenizer():
    """Byte-level BPE without merges: every text round-trips; the specials sit at the top of the base vocab."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    byte_chars = pre_tokenizers.ByteLevel.alphabet()
    vocab = {ch: i for i, ch in enumerate(sorted(byte_chars))}
    for tok in SPECIALS:
        vocab[tok] = len(vocab)
    core = Tokenizer(models.BPE(vocab=vocab, merges=[]))
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    core.decoder = decoders.ByteLevel()
    tok = PreTrainedTokenizerFast(
        tokenizer_object=core,
        bos_token=None,
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
        additional_special_tokens=["<|im_start|>", "<|sentinel|>"],
    )
    tok.chat_template = CHAT_TEMPLATE
    return tok


TOKENIZER = build_tokenizer()
MAX_ID = 0  # the largest token id in the exported files, set in main()


def build_model():
    from transformers import LlamaConfig, LlamaForCausalLM

    vocab = max(len(TOKENIZER), MAX_ID + 1)
    config = LlamaConfig(
        vocab_size=vocab,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=8192,
        pad_token_id=TOKENIZER.pad_token_id,
        eos_token_id=TOKENIZER.eos_token_id,
        bos_token_id=None,
        tie_word_embeddings=True,
    )
    model = LlamaForCausalLM(config)
    # Trainers that build a reference model (DPO, KTO) load it from the policy's path: save it locally.
    path = os.path.join(WORK, f"model-{vocab}")
    if not os.path.exists(path):
        model.save_pretrained(path)
        TOKENIZER.save_pretrained(path)
    model.config._name_or_path = path
    model.name_or_path = path
    return model


def trl_args(cls, **extra):
    return cls(
        output_dir=os.path.join(WORK, cls.__name__),
        max_steps=1,
        per_device_train_batch_size=2,
        learning_rate=1e-3,
        report_to=[],
        logging_steps=1,
        save_strategy="no",
        use_cpu=True,
        dataloader_num_workers=0,
        **extra,
    )


def train_step(trainer) -> Dict[str, Any]:
    before = [p.detach().clone() for p in trainer.model.parameters()]
    out = trainer.train()
    changed = any(not torch.equal(a, b.detach()) for a, b in zip(before, trainer.model.parameters()))
    if not changed:
        raise AssertionError("the training step changed no weight")
    return {"steps": out.global_step, "loss": float(out.training_loss)}


def jsonl(path: str):
    return load_dataset("json", data_files=path, split="train")


def trl_sft(path: str) -> Dict[str, Any]:
    from trl import SFTConfig, SFTTrainer

    ds = jsonl(path)
    with_tools = sum(1 for row in ds if row.get("tools"))
    trainer = SFTTrainer(model=build_model(), args=trl_args(SFTConfig, max_length=2048), train_dataset=ds,
                         processing_class=TOKENIZER)
    return {**train_step(trainer), "rows": len(ds), "rows_with_tools": with_tools}


def trl_sft_tokens(path: str) -> Dict[str, Any]:
    from trl import SFTConfig, SFTTrainer

    ds = jsonl(path)
    trainer = SFTTrainer(model=build_model(), args=trl_args(SFTConfig, max_length=4096), train_dataset=ds,
                         processing_class=TOKENIZER)
    # TRL folds `assistant_masks` into `labels` (-100 = out of the loss): the prompt and the observation tokens
    # between merged calls must be exactly the tokens it leaves out.
    prepared = trainer.train_dataset
    masked = sum(sum(1 for m in row["assistant_masks"] if m == 0) for row in ds)
    ignored = sum(sum(1 for label in row["labels"] if label == -100) for row in prepared)
    return {**train_step(trainer), "rows": len(ds), "zero_mask_tokens": masked, "labels_ignored": ignored}


def trl_dpo(path: str) -> Dict[str, Any]:
    from trl import DPOConfig, DPOTrainer

    ds = jsonl(path)
    trainer = DPOTrainer(model=build_model(), args=trl_args(DPOConfig, max_length=2048), train_dataset=ds,
                         processing_class=TOKENIZER)
    return {**train_step(trainer), "rows": len(ds), "rows_with_tools": sum(1 for r in ds if r.get("tools"))}


def trl_kto(path: str) -> Dict[str, Any]:
    from trl import KTOConfig, KTOTrainer

    ds = jsonl(path)
    trainer = KTOTrainer(model=build_model(), args=trl_args(KTOConfig, max_length=2048), train_dataset=ds,
                         processing_class=TOKENIZER)
    return {**train_step(trainer), "rows": len(ds), "rows_with_tools": sum(1 for r in ds if r.get("tools"))}


def trl_prompt(path: str) -> Dict[str, Any]:
    from trl import GRPOConfig, GRPOTrainer

    ds = jsonl(path)
    seen: Dict[str, Any] = {}

    def reward(completions, task_id, reward_mean, **kwargs):
        seen["task_id"] = list(task_id)
        return [float(r) + 0.1 * i for i, r in enumerate(reward_mean)]

    args = trl_args(GRPOConfig, max_completion_length=4, num_generations=2, generation_batch_size=2)
    trainer = GRPOTrainer(model=build_model(), reward_funcs=reward, args=args, train_dataset=ds,
                          processing_class=TOKENIZER)
    out = trainer.train()
    if not seen.get("task_id"):
        raise AssertionError("the reward function never saw the task_id column")
    return {"steps": out.global_step, "rows": len(ds), "rows_with_tools": sum(1 for r in ds if r.get("tools"))}


def art(path: str) -> Dict[str, Any]:
    import art as art_lib  # noqa: F401  (the package under test)
    from art.preprocessing.tokenize import tokenize_trajectory_groups
    from art.utils.trajectory_migration import deserialize_trajectory_groups

    with open(path, encoding="utf-8") as f:
        groups = deserialize_trajectory_groups(f.read())
    trajectories = sum(len(g.trajectories) for g in groups)
    if trajectories == 0:
        raise AssertionError("ART loaded no trajectory")
    results = list(tokenize_trajectory_groups(TOKENIZER, groups, allow_training_without_logprobs=False,
                                              scale_rewards=True))
    if not results:
        raise AssertionError("tokenize_trajectory_groups produced no trainable item")
    # One policy-gradient step on the tokenized items (ART's own step needs its GPU backend; importing ART patches
    # transformers' mask functions for it, so the step uses a tiny embedding + linear language model).
    vocab = max(len(TOKENIZER), MAX_ID + 1, max(max(r.token_ids) for r in results) + 1)
    model = torch.nn.Sequential(torch.nn.Embedding(vocab, 8), torch.nn.Linear(8, vocab))
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-2)
    loss = torch.zeros(())
    trained_tokens = 0
    for r in results:
        ids = torch.tensor(r.token_ids)
        mask = torch.tensor(r.assistant_mask[1:], dtype=torch.float32)
        logp = torch.log_softmax(model(ids[:-1]), -1).gather(1, ids[1:, None])[:, 0]
        loss = loss - r.advantage * (logp * mask).sum() * r.weight
        trained_tokens += int(mask.sum())
    loss.backward()
    optimizer.step()
    exact = all(
        not math.isnan(lp) for r in results for lp, m in zip(r.logprobs, r.assistant_mask) if m
    )
    return {"groups": len(groups), "trajectories": trajectories, "items": len(results),
            "trained_tokens": trained_tokens, "logprobs_on_all_trained_tokens": exact}


def verl_tokens(path: str) -> Dict[str, Any]:
    import verl_rows
    from verl.trainer.ppo.core_algos import compute_grpo_outcome_advantage, compute_policy_loss

    rows = verl_rows.read_rows(path)
    # One batch of at most 4 rows, padded to their longest prompt and response as verl's max_prompt_length /
    # max_response_length would be set for them (nothing truncated). The rows are picked as a sampler might: one
    # per (task, reward) first, so the GRPO groups in the batch have a reward spread and the loss a gradient.
    seen, first, rest = set(), [], []
    for row in rows:
        key = (row["uid"], float(row["reward"]))
        (rest if key in seen else first).append(row)
        seen.add(key)
    batch_rows = (first + rest)[:4]
    arrays = verl_rows.rows_to_arrays(batch_rows,
                                      max_prompt_length=max(len(r["prompt_ids"]) for r in batch_rows),
                                      max_response_length=max(len(r["response_ids"]) for r in batch_rows),
                                      pad_token_id=TOKENIZER.pad_token_id)
    batch = verl_rows.to_data_proto(arrays)
    # What verl's compute_advantage does for adv_estimator=grpo (ray_trainer imports the serving stack).
    advantages, _ = compute_grpo_outcome_advantage(
        token_level_rewards=batch.batch["token_level_scores"],
        response_mask=batch.batch["response_mask"],
        index=batch.non_tensor_batch["uid"],
    )
    batch.batch["advantages"] = advantages
    model = build_model()
    ids = batch.batch["input_ids"]
    attn = batch.batch["attention_mask"]
    logits = model(input_ids=ids, attention_mask=attn, position_ids=batch.batch["position_ids"]).logits
    resp_len = batch.batch["responses"].shape[1]
    logits = logits[:, -resp_len - 1:-1]
    log_prob = torch.log_softmax(logits.float(), -1).gather(2, batch.batch["responses"][..., None])[..., 0]
    old = batch.batch["rollout_log_probs"] if "rollout_log_probs" in batch.batch.keys() else log_prob.detach()
    mask = batch.batch["response_mask"].float() * attn[:, -resp_len:].float()
    loss = compute_policy_loss(old_log_prob=old.float(), log_prob=log_prob, advantages=batch.batch["advantages"],
                               response_mask=mask, cliprange=0.2, loss_agg_mode="token-mean")[0]
    loss.backward()
    grad = sum(float(p.grad.abs().sum()) for p in model.parameters() if p.grad is not None)
    if grad == 0:
        raise AssertionError("the policy loss has no gradient")
    observation = (batch.batch["response_mask"] == 0).logical_and(attn[:, -resp_len:] == 1)
    return {"rows": len(rows), "loss": float(loss), "masked_observation_tokens": int(observation.sum()),
            "trained_tokens": int(mask.sum())}


def verl_sft(path: str) -> Dict[str, Any]:
    from verl.utils.dataset.multiturn_sft_dataset import MultiTurnSFTDataset

    ds = MultiTurnSFTDataset(path, TOKENIZER, {"max_length": 8192, "truncation": "error"})
    # Every row goes through verl's own __getitem__ (verl 0.9.1 raised `TypeError: 'NAType' object is not iterable`
    # on a null `tools` cell; rows without tools now hold an empty list); the first one is trained on.
    items = [ds[i] for i in range(len(ds))]
    item = items[0]
    model = build_model()
    ids = item["input_ids"][None]
    logits = model(input_ids=ids, attention_mask=item["attention_mask"][None]).logits[0, :-1]
    mask = item["loss_mask"][1:].float()
    loss = torch.nn.functional.cross_entropy(logits, ids[0, 1:], reduction="none")
    loss = (loss * mask).sum() / mask.sum()
    loss.backward()
    tools = ds.tools or []
    with_tools = sum(1 for t in tools if hasattr(t, "__len__") and len(t) > 0)
    return {"rows": len(ds), "loss": float(loss), "rows_with_tools": with_tools}


def verl_rlhf(path: str) -> Dict[str, Any]:
    from verl.utils.dataset.rl_dataset import RLHFDataset, collate_fn

    ds = RLHFDataset(path, TOKENIZER, {"max_prompt_length": 4096, "filter_overlong_prompts": True,
                                        "return_raw_chat": True})
    batch = collate_fn([ds[i] for i in range(len(ds))])
    return {"rows": len(ds), "keys": sorted(batch.keys())[:20]}


def openai_rules(path: str) -> Dict[str, Any]:
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
    return {"checked": "see validate_exports.py"}


CONSUMERS: Dict[str, Callable[[str], Dict[str, Any]]] = {
    "trl-sft": trl_sft,
    "trl-sft-tokens": trl_sft_tokens,
    "trl-dpo": trl_dpo,
    "trl-kto": trl_kto,
    "trl-prompt": trl_prompt,
    "art": art,
    "verl-jsonl": verl_tokens,
    "verl-parquet": verl_tokens,
    "verl-trajectory-jsonl": verl_tokens,
    "verl-trajectory-parquet": verl_tokens,
    "verl-sft": verl_sft,
    "verl-rlhf": verl_rlhf,
}


def max_token_id(path: str) -> int:
    best = 0
    if path.endswith(".parquet"):
        import pyarrow.parquet as pq
        rows = pq.read_table(path).to_pylist()
    else:
        with open(path, encoding="utf-8") as f:
            rows = [json.loads(line) for line in f if line.strip()]

    def walk(v: Any) -> None:
        nonlocal best
        if isinstance(v, dict):
            for k, x in v.items():
                if k in ("prompt_ids", "response_ids", "input_ids", "token_ids", "prompt_token_ids") and isinstance(x, list):
                    best = max([best, *[i for i in x if isinstance(i, int)]])
                elif k == "token" and isinstance(x, str) and x.startswith("token_id:"):
                    best = max(best, int(x.split(":")[1]))
                else:
                    walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(rows)
    return best


def main() -> int:
    global MAX_ID
    manifest = json.load(open(sys.argv[1], encoding="utf-8"))
    sys.path.insert(0, manifest["verl_rows"])
    # ART last: importing it patches transformers for its own backend.
    manifest["outputs"].sort(key=lambda o: o["format"] == "art")
    for o in manifest["outputs"]:
        o.setdefault("name", o["format"])
    only = os.environ.get("ONLY")
    outputs = [o for o in manifest["outputs"] if not only or o["name"] in only.split(",") or o["format"] in only.split(",")]
    MAX_ID = max(max_token_id(o["path"]) for o in outputs)
    results: Dict[str, Any] = {}
    for o in outputs:
        consumer = CONSUMERS.get(o["format"])
        if consumer is None:
            continue
        name = o["name"]
        print(f"train_exports: {name} ...", file=sys.stderr, flush=True)
        try:
            results[name] = {"ok": True, "error": None, "detail": consumer(o["path"])}
        except Exception as e:  # noqa: BLE001
            results[name] = {"ok": False, "error": f"{type(e).__name__}: {e}\n{traceback.format_exc()[-3000:]}",
                             "detail": None}
        print(f"train_exports: {name} ok={results[name]['ok']}", file=sys.stderr, flush=True)
        json.dump(results, open(sys.argv[2], "w", encoding="utf-8"), indent=1)
    json.dump(results, open(sys.argv[2], "w", encoding="utf-8"), indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
