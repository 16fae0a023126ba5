"""llama.cpp's side of `trainer bench`: greedy tokens per second at batch 1 on the same
prompt (token ids) as the trainer, printed as one JSON line.

Usage: bench_llama_cpp.py GGUF NEW_TOKENS PROMPT_IDS REPEATS THREADS
PROMPT_IDS is comma-separated; the time counts the prompt's evaluation and NEW_TOKENS
generated tokens (no stop token: generation runs to NEW_TOKENS), as the trainer's does.
The median of REPEATS after one warm-up.
"""

import json
import statistics
import sys
import time

from llama_cpp import Llama


def run(llm, prompt, new_tokens):
    llm.reset()
    produced = 0
    start = time.perf_counter()
    for _ in llm.generate(prompt, top_k=1, top_p=1.0, temp=0.0, repeat_penalty=1.0, reset=True):
        produced += 1
        if produced == new_tokens:
            break
    return produced / (time.perf_counter() - start)


def main():
    gguf, new_tokens, ids, repeats, threads = sys.argv[1:6]
    new_tokens, repeats, threads = int(new_tokens), int(repeats), int(threads)
    prompt = [int(x) for x in ids.split(",")]
    llm = Llama(model_path=gguf, n_ctx=512, n_batch=512, n_threads=threads,
                n_threads_batch=threads, verbose=False, logits_all=False)
    run(llm, prompt, new_tokens)
    rates = [run(llm, prompt, new_tokens) for _ in range(max(1, repeats))]
    print(json.dumps({"gguf": gguf, "tokens_per_second": statistics.median(rates),
                      "threads": threads, "new_tokens": new_tokens}))


if __name__ == "__main__":
    main()
