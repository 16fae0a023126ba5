"""A real TRL GRPOTrainer run on CPU whose reward is `trl_reward.judge_reward`, the
shipped example, calling `judge sandbox`'s /v1/evaluate.

Usage: python trl_grpo.py BASE_URL MODEL_DIR PROBLEMS_DIR OUT_DIR PROBLEM...

The prompts ask the model to copy each problem's accepted Python program in a fenced
block, so that the completions a 135M model samples are a mix of right, wrong and
broken programs. The reward function is wrapped only to record, per call, the step,
each completion and the reward it returned. After training, every recorded completion
is judged again with its own /v1/evaluate request. It prints one JSON document: TRL's
log history (its per-step `rewards/judge_reward/mean`), the global step, the recorded
rewards and the rewards of the separate evaluation.
"""

import asyncio
import json
import math
import os
import sys

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")

import torch  # noqa: E402
from datasets import Dataset  # noqa: E402
from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer  # noqa: E402
from trl import GRPOConfig, GRPOTrainer  # noqa: E402

import arena_http  # noqa: E402
import trl_reward  # noqa: E402


def main():
    base, model_dir, problems_dir, out_dir = sys.argv[1:5]
    names = sys.argv[5:]
    trl_reward.JUDGE_URL = base
    torch.manual_seed(0)
    rows = []
    for name in names:
        source = arena_http.accepted_source(os.path.join(problems_dir, name), "py")
        prompt = ("Copy this Python program exactly, in a ```python code block, and write "
                  f"nothing else.\n```python\n{source}```")
        rows.append({"prompt": [{"role": "user", "content": prompt}], "problem": name})
    dataset = Dataset.from_list(rows)
    calls = []

    async def judge_reward(prompts, completions, problem, trainer_state=None, **kwargs):
        rewards = await trl_reward.judge_reward(prompts, completions, problem, **kwargs)
        step = trainer_state.global_step if trainer_state is not None else None
        for name, completion, reward in zip(problem, completions, rewards):
            calls.append({"step": step, "problem": name, "completion": completion, "reward": reward})
        return rewards

    config = GRPOConfig(
        output_dir=out_dir, max_steps=2, per_device_train_batch_size=4, num_generations=4,
        gradient_accumulation_steps=1, max_completion_length=48, learning_rate=1e-6,
        temperature=0.7, beta=0.0, logging_steps=1, save_strategy="no", report_to=[],
        use_cpu=True, bf16=False, seed=0, dataloader_num_workers=0, disable_tqdm=True,
        # TRL's default recomputes activations in the backward pass: time, for a 135M
        # model's few short sequences, that buys no memory worth having.
        gradient_checkpointing=False,
    )
    # The set-up's converted folder (ci/convert_model.py) keeps the GGUF's
    # `quantization_config` in config.json though its weights are plain float32, and has
    # no `architectures`: Trainer would refuse a "quantized" model, and GRPOTrainer given
    # a path reads `architectures`. So the model is loaded here without that entry.
    model_config = AutoConfig.from_pretrained(model_dir)
    if hasattr(model_config, "quantization_config"):
        del model_config.quantization_config
    model = AutoModelForCausalLM.from_pretrained(model_dir, config=model_config, dtype=torch.float32)
    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    trainer = GRPOTrainer(model=model, processing_class=tokenizer, reward_funcs=judge_reward,
                          args=config, train_dataset=dataset)
    trainer.train()

    again = []
    for call in calls:
        language, source = trl_reward.extract(call["completion"])
        status, body = arena_http.evaluate(base, [{"language": language, "source": source}],
                                           problem=call["problem"])
        again.append(arena_http.fraction(body["results"][0]) if status == 200 else None)
    history = [{k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in e.items()}
               for e in trainer.state.log_history]
    print(json.dumps({"global_step": trainer.state.global_step, "log_history": history,
                      "calls": calls, "evaluated_again": again}))


if __name__ == "__main__":
    main()
