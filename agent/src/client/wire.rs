//! The OpenAI chat completions wire format as servers send it, read leniently (unknown
//! fields ignored, most fields optional), its conversion into [`crate::model`] types, and
//! [`excerpt`], how much of a server's text an error message quotes.

use serde::Deserialize;

use crate::model::{Completion, FinishReason, Token};

/// The first 300 characters of `text`, for an error message about what a server sent.
pub(crate) fn excerpt(text: &str) -> String {
    const MAX: usize = 300;
    match text.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

/// A whole (non-streamed) chat completion.
#[derive(Debug, Deserialize)]
pub(crate) struct WireCompletion {
    #[serde(default)]
    pub(crate) model: Option<String>,
    pub(crate) choices: Vec<WireChoice>,
    #[serde(default)]
    pub(crate) usage: Option<WireUsage>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct WireChoice {
    #[serde(default)]
    pub(crate) index: Option<u32>,
    #[serde(default)]
    pub(crate) message: Option<WireMessage>,
    #[serde(default)]
    pub(crate) finish_reason: Option<String>,
    #[serde(default)]
    pub(crate) logprobs: Option<WireLogprobs>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct WireMessage {
    #[serde(default)]
    pub(crate) content: Option<String>,
}

/// `logprobs` of a choice: `content` holds one entry per sampled token.
#[derive(Debug, Deserialize)]
pub(crate) struct WireLogprobs {
    #[serde(default)]
    pub(crate) content: Option<Vec<WireToken>>,
}

/// One sampled token; `token_id` is the extension field of `trainer serve`.
#[derive(Debug, Deserialize)]
pub(crate) struct WireToken {
    #[serde(default)]
    pub(crate) token: String,
    pub(crate) logprob: f32,
    #[serde(default)]
    pub(crate) token_id: Option<u32>,
}

impl From<WireToken> for Token {
    fn from(t: WireToken) -> Self {
        Token {
            id: t.token_id,
            text: t.token,
            logprob: t.logprob,
        }
    }
}

#[derive(Debug, Clone, Copy, Deserialize)]
pub(crate) struct WireUsage {
    #[serde(default)]
    pub(crate) prompt_tokens: Option<u64>,
    #[serde(default)]
    pub(crate) completion_tokens: Option<u64>,
}

/// One chunk of an SSE stream.
#[derive(Debug, Deserialize)]
pub(crate) struct WireChunk {
    #[serde(default)]
    pub(crate) model: Option<String>,
    #[serde(default)]
    pub(crate) choices: Vec<WireChunkChoice>,
    #[serde(default)]
    pub(crate) usage: Option<WireUsage>,
    /// Some servers report a failure mid-stream as a chunk with an `error` object.
    #[serde(default)]
    pub(crate) error: Option<serde_json::Value>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct WireChunkChoice {
    #[serde(default)]
    pub(crate) index: u32,
    #[serde(default)]
    pub(crate) delta: Option<WireMessage>,
    #[serde(default)]
    pub(crate) finish_reason: Option<String>,
    #[serde(default)]
    pub(crate) logprobs: Option<WireLogprobs>,
}

/// A finish reason as the server said it (`None`: it said nothing).
pub(crate) fn finish_reason(reason: Option<String>) -> FinishReason {
    match reason.as_deref() {
        Some("stop") => FinishReason::Stop,
        Some("length") => FinishReason::Length,
        _ => FinishReason::Other(reason.unwrap_or_default()),
    }
}

/// The message of a server's `error` object (or the object itself).
pub(crate) fn error_message(error: &serde_json::Value) -> String {
    error
        .get("message")
        .and_then(serde_json::Value::as_str)
        .map_or_else(|| error.to_string(), str::to_owned)
}

/// A completion with its tokens as the server gave them (kept for counting even when the
/// request did not ask for logprobs; [`WithTokens::into_completion`] drops them then).
#[derive(Debug)]
pub(crate) struct WithTokens {
    pub(crate) text: String,
    pub(crate) finish_reason: FinishReason,
    pub(crate) tokens: Option<Vec<Token>>,
}

impl WithTokens {
    pub(crate) fn into_completion(self, logprobs_asked: bool) -> Completion {
        Completion {
            text: self.text,
            finish_reason: self.finish_reason,
            tokens: if logprobs_asked { self.tokens } else { None },
        }
    }
}

impl WireCompletion {
    /// The choices in index order.
    pub(crate) fn into_parts(self) -> (Option<String>, Vec<WithTokens>, Option<WireUsage>) {
        let mut choices: Vec<(u32, WithTokens)> = self
            .choices
            .into_iter()
            .enumerate()
            .map(|(i, c)| {
                let index = c.index.unwrap_or(i as u32);
                let tokens = c
                    .logprobs
                    .and_then(|l| l.content)
                    .map(|ts| ts.into_iter().map(Token::from).collect());
                (
                    index,
                    WithTokens {
                        text: c.message.and_then(|m| m.content).unwrap_or_default(),
                        finish_reason: finish_reason(c.finish_reason),
                        tokens,
                    },
                )
            })
            .collect();
        choices.sort_by_key(|(index, _)| *index);
        (
            self.model,
            choices.into_iter().map(|(_, c)| c).collect(),
            self.usage,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpts_are_cut_on_a_character() {
        assert_eq!(excerpt("short"), "short");
        let long = "é".repeat(400);
        let cut = excerpt(&long);
        assert_eq!(cut.chars().count(), 301);
        assert!(cut.ends_with('…'));
    }
}
