"""Reference values for the trainer's parity tests, computed with transformers.

Usage: python parity.py OUT_DIR [SMOLLM_DIR]
Writes OUT_DIR/tiny-qwen2/ (a randomly initialised Qwen2 with QKV bias, saved in Hugging
Face layout) and, for each model, OUT_DIR/<name>.safetensors with `input_ids`, `logits`
(float32, [1, seq, vocab]) and `greedy` (the tokens greedy decoding appends); for
SmolLM2 also `chat_ids`, the tokenized chat template of CHAT with the generation prompt.
"""

import pathlib
import sys

import torch
from safetensors.torch import save_file
from transformers import AutoModelForCausalLM, AutoTokenizer, Qwen2Config, Qwen2ForCausalLM

GREEDY_TOKENS = 8
CHAT = [
    {"role": "system", "content": "You solve programming contest problems."},
    {"role": "user", "content": "Read two integers and print their sum.\nUse C++."},
]


def reference(model, input_ids, path, extra=None):
    model.eval()
    with torch.no_grad():
        logits = model(input_ids).logits.float()
        out = model.generate(
            input_ids,
            max_new_tokens=GREEDY_TOKENS,
            do_sample=False,
            attention_mask=torch.ones_like(input_ids),
            pad_token_id=0,
            eos_token_id=None,
        )
    save_file(
        {
            "input_ids": input_ids.contiguous(),
            "logits": logits.contiguous(),
            "greedy": out[:, input_ids.shape[1]:].contiguous(),
            **(extra or {}),
        },
        str(path),
    )


def main():
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(0)
    config = Qwen2Config(
        vocab_size=256,
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=128,
        rope_theta=10000.0,
        tie_word_embeddings=False,
        rms_norm_eps=1e-6,
    )
    tiny = Qwen2ForCausalLM(config)
    with torch.no_grad():
        for layer in tiny.model.layers:
            for proj in (layer.self_attn.q_proj, layer.self_attn.k_proj, layer.self_attn.v_proj):
                proj.bias.normal_(0.0, 0.5)
    tiny.save_pretrained(out / "tiny-qwen2", safe_serialization=True)
    reference(tiny, torch.tensor([[5, 17, 42, 99, 3, 250, 7]]), out / "tiny-qwen2.safetensors")
    if len(sys.argv) > 2:
        smol = AutoModelForCausalLM.from_pretrained(sys.argv[2], dtype=torch.float32)
        ids = torch.tensor([[1, 9690, 198, 2683, 253, 1789, 2429, 28, 2, 198, 1, 4093, 198]])
        tokenizer = AutoTokenizer.from_pretrained(sys.argv[2])
        chat = tokenizer.apply_chat_template(CHAT, add_generation_prompt=True, tokenize=True)
        if not isinstance(chat, list):
            chat = chat["input_ids"]
        reference(smol, ids, out / "smollm2.safetensors", {"chat_ids": torch.tensor([chat])})


if __name__ == "__main__":
    main()
