//! The one model trait of the agent: [`ChatModel`].
//!
//! Every way of asking a model for a reply implements it: the OpenAI-compatible HTTP
//! client in [`crate::client`] (vLLM, llama.cpp, Ollama, SGLang, OpenAI, and the
//! trainer's own `trainer serve`), and the trainer's local policy in process (which fills
//! in the exact token ids, each token's sampling logprob and the policy version).
//!
//! The types here are plain data; they say nothing about HTTP. A reply that the server
//! could not give is a [`ModelError`]; a reply that is garbage (no code, nonsense) is
//! still a reply, and the solve loop records what it made of it.

use std::time::Duration;

use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Instructions for the whole conversation.
    System,
    /// The agent speaking for the user (statements, judge feedback).
    User,
    /// The model.
    Assistant,
}

/// One chat message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// Who wrote it.
    pub role: Role,
    /// Its text.
    pub content: String,
}

impl Message {
    /// A system message.
    pub fn system(content: impl Into<String>) -> Self {
        Self {
            role: Role::System,
            content: content.into(),
        }
    }
    /// A user message.
    pub fn user(content: impl Into<String>) -> Self {
        Self {
            role: Role::User,
            content: content.into(),
        }
    }
    /// An assistant message.
    pub fn assistant(content: impl Into<String>) -> Self {
        Self {
            role: Role::Assistant,
            content: content.into(),
        }
    }
}

/// Sampling settings of one request (the OpenAI fields of the same names).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sampling {
    /// Softmax temperature; 0 is greedy.
    pub temperature: f32,
    /// Nucleus sampling mass.
    pub top_p: f32,
    /// The most tokens to generate per completion (`max_tokens`, or
    /// `max_completion_tokens` for servers that want that name).
    pub max_tokens: u32,
    /// Strings that end a completion (not included in it).
    pub stop: Vec<String>,
    /// A seed for reproducible sampling, where the server honours one.
    pub seed: Option<u64>,
    /// How many completions to sample for the same prompt.
    pub n: u32,
    /// Ask for each sampled token's logprob.
    pub logprobs: bool,
}

impl Default for Sampling {
    fn default() -> Self {
        Self {
            temperature: 0.7,
            top_p: 1.0,
            max_tokens: 1024,
            stop: Vec::new(),
            seed: None,
            n: 1,
            logprobs: false,
        }
    }
}

/// One request: the conversation so far and how to sample the reply.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatRequest {
    /// The conversation, oldest first.
    pub messages: Vec<Message>,
    /// Sampling settings.
    pub sampling: Sampling,
}

/// Why a completion ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinishReason {
    /// The model ended it (end of sequence or a stop string).
    Stop,
    /// It reached `max_tokens`.
    Length,
    /// Anything else the server said (kept as it said it), or nothing.
    Other(String),
}

/// One sampled token.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Token {
    /// Its id in the model's vocabulary, when the server gives it (`trainer serve` and
    /// the local policy do; most servers give only the text).
    pub id: Option<u32>,
    /// Its text.
    pub text: String,
    /// The logprob it was sampled with.
    pub logprob: f32,
}

/// One completion of a request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Completion {
    /// The generated text.
    pub text: String,
    /// Why it ended.
    pub finish_reason: FinishReason,
    /// Each sampled token with its logprob, when asked for and given.
    pub tokens: Option<Vec<Token>>,
}

/// Tokens spent on one request.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Prompt tokens.
    pub prompt_tokens: u64,
    /// Generated tokens, over every completion.
    pub completion_tokens: u64,
    /// True when the server sent no `usage` and the client counted (an estimate for the
    /// prompt; the completions' token count when tokens were given).
    pub counted_locally: bool,
}

/// The reply to one request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatReply {
    /// One completion per `n`.
    pub completions: Vec<Completion>,
    /// Tokens spent.
    pub usage: Usage,
    /// The model name the server reported.
    pub model: String,
    /// The prompt's token ids exactly as the policy saw them (local policy only).
    pub prompt_token_ids: Option<Vec<u32>>,
    /// The policy version that produced every completion (local policy only; a policy
    /// that changes weights mid-sequence says so through its own records).
    pub policy_version: Option<u64>,
    /// Wall time from the first attempt to the reply.
    pub latency: Duration,
    /// Attempts made before this one succeeded.
    pub retries: u32,
}

/// A model could not give a reply.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// The endpoint could not be reached (connection refused, DNS, TLS), after retries.
    #[error("model server {endpoint} unreachable after {attempts} attempt(s): {reason}")]
    Unreachable {
        /// The endpoint.
        endpoint: String,
        /// Attempts made.
        attempts: u32,
        /// The last error.
        reason: String,
    },
    /// The server answered with an HTTP error (after retries, when retryable).
    #[error("model server {endpoint} answered HTTP {status} after {attempts} attempt(s): {body}")]
    Status {
        /// The endpoint.
        endpoint: String,
        /// The HTTP status.
        status: u16,
        /// Attempts made.
        attempts: u32,
        /// The start of the answer's body.
        body: String,
    },
    /// No answer within the per-request timeout (after retries).
    #[error("model server {endpoint} gave no answer within {timeout:?} ({attempts} attempt(s))")]
    Timeout {
        /// The endpoint.
        endpoint: String,
        /// The per-request timeout.
        timeout: Duration,
        /// Attempts made.
        attempts: u32,
    },
    /// The server answered 200 with something that is not a chat completion.
    #[error("model server {endpoint} answered something that is not a chat completion: {reason}")]
    BadReply {
        /// The endpoint.
        endpoint: String,
        /// What was wrong.
        reason: String,
    },
    /// The local policy failed (trainer side).
    #[error("local policy failed: {0}")]
    Local(String),
}

/// Something that answers chat requests: an HTTP endpoint or a local policy.
pub trait ChatModel: Send + Sync {
    /// The model's name, as recorded in trajectories.
    fn name(&self) -> &str;
    /// Where it is served (a URL, or `local` for an in-process policy); never a secret.
    fn endpoint(&self) -> String;
    /// Ask for a reply.
    fn chat<'a>(&'a self, request: &'a ChatRequest)
    -> BoxFuture<'a, Result<ChatReply, ModelError>>;
}
