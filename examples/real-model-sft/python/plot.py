"""Draws the held-out reward per round (rounds.json from the example) as a PNG."""

import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

rounds = json.load(open(sys.argv[1]))
xs = [r["round"] for r in rounds]
fig, ax = plt.subplots(figsize=(6, 3.5), dpi=120)
ax.plot(xs, [r["held_out_reward"] for r in rounds], marker="o", label="held-out reward (student prompt, greedy)")
teacher = [(r["round"], r["teacher_reward"]) for r in rounds if r.get("teacher_reward") is not None]
if teacher:
    ax.plot(*zip(*teacher), marker="s", linestyle="--", label="teacher reward (tool call opening forced, T=0.5)")
ax.set_xlabel("fine-tuning rounds completed")
ax.set_ylabel("mean reward")
ax.set_ylim(-0.05, 1.05)
ax.set_xticks(xs)
ax.set_title("SmolLM2-135M-Instruct learns to call get_weather")
ax.grid(alpha=0.3)
ax.legend(loc="lower right", fontsize=8)
fig.tight_layout()
fig.savefig(sys.argv[2])
