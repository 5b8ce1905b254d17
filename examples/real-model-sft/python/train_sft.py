"""One round of rejection-sampling SFT on the CPU, from an Arclight `trl-sft-tokens` export to a new GGUF.

The rows are the engine's own token ids (prompt + response, the mask 1 on response tokens), so the model is trained
on exactly the tokens the teacher produced — nothing is re-tokenized. transformers loads the GGUF, PEFT trains
a LoRA with a plain torch loop (loss on the masked tokens only), the LoRA is merged, llama.cpp's
convert_hf_to_gguf.py writes the merged weights as f16 tensors, and they are stored under the original GGUF's metadata
(tokenizer, rope base: see restore_metadata) in the GGUF that node-llama-cpp serves.

Prints progress lines, and the new GGUF's path as the last line.
"""

import argparse
import json
import math
import os
import pathlib
import random
import subprocess
import sys
import time

import torch
from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM, AutoTokenizer


def load_rows(path: pathlib.Path) -> list[dict]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    for i, row in enumerate(rows):
        ids = row.get("input_ids")
        mask = row.get("assistant_masks", row.get("completion_mask"))
        row["mask"] = mask
        if not isinstance(ids, list) or not isinstance(mask, list) or len(ids) != len(mask):
            sys.exit(f"{path}:{i + 1}: expected trl-sft-tokens rows: input_ids and a mask of equal length")
    return rows


def batches(rows: list[dict], size: int, pad_id: int, rng: random.Random):
    order = list(range(len(rows)))
    rng.shuffle(order)
    for start in range(0, len(order), size):
        chunk = [rows[i] for i in order[start : start + size]]
        width = max(len(r["input_ids"]) for r in chunk)
        ids = torch.full((len(chunk), width), pad_id, dtype=torch.long)
        labels = torch.full((len(chunk), width), -100, dtype=torch.long)
        attention = torch.zeros((len(chunk), width), dtype=torch.long)
        for b, r in enumerate(chunk):
            n = len(r["input_ids"])
            row_ids = torch.tensor(r["input_ids"], dtype=torch.long)
            ids[b, :n] = row_ids
            attention[b, :n] = 1
            keep = torch.tensor(r["mask"], dtype=torch.bool)
            labels[b, :n] = torch.where(keep, row_ids, torch.tensor(-100))
        yield ids, attention, labels


def convert_to_gguf(hf_dir: pathlib.Path, out: pathlib.Path, llama_cpp: pathlib.Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(llama_cpp / "gguf-py"))
    cmd = [sys.executable, str(llama_cpp / "convert_hf_to_gguf.py"), str(hf_dir), "--outfile", str(out), "--outtype", "f16"]
    result = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"convert_hf_to_gguf.py failed:\n{result.stderr[-4000:]}")


def restore_metadata(original: pathlib.Path, converted: pathlib.Path, out: pathlib.Path, llama_cpp: pathlib.Path) -> None:
    """Writes `converted`'s tensors under `original`'s metadata.

    transformers' save_pretrained of a model loaded from a GGUF writes a config and tokenizer that llama.cpp's
    converter misreads: the rope base (transformers 5's `rope_parameters`) is lost, so the GGUF falls back to 10,000
    instead of 100,000, and SmolLM2's BPE tokenizer comes out as a SentencePiece one with the wrong EOS id, which
    llama.cpp cannot load. The architecture is unchanged by a merged LoRA, so the original metadata is the right one.
    """
    sys.path.insert(0, str(llama_cpp / "gguf-py"))
    from gguf import GGUFReader, GGUFValueType, GGUFWriter

    src = GGUFReader(original)
    conv = GGUFReader(converted)
    src_names = {t.name for t in src.tensors}
    conv_names = {t.name for t in conv.tensors}
    if src_names != conv_names:
        sys.exit(f"converted tensors differ from the original's: {sorted(src_names ^ conv_names)[:10]}")
    writer = GGUFWriter(out, arch=src.fields["general.architecture"].contents())
    for key, field in src.fields.items():
        if key.startswith("GGUF.") or key == "general.architecture":
            continue
        taken = conv.fields[key] if key == "general.file_type" else field
        vtype = taken.types[0]
        sub_type = taken.types[-1] if vtype == GGUFValueType.ARRAY else None
        writer.add_key_value(key, taken.contents(), vtype, sub_type=sub_type)
    for tensor in conv.tensors:
        writer.add_tensor(tensor.name, tensor.data, raw_dtype=tensor.tensor_type)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--gguf", required=True, help="the model to start from")
    ap.add_argument("--data", required=True, help="an arclight export --format trl-sft-tokens file")
    ap.add_argument("--out", required=True, help="folder for the merged model and the new GGUF")
    ap.add_argument("--llama-cpp", required=True, help="llama.cpp sources (convert_hf_to_gguf.py and gguf-py)")
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--batch-size", type=int, default=8)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--rank", type=int, default=16)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = load_rows(pathlib.Path(args.data))
    if not rows:
        sys.exit(f"{args.data}: no rows to train on (no rewarded rollouts this round)")

    t0 = time.time()
    gguf = pathlib.Path(args.gguf)
    tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name, dtype=torch.float32)
    print(f"loaded {gguf.name} in {time.time() - t0:.0f} s", flush=True)

    lora = LoraConfig(
        r=args.rank,
        lora_alpha=2 * args.rank,
        lora_dropout=0.0,
        target_modules=["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"],
        task_type="CAUSAL_LM",
    )
    model = get_peft_model(model, lora)
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=args.lr)
    pad_id = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
    rng = random.Random(args.seed)
    steps = args.epochs * math.ceil(len(rows) / args.batch_size)
    step = 0
    model.train()
    t1 = time.time()
    for epoch in range(args.epochs):
        for ids, attention, labels in batches(rows, args.batch_size, pad_id, rng):
            loss = model(input_ids=ids, attention_mask=attention, labels=labels).loss
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            step += 1
            print(f"step {step}/{steps} epoch {epoch + 1} loss {loss.item():.4f}", flush=True)
    print(f"trained {len(rows)} rows x {args.epochs} epochs in {time.time() - t1:.0f} s", flush=True)

    merged = model.merge_and_unload()
    hf_dir = out / "hf"
    merged.save_pretrained(hf_dir)
    tokenizer.save_pretrained(hf_dir)
    converted = out / "converted.f16.gguf"
    target = out / "model.f16.gguf"
    t2 = time.time()
    convert_to_gguf(hf_dir, converted, pathlib.Path(args.llama_cpp))
    restore_metadata(gguf, converted, target, pathlib.Path(args.llama_cpp))
    converted.unlink()
    print(f"wrote {target.name} in {time.time() - t2:.0f} s", flush=True)
    print(target)


if __name__ == "__main__":
    main()
