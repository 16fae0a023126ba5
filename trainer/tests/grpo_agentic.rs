//! Agentic GRPO's correction algebra on a tiny model's gradients: with the policy not moved,
//! the immediate (provisional) update plus the correction is exactly the update the final
//! advantages alone would give; when it has moved, the correction is scaled by the
//! truncated importance ratio against the policy that generated the tokens.

use tch::{Device, Tensor};
use trainer::config::Config;
use trainer::grpo::credit::{CreditConfig, GroupCredit, Scale, token_advantages};
use trainer::grpo::logprob::sequence_logprobs;
use trainer::grpo::loss::{
    Aggregation, LossConfig, LossInputs, Normalizer, aggregation_weights, policy_loss,
};
use trainer::model::Model;

fn tiny_model(seed: i64) -> Model {
    tch::manual_seed(seed);
    let config: Config = serde_json::from_value(serde_json::json!({
        "model_type": "llama", "vocab_size": 16, "hidden_size": 16, "intermediate_size": 32,
        "num_hidden_layers": 1, "num_attention_heads": 2, "num_key_value_heads": 1,
        "rms_norm_eps": 1e-6, "rope_theta": 10000.0, "max_position_embeddings": 32,
        "tie_word_embeddings": true
    }))
    .expect("config");
    Model::new(config, Device::Cpu)
}

/// One episode as a concatenated sequence: a prompt token, then per turn `a` action tokens
/// followed by `o` observation tokens (judge feedback), with each token's turn.
fn episode(turns: usize, seed: i64) -> (Vec<i64>, Vec<Option<usize>>) {
    let mut ids = vec![1i64];
    let mut turn_of = vec![None];
    for t in 0..turns {
        for k in 0..(2 + t % 2) {
            ids.push(2 + (seed * 7 + t as i64 * 3 + k as i64) % 14);
            turn_of.push(Some(t));
        }
        if t + 1 < turns {
            for k in 0..2 {
                ids.push(2 + (seed * 5 + k) % 14);
                turn_of.push(None);
            }
        }
    }
    (ids, turn_of)
}

fn rows(values: &[Vec<f64>], width: usize) -> Tensor {
    let flat: Vec<f32> = values
        .iter()
        .flat_map(|r| {
            r.iter()
                .map(|x| *x as f32)
                .chain(std::iter::repeat(0.0))
                .take(width)
        })
        .collect();
    Tensor::from_slice(&flat).view([values.len() as i64, width as i64])
}

fn grads(model: &Model, loss: &Tensor) -> Vec<Tensor> {
    let vars = model.vs.trainable_variables();
    Tensor::run_backward(&[loss], &vars, true, false)
}

fn max_diff(a: &[Tensor], b: &[Tensor]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs().max().double_value(&[]))
        .fold(0.0, f64::max)
}

#[test]
fn provisional_plus_correction_equals_the_final_update_when_the_policy_has_not_moved() {
    let model = tiny_model(7);
    // Three episodes: three turns, one turn, two turns (as in credit's hand example).
    let lengths = [3usize, 1, 2];
    let levels = [vec![0.1, 0.3, 0.5], vec![0.1], vec![0.0, 0.3]];
    let verdicts = [1.0, 0.0, 1.0];
    let mut credit = GroupCredit::new(
        3,
        CreditConfig {
            horizon: 3,
            scale: Scale::GroupStd,
            eps: 1e-6,
            staleness_cap: 8,
        },
    )
    .expect("group");
    for (i, l) in levels.iter().enumerate() {
        for level in l {
            credit.record_turn(i, *level, 0).expect("turn");
        }
        credit.record_verdict(i, verdicts[i]).expect("verdict");
    }
    // The immediate updates of each turn (recorded as applied).
    for turn in 0..3 {
        credit.apply_provisional(turn).expect("turn played");
    }
    let finals = credit.final_advantages().expect("complete");
    let corrections = credit.corrections(0).expect("complete");
    assert_eq!(corrections.dropped_stale, 0);
    let mut provisional: Vec<Vec<f64>> = lengths.iter().map(|n| vec![0.0; *n]).collect();
    let mut delta = provisional.clone();
    for c in &corrections.apply {
        provisional[c.episode][c.turn] = c.provisional;
        delta[c.episode][c.turn] = c.delta;
    }
    // The corrections carry the provisional advantages the immediate updates used.
    for (i, p) in provisional.iter().enumerate() {
        for (turn, v) in p.iter().enumerate() {
            let at_turn = credit.provisional(turn).expect("ready")[i].expect("played");
            assert!((at_turn - v).abs() < 1e-12, "episode {i} turn {turn}");
        }
    }

    let episodes: Vec<(Vec<i64>, Vec<Option<usize>>)> = lengths
        .iter()
        .enumerate()
        .map(|(i, n)| episode(*n, i as i64))
        .collect();
    let seqs: Vec<Vec<i64>> = episodes.iter().map(|e| e.0.clone()).collect();
    let width = seqs.iter().map(Vec::len).max().expect("episodes") - 1;
    // Targets are tokens 1..: drop the first token's turn.
    let per_token = |per_turn: &Vec<Vec<f64>>| -> (Tensor, Tensor) {
        let mut adv = Vec::new();
        let mut mask = Vec::new();
        for (i, (_, turn_of)) in episodes.iter().enumerate() {
            let (a, m) = token_advantages(&turn_of[1..], &per_turn[i]).expect("turns");
            adv.push(a);
            mask.push(m);
        }
        (rows(&adv, width), rows(&mask, width))
    };
    let (adv_p, mask) = per_token(&provisional);
    let (adv_d, _) = per_token(&delta);
    let (adv_f, _) = per_token(&finals);

    let logp = sequence_logprobs(&model, &seqs).expect("logprobs");
    assert_eq!(logp.size(), vec![3, width as i64]);
    let behaviour = logp.detach();
    let weights =
        aggregation_weights(&mask, Aggregation::TokenMean, Normalizer::of(&mask)).expect("weights");
    let config = LossConfig {
        clip_low: 0.2,
        clip_high: 0.28,
        tis_cap: Some(2.0),
        ..Default::default()
    };
    let loss = |adv: &Tensor, behaviour: &Tensor| {
        policy_loss(
            &LossInputs {
                logp: &logp,
                old_logp: None,
                behaviour_logp: Some(behaviour),
                ref_logp: None,
                advantages: adv,
                mask: &mask,
            },
            &config,
            &weights,
        )
        .expect("loss")
    };
    let g_p = grads(&model, &loss(&adv_p, &behaviour).0);
    let g_d = grads(&model, &loss(&adv_d, &behaviour).0);
    let g_f = grads(&model, &loss(&adv_f, &behaviour).0);
    let sum: Vec<Tensor> = g_p.iter().zip(&g_d).map(|(a, b)| a + b).collect();
    let scale = g_f
        .iter()
        .map(|g| g.abs().max().double_value(&[]))
        .fold(0.0, f64::max);
    let diff = max_diff(&sum, &g_f);
    eprintln!(
        "max |g_provisional + g_correction - g_final| = {diff:.3e} (max |g_final| {scale:.3e})"
    );
    assert!(scale > 1e-4, "the final update is not trivial: {scale}");
    // float32 gradients: a relative tolerance of 1e-6 of the largest entry.
    assert!(
        diff < 1e-6 * scale,
        "provisional + correction differs from the final update by {diff:.3e} (max |g| {scale:.3e})"
    );
    // And the correction is not the final update by itself.
    assert!(max_diff(&g_d, &g_f) > 1e-4);

    // The policy moved since generation: every behaviour logprob is 0.3 lower, so the
    // correction is weighted by exp(0.3); 1.0 lower is truncated at the cap of 2.
    let (_, stats) = loss(&adv_d, &(&behaviour - 0.3));
    assert!((stats.behaviour_ratio_mean - 0.3f64.exp()).abs() < 1e-5);
    assert_eq!(stats.tis_truncated_fraction, 0.0);
    let g_moved = grads(&model, &loss(&adv_d, &(&behaviour - 0.3)).0);
    let scaled: Vec<Tensor> = g_d.iter().map(|g| g * 0.3f64.exp()).collect();
    let d_moved = max_diff(&g_moved, &scaled);
    assert!(
        d_moved < 1e-6 * scale,
        "the TIS weight exp(0.3) scales the correction: off by {d_moved:.3e}"
    );
    let (_, stats) = loss(&adv_d, &(&behaviour - 1.0));
    assert_eq!(stats.tis_truncated_fraction, 1.0);
    let g_capped = grads(&model, &loss(&adv_d, &(&behaviour - 1.0)).0);
    let doubled: Vec<Tensor> = g_d.iter().map(|g| g * 2.0).collect();
    let d_capped = max_diff(&g_capped, &doubled);
    assert!(
        d_capped < 1e-6 * scale,
        "a ratio e over the cap is truncated at 2: off by {d_capped:.3e}"
    );
}
