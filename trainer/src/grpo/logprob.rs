//! Teacher-forced log-probabilities of whole sequences under the policy, with gradient:
//! the `logp` the losses differentiate.
//!
//! Rows that begin with the same tokens (a group's samples of one prompt) share one
//! forward pass over that prefix: its keys and values are computed once, with gradient,
//! and every row attends to them, so the prompt's cost is paid once per batch instead of
//! once per row. The result and its gradient are those of the row-by-row computation.

use tch::{Device, Kind, Tensor};

use super::GrpoError;
use crate::model::{Cache, Model, Recompute, causal_mask};

/// The sequences right-padded with `pad` into `[batch, longest]` ids and a 0/1 attention
/// mask of the same shape.
pub fn pad_right(seqs: &[Vec<i64>], pad: i64, device: Device) -> (Tensor, Tensor) {
    let longest = seqs.iter().map(Vec::len).max().unwrap_or(0);
    let mut ids = Vec::with_capacity(seqs.len() * longest);
    let mut attention = Vec::with_capacity(seqs.len() * longest);
    for s in seqs {
        ids.extend_from_slice(s);
        ids.extend(std::iter::repeat_n(pad, longest - s.len()));
        attention.extend(std::iter::repeat_n(1i64, s.len()));
        attention.extend(std::iter::repeat_n(0i64, longest - s.len()));
    }
    let shape = [seqs.len() as i64, longest as i64];
    (
        Tensor::from_slice(&ids).view(shape).to_device(device),
        Tensor::from_slice(&attention).view(shape).to_device(device),
    )
}

/// `[batch, longest - 1]`: entry `(i, j)` is the log-probability of token `j + 1` of
/// sequence `i` given its tokens up to `j` (0 past the sequence's end). Gradients flow to
/// the model's variables unless called under `no_grad`.
pub fn sequence_logprobs(model: &Model, seqs: &[Vec<i64>]) -> Result<Tensor, GrpoError> {
    check(model, seqs)?;
    let shared = shared_prefix(seqs);
    if seqs.len() >= 2 && shared >= SHARED_PREFIX_MIN {
        return Ok(with_shared_prefix(model, seqs, shared));
    }
    Ok(padded(model, seqs))
}

/// `sequence_logprobs` with every row computed over its whole length, common prefix or
/// not (the padded batch): the measure the shared prefix is benchmarked against.
pub fn sequence_logprobs_unshared(model: &Model, seqs: &[Vec<i64>]) -> Result<Tensor, GrpoError> {
    check(model, seqs)?;
    Ok(padded(model, seqs))
}

fn check(model: &Model, seqs: &[Vec<i64>]) -> Result<(), GrpoError> {
    if seqs.is_empty() {
        return Err(GrpoError::Setting {
            name: "sequences",
            message: "no sequences".to_owned(),
        });
    }
    if let Some(i) = seqs.iter().position(|s| s.len() < 2) {
        return Err(GrpoError::Setting {
            name: "sequences",
            message: format!("sequence {i} has fewer than 2 tokens"),
        });
    }
    let context = model.config.max_position_embeddings;
    if let Some(i) = seqs.iter().position(|s| s.len() > context) {
        return Err(GrpoError::Setting {
            name: "sequences",
            message: format!(
                "sequence {i} has {} tokens, more than the context of {context}",
                seqs[i].len()
            ),
        });
    }
    Ok(())
}

/// The log-probabilities a training pass differentiates: [`sequence_logprobs`], or with
/// the model's activation checkpointing on, [`sequence_logprobs_checkpointed`] and the
/// [`Recompute`] to run after the loss's `backward`.
pub fn training_logprobs<'a>(
    model: &'a Model,
    seqs: &[Vec<i64>],
) -> Result<(Tensor, Option<Recompute<'a>>), GrpoError> {
    if model.checkpointing() {
        let (logp, recompute) = sequence_logprobs_checkpointed(model, seqs)?;
        return Ok((logp, Some(recompute)));
    }
    Ok((sequence_logprobs(model, seqs)?, None))
}

/// `sequence_logprobs` with activation checkpointing (`Model::forward_checkpointed`, the
/// padded batch): after `backward` of a loss of the result, [`Recompute::backward`]
/// carries the gradient through the layers.
pub fn sequence_logprobs_checkpointed<'a>(
    model: &'a Model,
    seqs: &[Vec<i64>],
) -> Result<(Tensor, Recompute<'a>), GrpoError> {
    check(model, seqs)?;
    let (ids, attention, positions, mask) = padded_inputs(model, seqs);
    let (logits, recompute) = model.forward_checkpointed(&ids, &positions, &mask);
    Ok((gather_logprobs(&logits, &ids, &attention), recompute))
}

fn padded_inputs(model: &Model, seqs: &[Vec<i64>]) -> (Tensor, Tensor, Tensor, Tensor) {
    let device = model.vs.device();
    let (ids, attention) = pad_right(seqs, 0, device);
    let (b, t) = ids.size2().expect("invariant: padded ids are 2-D");
    let positions = Tensor::arange(t, (Kind::Int64, device))
        .view([1, t])
        .expand([b, t], true);
    let mask = causal_mask(&attention, t);
    (ids, attention, positions, mask)
}

fn padded(model: &Model, seqs: &[Vec<i64>]) -> Tensor {
    let (ids, attention, positions, mask) = padded_inputs(model, seqs);
    let logits = model.forward(&ids, &positions, &mask, &mut Cache::default());
    gather_logprobs(&logits, &ids, &attention)
}

/// Each next token's log-probability under `logits`, 0 past a row's end.
fn gather_logprobs(logits: &Tensor, ids: &Tensor, attention: &Tensor) -> Tensor {
    let t = ids.size()[1];
    let logp = logits
        .narrow(1, 0, t - 1)
        .log_softmax(-1, Kind::Float)
        .gather(2, &ids.narrow(1, 1, t - 1).unsqueeze(-1), false)
        .squeeze_dim(-1);
    logp * attention.narrow(1, 1, t - 1).to_kind(Kind::Float)
}

/// Rows sharing at least this many leading tokens compute them once.
const SHARED_PREFIX_MIN: usize = 16;

/// The length of the rows' common leading tokens, leaving each row at least one token of
/// its own (the one the prefix's last position predicts).
fn shared_prefix(seqs: &[Vec<i64>]) -> usize {
    let first = &seqs[0];
    let shortest = seqs.iter().map(Vec::len).min().unwrap_or(0);
    let common = seqs[1..].iter().fold(first.len(), |n, s| {
        n.min(first.iter().zip(s).take_while(|(a, b)| a == b).count())
    });
    common.min(shortest.saturating_sub(1))
}

/// `sequence_logprobs` for rows whose first `p` tokens are equal: one forward pass over
/// the prefix (one row), its cache repeated for every row, then the rows' own tokens.
fn with_shared_prefix(model: &Model, seqs: &[Vec<i64>], p: usize) -> Tensor {
    let device = model.vs.device();
    let p = p as i64;
    let b = seqs.len() as i64;
    let prefix = Tensor::from_slice(&seqs[0][..p as usize])
        .view([1, p])
        .to_device(device);
    let ones = |n: i64, len: i64| Tensor::ones([n, len], (Kind::Int64, device));
    let mut cache = Cache::default();
    let prefix_logits = model.forward(
        &prefix,
        &Tensor::arange(p, (Kind::Int64, device)).view([1, p]),
        &causal_mask(&ones(1, p), p),
        &mut cache,
    );
    let prefix_logp = prefix_logits.log_softmax(-1, Kind::Float);
    // The prefix's own tokens (positions 1..p), the same in every row.
    let within = prefix_logp
        .narrow(1, 0, p - 1)
        .gather(2, &prefix.narrow(1, 1, p - 1).unsqueeze(-1), false)
        .squeeze_dim(-1)
        .expand([b, p - 1], false);
    let rest: Vec<Vec<i64>> = seqs.iter().map(|s| s[p as usize..].to_vec()).collect();
    let (ids, own) = pad_right(&rest, 0, device);
    let t = ids.size()[1];
    // Each row's first own token, predicted by the prefix's last position.
    let first =
        prefix_logp
            .select(1, p - 1)
            .expand([b, -1], false)
            .gather(1, &ids.narrow(1, 0, 1), false);
    let mut cache = cache.select_rows(&Tensor::zeros([b], (Kind::Int64, device)));
    let attention = Tensor::cat(&[ones(b, p), own.shallow_clone()], 1);
    let logits = model.forward(
        &ids,
        &(Tensor::arange(t, (Kind::Int64, device)).view([1, t]) + p).expand([b, t], true),
        &causal_mask(&attention, t),
        &mut cache,
    );
    let after = logits
        .narrow(1, 0, t - 1)
        .log_softmax(-1, Kind::Float)
        .gather(2, &ids.narrow(1, 1, t - 1).unsqueeze(-1), false)
        .squeeze_dim(-1);
    Tensor::cat(&[within, first, after], 1) * attention.narrow(1, 1, p + t - 1).to_kind(Kind::Float)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Model {
        let config: crate::config::Config = serde_json::from_value(serde_json::json!({
            "model_type": "llama", "vocab_size": 40, "hidden_size": 16, "intermediate_size": 32,
            "num_hidden_layers": 2, "num_attention_heads": 2, "num_key_value_heads": 1,
            "rms_norm_eps": 1e-6, "rope_theta": 10000.0, "max_position_embeddings": 96,
            "tie_word_embeddings": true
        }))
        .expect("config");
        Model::new(config, Device::Cpu)
    }

    /// The row-by-row log-probabilities (each row alone through the plain path) and the
    /// gradient of their sum.
    fn reference(model: &Model, seqs: &[Vec<i64>]) -> (Tensor, Vec<Tensor>) {
        let longest = seqs.iter().map(Vec::len).max().expect("rows") as i64 - 1;
        let rows: Vec<Tensor> = seqs
            .iter()
            .map(|s| {
                let row = sequence_logprobs_unshared(model, std::slice::from_ref(s))
                    .expect("one row")
                    .squeeze_dim(0);
                row.constant_pad_nd([0, longest - row.size()[0]])
            })
            .collect();
        let logp = Tensor::stack(&rows, 0);
        (logp.detach(), gradients(model, &logp))
    }

    fn gradients(model: &Model, logp: &Tensor) -> Vec<Tensor> {
        let clear = || {
            for mut var in model.vs.trainable_variables() {
                var.zero_grad();
            }
        };
        clear();
        logp.sum(Kind::Float).backward();
        let grads = model
            .vs
            .trainable_variables()
            .iter()
            .map(|v| v.grad().copy())
            .collect();
        clear();
        grads
    }

    /// Rows of one prompt with replies of different lengths (one reply a single token)
    /// get the same log-probabilities, and the same gradient, through the shared prefix
    /// as row by row; rows without a long common start take the plain path.
    #[test]
    fn a_shared_prefix_gives_the_row_by_row_logprobs_and_gradient() {
        tch::manual_seed(3);
        let model = tiny();
        let prompt: Vec<i64> = (0..40).map(|i| (i * 7 + 3) % 40).collect();
        let reply = |r: &[i64]| [prompt.as_slice(), r].concat();
        let seqs = vec![
            reply(&[5, 9, 11, 2]),
            reply(&[5, 9, 12]),
            reply(&[6]),
            reply(&[7, 1, 1, 1, 1, 1, 8]),
        ];
        assert_eq!(shared_prefix(&seqs), 40);
        let (want, want_grads) = reference(&model, &seqs);
        let got = sequence_logprobs(&model, &seqs).expect("logprobs");
        assert_eq!(got.size(), want.size());
        let diff = (&got.detach() - &want).abs().max().double_value(&[]);
        assert!(diff < 1e-5, "log-probabilities differ by {diff}");
        for (g, w) in gradients(&model, &got).iter().zip(&want_grads) {
            let diff = (g - w).abs().max().double_value(&[]);
            let scale = w.abs().max().double_value(&[]).max(1e-3);
            assert!(
                diff / scale < 1e-4,
                "gradients differ by {diff} (scale {scale})"
            );
        }
        // Identical rows keep one token of their own each.
        let same = vec![reply(&[5, 9]), reply(&[5, 9])];
        assert_eq!(shared_prefix(&same), 41);
        let (want, _) = reference(&model, &same);
        let got = tch::no_grad(|| sequence_logprobs(&model, &same)).expect("same");
        assert!((&got - &want).abs().max().double_value(&[]) < 1e-5);
        // A short common start stays on the plain path and agrees as well.
        let short = vec![vec![1, 2, 3, 4], vec![1, 2, 5]];
        assert!(shared_prefix(&short) < SHARED_PREFIX_MIN);
        let (want, _) = reference(&model, &short);
        let got = tch::no_grad(|| sequence_logprobs(&model, &short)).expect("short");
        assert!((&got - &want).abs().max().double_value(&[]) < 1e-5);
    }
}
