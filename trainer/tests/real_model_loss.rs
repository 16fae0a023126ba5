//! The update step on the real SmolLM2-135M-Instruct (`ARENA_MODEL_DIR`; under `CI=true`
//! a missing model fails the test): on a fixed batch of two chat turns, one with advantage
//! +1 and one with -1, each optimizer step of the configuration `trainer train` uses
//! (clipped surrogate, token-mean aggregation, AdamW, gradient clipping) lowers the loss
//! measured against the batch's fixed starting log-probabilities, and it raises the
//! log-probability of the rewarded reply against the penalised one. The same holds with
//! the matrix products in bf16 (float32 masters and AdamW, `trainer::precision`), with the
//! same assertions: the loss falls at every step, no looser tolerance.

use tch::{Device, Kind, Tensor};
use trainer::grpo::logprob::sequence_logprobs;
use trainer::grpo::step::{Rollout, accumulate, normalizer, optimizer_step};
use trainer::model::Model;
use trainer::optim::{AdamW, OptimConfig};
use trainer::tokenizer::{ChatTokenizer, Message};
use trainer::train::config::TrainConfig;

/// A chat message.
fn message(role: &str, content: &str) -> Message {
    Message {
        role: role.to_owned(),
        content: content.to_owned(),
    }
}

/// A prompt and a reply as token ids, with the reply's tokens marked as actions.
fn turn(tok: &ChatTokenizer, reply: &str) -> (Vec<i64>, Vec<bool>) {
    let messages = [
        message("system", "You write Python 3 programs."),
        message(
            "user",
            "Read two integers from one line and print their sum.",
        ),
    ];
    let prompt = tok
        .apply_chat_template(&messages, true)
        .expect("chat template");
    let prompt_ids = tok.encode(&prompt).expect("encode prompt");
    let mut whole = messages.to_vec();
    whole.push(message("assistant", reply));
    let text = tok
        .apply_chat_template(&whole, false)
        .expect("chat template");
    let ids = tok.encode(&text).expect("encode turn");
    assert_eq!(
        ids[..prompt_ids.len()],
        prompt_ids[..],
        "the prompt is a prefix"
    );
    let action = (0..ids.len()).map(|k| k >= prompt_ids.len()).collect();
    (ids, action)
}

/// Mean log-probability of each row's action tokens.
fn action_logp(logp: &Tensor, rows: &[Rollout]) -> Vec<f64> {
    rows.iter()
        .enumerate()
        .map(|(i, r)| {
            let (mut sum, mut n) = (0.0, 0.0);
            for k in 1..r.tokens.len() {
                if r.action[k] {
                    sum += logp.double_value(&[i as i64, k as i64 - 1]);
                    n += 1.0;
                }
            }
            sum / n
        })
        .collect()
}

#[test]
fn the_loss_falls_on_a_fixed_batch_of_the_real_model() {
    loss_falls(Kind::Float);
}

#[test]
fn the_loss_falls_on_a_fixed_batch_of_the_real_model_in_bf16() {
    loss_falls(Kind::BFloat16);
}

fn loss_falls(compute: Kind) {
    let Some(dir) = ci::require::env_path("ARENA_MODEL_DIR") else {
        return;
    };
    tch::manual_seed(5);
    let mut model = Model::load(&dir, Device::Cpu).expect("SmolLM2 loads");
    model.set_compute(compute);
    let tok = ChatTokenizer::load(&dir).expect("tokenizer");
    let good = turn(
        &tok,
        "```python\na, b = map(int, input().split())\nprint(a + b)\n```",
    );
    let bad = turn(
        &tok,
        "```python\na = input(\"a: \")\nb = input(\"b: \")\nprint(f\"The sum is {a + b}\")\n```",
    );
    let seqs = vec![good.0.clone(), bad.0.clone()];
    // Rows of different lengths are padded by the loss; the starting log-probabilities
    // are those of the same padded batch.
    let start = tch::no_grad(|| sequence_logprobs(&model, &seqs)).expect("logprobs");
    let rows: Vec<Rollout> = [(good, 1.0), (bad, -1.0)]
        .into_iter()
        .enumerate()
        .map(|(i, ((tokens, action), a))| Rollout::fixed(tokens, action, a, &start, i))
        .collect();
    let step = TrainConfig::default().step();
    let norm = normalizer(&rows);
    let old = [start.shallow_clone()];
    let surrogate = |model: &Model| {
        accumulate(model, None, &rows, &step, norm, Some(&old))
            .expect("loss")
            .0
    };
    let mut opt = AdamW::new(
        &model.vs,
        OptimConfig {
            lr: 1e-5,
            ..OptimConfig::default()
        },
    )
    .expect("optimizer");
    let before = action_logp(&start, &rows);
    // Measuring the loss accumulates its gradient: cleared before each update.
    let mut losses = vec![surrogate(&model)];
    opt.zero_grad();
    for _ in 0..3 {
        optimizer_step(&model, None, &mut opt, &rows, &step, None).expect("step");
        losses.push(surrogate(&model));
        opt.zero_grad();
    }
    assert!(
        losses.windows(2).all(|w| w[1] < w[0]),
        "each step lowers the loss ({compute:?}): {losses:?}"
    );
    let after = tch::no_grad(|| sequence_logprobs(&model, &seqs)).expect("logprobs");
    let after = action_logp(&after, &rows);
    assert!(
        after[0] > before[0] && after[1] < before[1],
        "the rewarded reply gains, the penalised one loses ({compute:?}): before {before:?}, after {after:?}"
    );
}
