//! [`OpenAiClient`]: `POST {base}/chat/completions` (whole or streamed) and
//! `GET {base}/models`, with retries, timeouts and the endpoint's concurrency cap.

use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use futures_util::StreamExt;
use futures_util::future::BoxFuture;
use serde_json::{Value, json};
use tokio::sync::Semaphore;

use super::retry::{self, RetryPolicy};
use super::sse::{Assembler, EventParser};
use super::wire::{self, WireCompletion, WireUsage, WithTokens, excerpt};
use super::{ClientConfig, ConfigError, limit};
use crate::model::{ChatModel, ChatReply, ChatRequest, Message, ModelError, Usage};

/// The API key, kept out of every `Debug` output (and never serialized).
struct ApiKey(String);

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

/// An OpenAI-compatible chat completions client. Clones share the HTTP connection pool;
/// every client of the same base URL shares the concurrency cap.
#[derive(Debug, Clone)]
pub struct OpenAiClient {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    config: ClientConfig,
    api_base: String,
    http: reqwest::Client,
    key: Option<ApiKey>,
    limit: Arc<Semaphore>,
    policy: RetryPolicy,
}

/// Why one attempt failed.
#[derive(Debug)]
enum Failure {
    /// No connection, or it broke (retried).
    Connect(String),
    /// No answer within the per-request timeout (retried).
    Timeout,
    /// An HTTP error status (retried when [`retry::retryable_status`]).
    Status {
        status: u16,
        body: String,
        retry_after: Option<Duration>,
    },
    /// A 2xx answer that is not what was asked for (not retried).
    Bad(String),
}

/// A reqwest error with its causes, which say what happened ("Connection refused").
fn describe(err: &reqwest::Error) -> String {
    let mut text = err.to_string();
    let mut source = std::error::Error::source(err);
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

/// The failure of a request that got no complete answer (the URL left out of the text:
/// the error names the endpoint already).
#[allow(clippy::needless_pass_by_value)] // reason: `map_err(failure)` hands it over
fn failure(err: reqwest::Error) -> Failure {
    if err.is_timeout() && !err.is_connect() {
        Failure::Timeout
    } else {
        Failure::Connect(describe(&err.without_url()))
    }
}

/// A rough token count of `text` for servers that report no usage: a token is about four
/// bytes of English or code (an estimate, marked `counted_locally`).
pub fn estimate_tokens(text: &str) -> u64 {
    text.len().div_ceil(4) as u64
}

/// The estimated prompt tokens of `messages`: each message's text plus four tokens for
/// its role and the chat template's markers.
pub fn estimate_prompt_tokens(messages: &[Message]) -> u64 {
    messages
        .iter()
        .map(|m| estimate_tokens(&m.content) + 4)
        .sum()
}

/// The usage of a reply: the server's when it sent both counts, else counted locally
/// (the prompt estimated, each completion by its token list when given, else estimated).
fn usage_of(server: Option<WireUsage>, messages: &[Message], completions: &[WithTokens]) -> Usage {
    if let Some(WireUsage {
        prompt_tokens: Some(prompt_tokens),
        completion_tokens: Some(completion_tokens),
    }) = server
    {
        return Usage {
            prompt_tokens,
            completion_tokens,
            counted_locally: false,
        };
    }
    Usage {
        prompt_tokens: estimate_prompt_tokens(messages),
        completion_tokens: completions
            .iter()
            .map(|c| match &c.tokens {
                Some(tokens) => tokens.len() as u64,
                None => estimate_tokens(&c.text),
            })
            .sum(),
        counted_locally: true,
    }
}

/// `value` as the f64 with the same shortest decimal form (0.9, not 0.8999999761581421),
/// so that the server reads the setting as it was written.
fn short(value: f32) -> f64 {
    value.to_string().parse().unwrap_or(f64::from(value))
}

impl OpenAiClient {
    /// A client for `config`, the API key read from the environment variable it names.
    pub fn new(config: ClientConfig) -> Result<Self, ConfigError> {
        Self::with_env(config, |name| std::env::var(name).ok())
    }

    /// A client for `config`, the API key looked up by `env` (the variable's name in,
    /// its value out): the environment in [`OpenAiClient::new`], a map in tests.
    pub fn with_env(
        config: ClientConfig,
        env: impl FnOnce(&str) -> Option<String>,
    ) -> Result<Self, ConfigError> {
        config.check()?;
        let api_base = config.api_base()?;
        let key = env(&config.api_key_env)
            .map(|k| k.trim().to_owned())
            .filter(|k| !k.is_empty())
            .map(ApiKey);
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_millis(config.connect_timeout_ms))
            .build()
            .map_err(|err| ConfigError::Http(describe(&err)))?;
        let limit = limit::semaphore(&api_base, config.concurrency);
        let policy = RetryPolicy::of(&config);
        Ok(Self {
            inner: Arc::new(Inner {
                config,
                api_base,
                http,
                key,
                limit,
                policy,
            }),
        })
    }

    /// The configuration (without the key).
    pub fn config(&self) -> &ClientConfig {
        &self.inner.config
    }

    /// The normalised base URL (`…/v1`).
    pub fn api_base(&self) -> &str {
        &self.inner.api_base
    }

    /// Whether an API key was found in the environment.
    pub fn has_api_key(&self) -> bool {
        self.inner.key.is_some()
    }

    /// The JSON body of a chat completions request.
    pub fn request_body(&self, request: &ChatRequest) -> Value {
        let config = &self.inner.config;
        let s = &request.sampling;
        let mut body = json!({
            "model": config.model,
            "messages": request.messages,
            "temperature": short(s.temperature),
            "top_p": short(s.top_p),
            "stream": config.stream,
        });
        body[config.max_tokens_field.as_str()] = json!(s.max_tokens);
        if config.stream && config.stream_usage {
            body["stream_options"] = json!({"include_usage": true});
        }
        if s.n != 1 {
            body["n"] = json!(s.n);
        }
        if let Some(seed) = s.seed {
            body["seed"] = json!(seed);
        }
        if !s.stop.is_empty() {
            body["stop"] = json!(s.stop);
        }
        if s.logprobs {
            body["logprobs"] = json!(true);
            body["top_logprobs"] = json!(0);
        }
        body
    }

    /// Asks for a reply (what [`ChatModel::chat`] does).
    pub async fn complete(&self, request: &ChatRequest) -> Result<ChatReply, ModelError> {
        let url = format!("{}/chat/completions", self.inner.api_base);
        let body = self.request_body(request);
        let start = Instant::now();
        let ((model, completions, usage), attempts) = self
            .with_retries(&url, self.inner.policy.max_attempts, || {
                self.attempt_chat(&url, &body)
            })
            .await?;
        if completions.is_empty() {
            return Err(ModelError::BadReply {
                endpoint: url,
                reason: "the reply holds no choice".to_owned(),
            });
        }
        let usage = usage_of(usage, &request.messages, &completions);
        Ok(ChatReply {
            completions: completions
                .into_iter()
                .map(|c| c.into_completion(request.sampling.logprobs))
                .collect(),
            usage,
            model: model.unwrap_or_else(|| self.inner.config.model.clone()),
            prompt_token_ids: None,
            policy_version: None,
            latency: start.elapsed(),
            retries: attempts - 1,
        })
    }

    /// The model names the server lists (`GET {base}/models`), with the usual retries.
    pub async fn models(&self) -> Result<Vec<String>, ModelError> {
        self.list_models(self.inner.policy.max_attempts).await
    }

    /// A health check: one attempt at `GET {base}/models`, and the configured model must
    /// be among those listed. Returns the listed names; an unreachable server, an HTTP
    /// error or a model not listed is an error that says which.
    pub async fn check(&self) -> Result<Vec<String>, ModelError> {
        let models = self.list_models(1).await?;
        if !models.iter().any(|m| *m == self.inner.config.model) {
            return Err(ModelError::BadReply {
                endpoint: format!("{}/models", self.inner.api_base),
                reason: format!(
                    "model `{}` is not served here (the server lists: {})",
                    self.inner.config.model,
                    if models.is_empty() {
                        "nothing".to_owned()
                    } else {
                        models.join(", ")
                    }
                ),
            });
        }
        Ok(models)
    }

    async fn list_models(&self, max_attempts: u32) -> Result<Vec<String>, ModelError> {
        let url = format!("{}/models", self.inner.api_base);
        let (models, _) = self
            .with_retries(&url, max_attempts, || async {
                let res = self
                    .authorized(self.inner.http.get(&url))
                    .send()
                    .await
                    .map_err(failure)?;
                let bytes = Self::success_body(res).await?;
                let value: Value = serde_json::from_slice(&bytes).map_err(|err| {
                    Failure::Bad(format!(
                        "not a model list ({err}): {}",
                        excerpt(&String::from_utf8_lossy(&bytes))
                    ))
                })?;
                let data = value["data"].as_array().ok_or_else(|| {
                    Failure::Bad(format!(
                        "no `data` list of models: {}",
                        excerpt(&value.to_string())
                    ))
                })?;
                Ok(data
                    .iter()
                    .filter_map(|m| m["id"].as_str().map(str::to_owned))
                    .collect::<Vec<_>>())
            })
            .await?;
        Ok(models)
    }

    fn authorized(&self, builder: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        match &self.inner.key {
            Some(ApiKey(key)) => builder.bearer_auth(key),
            None => builder,
        }
    }

    /// The answer of a 2xx response, or the failure of any other.
    async fn success_body(res: reqwest::Response) -> Result<Vec<u8>, Failure> {
        let res = Self::success(res).await?;
        let bytes = res.bytes().await.map_err(failure)?;
        Ok(bytes.to_vec())
    }

    async fn success(res: reqwest::Response) -> Result<reqwest::Response, Failure> {
        let status = res.status();
        if status.is_success() {
            return Ok(res);
        }
        let header = |name: &str| {
            res.headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        let retry_after = retry::retry_after(
            header("retry-after-ms").as_deref(),
            header("retry-after").as_deref(),
            SystemTime::now(),
        );
        let body = res.text().await.unwrap_or_default();
        let body = match serde_json::from_str::<Value>(&body) {
            Ok(value) if value.get("error").is_some() => wire::error_message(&value["error"]),
            _ => body,
        };
        Err(Failure::Status {
            status: status.as_u16(),
            body: excerpt(body.trim()),
            retry_after,
        })
    }

    /// One attempt at a chat completion: the model name, the completions and the usage
    /// the server sent.
    async fn attempt_chat(
        &self,
        url: &str,
        body: &Value,
    ) -> Result<(Option<String>, Vec<WithTokens>, Option<WireUsage>), Failure> {
        let res = self
            .authorized(self.inner.http.post(url))
            .json(body)
            .send()
            .await
            .map_err(failure)?;
        let res = Self::success(res).await?;
        let is_json = res
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/json"));
        if !self.inner.config.stream || is_json {
            // A server that ignores `stream` answers a whole completion: read it as one.
            let bytes = res.bytes().await.map_err(failure)?;
            let whole: WireCompletion = serde_json::from_slice(&bytes).map_err(|err| {
                Failure::Bad(format!(
                    "not a chat completion ({err}): {}",
                    excerpt(&String::from_utf8_lossy(&bytes))
                ))
            })?;
            return Ok(whole.into_parts());
        }
        let mut parser = EventParser::default();
        let mut assembler = Assembler::default();
        let mut stream = res.bytes_stream();
        while let Some(bytes) = stream.next().await {
            let bytes = bytes.map_err(failure)?;
            for data in parser.push(&bytes) {
                assembler.push(&data).map_err(Failure::Bad)?;
            }
            if assembler.done() {
                break;
            }
        }
        if !assembler.done()
            && let Some(data) = parser.finish()
        {
            assembler.push(&data).map_err(Failure::Bad)?;
        }
        let assembled = assembler.finish().map_err(Failure::Bad)?;
        Ok((assembled.model, assembled.completions, assembled.usage))
    }

    /// Runs `attempt` until it succeeds, fails for good, or the retry budget is spent;
    /// returns its value and the number of attempts made.
    async fn with_retries<T, F, Fut>(
        &self,
        url: &str,
        max_attempts: u32,
        mut attempt: F,
    ) -> Result<(T, u32), ModelError>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, Failure>>,
    {
        let policy = RetryPolicy {
            max_attempts,
            ..self.inner.policy
        };
        let timeout = self.inner.config.request_timeout();
        let start = Instant::now();
        let mut attempts = 0;
        loop {
            attempts += 1;
            let outcome = {
                let _permit = self
                    .inner
                    .limit
                    .acquire()
                    .await
                    .expect("invariant: the endpoint semaphore is never closed");
                match tokio::time::timeout(timeout, attempt()).await {
                    Ok(outcome) => outcome,
                    Err(_) => Err(Failure::Timeout),
                }
            };
            let failure = match outcome {
                Ok(value) => return Ok((value, attempts)),
                Err(failure) => failure,
            };
            let (retryable, asked) = match &failure {
                Failure::Connect(_) | Failure::Timeout => (true, None),
                Failure::Status {
                    status,
                    retry_after,
                    ..
                } => (retry::retryable_status(*status), *retry_after),
                Failure::Bad(_) => (false, None),
            };
            let wait = if retryable {
                policy.next_wait(attempts, start.elapsed(), asked, &mut rand::rng())
            } else {
                None
            };
            match wait {
                Some(wait) => tokio::time::sleep(wait).await,
                None => return Err(self.error(url, failure, attempts)),
            }
        }
    }

    fn error(&self, url: &str, failure: Failure, attempts: u32) -> ModelError {
        let endpoint = url.to_owned();
        match failure {
            Failure::Connect(reason) => ModelError::Unreachable {
                endpoint,
                attempts,
                reason,
            },
            Failure::Timeout => ModelError::Timeout {
                endpoint,
                timeout: self.inner.config.request_timeout(),
                attempts,
            },
            Failure::Status { status, body, .. } => ModelError::Status {
                endpoint,
                status,
                attempts,
                body,
            },
            Failure::Bad(reason) => ModelError::BadReply { endpoint, reason },
        }
    }
}

impl ChatModel for OpenAiClient {
    fn name(&self) -> &str {
        &self.inner.config.model
    }

    fn endpoint(&self) -> String {
        self.inner.api_base.clone()
    }

    fn chat<'a>(
        &'a self,
        request: &'a ChatRequest,
    ) -> BoxFuture<'a, Result<ChatReply, ModelError>> {
        Box::pin(self.complete(request))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{FinishReason, Sampling};

    fn client(config: ClientConfig) -> OpenAiClient {
        OpenAiClient::with_env(config, |_| None).unwrap()
    }

    #[test]
    fn the_body_carries_the_sampling_settings() {
        let c = client(ClientConfig::new("http://body-test:1", "m"));
        let request = ChatRequest {
            messages: vec![Message::user("hi")],
            sampling: Sampling {
                temperature: 0.5,
                top_p: 0.9,
                max_tokens: 64,
                stop: vec!["```".to_owned()],
                seed: Some(3),
                n: 2,
                logprobs: true,
            },
        };
        let body = c.request_body(&request);
        assert_eq!(
            body,
            json!({"model": "m", "messages": [{"role": "user", "content": "hi"}],
                   "temperature": 0.5, "top_p": 0.9, "stream": false,
                   "max_tokens": 64, "n": 2, "seed": 3, "stop": ["```"],
                   "logprobs": true, "top_logprobs": 0})
        );
        let c = client(ClientConfig {
            stream: true,
            max_tokens_field: super::super::MaxTokensField::MaxCompletionTokens,
            ..ClientConfig::new("http://body-test:1", "m")
        });
        let body = c.request_body(&ChatRequest {
            messages: vec![],
            sampling: Sampling::default(),
        });
        assert_eq!(body["max_completion_tokens"], 1024);
        assert!(body.get("max_tokens").is_none());
        assert_eq!(body["stream_options"], json!({"include_usage": true}));
        for absent in ["n", "seed", "stop", "logprobs", "top_logprobs"] {
            assert!(body.get(absent).is_none(), "{absent}");
        }
    }

    #[test]
    fn usage_is_the_servers_or_counted_locally() {
        let messages = [Message::system("12345678"), Message::user("1234")];
        let with = |tokens: Option<usize>| WithTokens {
            text: "abcdefghi".to_owned(),
            finish_reason: FinishReason::Stop,
            tokens: tokens.map(|n| {
                vec![
                    crate::model::Token {
                        id: None,
                        text: "x".to_owned(),
                        logprob: 0.0,
                    };
                    n
                ]
            }),
        };
        let server = WireUsage {
            prompt_tokens: Some(11),
            completion_tokens: Some(7),
        };
        assert_eq!(
            usage_of(Some(server), &messages, &[with(None)]),
            Usage {
                prompt_tokens: 11,
                completion_tokens: 7,
                counted_locally: false
            }
        );
        assert_eq!(
            usage_of(None, &messages, &[with(None), with(Some(5))]),
            Usage {
                prompt_tokens: (2 + 4) + (1 + 4),
                completion_tokens: 3 + 5,
                counted_locally: true
            }
        );
        let half = WireUsage {
            prompt_tokens: Some(11),
            completion_tokens: None,
        };
        assert!(usage_of(Some(half), &messages, &[with(None)]).counted_locally);
    }
}
