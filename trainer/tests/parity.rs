//! Parity with transformers: logits on fixed prompts and greedy tokens, for a tiny random
//! Qwen2 with QKV bias and for the bundled SmolLM2-135M-Instruct. The reference values are
//! computed at test time by `scripts/parity.py` with the project's venv (`ARENA_PYTHON`).
//! Under `CI=true` a missing python or model fails the test.

use std::path::PathBuf;
use std::process::Command;

use tch::{Device, Kind, Tensor};
use trainer::model::{Cache, Model, causal_mask};

fn env_path(name: &str) -> Option<PathBuf> {
    ci::require::env_path(name)
}

/// Our logits for the reference prompt, the reference logits, and both greedy tails.
fn compare(model_dir: &std::path::Path, reference: &std::path::Path) -> (f64, Vec<i64>, Vec<i64>) {
    let tensors: std::collections::HashMap<String, Tensor> = Tensor::read_safetensors(reference)
        .expect("reference file")
        .into_iter()
        .collect();
    let ids = &tensors["input_ids"];
    let want = &tensors["logits"];
    let greedy_want: Vec<i64> = Vec::try_from(tensors["greedy"].view([-1])).expect("tokens");
    let model = Model::load(model_dir, Device::Cpu).expect("model loads");
    let seq = ids.size()[1];
    let positions = Tensor::arange(seq, (Kind::Int64, Device::Cpu)).view([1, seq]);
    let mask = causal_mask(&Tensor::ones([1, seq], (Kind::Int64, Device::Cpu)), seq);
    let got = tch::no_grad(|| model.forward(ids, &positions, &mask, &mut Cache::default()));
    let diff = (got - want).abs().max().double_value(&[]);
    let prompt: Vec<i64> = Vec::try_from(ids.view([-1])).expect("ids");
    let greedy_got =
        trainer::generate::greedy(&model, &prompt, greedy_want.len()).expect("generates");
    (diff, greedy_got, greedy_want)
}

#[test]
fn logits_and_greedy_tokens_match_transformers() {
    let (Some(python), Some(smollm)) = (env_path("ARENA_PYTHON"), env_path("ARENA_MODEL_DIR"))
    else {
        return;
    };
    let out = tempfile::tempdir().expect("tempdir");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/parity.py");
    let status = Command::new(python)
        .arg(&script)
        .arg(out.path())
        .arg(&smollm)
        .status()
        .expect("python runs");
    assert!(status.success(), "scripts/parity.py failed");

    let (diff, got, want) = compare(
        &out.path().join("tiny-qwen2"),
        &out.path().join("tiny-qwen2.safetensors"),
    );
    eprintln!("tiny qwen2: max |logit diff| {diff:.3e}; greedy {got:?}");
    assert!(diff < 1e-4, "tiny qwen2 logits differ by {diff}");
    assert_eq!(got, want, "tiny qwen2 greedy tokens");

    let reference = out.path().join("smollm2.safetensors");
    let (diff, got, want) = compare(&smollm, &reference);
    eprintln!("SmolLM2-135M: max |logit diff| {diff:.3e}; greedy {got:?}");
    assert!(diff < 1e-3, "SmolLM2 logits differ by {diff}");
    assert_eq!(got, want, "SmolLM2 greedy tokens");

    // Half precision: bf16 weights follow the float32 logits closely and pick the same
    // next tokens.
    let tensors_ref: std::collections::HashMap<String, Tensor> =
        Tensor::read_safetensors(&reference)
            .expect("reference file")
            .into_iter()
            .collect();
    let ids = &tensors_ref["input_ids"];
    let want = &tensors_ref["logits"];
    let model = Model::load_as(&smollm, Device::Cpu, Kind::BFloat16).expect("bf16 model loads");
    let seq = ids.size()[1];
    let positions = Tensor::arange(seq, (Kind::Int64, Device::Cpu)).view([1, seq]);
    let mask = causal_mask(&Tensor::ones([1, seq], (Kind::Int64, Device::Cpu)), seq);
    let got = tch::no_grad(|| model.forward(ids, &positions, &mask, &mut Cache::default()))
        .to_kind(Kind::Float);
    let diff = (&got - want).abs().max().double_value(&[]);
    let scale = want.abs().max().double_value(&[]);
    let same_argmax = got
        .argmax(-1, false)
        .eq_tensor(&want.argmax(-1, false))
        .to_kind(Kind::Float)
        .mean(Kind::Float);
    let same_argmax = same_argmax.double_value(&[]);
    eprintln!(
        "SmolLM2-135M bf16: max |logit diff| {diff:.3} of max |logit| {scale:.1}; same argmax at {:.0}% of positions",
        same_argmax * 100.0
    );
    assert!(diff < 0.05 * scale, "bf16 logits differ by {diff}");
    assert!(
        same_argmax >= 0.9,
        "bf16 argmax agrees at only {same_argmax}"
    );

    // The chat template and the tokenizer give transformers' prompt ids.
    let tensors: std::collections::HashMap<String, Tensor> = Tensor::read_safetensors(&reference)
        .expect("reference file")
        .into_iter()
        .collect();
    let want: Vec<i64> = Vec::try_from(tensors["chat_ids"].view([-1])).expect("ids");
    let tokenizer = trainer::tokenizer::ChatTokenizer::load(&smollm).expect("tokenizer loads");
    let messages = [
        trainer::tokenizer::Message {
            role: "system".into(),
            content: "You solve programming contest problems.".into(),
        },
        trainer::tokenizer::Message {
            role: "user".into(),
            content: "Read two integers and print their sum.\nUse C++.".into(),
        },
    ];
    let text = tokenizer
        .apply_chat_template(&messages, true)
        .expect("template renders");
    assert_eq!(
        tokenizer.encode(&text).expect("encodes"),
        want,
        "chat prompt ids; text:\n{text}"
    );
}
