//! Decoding with the KV cache: greedy for parity checks; each step feeds only the new
//! token and its position.

use tch::{Kind, Tensor};

use crate::model::{Cache, Model, causal_mask};
use crate::{Error, Result};

/// Appends `max_new` greedily chosen tokens to the single prompt `prompt`.
pub fn greedy(model: &Model, prompt: &[i64], max_new: usize) -> Result<Vec<i64>> {
    let context = model.config.max_position_embeddings;
    if prompt.len() + max_new > context {
        return Err(Error::TooLong {
            tokens: prompt.len() + max_new,
            context,
        });
    }
    let device = model.vs.device();
    let mut cache = Cache::default();
    let mut out = Vec::with_capacity(max_new);
    let mut ids = Tensor::from_slice(prompt).view([1, -1]).to_device(device);
    let mut start = 0i64;
    tch::no_grad(|| {
        for _ in 0..max_new {
            let seq = ids.size()[1];
            let positions = (Tensor::arange(seq, (Kind::Int64, device)) + start).view([1, seq]);
            let attention = Tensor::ones([1, start + seq], (Kind::Int64, device));
            let mask = causal_mask(&attention, seq);
            let logits = model.forward(&ids, &positions, &mask, &mut cache);
            let next = logits
                .select(1, seq - 1)
                .argmax(-1, false)
                .int64_value(&[0]);
            out.push(next);
            start += seq;
            ids = Tensor::from_slice(&[next]).view([1, 1]).to_device(device);
        }
    });
    Ok(out)
}
