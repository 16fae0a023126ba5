//! The local policy: the trainer's model behind the agent's [`ChatModel`] trait, in
//! process. Every reply carries the prompt's token ids, each sampled token's id and
//! logprob (under the distribution it was drawn from), and the policy version.
//!
//! A [`Decoder`] thread owns a [`Batcher`] (continuous batching) with its own copy of the
//! weights; `chat` renders the conversation with the model's chat template, sends the
//! request's `n` completions to the decoder and awaits them, so many episodes share the
//! decoder. [`LocalPolicy::update_weights`] hands the decoder a snapshot of new weights,
//! applied as the batcher's [`OnWeights`] rule says (by default in-flight sequences finish
//! on the old weights). A reply's `policy_version` is the oldest version among its tokens
//! (with `Drain`, every token of one completion has the same version).

use std::sync::Arc;
use std::time::Instant;

use agent::model::{
    ChatModel, ChatReply, ChatRequest, Completion, FinishReason, ModelError, Role, Token, Usage,
};
use futures_util::future::BoxFuture;
use tch::nn;

use crate::batching::{Batcher, OnWeights, Output, Request, snapshot};
use crate::decoder::Decoder;
use crate::generate::{Finish, Sampling};
use crate::model::Model;
use crate::tokenizer::{ChatTokenizer, Message};

/// The token ids of the prompt for an agent's `messages`: the chat template with the
/// assistant's turn opened, exactly what the sampler decodes from (and what supervised
/// training renders its targets after).
pub fn prompt_ids(
    tokenizer: &ChatTokenizer,
    messages: &[agent::model::Message],
) -> crate::Result<Vec<i64>> {
    let messages: Vec<Message> = messages
        .iter()
        .map(|m| Message {
            role: match m.role {
                Role::System => "system",
                Role::User => "user",
                Role::Assistant => "assistant",
            }
            .to_owned(),
            content: m.content.clone(),
        })
        .collect();
    let text = tokenizer.apply_chat_template(&messages, true)?;
    tokenizer.encode(&text)
}

/// The trainer's policy as a [`ChatModel`].
pub struct LocalPolicy {
    name: String,
    tokenizer: Arc<ChatTokenizer>,
    decoder: Decoder,
    seeds: std::sync::atomic::AtomicU64,
}

impl std::fmt::Debug for LocalPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalPolicy")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl LocalPolicy {
    /// A policy named `name` decoding with `model` (the sampler's copy of the weights) at
    /// policy version `version`, at most `max_batch` sequences at a time.
    pub fn new(
        name: impl Into<String>,
        mut model: Model,
        tokenizer: ChatTokenizer,
        max_batch: usize,
        on_weights: OnWeights,
        version: u64,
    ) -> LocalPolicy {
        model.limit_sampling_vocab(tokenizer.vocab_size());
        let batcher = Batcher::new(model, max_batch, on_weights, version);
        LocalPolicy {
            name: name.into(),
            tokenizer: Arc::new(tokenizer),
            decoder: Decoder::spawn(batcher),
            seeds: std::sync::atomic::AtomicU64::new(0x5EED),
        }
    }

    /// Hands new weights (the trainer's `VarStore`) to the sampler as `version`.
    pub fn update_weights(&self, vs: &nn::VarStore, version: u64) -> Result<(), ModelError> {
        self.decoder
            .stage_weights(snapshot(vs), version)
            .map_err(|e| ModelError::Local(e.to_string()))
    }

    fn requests(&self, request: &ChatRequest) -> Result<(Vec<i64>, Vec<Request>), ModelError> {
        let local = |e: crate::Error| ModelError::Local(e.to_string());
        let prompt = prompt_ids(&self.tokenizer, &request.messages).map_err(local)?;
        let s = &request.sampling;
        let mut stop: Vec<Vec<i64>> = self.tokenizer.eos_ids.iter().map(|id| vec![*id]).collect();
        for text in &s.stop {
            stop.push(self.tokenizer.encode(text).map_err(local)?);
        }
        let n = s.n.max(1) as u64;
        let base = match s.seed {
            Some(seed) => seed,
            None => self
                .seeds
                .fetch_add(n, std::sync::atomic::Ordering::Relaxed),
        };
        let requests = (0..n)
            .map(|i| Request {
                prompt: prompt.clone(),
                sampling: Sampling {
                    temperature: f64::from(s.temperature),
                    top_p: f64::from(s.top_p),
                    top_k: 0,
                    max_tokens: s.max_tokens as usize,
                    stop: stop.clone(),
                    seed: base.wrapping_add(i),
                    pad_id: self.tokenizer.eos_ids.first().copied().unwrap_or(0),
                },
            })
            .collect();
        Ok((prompt, requests))
    }

    fn completion(&self, output: &Output, stop_texts: &[String]) -> Completion {
        let eos = &self.tokenizer.eos_ids;
        let visible: &[i64] = match output.tokens.last() {
            Some(last) if output.finish == Finish::Stop && eos.contains(last) => {
                &output.tokens[..output.tokens.len() - 1]
            }
            _ => &output.tokens,
        };
        let mut text = self.tokenizer.decode(visible).unwrap_or_default();
        if output.finish == Finish::Stop
            && let Some(cut) = stop_texts
                .iter()
                .filter(|s| !s.is_empty())
                .filter_map(|s| text.find(s.as_str()))
                .min()
        {
            text.truncate(cut);
        }
        Completion {
            text,
            finish_reason: match output.finish {
                Finish::Stop => FinishReason::Stop,
                Finish::Length => FinishReason::Length,
            },
            tokens: Some(
                output
                    .tokens
                    .iter()
                    .zip(&output.logprobs)
                    .map(|(id, lp)| Token {
                        id: Some(*id as u32),
                        text: self.tokenizer.decode(&[*id]).unwrap_or_default(),
                        logprob: *lp as f32,
                    })
                    .collect(),
            ),
        }
    }
}

impl ChatModel for LocalPolicy {
    fn name(&self) -> &str {
        &self.name
    }

    fn endpoint(&self) -> String {
        "local".to_owned()
    }

    fn chat<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> BoxFuture<'a, Result<ChatReply, ModelError>> {
        Box::pin(async move {
            let started = Instant::now();
            let (prompt, requests) = self.requests(request)?;
            let outputs = self
                .decoder
                .generate(requests, None)
                .await
                .map_err(|e| ModelError::Local(e.to_string()))?;
            let version = outputs
                .iter()
                .flat_map(|o| o.versions.iter())
                .min()
                .copied();
            let completion_tokens = outputs.iter().map(|o| o.tokens.len() as u64).sum();
            Ok(ChatReply {
                completions: outputs
                    .iter()
                    .map(|o| self.completion(o, &request.sampling.stop))
                    .collect(),
                usage: Usage {
                    prompt_tokens: prompt.len() as u64,
                    completion_tokens,
                    counted_locally: false,
                },
                model: self.name.clone(),
                prompt_token_ids: Some(prompt.iter().map(|t| *t as u32).collect()),
                policy_version: version,
                latency: started.elapsed(),
                retries: 0,
            })
        })
    }
}
