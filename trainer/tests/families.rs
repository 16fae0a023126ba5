//! Parity with transformers for every supported family, on tiny random models that
//! `scripts/families.py` makes at test time with the project's venv (`ARENA_PYTHON`):
//! Llama with `llama3` rope scaling (tied, and untied with its config.json in the
//! transformers 4 layout), Qwen2 with its q/k/v biases (tied, and untied with its weights
//! in shards named by `model.safetensors.index.json`), Qwen3 with q/k norms and a
//! `head_dim` other than hidden / heads; 2 layers, grouped-query attention,
//! every parameter randomised (biases and norm weights too), a trained BPE tokenizer and a
//! `generation_config.json` saved beside. For each:
//!
//! - float32 logits within 1e-4 of transformers' eager attention on 3 prompts, and 64
//!   greedy tokens identical on each;
//! - one GRPO step's loss and gradient norm (`grpo::step::accumulate`, off-policy against
//!   a proximal policy so that the ratios clip, behaviour weights truncated) within 1e-4
//!   of the same step in PyTorch (`scripts/grpo_reference.py model`);
//!   With activation checkpointing the step gives the same loss and gradient norm;
//! - LoRA: adapters on all seven projections train, save and load back, and the merged
//!   checkpoint (`checkpoint::save`) gives transformers' logits;
//! - the stop tokens come from `generation_config.json`'s list;
//! - `trainer serve` (the real binary, port 0) answers a chat request through the model's
//!   own template and stop tokens with what the library decodes greedily.
//!
//! Under `CI=true` a missing python fails the test.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use tch::{Device, Kind, Tensor};
use trainer::grpo::logprob::sequence_logprobs;
use trainer::grpo::loss::{Aggregation, LossConfig};
use trainer::grpo::step::{Rollout, StepConfig, accumulate, normalizer, optimizer_step};
use trainer::lora::LoraConfig;
use trainer::model::{Cache, Model, causal_mask};
use trainer::optim::{AdamW, OptimConfig};

const VARIANTS: [&str; 5] = [
    "llama3-tied",
    "llama3-untied",
    "qwen2-tied",
    "qwen2-untied",
    "qwen3",
];

fn script(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("scripts")
        .join(name)
}

fn run_python(python: &Path, args: &[&std::ffi::OsStr]) {
    let out = Command::new(python)
        .args(args)
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "{:?} failed:\n{}",
        args,
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The venv's python and the folder of models `families.py make` wrote (once per test
/// binary), or `None` where the venv is missing outside CI.
fn fixtures() -> Option<(PathBuf, &'static Path)> {
    static DIR: OnceLock<Option<(PathBuf, tempfile::TempDir)>> = OnceLock::new();
    let made = DIR.get_or_init(|| {
        let python = ci::require::env_path("ARENA_PYTHON")?;
        let dir = tempfile::tempdir().expect("tempdir");
        run_python(
            &python,
            &[
                script("families.py").as_os_str(),
                "make".as_ref(),
                dir.path().as_os_str(),
            ],
        );
        Some((python, dir))
    });
    made.as_ref().map(|(p, d)| (p.clone(), d.path()))
}

fn read(path: &Path) -> HashMap<String, Tensor> {
    Tensor::read_safetensors(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .into_iter()
        .collect()
}

fn ids(t: &Tensor) -> Vec<i64> {
    Vec::try_from(t.view([-1])).expect("ids")
}

fn logits(model: &Model, ids: &[i64]) -> Tensor {
    let seq = ids.len() as i64;
    let input = Tensor::from_slice(ids).view([1, seq]);
    let positions = Tensor::arange(seq, (Kind::Int64, Device::Cpu)).view([1, seq]);
    let mask = causal_mask(&Tensor::ones([1, seq], (Kind::Int64, Device::Cpu)), seq);
    tch::no_grad(|| model.forward(&input, &positions, &mask, &mut Cache::default())).get(0)
}

fn max_diff(a: &Tensor, b: &Tensor) -> f64 {
    (a - b).abs().max().double_value(&[])
}

#[test]
fn logits_and_greedy_tokens_match_transformers_for_every_family() {
    let Some((_, dir)) = fixtures() else {
        return;
    };
    assert!(
        dir.join("qwen2-untied/model.safetensors.index.json")
            .is_file(),
        "one fixture is sharded"
    );
    let mut report = Vec::new();
    for name in VARIANTS {
        let model = Model::load(&dir.join(name), Device::Cpu)
            .unwrap_or_else(|e| panic!("{name} loads: {e}"));
        let reference = read(&dir.join(format!("{name}.reference.safetensors")));
        let mut worst: f64 = 0.0;
        for i in 0..3 {
            let prompt = ids(&reference[&format!("prompt{i}")]);
            let diff = max_diff(&logits(&model, &prompt), &reference[&format!("logits{i}")]);
            worst = worst.max(diff);
            let want = ids(&reference[&format!("greedy{i}")]);
            assert_eq!(want.len(), 64);
            let got = trainer::generate::greedy(&model, &prompt, want.len()).expect("greedy");
            assert_eq!(got, want, "{name}: greedy tokens of prompt {i}");
        }
        report.push(format!("{name}: max |logit diff| {worst:.2e}"));
        assert!(worst < 1e-4, "{name}: logits differ by {worst:.3e}");
    }
    eprintln!("{}", report.join("\n"));
}

/// Four rows of a prompt and a completion each, behaviour log-probabilities off the
/// model's own, advantages of both signs.
fn rollouts(model: &Model, prompt: &[i64]) -> Vec<Rollout> {
    let seqs: Vec<Vec<i64>> = (0..4)
        .map(|r| {
            let mut s = prompt.to_vec();
            s.extend((0..6 + r as i64).map(|k| (7 * k + 13 * r as i64 + 5) % 300));
            s
        })
        .collect();
    let logp = tch::no_grad(|| sequence_logprobs(model, &seqs)).expect("logprobs");
    seqs.into_iter()
        .enumerate()
        .map(|(r, tokens)| {
            let action: Vec<bool> = (0..tokens.len()).map(|k| k >= prompt.len()).collect();
            let advantage = [1.0, -0.5, 0.25, -1.0][r];
            let mut row = Rollout::fixed(tokens, action, advantage, &logp, r);
            for (k, b) in row.behaviour_logp.iter_mut().enumerate() {
                *b += offset(r, k, 7);
            }
            row
        })
        .collect()
}

/// A fixed offset in [-0.3, 0.3) of row `r`, token `k`.
fn offset(r: usize, k: usize, salt: usize) -> f64 {
    0.15 * ((k * salt + 3 * r) % 5) as f64 - 0.3
}

/// The log-probabilities of `rows` under `model`, each moved by `offset(r, k, salt)`
/// (`salt` 0: unmoved): `[rows, longest - 1]` as the loss takes them, and per row indexed
/// by token as the reference script reads them.
fn logprobs_off(model: &Model, rows: &[Rollout], salt: usize) -> (Tensor, Vec<Vec<f64>>) {
    let seqs: Vec<Vec<i64>> = rows.iter().map(|r| r.tokens.clone()).collect();
    let logp = tch::no_grad(|| sequence_logprobs(model, &seqs)).expect("logprobs");
    let per_row: Vec<Vec<f64>> = rows
        .iter()
        .enumerate()
        .map(|(r, row)| {
            (0..row.tokens.len())
                .map(|k| {
                    if k == 0 {
                        0.0
                    } else {
                        let moved = if salt == 0 { 0.0 } else { offset(r, k, salt) };
                        logp.double_value(&[r as i64, k as i64 - 1]) + moved
                    }
                })
                .collect()
        })
        .collect();
    let width = logp.size()[1] as usize;
    let flat: Vec<f64> = per_row
        .iter()
        .flat_map(|v| (1..=width).map(|k| v.get(k).copied().unwrap_or(0.0)))
        .collect();
    let old = Tensor::from_slice(&flat).view([rows.len() as i64, width as i64]);
    (old, per_row)
}

#[test]
fn one_grpo_step_matches_pytorch_for_every_family() {
    let Some((python, dir)) = fixtures() else {
        return;
    };
    let tmp = tempfile::tempdir().expect("tempdir");
    // Off-policy against a proximal policy (ratios away from 1, both clips), behaviour
    // weights truncated at 1.1, the k3 KL to a reference model (another family's model of
    // the same vocabulary, so that the loss's value depends on the model's own
    // log-probabilities), one sequence-mean aggregation.
    let step = StepConfig {
        loss: LossConfig {
            tis_cap: Some(1.1),
            kl_beta: 0.05,
            ..LossConfig::default()
        },
        aggregation: Aggregation::SequenceMean,
        ..StepConfig::default()
    };
    let kl_reference = Model::load(&dir.join("qwen2-untied"), Device::Cpu).expect("loads");
    let mut ours = Vec::new();
    let mut jobs = Vec::new();
    for name in VARIANTS {
        let mut model = Model::load(&dir.join(name), Device::Cpu).expect("loads");
        let reference = read(&dir.join(format!("{name}.reference.safetensors")));
        let rows = rollouts(&model, &ids(&reference["prompt0"]));
        let (old, old_rows) = logprobs_off(&model, &rows, 3);
        let (_, ref_rows) = logprobs_off(&kl_reference, &rows, 0);
        let mut optimizer = AdamW::new(&model.vs, OptimConfig::default()).expect("optimizer");
        optimizer.zero_grad();
        let (loss, stats) = accumulate(
            &model,
            Some(&kl_reference),
            &rows,
            &step,
            normalizer(&rows),
            Some(std::slice::from_ref(&old)),
        )
        .expect("step");
        assert!(
            stats.clip_low_fraction + stats.clip_high_fraction > 0.0,
            "{name}: some ratios clipped"
        );
        let norm = optimizer.grad_norm();
        // Activation checkpointing: the same loss and gradient.
        optimizer.zero_grad();
        model.set_checkpointing(true);
        let (again, _) = accumulate(
            &model,
            Some(&kl_reference),
            &rows,
            &step,
            normalizer(&rows),
            Some(std::slice::from_ref(&old)),
        )
        .expect("checkpointed step");
        let norm_again = optimizer.grad_norm();
        assert!(
            (again - loss).abs() < 1e-6 && (norm_again - norm).abs() < 1e-5 * norm.max(1.0),
            "{name}: checkpointed loss {again} grad norm {norm_again}, plain {loss} {norm}"
        );
        ours.push((loss, norm));
        let spec = serde_json::json!({
            "case": {"loss": step.loss, "aggregation": step.aggregation, "use_old": true,
                     "use_behaviour": true, "use_ref": true},
            "tokens": rows.iter().map(|r| &r.tokens).collect::<Vec<_>>(),
            "action": rows.iter().map(|r| r.action.iter().map(|a| u8::from(*a)).collect::<Vec<_>>()).collect::<Vec<_>>(),
            "old_logp": old_rows,
            "ref_logp": ref_rows,
            "behaviour_logp": rows.iter().map(|r| &r.behaviour_logp).collect::<Vec<_>>(),
            "advantage": rows.iter().map(|r| &r.advantage).collect::<Vec<_>>(),
        });
        let spec_path = tmp.path().join(format!("{name}.json"));
        std::fs::write(&spec_path, spec.to_string()).expect("write");
        jobs.push(
            serde_json::json!({"model": dir.join(name), "rollouts": spec_path,
                                     "out": tmp.path().join(format!("{name}.out.json"))}),
        );
    }
    let jobs_path = tmp.path().join("jobs.json");
    std::fs::write(&jobs_path, serde_json::to_string(&jobs).expect("json")).expect("write");
    run_python(
        &python,
        &[
            script("grpo_reference.py").as_os_str(),
            "model".as_ref(),
            jobs_path.as_os_str(),
        ],
    );
    let mut report = Vec::new();
    for (name, (loss, norm)) in VARIANTS.iter().zip(ours) {
        let out = tmp.path().join(format!("{name}.out.json"));
        let want: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&out).expect("out")).expect("json");
        let want_loss = want["loss"].as_f64().expect("loss");
        let want_norm = want["grad_norm"].as_f64().expect("grad_norm");
        report.push(format!(
            "{name}: loss {loss:.6} (torch {want_loss:.6}), grad norm {norm:.6} (torch {want_norm:.6})"
        ));
        assert!(norm > 0.0, "{name}: a gradient");
        assert!(
            (loss - want_loss).abs() < 1e-4,
            "{name}: loss {loss} against {want_loss}"
        );
        assert!(
            (norm - want_norm).abs() < 1e-4 * want_norm.max(1.0),
            "{name}: grad norm {norm} against {want_norm}"
        );
    }
    eprintln!("{}", report.join("\n"));
}

#[test]
fn lora_trains_loads_and_merges_into_what_transformers_computes_for_every_family() {
    let Some((python, dir)) = fixtures() else {
        return;
    };
    let tmp = tempfile::tempdir().expect("tempdir");
    let lora = LoraConfig {
        rank: 4,
        alpha: 8.0,
        targets: LoraConfig::default().targets,
    };
    let mut checks = Vec::new();
    let mut jobs = Vec::new();
    for name in VARIANTS {
        let source = dir.join(name);
        let mut model = Model::load(&source, Device::Cpu).expect("loads");
        let reference = read(&dir.join(format!("{name}.reference.safetensors")));
        let prompts: Vec<Vec<i64>> = (0..3)
            .map(|i| ids(&reference[&format!("prompt{i}")]))
            .collect();
        let before = logits(&model, &prompts[0]);
        model.attach_lora(&lora, 7);
        let mut optimizer = AdamW::new(
            model.trainable(),
            OptimConfig {
                lr: 2e-2,
                max_grad_norm: None,
                ..OptimConfig::default()
            },
        )
        .expect("optimizer");
        let rows = rollouts(&model, &prompts[1]);
        for _ in 0..3 {
            optimizer_step(
                &model,
                None,
                &mut optimizer,
                &rows,
                &StepConfig::default(),
                None,
            )
            .expect("step");
        }
        let adapted = logits(&model, &prompts[0]);
        let moved = max_diff(&adapted, &before);
        assert!(
            moved > 1e-3,
            "{name}: the adapters moved the logits by {moved}"
        );

        // The adapters save and load back onto the base weights.
        let file = tmp.path().join(format!("{name}.lora.safetensors"));
        Tensor::write_safetensors(&model.lora_tensors().expect("adapters"), &file).expect("write");
        let mut again = Model::load(&source, Device::Cpu).expect("loads");
        again.attach_lora(&lora, 1);
        again.load_lora(&file).expect("adapters load");
        assert_eq!(max_diff(&logits(&again, &prompts[0]), &adapted), 0.0);

        // The merged checkpoint: a plain model of the family, in the trainer and in
        // transformers.
        let state = trainer::checkpoint::TrainerState {
            step: 1,
            version: 1,
            seed: 0,
            base_model: source.clone(),
            best_eval: None,
            config: serde_json::Value::Null,
        };
        let out = tmp.path().join(name);
        let ckpt = trainer::checkpoint::save(&out, &model, &optimizer, &state, &source, 1)
            .expect("checkpoint");
        let merged = Model::load(&ckpt, Device::Cpu).expect("merged loads");
        let theirs = tmp.path().join(format!("{name}.merged.safetensors"));
        jobs.push(serde_json::json!({"model": ckpt, "ids": prompts, "out": theirs}));
        let ours: Vec<(Tensor, Tensor)> = prompts
            .iter()
            .map(|p| (logits(&merged, p), logits(&model, p)))
            .collect();
        checks.push((name, moved, theirs, ours));
    }
    let jobs_path = tmp.path().join("jobs.json");
    std::fs::write(&jobs_path, serde_json::to_string(&jobs).expect("json")).expect("write");
    run_python(
        &python,
        &[
            script("families.py").as_os_str(),
            "logits".as_ref(),
            jobs_path.as_os_str(),
        ],
    );
    let mut report = Vec::new();
    for (name, moved, theirs, ours) in checks {
        let theirs = read(&theirs);
        let mut worst: f64 = 0.0;
        for (i, (merged, adapted)) in ours.iter().enumerate() {
            let want = &theirs[&format!("logits{i}")];
            worst = worst
                .max(max_diff(merged, want))
                .max(max_diff(adapted, want));
        }
        report.push(format!(
            "{name}: adapters moved logits by {moved:.3}; merged vs transformers {worst:.2e}"
        ));
        assert!(
            worst < 1e-4,
            "{name}: merged checkpoint differs from transformers by {worst:.3e}"
        );
    }
    eprintln!("{}", report.join("\n"));
}

#[test]
fn stop_tokens_come_from_generation_config() {
    let Some((_, dir)) = fixtures() else {
        return;
    };
    for (name, stops) in [
        (
            "llama3-tied",
            ["<|end_of_text|>", "<|eom_id|>", "<|eot_id|>"].as_slice(),
        ),
        ("qwen2-tied", ["<|endoftext|>", "<|im_end|>"].as_slice()),
        ("qwen3", ["<|endoftext|>", "<|im_end|>"].as_slice()),
    ] {
        let tokenizer =
            trainer::tokenizer::ChatTokenizer::load(&dir.join(name)).expect("tokenizer loads");
        let mut want: Vec<i64> = stops
            .iter()
            .map(|t| tokenizer.token_id(t).expect("a special token"))
            .collect();
        want.sort();
        let mut got = tokenizer.eos_ids.clone();
        got.sort();
        assert_eq!(got, want, "{name}");
    }
}

/// `trainer serve` on `dir` (port 0); its base URL, and the child to stop.
fn serve(dir: &Path) -> (std::process::Child, String) {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_trainer"))
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--dtype",
            "f32",
            "--model",
        ])
        .arg(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("trainer starts");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("a line");
    let base = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("the bound address, not {line:?}"))
        .to_owned();
    (child, base)
}

#[tokio::test]
async fn trainer_serve_answers_through_each_familys_template_and_stop_tokens() {
    let Some((_, dir)) = fixtures() else {
        return;
    };
    let client = reqwest::Client::new();
    let messages = [trainer::tokenizer::Message {
        role: "user".into(),
        content: "Read two integers and print their sum.".into(),
    }];
    for name in ["llama3-tied", "qwen2-untied", "qwen3"] {
        let folder = dir.join(name);
        // What the library makes of the same request: the model's template, greedy
        // decoding that never picks an id the tokenizer lacks, the stop ids.
        let tokenizer = trainer::tokenizer::ChatTokenizer::load(&folder).expect("tokenizer");
        let prompt = tokenizer
            .encode(
                &tokenizer
                    .apply_chat_template(&messages, true)
                    .expect("template"),
            )
            .expect("ids");
        let mut model = Model::load(&folder, Device::Cpu).expect("loads");
        model.limit_sampling_vocab(tokenizer.vocab_size());
        let sampling = trainer::generate::Sampling {
            temperature: 0.0,
            top_p: 1.0,
            top_k: 0,
            max_tokens: 24,
            stop: tokenizer.eos_ids.iter().map(|id| vec![*id]).collect(),
            seed: 0,
            pad_id: 0,
        };
        let sample = trainer::generate::sample(&model, std::slice::from_ref(&prompt), &sampling)
            .expect("samples")
            .remove(0);
        let mut tokens = sample.tokens.clone();
        if tokens.last().is_some_and(|t| tokenizer.eos_ids.contains(t)) {
            tokens.pop();
        }
        let want = tokenizer.decode(&tokens).expect("decodes");
        eprintln!("{name}: {} tokens, {want:?}", sample.tokens.len());
        assert!(!want.is_empty(), "{name}: some text to compare");

        let (mut child, base) = serve(&folder);
        let res = client
            .post(format!("{base}/v1/chat/completions"))
            .json(&serde_json::json!({"messages": messages, "max_tokens": 24, "temperature": 0.0}))
            .send()
            .await
            .expect("answers");
        let status = res.status().as_u16();
        let body: serde_json::Value = res.json().await.expect("json");
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(status, 200, "{name}: {body}");
        assert_eq!(
            body["usage"]["prompt_tokens"].as_u64(),
            Some(prompt.len() as u64),
            "{name}: the prompt through the model's template"
        );
        assert_eq!(
            body["choices"][0]["message"]["content"].as_str(),
            Some(want.as_str()),
            "{name}: {body}"
        );
    }
}
