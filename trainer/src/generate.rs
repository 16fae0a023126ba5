//! Decoding with the KV cache: greedy for parity checks; each step feeds only the new
//! token and its position.

use tch::{Kind, Tensor};

use crate::model::{Cache, Model, causal_mask};
use crate::rng::SplitMix;
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

/// How to sample.
#[derive(Debug, Clone, PartialEq)]
pub struct Sampling {
    /// Softmax temperature; 0 means greedy.
    pub temperature: f64,
    /// Nucleus: keep the smallest set of tokens whose probability reaches `top_p` (1 keeps all).
    pub top_p: f64,
    /// Keep only the `top_k` most likely tokens (0 keeps all).
    pub top_k: usize,
    /// Most tokens to generate per sequence.
    pub max_tokens: usize,
    /// Token sequences that end a sequence (they are kept in the output).
    pub stop: Vec<Vec<i64>>,
    /// Seed of the sampler: sequence `i` of a call draws from its own generator seeded
    /// with `seed + i`, so its tokens do not depend on what else is in the batch.
    pub seed: u64,
    /// Padding token for the left-padded batch.
    pub pad_id: i64,
}

/// Why a sequence ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finish {
    /// A stop sequence was generated.
    Stop,
    /// `max_tokens` was reached.
    Length,
}

/// One generated sequence.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// The generated token ids.
    pub tokens: Vec<i64>,
    /// The log-probability of each token under the distribution it was drawn from (after
    /// temperature, top-k and top-p, renormalised); with temperature 0, under the model's
    /// own distribution.
    pub logprobs: Vec<f64>,
    /// Why it ended.
    pub finish: Finish,
}

/// The distribution a token is drawn from, as log-probabilities `[batch, vocab]`
/// (`-inf` for filtered tokens).
pub fn sampling_logprobs(logits: &Tensor, sampling: &Sampling) -> Tensor {
    let logits = logits.to_kind(Kind::Float);
    if sampling.temperature <= 0.0 {
        return logits.log_softmax(-1, Kind::Float);
    }
    let mut scaled = logits / sampling.temperature;
    let vocab = scaled.size()[1];
    if sampling.top_k > 0 && (sampling.top_k as i64) < vocab {
        let (kth, _) = scaled.topk(sampling.top_k as i64, -1, true, true);
        let threshold = kth.narrow(1, sampling.top_k as i64 - 1, 1);
        scaled = scaled.masked_fill(&scaled.lt_tensor(&threshold), f64::NEG_INFINITY);
    }
    if sampling.top_p < 1.0 {
        let (sorted, order) = scaled.sort(-1, true);
        let cumulative = sorted.softmax(-1, Kind::Float).cumsum(-1, Kind::Float);
        // Remove a token when the tokens before it already reach top_p (the first stays).
        let before = &cumulative - sorted.softmax(-1, Kind::Float);
        let remove_sorted = before.ge(sampling.top_p);
        let remove = remove_sorted.scatter(-1, &order, &remove_sorted);
        scaled = scaled.masked_fill(&remove, f64::NEG_INFINITY);
    }
    scaled.log_softmax(-1, Kind::Float)
}

/// Samples a continuation of every prompt at once (left-padded batch, KV cache).
pub fn sample(model: &Model, prompts: &[Vec<i64>], sampling: &Sampling) -> Result<Vec<Sample>> {
    let seeds: Vec<u64> = (0..prompts.len() as u64)
        .map(|i| sampling.seed.wrapping_add(i))
        .collect();
    sample_with(model, prompts, &seeds, sampling, &mut |_, _| {})
}

/// [`sample`] with one generator seed per prompt (`seeds[i]` for `prompts[i]`), calling
/// `on_token(prompt index, token)` as each token is chosen.
pub fn sample_with(
    model: &Model,
    prompts: &[Vec<i64>],
    seeds: &[u64],
    sampling: &Sampling,
    on_token: &mut dyn FnMut(usize, i64),
) -> Result<Vec<Sample>> {
    if seeds.len() != prompts.len() {
        return Err(Error::Config(format!(
            "{} seeds for {} prompts",
            seeds.len(),
            prompts.len()
        )));
    }
    let mut generators: Vec<SplitMix> = seeds.iter().map(|s| SplitMix::new(*s)).collect();
    let context = model.config.max_position_embeddings;
    let longest = prompts.iter().map(Vec::len).max().unwrap_or(0);
    if longest + sampling.max_tokens > context {
        return Err(Error::TooLong {
            tokens: longest + sampling.max_tokens,
            context,
        });
    }
    if prompts.iter().any(Vec::is_empty) {
        return Err(Error::Config(
            "an empty prompt cannot be continued".to_owned(),
        ));
    }
    let device = model.vs.device();
    let b = prompts.len() as i64;
    let mut padded = Vec::with_capacity(prompts.len() * longest);
    let mut attention = Vec::with_capacity(prompts.len() * longest);
    for prompt in prompts {
        let pad = longest - prompt.len();
        padded.extend(std::iter::repeat_n(sampling.pad_id, pad).chain(prompt.iter().copied()));
        attention
            .extend(std::iter::repeat_n(0i64, pad).chain(std::iter::repeat_n(1i64, prompt.len())));
    }
    let mut ids = Tensor::from_slice(&padded)
        .view([b, longest as i64])
        .to_device(device);
    let mut attention = Tensor::from_slice(&attention)
        .view([b, longest as i64])
        .to_device(device);
    let mut samples: Vec<Sample> = prompts
        .iter()
        .map(|_| Sample {
            tokens: Vec::new(),
            logprobs: Vec::new(),
            finish: Finish::Length,
        })
        .collect();
    let mut done = vec![false; prompts.len()];
    let mut cache = Cache::default();
    tch::no_grad(|| {
        for _ in 0..sampling.max_tokens {
            let seq = ids.size()[1];
            let total = attention.size()[1];
            let positions =
                (attention.cumsum(1, Kind::Int64) - 1)
                    .clamp_min(0)
                    .narrow(1, total - seq, seq);
            let mask = causal_mask(&attention, seq);
            let logits = model
                .forward(&ids, &positions, &mask, &mut cache)
                .select(1, seq - 1);
            let logprobs = sampling_logprobs(&model.mask_unsampled(&logits), sampling);
            let next = if sampling.temperature <= 0.0 {
                logprobs.argmax(-1, true)
            } else {
                // Inverse-CDF draw with each sequence's own uniform number.
                let uniform: Vec<f64> = generators.iter_mut().map(SplitMix::next_open01).collect();
                let uniform = Tensor::from_slice(&uniform).view([b, 1]).to_device(device);
                let cumulative = logprobs
                    .to_kind(Kind::Double)
                    .exp()
                    .cumsum(-1, Kind::Double);
                let vocab = cumulative.size()[1];
                cumulative
                    .lt_tensor(&uniform)
                    .sum_dim_intlist(-1, true, Kind::Int64)
                    .clamp_max(vocab - 1)
            };
            let chosen = logprobs.gather(1, &next, false);
            let next_ids: Vec<i64> =
                Vec::try_from(next.view([-1])).expect("invariant: token ids are i64");
            let chosen: Vec<f64> =
                Vec::try_from(chosen.view([-1]).to_kind(Kind::Double)).expect("invariant: floats");
            for (idx, sample) in samples.iter_mut().enumerate() {
                if done[idx] {
                    continue;
                }
                sample.tokens.push(next_ids[idx]);
                sample.logprobs.push(chosen[idx]);
                on_token(idx, next_ids[idx]);
                if sampling
                    .stop
                    .iter()
                    .any(|stop| !stop.is_empty() && sample.tokens.ends_with(stop))
                {
                    sample.finish = Finish::Stop;
                    done[idx] = true;
                }
            }
            if done.iter().all(|d| *d) {
                break;
            }
            ids = next;
            attention = Tensor::cat(
                &[&attention, &Tensor::ones([b, 1], (Kind::Int64, device))],
                1,
            );
        }
    });
    Ok(samples)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    fn tiny() -> Model {
        tch::manual_seed(11);
        let config: Config = serde_json::from_value(serde_json::json!({
            "model_type": "qwen2", "vocab_size": 64, "hidden_size": 32, "intermediate_size": 64,
            "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
            "rms_norm_eps": 1e-6, "rope_theta": 10000.0, "max_position_embeddings": 64,
            "tie_word_embeddings": false
        }))
        .expect("config");
        Model::new(config, tch::Device::Cpu)
    }

    fn sampling(temperature: f64) -> Sampling {
        Sampling {
            temperature,
            top_p: 1.0,
            top_k: 0,
            max_tokens: 6,
            stop: vec![],
            seed: 5,
            pad_id: 0,
        }
    }

    #[test]
    fn a_padded_batch_decodes_like_each_prompt_alone() {
        let model = tiny();
        let prompts = vec![vec![3, 9, 27, 4, 8], vec![5, 1], vec![7, 7, 7]];
        let batch = sample(&model, &prompts, &sampling(0.0)).expect("samples");
        for (prompt, got) in prompts.iter().zip(&batch) {
            assert_eq!(
                got.tokens,
                greedy(&model, prompt, 6).expect("greedy"),
                "prompt {prompt:?}"
            );
            assert_eq!(got.finish, Finish::Length);
        }
    }

    #[test]
    fn logprobs_are_those_of_the_distribution_sampled_from() {
        let model = tiny();
        let mut params = sampling(0.8);
        params.top_k = 10;
        params.top_p = 0.9;
        let prompts = vec![vec![3, 9, 27], vec![5, 1, 2, 2]];
        let first = sample(&model, &prompts, &params).expect("samples");
        assert_eq!(
            first,
            sample(&model, &prompts, &params).expect("samples"),
            "seeded sampling repeats"
        );
        // Teacher-forced: the whole sequence in one forward pass, the same filters.
        for (prompt, got) in prompts.iter().zip(&first) {
            let full: Vec<i64> = prompt.iter().chain(&got.tokens).copied().collect();
            let seq = full.len() as i64;
            let ids = Tensor::from_slice(&full).view([1, seq]);
            let positions = Tensor::arange(seq, (Kind::Int64, tch::Device::Cpu)).view([1, seq]);
            let mask = causal_mask(
                &Tensor::ones([1, seq], (Kind::Int64, tch::Device::Cpu)),
                seq,
            );
            let logits =
                tch::no_grad(|| model.forward(&ids, &positions, &mask, &mut Cache::default()));
            for (step, (token, logprob)) in got.tokens.iter().zip(&got.logprobs).enumerate() {
                let at = prompt.len() as i64 - 1 + step as i64;
                let dist = sampling_logprobs(&logits.select(1, at), &params);
                let want = dist.double_value(&[0, *token]);
                assert!(want.is_finite(), "a filtered token was sampled");
                assert!(
                    (want - logprob).abs() < 1e-4,
                    "step {step}: {logprob} vs {want}"
                );
            }
        }
    }

    #[test]
    fn a_sequence_draws_the_same_tokens_whatever_else_is_in_the_batch() {
        let model = tiny();
        let params = sampling(1.0);
        let alone = sample_with(&model, &[vec![3, 9, 27]], &[77], &params, &mut |_, _| {})
            .expect("samples");
        let batched = sample_with(
            &model,
            &[vec![5, 1], vec![3, 9, 27]],
            &[12, 77],
            &params,
            &mut |_, _| {},
        )
        .expect("samples");
        assert_eq!(alone[0].tokens, batched[1].tokens);
        // Padding changes the float sums a little, never the draw.
        for (a, b) in alone[0].logprobs.iter().zip(&batched[1].logprobs) {
            assert!((a - b).abs() < 1e-4, "{a} vs {b}");
        }
        let other = sample_with(&model, &[vec![3, 9, 27]], &[78], &params, &mut |_, _| {})
            .expect("samples");
        assert_ne!(
            alone[0].tokens, other[0].tokens,
            "another seed draws other tokens"
        );
    }

    #[test]
    fn filters_stop_sequences_and_limits() {
        let model = tiny();
        let mut params = sampling(1.0);
        params.top_k = 1;
        let greedy_tokens = greedy(&model, &[3, 9, 27], 6).expect("greedy");
        let top1 = sample(&model, &[vec![3, 9, 27]], &params).expect("samples");
        assert_eq!(top1[0].tokens, greedy_tokens, "top-k 1 is greedy");
        assert!(
            top1[0].logprobs.iter().all(|l| l.abs() < 1e-6),
            "one token left: probability 1"
        );
        let stop = greedy_tokens[1..3].to_vec();
        params.stop = vec![stop.clone()];
        let stopped = sample(&model, &[vec![3, 9, 27]], &params).expect("samples");
        // It stops at the sequence's first occurrence, which is earlier than position 1
        // when the greedy tokens repeat (the tiny model's weights are random).
        let end = (0..greedy_tokens.len())
            .find(|&i| greedy_tokens[i..].starts_with(&stop))
            .expect("the stop sequence is among the greedy tokens")
            + stop.len();
        assert_eq!(stopped[0].tokens, greedy_tokens[..end].to_vec());
        assert_eq!(stopped[0].finish, Finish::Stop);
        let err = sample(&model, &[vec![1; 60]], &params).expect_err("too long");
        assert_eq!(
            err.to_string(),
            "66 positions needed (the prompt and the tokens to generate), more than the context of 64"
        );
    }
}
