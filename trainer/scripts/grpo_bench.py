"""The PyTorch side of `trainer bench`'s optimization step: the team's PyTorch GRPO step on
the batch the Rust side wrote, timed the same way.

Usage: python grpo_bench.py MODEL_DIR BATCH.safetensors REPEATS

BATCH holds ids [B, L] (right-padded), lengths [B], and the target-aligned mask,
behaviour_logp and advantages [B, L - 1]. One step: zero the gradients, the model's
log-probabilities of every token (transformers, float32, right padding masked), the loss
and its gradient with respect to those log-probabilities from grpo_reference.py's
`loss_case` (token ratio against the current weights, clip 0.2/0.2, TIS cap 2, token mean,
no KL: the Rust bench's settings), backpropagated through the model, the global gradient
norm clipped to 1, then torch.optim.AdamW (lr 1e-6, betas 0.9/0.999, eps 1e-8, weight decay
0.01 on tensors of two or more dimensions). A warm-up step, then REPEATS timed steps;
prints JSON with the median seconds.
"""

import json
import os
import sys
import time

import torch
from safetensors.torch import load_file
from transformers import AutoModelForCausalLM

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from grpo_reference import loss_case  # noqa: E402

CASE = {
    "loss": {"ratio": "token", "clip_low": 0.2, "clip_high": 0.2, "tis_cap": 2.0, "kl_beta": 0.0},
    "aggregation": "token_mean",
    "use_old": False,
    "use_behaviour": True,
    "use_ref": False,
}


def main():
    model_dir, batch_path, repeats = sys.argv[1], sys.argv[2], int(sys.argv[3])
    batch = load_file(batch_path)
    ids, lengths = batch["ids"], batch["lengths"]
    width = ids.shape[1]
    attention = (torch.arange(width).unsqueeze(0) < lengths.unsqueeze(1)).long()
    model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32)
    model.train()
    decay = [p for p in model.parameters() if p.dim() >= 2]
    no_decay = [p for p in model.parameters() if p.dim() < 2]
    opt = torch.optim.AdamW(
        [{"params": decay, "weight_decay": 0.01}, {"params": no_decay, "weight_decay": 0.0}],
        lr=1e-6, betas=(0.9, 0.999), eps=1e-8,
    )
    inputs = {k: batch[k] for k in ("mask", "behaviour_logp", "advantages")}
    times = []
    for step in range(repeats + 1):
        start = time.perf_counter()
        opt.zero_grad()
        logits = model(ids, attention_mask=attention).logits[:, :-1]
        logp = logits.log_softmax(-1).gather(2, ids[:, 1:].unsqueeze(-1)).squeeze(-1)
        logp = logp * attention[:, 1:]
        # The loss's gradient with respect to logp, from the reference formulas.
        _, grad, _ = loss_case({**inputs, "logp": logp.detach()}, CASE)
        logp.backward(grad)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        if step > 0:
            times.append(time.perf_counter() - start)
    times.sort()
    print(json.dumps({"seconds": times[len(times) // 2], "torch_threads": torch.get_num_threads(),
                      "torch": torch.__version__}))


if __name__ == "__main__":
    main()
