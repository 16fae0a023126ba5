//! Teacher-forced log-probabilities of whole sequences under the policy, with gradient:
//! the `logp` the losses differentiate.

use tch::{Device, Kind, Tensor};

use super::GrpoError;
use crate::model::{Cache, Model, causal_mask};

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
    let device = model.vs.device();
    let (ids, attention) = pad_right(seqs, 0, device);
    let (b, t) = ids.size2().expect("invariant: padded ids are 2-D");
    let positions = Tensor::arange(t, (Kind::Int64, device))
        .view([1, t])
        .expand([b, t], true);
    let mask = causal_mask(&attention, t);
    let logits = model.forward(&ids, &positions, &mask, &mut Cache::default());
    let logp = logits
        .narrow(1, 0, t - 1)
        .log_softmax(-1, Kind::Float)
        .gather(2, &ids.narrow(1, 1, t - 1).unsqueeze(-1), false)
        .squeeze_dim(-1);
    Ok(logp * attention.narrow(1, 1, t - 1).to_kind(Kind::Float))
}
