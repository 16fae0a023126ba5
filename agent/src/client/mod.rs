//! The OpenAI-compatible chat completions client: the agent's one way to reach a model
//! server over HTTP (vLLM, llama.cpp, Ollama, SGLang, OpenAI, `trainer serve`), and the
//! only module of the agent that names reqwest.
//!
//! - [`OpenAiClient`] implements [`crate::model::ChatModel`]: streaming (SSE, [`sse`]) or
//!   not, usage (counted locally when the server sends none), sampling settings, logprobs
//!   with the token ids that `trainer serve` adds, per-request timeouts, retries
//!   ([`retry`]) and a concurrency cap per endpoint ([`limit`]).
//! - [`ClientConfig`] is what the CLI parses and a run's manifest records; it names the
//!   environment variable that holds the API key and never holds the key itself.
//!
//! Design decisions:
//! - One attempt is one HTTP request under one deadline (`request_timeout_ms`), body or
//!   stream included; a timed-out attempt is retried like a dropped connection.
//! - Retries wait a jittered exponential backoff, or what the server's `retry-after`
//!   (or `retry-after-ms`) asks; a wait that would pass the total retry budget is not
//!   started: the last error is returned at once.
//! - The concurrency cap belongs to the endpoint, not to the client value: every client
//!   built for the same base URL in the process shares one semaphore (the first client
//!   made for a URL sets its size). A permit is held for one attempt, never during a
//!   backoff wait. A reply's `latency` counts from the call, waits for a permit included
//!   (they are time the model cost the caller).

pub mod contest;
pub mod limit;
pub mod openai;
pub mod retry;
pub mod sse;
mod wire;

use std::time::Duration;

use serde::{Deserialize, Serialize};

pub use openai::OpenAiClient;

/// The name of the field that carries the completion length limit in the request body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum MaxTokensField {
    /// `max_tokens`: vLLM, llama.cpp, Ollama, SGLang, `trainer serve`.
    #[default]
    MaxTokens,
    /// `max_completion_tokens`: OpenAI's newer name (its reasoning models want it).
    MaxCompletionTokens,
}

impl MaxTokensField {
    /// The JSON field name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::MaxTokens => "max_tokens",
            Self::MaxCompletionTokens => "max_completion_tokens",
        }
    }
}

/// How to reach a model server. Serializable into a run's manifest: it holds the *name*
/// of the environment variable with the API key, never the key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, clap::Args)]
#[serde(default, deny_unknown_fields)]
pub struct ClientConfig {
    /// The server's base URL: `http://host:port` (then `/v1` is added) or a URL with its
    /// own path (`https://host/v1`, `https://host/openai/v1`), used as given.
    #[arg(long = "model-url", default_value = "http://127.0.0.1:8000")]
    pub base_url: String,
    /// The model name sent in each request and recorded in trajectories.
    #[arg(long = "model-name", default_value = "")]
    pub model: String,
    /// The environment variable that holds the API key (sent as `Authorization: Bearer`);
    /// when it is unset or empty no key is sent (local servers want none).
    #[arg(long = "api-key-env", default_value = "OPENAI_API_KEY")]
    pub api_key_env: String,
    /// Ask for the reply as an SSE stream (`stream: true`) and assemble it.
    #[arg(long = "model-stream")]
    pub stream: bool,
    /// In streaming mode, ask for usage in the last chunk (`stream_options.include_usage`);
    /// turn off for servers that reject `stream_options`.
    #[arg(long = "model-stream-usage", default_value_t = true, action = clap::ArgAction::Set)]
    pub stream_usage: bool,
    /// Which field carries the completion length limit.
    #[arg(long = "max-tokens-field", value_enum, default_value_t = MaxTokensField::MaxTokens)]
    pub max_tokens_field: MaxTokensField,
    /// The deadline of one attempt (connection, answer and the whole body or stream), in
    /// milliseconds.
    #[arg(long = "request-timeout-ms", default_value_t = 600_000)]
    pub request_timeout_ms: u64,
    /// The deadline for opening a connection, in milliseconds.
    #[arg(long = "connect-timeout-ms", default_value_t = 10_000)]
    pub connect_timeout_ms: u64,
    /// The most attempts per request (1 = no retry).
    #[arg(long = "max-attempts", default_value_t = 6)]
    pub max_attempts: u32,
    /// The most time spent on one request over all its attempts and waits, in
    /// milliseconds; no wait is started that would pass it.
    #[arg(long = "max-retry-time-ms", default_value_t = 1_800_000)]
    pub max_retry_time_ms: u64,
    /// The first backoff wait in milliseconds; it doubles per retry (then jittered: a
    /// uniform draw between half and all of it).
    #[arg(long = "backoff-base-ms", default_value_t = 500)]
    pub backoff_base_ms: u64,
    /// The longest backoff wait in milliseconds (a server's `retry-after` may ask longer).
    #[arg(long = "backoff-max-ms", default_value_t = 30_000)]
    pub backoff_max_ms: u64,
    /// The most requests in flight to this endpoint from this process, over every client
    /// made for the same base URL.
    #[arg(long = "model-concurrency", default_value_t = 8)]
    pub concurrency: usize,
}

impl Default for ClientConfig {
    fn default() -> Self {
        Self {
            base_url: "http://127.0.0.1:8000".to_owned(),
            model: String::new(),
            api_key_env: "OPENAI_API_KEY".to_owned(),
            stream: false,
            stream_usage: true,
            max_tokens_field: MaxTokensField::MaxTokens,
            request_timeout_ms: 600_000,
            connect_timeout_ms: 10_000,
            max_attempts: 6,
            max_retry_time_ms: 1_800_000,
            backoff_base_ms: 500,
            backoff_max_ms: 30_000,
            concurrency: 8,
        }
    }
}

impl ClientConfig {
    /// A configuration for `model` at `base_url`, every other field at its default.
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> Self {
        Self {
            base_url: base_url.into(),
            model: model.into(),
            ..Self::default()
        }
    }

    /// The per-attempt deadline.
    pub fn request_timeout(&self) -> Duration {
        Duration::from_millis(self.request_timeout_ms)
    }

    /// The base URL the endpoints hang from, normalised: no trailing `/`, and `/v1` added
    /// when the URL has no path. An error names what is wrong with the URL.
    pub fn api_base(&self) -> Result<String, ConfigError> {
        let url = reqwest::Url::parse(self.base_url.trim()).map_err(|err| ConfigError::Url {
            url: self.base_url.clone(),
            reason: err.to_string(),
        })?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(ConfigError::Url {
                url: self.base_url.clone(),
                reason: format!("the scheme is `{}`, not http or https", url.scheme()),
            });
        }
        if url.query().is_some() || url.fragment().is_some() {
            return Err(ConfigError::Url {
                url: self.base_url.clone(),
                reason: "a base URL has no query or fragment".to_owned(),
            });
        }
        let text = url.as_str().trim_end_matches('/').to_owned();
        Ok(if url.path() == "/" || url.path().is_empty() {
            format!("{text}/v1")
        } else {
            text
        })
    }

    fn check(&self) -> Result<(), ConfigError> {
        let bad = |field: &'static str, reason: &str| {
            Err(ConfigError::Field {
                field,
                reason: reason.to_owned(),
            })
        };
        if self.model.trim().is_empty() {
            return bad("model", "no model name (--model-name)");
        }
        if self.max_attempts == 0 {
            return bad("max_attempts", "must be at least 1");
        }
        if self.concurrency == 0 {
            return bad("concurrency", "must be at least 1");
        }
        if self.request_timeout_ms == 0 {
            return bad("request_timeout_ms", "must be more than 0");
        }
        if self.api_key_env.trim().is_empty() {
            return bad("api_key_env", "names no environment variable");
        }
        Ok(())
    }
}

/// A client configuration that cannot work.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The base URL does not parse or is not HTTP.
    #[error("model server URL `{url}`: {reason}")]
    Url {
        /// The URL as given.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A field has a value that cannot work.
    #[error("model client setting `{field}`: {reason}")]
    Field {
        /// The field.
        field: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// The HTTP client could not be built (TLS set-up).
    #[error("the HTTP client could not be built: {0}")]
    Http(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_base_url_gets_v1_only_without_a_path() {
        let base = |url: &str| ClientConfig::new(url, "m").api_base();
        assert_eq!(
            base("http://127.0.0.1:8000").unwrap(),
            "http://127.0.0.1:8000/v1"
        );
        assert_eq!(
            base("http://127.0.0.1:8000/").unwrap(),
            "http://127.0.0.1:8000/v1"
        );
        assert_eq!(base("https://host/v1/").unwrap(), "https://host/v1");
        assert_eq!(
            base("https://host/openai/v1").unwrap(),
            "https://host/openai/v1"
        );
        let err = base("ftp://host").unwrap_err().to_string();
        assert!(
            err.contains("`ftp://host`") && err.contains("not http"),
            "{err}"
        );
        let err = base("not a url").unwrap_err().to_string();
        assert!(err.starts_with("model server URL `not a url`"), "{err}");
    }

    #[test]
    fn a_config_round_trips_through_json_with_defaults_filled_in() {
        let config: ClientConfig =
            serde_json::from_str(r#"{"base_url": "http://h:1", "model": "m", "stream": true}"#)
                .unwrap();
        assert_eq!(
            config,
            ClientConfig {
                stream: true,
                ..ClientConfig::new("http://h:1", "m")
            }
        );
        let again: ClientConfig =
            serde_json::from_str(&serde_json::to_string(&config).unwrap()).unwrap();
        assert_eq!(again, config);
        let err = serde_json::from_str::<ClientConfig>(r#"{"api_key": "sk-1"}"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown field `api_key`"), "{err}");
    }

    #[test]
    fn impossible_settings_are_named() {
        let err = |config: ClientConfig| config.check().unwrap_err().to_string();
        assert_eq!(
            err(ClientConfig::new("http://h", "")),
            "model client setting `model`: no model name (--model-name)"
        );
        assert_eq!(
            err(ClientConfig {
                max_attempts: 0,
                ..ClientConfig::new("http://h", "m")
            }),
            "model client setting `max_attempts`: must be at least 1"
        );
    }

    #[test]
    fn the_cli_flags_parse_into_the_same_defaults() {
        use clap::Parser;
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            client: ClientConfig,
        }
        let cli = Cli::parse_from(["agent", "--model-name", "m"]);
        assert_eq!(cli.client, ClientConfig::new("http://127.0.0.1:8000", "m"));
        let cli = Cli::parse_from([
            "agent",
            "--model-url",
            "http://h:9/v1",
            "--model-name",
            "m",
            "--api-key-env",
            "MY_KEY",
            "--model-stream",
            "--model-stream-usage",
            "false",
            "--max-tokens-field",
            "max-completion-tokens",
        ]);
        assert_eq!(cli.client.api_key_env, "MY_KEY");
        assert!(cli.client.stream && !cli.client.stream_usage);
        assert_eq!(
            cli.client.max_tokens_field,
            MaxTokensField::MaxCompletionTokens
        );
    }
}
