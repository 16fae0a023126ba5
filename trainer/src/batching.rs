//! Continuous batching at the token step: every active sequence is decoded together, one
//! token per step, and a waiting request is admitted as soon as a slot is free, instead of
//! a static batch that waits for its slowest member.
//!
//! The batcher owns its own copy of the policy (the sampler's weights), so the trainer can
//! update its weights while sequences are in flight; new weights are staged with
//! [`Batcher::stage_weights`] and applied at a step boundary as [`OnWeights`] says:
//! - [`OnWeights::Drain`] (the default): sequences in flight finish on the old weights; no
//!   request is admitted until they have, then the new weights apply. Every token of a
//!   sequence has the same policy version.
//! - [`OnWeights::Reprefill`]: the new weights apply at once; sequences in flight are
//!   re-prefilled (their keys and values recomputed under the new weights) and continue;
//!   each token records the version that sampled it, so a sequence may span two versions
//!   (the trainer's TIS uses each token's own behaviour logprob).
//!
//! The batch's KV cache holds every active row, left-padded. A finished row leaves by
//! selecting the other rows of the cache; an admitted request is prefilled alone (with the
//! others admitted at the same step) and its cache rows are joined to the batch's, so an
//! admission costs its own prompt, not the whole batch's. Only new weights under
//! `Reprefill` (and the first step) prefill every active context again; between changes
//! each step feeds only the new tokens. Each request samples from
//! its own seeded generator with the draw of [`crate::generate`], so its tokens do not
//! depend on what shares the batch (tested against [`crate::generate::sample_with`]).

use std::collections::VecDeque;

use tch::{Kind, Tensor, nn};

use crate::generate::{Finish, Sampling, sampling_logprobs};
use crate::model::{Cache, Model, causal_mask};
use crate::rng::SplitMix;
use crate::{Error, Result};

/// What happens to sequences in flight when new weights arrive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnWeights {
    /// They finish on the old weights; admission waits.
    Drain,
    /// They are re-prefilled under the new weights and continue.
    Reprefill,
}

/// One generation request.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// The prompt's token ids.
    pub prompt: Vec<i64>,
    /// How to sample (its `seed` seeds this request's generator).
    pub sampling: Sampling,
}

/// A finished request.
#[derive(Debug, Clone, PartialEq)]
pub struct Output {
    /// The id [`Batcher::submit`] returned.
    pub id: u64,
    /// The generated tokens.
    pub tokens: Vec<i64>,
    /// Each token's logprob under the distribution it was drawn from.
    pub logprobs: Vec<f64>,
    /// The policy version that sampled each token.
    pub versions: Vec<u64>,
    /// Why it ended.
    pub finish: Finish,
    /// The step at which it was admitted into the batch.
    pub admitted_at: u64,
    /// The step at which it finished.
    pub finished_at: u64,
}

#[derive(Debug)]
struct Active {
    id: u64,
    request: Request,
    /// The request's own generator, seeded with its sampling seed.
    rng: SplitMix,
    tokens: Vec<i64>,
    logprobs: Vec<f64>,
    versions: Vec<u64>,
    admitted_at: u64,
    done: bool,
}

/// A sequence read whole by [`Batcher::score`]: per token, its log-probability after
/// the tokens before it (`None` for the first, which nothing precedes) and the most
/// likely tokens at that position, most likely first (empty for the first).
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    /// Each token's log-probability.
    pub logprobs: Vec<Option<f64>>,
    /// Each position's top tokens: (id, log-probability).
    pub top: Vec<Vec<(i64, f64)>>,
}

/// Statistics of the batcher's work.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct BatcherStats {
    /// Token steps run.
    pub steps: u64,
    /// Cache rebuilds: every active context prefilled again (the first step, new weights
    /// under `Reprefill`, an admission into an empty batch).
    pub rebuilds: u64,
    /// Admissions beside rows in flight: only the new rows prefilled, their cache joined
    /// to the batch's.
    pub prefills: u64,
    /// Rows decoded in total (active and finished-but-not-yet-compacted).
    pub rows_decoded: u64,
    /// Tokens generated.
    pub tokens: u64,
    /// Steps that decoded two or more live requests together.
    pub shared_steps: u64,
    /// The most live requests decoded in one step.
    pub max_live: u64,
}

/// A deep copy of every variable of `vs`, detached (to hand new weights to a sampler).
pub fn snapshot(vs: &nn::VarStore) -> Vec<(String, Tensor)> {
    tch::no_grad(|| {
        vs.variables()
            .into_iter()
            .map(|(name, t)| (name, t.detach().copy()))
            .collect()
    })
}

/// The continuous batcher.
#[derive(Debug)]
pub struct Batcher {
    model: Model,
    max_batch: usize,
    on_weights: OnWeights,
    version: u64,
    staged: Option<(Vec<(String, Tensor)>, u64)>,
    waiting: VecDeque<(u64, Request)>,
    active: Vec<Active>,
    cache: Cache,
    attention: Option<Tensor>,
    next_ids: Option<Tensor>,
    dirty: bool,
    /// Rows at the end of `active` admitted since the last step, not in the cache yet.
    fresh: usize,
    next_id: u64,
    stats: BatcherStats,
    sampled: Vec<(u64, i64)>,
}

impl Batcher {
    /// A batcher decoding at most `max_batch` sequences together with `model` (the
    /// sampler's own copy of the policy) at policy version `version`.
    pub fn new(model: Model, max_batch: usize, on_weights: OnWeights, version: u64) -> Batcher {
        Batcher {
            model,
            max_batch: max_batch.max(1),
            on_weights,
            version,
            staged: None,
            waiting: VecDeque::new(),
            active: Vec::new(),
            cache: Cache::default(),
            attention: None,
            next_ids: None,
            dirty: true,
            fresh: 0,
            next_id: 0,
            stats: BatcherStats::default(),
            sampled: Vec::new(),
        }
    }

    /// The policy version now sampling.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// What it has done so far.
    pub fn stats(&self) -> BatcherStats {
        self.stats
    }

    /// The (request id, token) pairs the last [`Batcher::step`] sampled, for streaming.
    pub fn last_sampled(&self) -> &[(u64, i64)] {
        &self.sampled
    }

    /// Requests waiting or in flight.
    pub fn pending(&self) -> usize {
        self.waiting.len() + self.active.iter().filter(|a| !a.done).count()
    }

    /// Queues a request; its id comes back in its [`Output`].
    pub fn submit(&mut self, request: Request) -> Result<u64> {
        self.check(&request)?;
        let id = self.next_id;
        self.next_id += 1;
        self.waiting.push_back((id, request));
        Ok(id)
    }

    /// Drops every request waiting or in flight (after a failed step: their callers have
    /// been answered with the error).
    pub fn abandon(&mut self) {
        self.waiting.clear();
        self.active.clear();
        self.sampled.clear();
        self.dirty = true;
    }

    /// Whether [`Batcher::submit`] would take `request` (an empty prompt or one that does
    /// not fit the context with its tokens to generate is refused).
    pub fn check(&self, request: &Request) -> Result<()> {
        let context = self.model.config.max_position_embeddings;
        if request.prompt.is_empty() {
            return Err(Error::Config(
                "an empty prompt cannot be continued".to_owned(),
            ));
        }
        if request.prompt.len() + request.sampling.max_tokens > context {
            return Err(Error::TooLong {
                tokens: request.prompt.len() + request.sampling.max_tokens,
                context,
            });
        }
        Ok(())
    }

    /// Reads `ids` whole with the weights now sampling (one forward pass of its own,
    /// outside the decoding batch, no sampling): each token's log-probability after the
    /// tokens before it, and the `top_k` most likely tokens at each of those positions.
    /// An empty sequence, one longer than the context, or an id outside the vocabulary is
    /// refused.
    pub fn score(&self, ids: &[i64], top_k: usize) -> Result<Scored> {
        let context = self.model.config.max_position_embeddings;
        let vocab = self.model.config.vocab_size as i64;
        if ids.is_empty() {
            return Err(Error::Config("an empty prompt cannot be scored".to_owned()));
        }
        if ids.len() > context {
            return Err(Error::TooLong {
                tokens: ids.len(),
                context,
            });
        }
        if let Some(id) = ids.iter().find(|id| !(0..vocab).contains(*id)) {
            return Err(Error::Config(format!(
                "token id {id} is outside the vocabulary of {vocab}"
            )));
        }
        let k = top_k.min(vocab as usize) as i64;
        let mut scored = Scored {
            logprobs: vec![None],
            top: vec![Vec::new()],
        };
        if ids.len() == 1 {
            return Ok(scored);
        }
        let device = self.model.vs.device();
        let t = ids.len() as i64;
        let (logp, values, indices) = tch::no_grad(|| {
            let input = Tensor::from_slice(ids).view([1, t]).to_device(device);
            let attention = Tensor::ones([1, t], (Kind::Int64, device));
            let positions = Tensor::arange(t, (Kind::Int64, device)).view([1, t]);
            let mask = causal_mask(&attention, t);
            let all = self
                .model
                .forward(&input, &positions, &mask, &mut Cache::default())
                .squeeze_dim(0)
                .narrow(0, 0, t - 1)
                .log_softmax(-1, Kind::Float);
            let next = input.squeeze_dim(0).narrow(0, 1, t - 1).unsqueeze(-1);
            let logp = all.gather(1, &next, false).squeeze_dim(-1);
            let (values, indices) = if k > 0 {
                all.topk(k, -1, true, true)
            } else {
                (
                    Tensor::zeros([t - 1, 0], (Kind::Float, device)),
                    Tensor::zeros([t - 1, 0], (Kind::Int64, device)),
                )
            };
            (
                logp.to_kind(Kind::Double).to_device(tch::Device::Cpu),
                values.to_kind(Kind::Double).to_device(tch::Device::Cpu),
                indices.to_device(tch::Device::Cpu),
            )
        });
        let logp: Vec<f64> = Vec::try_from(logp)?;
        let values: Vec<f64> = Vec::try_from(values.view([-1]))?;
        let indices: Vec<i64> = Vec::try_from(indices.view([-1]))?;
        let k = k as usize;
        for (j, lp) in logp.into_iter().enumerate() {
            scored.logprobs.push(Some(lp));
            scored.top.push(
                (0..k)
                    .map(|c| (indices[j * k + c], values[j * k + c]))
                    .collect(),
            );
        }
        Ok(scored)
    }

    /// Stages the variables of `source` (same names and shapes as the batcher's model) as
    /// policy version `version`, applied as [`OnWeights`] says.
    pub fn stage_weights(&mut self, source: &nn::VarStore, version: u64) -> Result<()> {
        self.stage_tensors(snapshot(source), version)
    }

    /// [`Batcher::stage_weights`] from named tensors (a [`snapshot`] taken elsewhere).
    pub fn stage_tensors(&mut self, weights: Vec<(String, Tensor)>, version: u64) -> Result<()> {
        let ours = self.model.vs.variables();
        for (name, tensor) in &weights {
            let Some(mine) = ours.get(name) else {
                return Err(Error::Weight {
                    name: name.clone(),
                    message: "not a variable of the sampler's model".to_owned(),
                });
            };
            if mine.size() != tensor.size() {
                return Err(Error::Weight {
                    name: name.clone(),
                    message: format!(
                        "shape {:?} staged, {:?} expected",
                        tensor.size(),
                        mine.size()
                    ),
                });
            }
        }
        self.staged = Some((weights, version));
        Ok(())
    }

    fn apply_staged(&mut self) {
        if let Some((weights, version)) = self.staged.take() {
            let mut ours = self.model.vs.variables();
            tch::no_grad(|| {
                for (name, tensor) in &weights {
                    if let Some(var) = ours.get_mut(name) {
                        var.copy_(&self.model.as_held(tensor, var.kind()));
                    }
                }
            });
            self.version = version;
            self.dirty = true;
        }
    }

    /// One token step: applies staged weights when their rule allows, admits waiting
    /// requests into free slots, decodes one token for every active sequence, and returns
    /// the requests that finished.
    pub fn step(&mut self) -> Result<Vec<Output>> {
        let in_flight = self.active.iter().any(|a| !a.done);
        match (self.staged.is_some(), self.on_weights) {
            (true, OnWeights::Reprefill) => self.apply_staged(),
            (true, OnWeights::Drain) if !in_flight => self.apply_staged(),
            _ => {}
        }
        let draining = self.staged.is_some();
        // Finished rows leave at once: their cache rows are dropped, nothing recomputed.
        if self.active.iter().any(|a| a.done) {
            self.compact();
        }
        if !draining {
            while self.active.len() < self.max_batch {
                let Some((id, request)) = self.waiting.pop_front() else {
                    break;
                };
                self.active.push(Active {
                    id,
                    rng: SplitMix::new(request.sampling.seed),
                    request,
                    tokens: Vec::new(),
                    logprobs: Vec::new(),
                    versions: Vec::new(),
                    admitted_at: self.stats.steps,
                    done: false,
                });
                self.fresh += 1;
            }
        }
        if self.active.iter().all(|a| a.done) {
            self.active.clear();
            self.sampled.clear();
            self.dirty = true;
            return Ok(Vec::new());
        }
        let logits = tch::no_grad(|| self.forward());
        let outputs = self.sample(&logits)?;
        self.stats.steps += 1;
        Ok(outputs)
    }

    /// Drops the finished rows from `active`, and from the cache, the attention mask and
    /// the next tokens by selecting the rows that stay (then the leading positions that
    /// are padding in every row); when there is no cache to keep, the next step rebuilds.
    fn compact(&mut self) {
        let keep: Vec<i64> = (0..self.active.len())
            .filter(|&i| !self.active[i].done)
            .map(|i| i as i64)
            .collect();
        self.active.retain(|a| !a.done);
        let cached = !self.dirty && self.fresh == 0 && !keep.is_empty();
        match (&self.attention, &self.next_ids) {
            (Some(attention), Some(next)) if cached => {
                let device = self.model.vs.device();
                let index = Tensor::from_slice(&keep).to_device(device);
                let attention = attention.index_select(0, &index);
                let used: Vec<i64> =
                    Vec::<i64>::try_from(attention.sum_dim_intlist(0, false, Kind::Int64))
                        .unwrap_or_default();
                let lead = used.iter().take_while(|&&n| n == 0).count() as i64;
                let total = attention.size()[1];
                let cache = self.cache.select_rows(&index);
                self.cache = if lead > 0 {
                    cache.narrow_positions(lead, total - lead)
                } else {
                    cache
                };
                self.attention = Some(attention.narrow(1, lead, total - lead));
                self.next_ids = Some(next.index_select(0, &index));
            }
            _ => self.dirty = true,
        }
    }

    /// Token ids and attention mask `[rows, longest]` of the contexts (prompt and tokens
    /// so far) of `active[rows]`, left-padded.
    fn padded(&self, rows: std::ops::Range<usize>) -> (Tensor, Tensor) {
        let device = self.model.vs.device();
        let active = &self.active[rows];
        let contexts: Vec<Vec<i64>> = active
            .iter()
            .map(|a| a.request.prompt.iter().chain(&a.tokens).copied().collect())
            .collect();
        let longest = contexts.iter().map(Vec::len).max().unwrap_or(1);
        let mut ids = Vec::with_capacity(contexts.len() * longest);
        let mut mask = Vec::with_capacity(contexts.len() * longest);
        for (c, a) in contexts.iter().zip(active) {
            let pad = longest - c.len();
            ids.extend(std::iter::repeat_n(a.request.sampling.pad_id, pad));
            ids.extend_from_slice(c);
            mask.extend(std::iter::repeat_n(0i64, pad));
            mask.extend(std::iter::repeat_n(1i64, c.len()));
        }
        let shape = [contexts.len() as i64, longest as i64];
        (
            Tensor::from_slice(&ids).view(shape).to_device(device),
            Tensor::from_slice(&mask).view(shape).to_device(device),
        )
    }

    /// Logits `[rows, vocab]` of the last position of `ids`, continuing `cache`.
    fn run(&self, ids: &Tensor, attention: &Tensor, cache: &mut Cache) -> Tensor {
        let seq = ids.size()[1];
        let total = attention.size()[1];
        let positions =
            (attention.cumsum(1, Kind::Int64) - 1)
                .clamp_min(0)
                .narrow(1, total - seq, seq);
        let mask = causal_mask(attention, seq);
        self.model
            .forward(ids, &positions, &mask, cache)
            .select(1, seq - 1)
    }

    /// Logits `[rows, vocab]` for the next token of every row.
    fn forward(&mut self) -> Tensor {
        let device = self.model.vs.device();
        let b = self.active.len() as i64;
        if !self.dirty && self.fresh > 0 && self.fresh < self.active.len() {
            return self.forward_admitting();
        }
        let (ids, attention) = if self.dirty || self.fresh > 0 {
            // Rebuild: every context left-padded, prefilled at once.
            let (ids, attention) = self.padded(0..self.active.len());
            self.cache = Cache::default();
            self.dirty = false;
            self.fresh = 0;
            self.stats.rebuilds += 1;
            (ids, attention)
        } else {
            let previous = self
                .attention
                .as_ref()
                .expect("invariant: a decode step follows a rebuild");
            (
                self.next_ids
                    .as_ref()
                    .expect("invariant: a decode step follows a sampled token")
                    .shallow_clone(),
                Tensor::cat(&[previous, &Tensor::ones([b, 1], (Kind::Int64, device))], 1),
            )
        };
        let mut cache = std::mem::take(&mut self.cache);
        let logits = self.run(&ids, &attention, &mut cache);
        self.cache = cache;
        self.attention = Some(attention);
        self.stats.rows_decoded += b as u64;
        logits
    }

    /// A step with newly admitted rows beside rows in flight: the rows in flight decode
    /// their next token on the cache, the new rows are prefilled on a cache of their own,
    /// and the two caches join (the shorter left-padded), so admitting a request costs
    /// its own prefill, not the whole batch's.
    fn forward_admitting(&mut self) -> Tensor {
        let device = self.model.vs.device();
        let old = self.active.len() - self.fresh;
        let previous = self
            .attention
            .take()
            .expect("invariant: rows in flight have an attention mask");
        let next = self
            .next_ids
            .take()
            .expect("invariant: rows in flight have a sampled token");
        let att_old = Tensor::cat(
            &[
                &previous,
                &Tensor::ones([old as i64, 1], (Kind::Int64, device)),
            ],
            1,
        );
        let mut cache_old = std::mem::take(&mut self.cache);
        let logits_old = self.run(&next, &att_old, &mut cache_old);
        let (ids_new, att_new) = self.padded(old..self.active.len());
        let mut cache_new = Cache::default();
        let logits_new = self.run(&ids_new, &att_new, &mut cache_new);
        let (t_old, t_new) = (att_old.size()[1], att_new.size()[1]);
        let longest = t_old.max(t_new);
        self.cache = cache_old
            .left_pad(longest - t_old)
            .cat_rows(&cache_new.left_pad(longest - t_new));
        self.attention = Some(Tensor::cat(
            &[
                &att_old.constant_pad_nd([longest - t_old, 0]),
                &att_new.constant_pad_nd([longest - t_new, 0]),
            ],
            0,
        ));
        self.fresh = 0;
        self.stats.prefills += 1;
        self.stats.rows_decoded += self.active.len() as u64;
        Tensor::cat(&[&logits_old, &logits_new], 0)
    }

    fn sample(&mut self, logits: &Tensor) -> Result<Vec<Output>> {
        let device = self.model.vs.device();
        let mut next = Vec::with_capacity(self.active.len());
        let mut outputs = Vec::new();
        self.sampled.clear();
        let live = self.active.iter().filter(|a| !a.done).count() as u64;
        self.stats.max_live = self.stats.max_live.max(live);
        if live > 1 {
            self.stats.shared_steps += 1;
        }
        for (row, a) in self.active.iter_mut().enumerate() {
            if a.done {
                next.push(a.request.sampling.pad_id);
                continue;
            }
            let logprobs = sampling_logprobs(
                &self.model.mask_unsampled(&logits.narrow(0, row as i64, 1)),
                &a.request.sampling,
            );
            let token = if a.request.sampling.temperature <= 0.0 {
                logprobs.argmax(-1, false).int64_value(&[0])
            } else {
                let u = a.rng.next_open01();
                let cumulative = logprobs
                    .to_kind(Kind::Double)
                    .exp()
                    .cumsum(-1, Kind::Double);
                let vocab = cumulative.size()[1];
                cumulative
                    .lt(u)
                    .sum(Kind::Int64)
                    .clamp_max(vocab - 1)
                    .int64_value(&[])
            };
            let logprob = logprobs.double_value(&[0, token]);
            a.tokens.push(token);
            a.logprobs.push(logprob);
            a.versions.push(self.version);
            self.stats.tokens += 1;
            self.sampled.push((a.id, token));
            next.push(token);
            let stop = a
                .request
                .sampling
                .stop
                .iter()
                .any(|s| !s.is_empty() && a.tokens.ends_with(s));
            if stop || a.tokens.len() >= a.request.sampling.max_tokens {
                a.done = true;
                outputs.push(Output {
                    id: a.id,
                    tokens: std::mem::take(&mut a.tokens),
                    logprobs: std::mem::take(&mut a.logprobs),
                    versions: std::mem::take(&mut a.versions),
                    finish: if stop { Finish::Stop } else { Finish::Length },
                    admitted_at: a.admitted_at,
                    finished_at: self.stats.steps,
                });
            }
        }
        let b = next.len() as i64;
        self.next_ids = Some(Tensor::from_slice(&next).view([b, 1]).to_device(device));
        Ok(outputs)
    }

    /// Steps until nothing is waiting or in flight; the outputs in the order they finished.
    pub fn run_until_idle(&mut self) -> Result<Vec<Output>> {
        let mut out = Vec::new();
        while self.pending() > 0 {
            out.extend(self.step()?);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::generate::sample_with;
    use crate::grpo::logprob::sequence_logprobs;

    pub(super) fn tiny(seed: i64) -> Model {
        tch::manual_seed(seed);
        let config: Config = serde_json::from_value(serde_json::json!({
            "model_type": "qwen2", "vocab_size": 64, "hidden_size": 32, "intermediate_size": 64,
            "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
            "rms_norm_eps": 1e-6, "rope_theta": 10000.0, "max_position_embeddings": 64,
            "tie_word_embeddings": false
        }))
        .expect("config");
        Model::new(config, tch::Device::Cpu)
    }

    /// A model with the same weights (copied, so tests running in parallel, which share
    /// libtorch's global generator, cannot make them differ).
    pub(super) fn twin(model: &Model) -> Model {
        let mut copy = Model::new(model.config.clone(), tch::Device::Cpu);
        copy.vs.copy(&model.vs).expect("same variables");
        copy.hold_in(model.compute());
        copy
    }

    fn sampling(max_tokens: usize, seed: u64, temperature: f64) -> Sampling {
        Sampling {
            temperature,
            top_p: 1.0,
            top_k: 0,
            max_tokens,
            stop: vec![],
            seed,
            pad_id: 0,
        }
    }

    pub(super) fn alone(model: &Model, r: &Request) -> (Vec<i64>, Vec<f64>) {
        let s = sample_with(
            model,
            std::slice::from_ref(&r.prompt),
            &[r.sampling.seed],
            &r.sampling,
            &mut |_, _| {},
        )
        .expect("sample")
        .remove(0);
        (s.tokens, s.logprobs)
    }

    fn close_all(a: &[f64], b: &[f64]) {
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(b) {
            assert!((x - y).abs() < 1e-4, "{a:?} != {b:?}");
        }
    }

    #[test]
    fn each_request_decodes_as_if_alone_and_is_admitted_as_others_finish() {
        let reference = tiny(21);
        let mut batcher = Batcher::new(twin(&reference), 2, OnWeights::Drain, 0);
        let mut stop = sampling(9, 4, 0.9);
        let requests = vec![
            Request {
                prompt: vec![3, 9, 27, 4, 8],
                sampling: sampling(7, 1, 0.9),
            },
            Request {
                prompt: vec![5, 1],
                sampling: sampling(3, 2, 0.9),
            },
            Request {
                prompt: vec![7, 7, 7],
                sampling: sampling(5, 3, 0.0),
            },
            Request {
                prompt: vec![11, 2, 40, 41, 42, 43, 1],
                sampling: {
                    // A stop sequence: the first token it would sample after two steps.
                    let (t, _) = alone(
                        &reference,
                        &Request {
                            prompt: vec![11, 2, 40, 41, 42, 43, 1],
                            sampling: stop.clone(),
                        },
                    );
                    stop.stop = vec![vec![t[2]]];
                    stop.clone()
                },
            },
            Request {
                prompt: vec![60],
                sampling: sampling(4, 5, 1.3),
            },
        ];
        let ids: Vec<u64> = requests
            .iter()
            .map(|r| batcher.submit(r.clone()).expect("submit"))
            .collect();
        // Step by step, gathering the tokens each step reports (what a stream sends).
        let mut outputs = Vec::new();
        let mut streamed: Vec<Vec<i64>> = vec![Vec::new(); requests.len()];
        while batcher.pending() > 0 {
            outputs.extend(batcher.step().expect("decode"));
            for (id, token) in batcher.last_sampled() {
                streamed[*id as usize].push(*token);
            }
        }
        assert_eq!(outputs.len(), requests.len());
        outputs.sort_by_key(|o| o.id);
        for (o, r) in outputs.iter().zip(&requests) {
            let (tokens, logprobs) = alone(&reference, r);
            assert_eq!(o.tokens, tokens, "request {}", o.id);
            assert_eq!(streamed[o.id as usize], tokens, "request {} streamed", o.id);
            close_all(&o.logprobs, &logprobs);
            assert!(o.versions.iter().all(|v| *v == 0));
        }
        assert_eq!(outputs[3].finish, Finish::Stop);
        assert!(outputs[3].tokens.len() <= 3);
        assert_eq!(ids, vec![0, 1, 2, 3, 4]);
        // Request 2 took request 1's slot while request 0 was still decoding.
        assert!(outputs[2].admitted_at > 0);
        assert!(outputs[2].admitted_at <= outputs[0].finished_at);
        assert_eq!(outputs[2].admitted_at, outputs[1].finished_at + 1);
        let stats = batcher.stats();
        let total: usize = outputs.iter().map(|o| o.tokens.len()).sum();
        assert_eq!(stats.tokens, total as u64);
        assert!(
            stats.steps < total as u64,
            "{stats:?}: sequences shared steps"
        );
        assert_eq!(stats.max_live, 2, "{stats:?}");
        assert!(stats.shared_steps > 0, "{stats:?}");
        // Admissions beside a row in flight prefilled only the new row (the decoded tokens
        // above match decoding alone, so the joined cache is right); the whole batch was
        // prefilled only at the first step and into an emptied batch.
        assert!(stats.prefills >= 2, "{stats:?}");
        assert!(stats.rebuilds + stats.prefills <= 5, "{stats:?}");
    }

    #[test]
    fn on_drain_sequences_in_flight_finish_on_the_old_weights() {
        let (old, new) = (tiny(1), tiny(2));
        let mut batcher = Batcher::new(twin(&old), 2, OnWeights::Drain, 0);
        let requests: Vec<Request> = [(vec![3, 4, 5], 6, 1), (vec![9], 5, 2), (vec![2, 2], 4, 3)]
            .into_iter()
            .map(|(prompt, n, seed)| Request {
                prompt,
                sampling: sampling(n, seed, 1.0),
            })
            .collect();
        for r in &requests {
            batcher.submit(r.clone()).expect("submit");
        }
        let mut outputs = Vec::new();
        for _ in 0..2 {
            outputs.extend(batcher.step().expect("step"));
        }
        batcher.stage_weights(&new.vs, 1).expect("stage");
        outputs.extend(batcher.run_until_idle().expect("decode"));
        outputs.sort_by_key(|o| o.id);
        assert_eq!(batcher.version(), 1);
        for (o, model, version) in [
            (&outputs[0], &old, 0),
            (&outputs[1], &old, 0),
            (&outputs[2], &new, 1),
        ] {
            assert!(o.versions.iter().all(|v| *v == version), "{o:?}");
            let (tokens, logprobs) = alone(model, &requests[o.id as usize]);
            assert_eq!(o.tokens, tokens);
            close_all(&o.logprobs, &logprobs);
        }
        assert!(outputs[2].admitted_at > outputs[0].finished_at.max(outputs[1].finished_at));
    }

    #[test]
    fn on_reprefill_sequences_in_flight_continue_on_the_new_weights_with_versions() {
        let new = tiny(2);
        let mut batcher = Batcher::new(tiny(1), 2, OnWeights::Reprefill, 0);
        let request = Request {
            prompt: vec![3, 4, 5],
            sampling: sampling(6, 1, 1.0),
        };
        batcher.submit(request.clone()).expect("submit");
        for _ in 0..2 {
            assert!(batcher.step().expect("step").is_empty());
        }
        batcher.stage_weights(&new.vs, 7).expect("stage");
        let out = batcher.run_until_idle().expect("decode").remove(0);
        assert_eq!(out.versions, vec![0, 0, 7, 7, 7, 7]);
        // The tokens after the swap were drawn from the new weights' distribution.
        let seq: Vec<i64> = request.prompt.iter().chain(&out.tokens).copied().collect();
        let logp = tch::no_grad(|| sequence_logprobs(&new, &[seq]).expect("logprobs"));
        for (k, lp) in out.logprobs.iter().enumerate().skip(2) {
            let want = logp.double_value(&[0, (request.prompt.len() + k - 1) as i64]);
            assert!((lp - want).abs() < 1e-4, "token {k}: {lp} != {want}");
        }
        let err = batcher
            .stage_weights(&tiny_other().vs, 8)
            .expect_err("other shapes");
        assert!(err.to_string().contains("expected"), "{err}");
    }

    fn tiny_other() -> Model {
        let config: Config = serde_json::from_value(serde_json::json!({
            "model_type": "qwen2", "vocab_size": 64, "hidden_size": 16, "intermediate_size": 64,
            "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
            "rms_norm_eps": 1e-6, "rope_theta": 10000.0, "max_position_embeddings": 64,
            "tie_word_embeddings": false
        }))
        .expect("config");
        Model::new(config, tch::Device::Cpu)
    }
}

#[cfg(test)]
mod admission_tests {
    use super::tests::{alone, tiny, twin};
    use super::*;
    use crate::grpo::logprob::sequence_logprobs;

    /// Ten requests of varied prompt lengths, limits, temperatures, filters and stops.
    fn varied(reference: &Model) -> Vec<Request> {
        let lengths = [1usize, 12, 3, 7, 2, 15, 5, 9, 1, 4];
        let limits = [6usize, 3, 9, 2, 8, 4, 1, 7, 5, 10];
        (0..10)
            .map(|i| {
                let prompt: Vec<i64> = (0..lengths[i])
                    .map(|k| ((i * 13 + k * 7 + 3) % 63 + 1) as i64)
                    .collect();
                let mut sampling = Sampling {
                    temperature: [0.0, 0.8, 1.2][i % 3],
                    top_p: if i % 4 == 2 { 0.9 } else { 1.0 },
                    top_k: if i % 4 == 1 { 5 } else { 0 },
                    max_tokens: limits[i],
                    stop: vec![],
                    seed: 100 + i as u64,
                    pad_id: (i % 2) as i64,
                };
                if i == 6 || i == 9 || i == 2 {
                    let (t, _) = alone(
                        reference,
                        &Request {
                            prompt: prompt.clone(),
                            sampling: sampling.clone(),
                        },
                    );
                    if t.len() >= 3 {
                        sampling.stop = vec![vec![99], t[1..3].to_vec()];
                    }
                }
                Request { prompt, sampling }
            })
            .collect()
    }

    /// The cache, the attention mask and the next tokens cover the rows of `active` in
    /// order: each live row has as many real positions as its context minus the token
    /// not fed yet, and the cache is as long as the longest such context.
    fn invariants(b: &Batcher) {
        if b.active.is_empty() {
            return;
        }
        let attention = b.attention.as_ref().expect("attention");
        let (rows, width) = attention.size2().expect("2-D");
        assert_eq!(rows as usize, b.active.len());
        assert_eq!(
            b.next_ids.as_ref().expect("next").size()[0] as usize,
            b.active.len()
        );
        assert_eq!(b.cache.len(), width);
        assert!(width as usize <= b.model.config.max_position_embeddings);
        let real: Vec<i64> =
            Vec::try_from(attention.sum_dim_intlist(1, false, Kind::Int64)).expect("sums");
        for (a, n) in b.active.iter().zip(&real) {
            if !a.done {
                assert_eq!(*n as usize, a.request.prompt.len() + a.tokens.len() - 1);
            }
        }
        // Right-aligned: the last column is real in every row.
        let last: Vec<i64> = Vec::try_from(attention.select(1, width - 1)).expect("last");
        assert!(last.iter().all(|&x| x == 1), "{last:?}");
        if b.active.iter().all(|a| !a.done) {
            assert_eq!(
                real.iter().max().copied(),
                Some(width),
                "no all-padding column"
            );
        }
    }

    fn run_staggered(batcher: &mut Batcher, requests: &[Request], first: usize) -> Vec<Output> {
        let mut outputs = Vec::new();
        for r in &requests[..first] {
            batcher.submit(r.clone()).expect("submit");
        }
        let mut next = first;
        let mut step = 0;
        while batcher.pending() > 0 || next < requests.len() {
            // One more request every other step, so admissions land at many lengths.
            if next < requests.len() && step % 2 == 1 {
                batcher.submit(requests[next].clone()).expect("submit");
                next += 1;
            }
            outputs.extend(batcher.step().expect("step"));
            invariants(batcher);
            step += 1;
        }
        outputs.sort_by_key(|o| o.id);
        outputs
    }

    #[test]
    fn ten_varied_requests_through_three_slots_decode_as_if_alone() {
        let reference = tiny(33);
        let requests = varied(&reference);
        for max_batch in [3, 4] {
            let mut batcher = Batcher::new(twin(&reference), max_batch, OnWeights::Drain, 0);
            let outputs = run_staggered(&mut batcher, &requests, 4);
            assert_eq!(outputs.len(), requests.len());
            for (o, r) in outputs.iter().zip(&requests) {
                let (tokens, logprobs) = alone(&reference, r);
                assert_eq!(o.tokens, tokens, "request {} (max_batch {max_batch})", o.id);
                assert_eq!(o.logprobs.len(), logprobs.len());
                for (x, y) in o.logprobs.iter().zip(&logprobs) {
                    assert!((x - y).abs() < 1e-4, "request {}: {x} != {y}", o.id);
                }
            }
            assert!(
                outputs.iter().any(|o| o.finish == Finish::Stop),
                "a stop was hit"
            );
            let stats = batcher.stats();
            assert!(stats.prefills >= 3, "{stats:?}");
            assert_eq!(stats.max_live as usize, max_batch, "{stats:?}");
        }
    }

    #[test]
    fn reprefill_with_rows_of_varied_lengths_and_admissions_after_the_swap() {
        let (old, new) = (tiny(5), tiny(6));
        let requests: Vec<Request> = (0..7)
            .map(|i| Request {
                prompt: (0..[2usize, 9, 4, 1, 6, 3, 11][i])
                    .map(|k| ((i * 11 + k * 5 + 1) % 63 + 1) as i64)
                    .collect(),
                sampling: Sampling {
                    temperature: 1.0,
                    top_p: 1.0,
                    top_k: 0,
                    max_tokens: [5usize, 8, 3, 7, 4, 6, 2][i],
                    stop: vec![],
                    seed: 7 + i as u64,
                    pad_id: 0,
                },
            })
            .collect();
        let mut batcher = Batcher::new(twin(&old), 3, OnWeights::Reprefill, 0);
        for r in &requests {
            batcher.submit(r.clone()).expect("submit");
        }
        let mut outputs = Vec::new();
        for _ in 0..4 {
            outputs.extend(batcher.step().expect("step"));
            invariants(&batcher);
        }
        batcher.stage_weights(&new.vs, 1).expect("stage");
        while batcher.pending() > 0 {
            outputs.extend(batcher.step().expect("step"));
            invariants(&batcher);
        }
        outputs.sort_by_key(|o| o.id);
        assert_eq!(outputs.len(), requests.len());
        let mut spanning = 0;
        for (o, r) in outputs.iter().zip(&requests) {
            let seq: Vec<i64> = r.prompt.iter().chain(&o.tokens).copied().collect();
            let (lp_old, lp_new) = tch::no_grad(|| {
                (
                    sequence_logprobs(&old, std::slice::from_ref(&seq)).expect("old"),
                    sequence_logprobs(&new, std::slice::from_ref(&seq)).expect("new"),
                )
            });
            if o.versions.first() != o.versions.last() {
                spanning += 1;
            }
            for (k, (lp, v)) in o.logprobs.iter().zip(&o.versions).enumerate() {
                let want = if *v == 0 { &lp_old } else { &lp_new }
                    .double_value(&[0, (r.prompt.len() + k - 1) as i64]);
                assert!(
                    (lp - want).abs() < 1e-4,
                    "request {} token {k} v{v}: {lp} != {want}",
                    o.id
                );
            }
        }
        assert!(spanning >= 2, "rows in flight at the swap: {spanning}");
        assert!(batcher.stats().prefills >= 1, "{:?}", batcher.stats());
    }

    #[test]
    fn bf16_admissions_decode_as_if_alone() {
        let mut reference = tiny(44);
        reference.hold_in(Kind::BFloat16);
        let requests: Vec<Request> = varied(&reference)
            .into_iter()
            .map(|mut r| {
                r.sampling.temperature = 0.0;
                r.sampling.stop.clear();
                r
            })
            .collect();
        let mut batcher = Batcher::new(twin(&reference), 3, OnWeights::Drain, 0);
        let outputs = run_staggered(&mut batcher, &requests, 3);
        let mut worst = 0f64;
        let mut same = 0;
        for (o, r) in outputs.iter().zip(&requests) {
            let (tokens, logprobs) = alone(&reference, r);
            if o.tokens == tokens {
                same += 1;
            }
            let agree = o
                .tokens
                .iter()
                .zip(&tokens)
                .take_while(|(a, b)| a == b)
                .count();
            for (x, y) in o.logprobs.iter().zip(&logprobs).take(agree) {
                worst = worst.max((x - y).abs());
            }
        }
        eprintln!(
            "bf16: {same} of {} identical, worst logprob gap {worst}",
            requests.len()
        );
        assert_eq!(same, requests.len());
        assert!(worst < 2e-2, "{worst}");
    }
}
