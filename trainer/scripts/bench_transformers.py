"""The transformers side of `trainer bench`: the same measurements, printed as JSON.

Usage: python bench_transformers.py MODEL_DIR NEW_TOKENS BATCHES(comma) TRAIN_BATCH TRAIN_SEQ
Greedy generation of NEW_TOKENS tokens (no early stop) from the same prompt at each batch
size, and one forward+backward pass (mean logit as the loss) over TRAIN_BATCH sequences of
TRAIN_SEQ tokens; each timed after one warm-up run, on CPU, float32.
"""

import json
import sys
import time

import torch
from transformers import AutoModelForCausalLM

PROMPT = [1, 9690, 198, 2683, 253, 1789, 2429, 28, 2, 198, 1, 4093, 198]


def main():
    model_dir, new_tokens, batches, train_batch, train_seq = sys.argv[1:6]
    new_tokens, train_batch, train_seq = int(new_tokens), int(train_batch), int(train_seq)
    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32)
    model.eval()
    out = {"torch_threads": torch.get_num_threads(), "generate": {}}
    for batch in map(int, batches.split(",")):
        ids = torch.tensor([PROMPT] * batch)
        kwargs = dict(max_new_tokens=new_tokens, min_new_tokens=new_tokens, do_sample=False,
                      attention_mask=torch.ones_like(ids), pad_token_id=2)
        with torch.no_grad():
            model.generate(ids, **kwargs)
            start = time.perf_counter()
            model.generate(ids, **kwargs)
            elapsed = time.perf_counter() - start
        out["generate"][str(batch)] = batch * new_tokens / elapsed
    model.train()
    ids = torch.randint(0, model.config.vocab_size, (train_batch, train_seq))
    for step in range(2):
        start = time.perf_counter()
        model.zero_grad()
        model(ids).logits.mean().backward()
        elapsed = time.perf_counter() - start
    out["train_step_seconds"] = elapsed
    print(json.dumps(out))


if __name__ == "__main__":
    main()
