"""Tiny random models of each supported family, made with transformers, and their reference
outputs, for the trainer's family parity tests (trainer/tests/families.rs).

Usage:

    families.py make OUT_DIR
        For each variant (llama3-tied, llama3-untied, qwen2-tied, qwen2-untied, qwen3):
        OUT_DIR/<name>/ is a Hugging Face folder (config.json, model.safetensors,
        tokenizer.json, tokenizer_config.json, generation_config.json) of a 2-layer GQA
        model with every parameter randomised (biases and norm weights included), and
        OUT_DIR/<name>.reference.safetensors holds, for 3 prompts, `prompt{i}` (ids),
        `logits{i}` (float32 [len, vocab], eager attention) and `greedy{i}` (64 tokens of
        greedy decoding). Each tokenizer is a BPE trained on a few lines, with its
        family's special tokens and a short chat template of its style. llama3-untied's config.json is rewritten to the transformers 4
        layout (top-level rope_theta and rope_scaling), the others keep rope_parameters;
        qwen2-untied's weights are sharded (model.safetensors.index.json).

    families.py logits JOBS_JSON
        For each job {model, ids, out}: the float32 eager logits `logits{i}` of each id
        list of `ids` under the model in `model`, written to `out` (safetensors).

    families.py chat CASES_JSON OUT_JSON
        apply_chat_template (text, not tokenized) of each case {dir, messages,
        add_generation_prompt, kwargs}: the tokenizer in `dir` with its own template and
        special tokens.
"""

import json
import pathlib
import sys

import torch
from safetensors.torch import save_file
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import (
    AutoModelForCausalLM,
    AutoTokenizer,
    GenerationConfig,
    LlamaConfig,
    LlamaForCausalLM,
    PreTrainedTokenizerFast,
    Qwen2Config,
    Qwen2ForCausalLM,
    Qwen3Config,
    Qwen3ForCausalLM,
)

GREEDY = 64
VOCAB = 384
CORPUS = [
    "Read two integers and print their sum.",
    "int main() { long long a, b; std::cin >> a >> b; std::cout << a + b << '\\n'; }",
    "def solve(n):\n    return sum(range(n + 1))\n",
    "The quick brown fox jumps over the lazy dog; every test case ends with a newline.",
    "You are a helpful assistant who writes correct programs for contest problems.",
]
PROMPTS = [
    "Read two integers and print their sum.",
    "def solve(n):",
    "The lazy dog writes correct programs",
]
LLAMA_SPECIAL = ["<|begin_of_text|>", "<|end_of_text|>", "<|start_header_id|>",
                 "<|end_header_id|>", "<|eom_id|>", "<|eot_id|>"]
QWEN_SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
QWEN3_SPECIAL = QWEN_SPECIAL + ["<think>", "</think>"]
TEMPLATES = {
    "llama": (
        "{{- bos_token }}{%- for m in messages %}"
        "{{- '<|start_header_id|>' + m['role'] + '<|end_header_id|>\n\n' + m['content'] | trim"
        " + '<|eot_id|>' }}{%- endfor %}"
        "{%- if add_generation_prompt %}{{- '<|start_header_id|>assistant<|end_header_id|>\n\n' }}"
        "{%- endif %}"
    ),
    "qwen": (
        "{%- for m in messages %}{{- '<|im_start|>' + m.role + '\n' + m.content + '<|im_end|>\n' }}"
        "{%- endfor %}{%- if add_generation_prompt %}{{- '<|im_start|>assistant\n' }}{%- endif %}"
    ),
}


def tokenizer(special, bos, eos, pad):
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=320, special_tokens=special,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False,
    )
    tok.train_from_iterator(CORPUS * 4, trainer=trainer)
    return PreTrainedTokenizerFast(tokenizer_object=tok, bos_token=bos, eos_token=eos,
                                   pad_token=pad)


def randomise(model, seed):
    """Every parameter drawn anew: norm weights around 1, biases and matrices around 0."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "norm" in name:
                p.copy_(1.0 + 0.3 * torch.randn(p.shape, generator=g))
            elif name.endswith("bias"):
                p.copy_(0.3 * torch.randn(p.shape, generator=g))
            else:
                p.copy_(0.2 * torch.randn(p.shape, generator=g))


def common(tied):
    return dict(vocab_size=VOCAB, hidden_size=64, intermediate_size=96, num_hidden_layers=2,
                num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=256,
                rms_norm_eps=1e-5, tie_word_embeddings=tied)


def variants():
    llama_rope = {"rope_type": "llama3", "rope_theta": 500000.0, "factor": 8.0,
                  "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                  "original_max_position_embeddings": 64}
    for tied in (True, False):
        name = "llama3-tied" if tied else "llama3-untied"
        config = LlamaConfig(**common(tied), rope_parameters=llama_rope)
        yield name, LlamaForCausalLM, config, ("llama", LLAMA_SPECIAL, "<|begin_of_text|>",
                                              "<|eot_id|>", "<|end_of_text|>")
    for tied in (True, False):
        name = "qwen2-tied" if tied else "qwen2-untied"
        config = Qwen2Config(**common(tied),
                             rope_parameters={"rope_type": "default", "rope_theta": 1e6})
        yield name, Qwen2ForCausalLM, config, ("qwen", QWEN_SPECIAL, None, "<|im_end|>",
                                              "<|endoftext|>")
    config = Qwen3Config(**common(True), head_dim=32,
                         rope_parameters={"rope_type": "default", "rope_theta": 1e6})
    yield "qwen3", Qwen3ForCausalLM, config, ("qwen", QWEN3_SPECIAL, None, "<|im_end|>",
                                             "<|endoftext|>")


def to_v4_layout(path):
    """config.json as published checkpoints carry it: top-level rope_theta and
    rope_scaling, no rope_parameters."""
    config = json.loads(path.read_text())
    params = config.pop("rope_parameters")
    config["rope_theta"] = params.pop("rope_theta")
    config["rope_scaling"] = params if params.get("rope_type") != "default" else None
    path.write_text(json.dumps(config, indent=2))


def greedy(model, ids):
    seq = list(ids)
    with torch.no_grad():
        for _ in range(GREEDY):
            logits = model(torch.tensor([seq])).logits[0, -1]
            seq.append(int(logits.argmax()))
    return seq[len(ids):]


def make(out):
    out.mkdir(parents=True, exist_ok=True)
    for seed, (name, cls, config, (kind, special, bos, eos, end)) in enumerate(variants()):
        tok = tokenizer(special, bos, eos, end)
        tok.chat_template = TEMPLATES[kind]
        model = cls(config).eval()
        randomise(model, 100 + seed)
        folder = out / name
        # qwen2-untied is saved in shards named by model.safetensors.index.json.
        model.save_pretrained(folder, max_shard_size="200KB" if name == "qwen2-untied" else "1GB")
        tok.save_pretrained(folder)
        stops = [tok.convert_tokens_to_ids(t) for t in special if t in
                 ("<|end_of_text|>", "<|eom_id|>", "<|eot_id|>", "<|im_end|>", "<|endoftext|>")]
        GenerationConfig(eos_token_id=stops, bos_token_id=tok.bos_token_id,
                         pad_token_id=tok.pad_token_id).save_pretrained(folder)
        if name == "llama3-untied":
            to_v4_layout(folder / "config.json")
        eager = AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float32,
                                                     attn_implementation="eager").eval()
        tensors = {}
        for i, text in enumerate(PROMPTS):
            ids = tok(text, add_special_tokens=False)["input_ids"]
            with torch.no_grad():
                logits = eager(torch.tensor([ids])).logits[0].float()
            tensors[f"prompt{i}"] = torch.tensor(ids)
            tensors[f"logits{i}"] = logits.contiguous()
            tensors[f"greedy{i}"] = torch.tensor(greedy(eager, ids))
        save_file(tensors, str(out / f"{name}.reference.safetensors"))


def logits(jobs_path):
    for job in json.loads(pathlib.Path(jobs_path).read_text()):
        model = AutoModelForCausalLM.from_pretrained(job["model"], dtype=torch.float32,
                                                     attn_implementation="eager").eval()
        tensors = {}
        with torch.no_grad():
            for i, row in enumerate(job["ids"]):
                logits = model(torch.tensor([row])).logits[0].float()
                tensors[f"logits{i}"] = logits.contiguous()
        save_file(tensors, job["out"])


def chat(cases_path, out_path):
    cases = json.loads(pathlib.Path(cases_path).read_text())
    texts = []
    for case in cases:
        tok = AutoTokenizer.from_pretrained(case["dir"])
        texts.append(tok.apply_chat_template(
            case["messages"], tokenize=False,
            add_generation_prompt=case["add_generation_prompt"], **case.get("kwargs", {})))
    pathlib.Path(out_path).write_text(json.dumps(texts))


def main():
    command = sys.argv[1]
    if command == "make":
        make(pathlib.Path(sys.argv[2]))
    elif command == "logits":
        logits(sys.argv[2])
    elif command == "chat":
        chat(*sys.argv[2:4])
    else:
        raise SystemExit(f"unknown command {command}")


if __name__ == "__main__":
    main()
