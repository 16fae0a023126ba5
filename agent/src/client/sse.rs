//! Server-sent events: [`EventParser`] splits the bytes of a stream into the `data` of
//! each event (whatever way the bytes were cut), and [`Assembler`] turns the chunks of a
//! streamed chat completion into whole completions: text deltas appended per choice,
//! logprob entries appended per choice, the finish reason, and the `usage` of the final
//! chunk (sent when the request asked for `stream_options.include_usage`).

use std::collections::BTreeMap;

use super::wire::{self, WireChunk, WireUsage, WithTokens};
use crate::model::Token;

/// Splits an SSE byte stream into event data. Lines end with `\n` or `\r\n`; an empty
/// line ends an event; `data:` lines of one event are joined with `\n`; comments
/// (`:`) and the other fields (`event`, `id`, `retry`) are skipped.
#[derive(Debug, Default)]
pub struct EventParser {
    pending: Vec<u8>,
    data: Option<String>,
}

impl EventParser {
    /// Feeds `bytes`; returns the data of every event they complete.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<String> {
        self.pending.extend_from_slice(bytes);
        let mut events = Vec::new();
        while let Some(end) = self.pending.iter().position(|b| *b == b'\n') {
            let mut line: Vec<u8> = self.pending.drain(..=end).collect();
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            self.line(&String::from_utf8_lossy(&line), &mut events);
        }
        events
    }

    /// The data of an event the stream ended in without its empty line.
    pub fn finish(mut self) -> Option<String> {
        if !self.pending.is_empty() {
            let line = String::from_utf8_lossy(&std::mem::take(&mut self.pending)).into_owned();
            let mut events = Vec::new();
            self.line(line.trim_end_matches('\r'), &mut events);
        }
        self.data
    }

    fn line(&mut self, line: &str, events: &mut Vec<String>) {
        if line.is_empty() {
            if let Some(data) = self.data.take() {
                events.push(data);
            }
            return;
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        if field == "data" {
            match &mut self.data {
                Some(data) => {
                    data.push('\n');
                    data.push_str(value);
                }
                None => self.data = Some(value.to_owned()),
            }
        }
    }
}

#[derive(Debug, Default)]
struct Partial {
    text: String,
    finish_reason: Option<String>,
    tokens: Option<Vec<Token>>,
}

/// Assembles the chunks of a streamed chat completion.
#[derive(Debug, Default)]
pub struct Assembler {
    model: Option<String>,
    choices: BTreeMap<u32, Partial>,
    usage: Option<WireUsage>,
    done: bool,
}

/// What a finished stream held.
#[derive(Debug)]
pub(crate) struct Assembled {
    pub(crate) model: Option<String>,
    pub(crate) completions: Vec<WithTokens>,
    pub(crate) usage: Option<WireUsage>,
}

impl Assembler {
    /// Whether `[DONE]` was seen (nothing after it is read).
    pub fn done(&self) -> bool {
        self.done
    }

    /// Feeds the data of one event. An error says what was wrong with it.
    pub fn push(&mut self, data: &str) -> Result<(), String> {
        if self.done {
            return Ok(());
        }
        if data.trim() == "[DONE]" {
            self.done = true;
            return Ok(());
        }
        let chunk: WireChunk = serde_json::from_str(data).map_err(|err| {
            format!(
                "a stream chunk is not JSON ({err}): {}",
                super::wire::excerpt(data)
            )
        })?;
        if let Some(error) = &chunk.error {
            return Err(format!(
                "the server reported an error mid-stream: {}",
                wire::error_message(error)
            ));
        }
        if chunk.model.is_some() {
            self.model = chunk.model;
        }
        if chunk.usage.is_some() {
            self.usage = chunk.usage;
        }
        for choice in chunk.choices {
            let partial = self.choices.entry(choice.index).or_default();
            if let Some(text) = choice.delta.and_then(|d| d.content) {
                partial.text.push_str(&text);
            }
            if let Some(content) = choice.logprobs.and_then(|l| l.content) {
                partial
                    .tokens
                    .get_or_insert_with(Vec::new)
                    .extend(content.into_iter().map(Token::from));
            }
            if choice.finish_reason.is_some() {
                partial.finish_reason = choice.finish_reason;
            }
        }
        Ok(())
    }

    /// The completions, in index order. A stream that ended before `[DONE]` with a choice
    /// still unfinished is an error (the connection was cut or the server gave up).
    pub(crate) fn finish(self) -> Result<Assembled, String> {
        if !self.done {
            if self.choices.is_empty() {
                return Err("the stream ended before any chunk".to_owned());
            }
            if self.choices.values().any(|c| c.finish_reason.is_none()) {
                return Err(
                    "the stream ended before [DONE] with a completion unfinished".to_owned(),
                );
            }
        }
        if self.choices.is_empty() {
            return Err("the stream held no choice".to_owned());
        }
        Ok(Assembled {
            model: self.model,
            completions: self
                .choices
                .into_values()
                .map(|c| WithTokens {
                    text: c.text,
                    finish_reason: wire::finish_reason(c.finish_reason),
                    tokens: c.tokens,
                })
                .collect(),
            usage: self.usage,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::FinishReason;

    #[test]
    fn events_come_out_whatever_way_the_bytes_are_cut() {
        let stream = "data: {\"a\":1}\n\n: a comment\nevent: x\r\ndata: one\r\ndata:two\r\n\r\ndata: [DONE]\n\n";
        let whole = EventParser::default().push(stream.as_bytes());
        assert_eq!(whole, ["{\"a\":1}", "one\ntwo", "[DONE]"]);
        for cut in 1..stream.len() {
            let mut parser = EventParser::default();
            let mut events = parser.push(&stream.as_bytes()[..cut]);
            events.extend(parser.push(&stream.as_bytes()[cut..]));
            assert_eq!(events, whole, "cut at {cut}");
        }
        let mut parser = EventParser::default();
        assert!(parser.push(b"data: last").is_empty());
        assert_eq!(parser.finish().as_deref(), Some("last"));
    }

    #[test]
    fn a_multibyte_character_cut_in_two_survives() {
        let text = "data: {\"x\":\"é\"}\n\n".as_bytes();
        let at = text.iter().position(|b| *b >= 0x80).unwrap() + 1;
        let mut parser = EventParser::default();
        assert!(parser.push(&text[..at]).is_empty());
        assert_eq!(parser.push(&text[at..]), ["{\"x\":\"é\"}"]);
    }

    #[test]
    fn chunks_assemble_per_choice_with_logprobs_and_usage() {
        let mut a = Assembler::default();
        for data in [
            r#"{"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"He"},"logprobs":{"content":[{"token":"He","logprob":-0.5,"token_id":7}]}}]}"#,
            r#"{"model":"m","choices":[{"index":1,"delta":{"content":"Yo"},"finish_reason":null}]}"#,
            r#"{"model":"m","choices":[{"index":0,"delta":{"content":"llo"},"logprobs":{"content":[{"token":"llo","logprob":-0.25,"token_id":9}]}}]}"#,
            r#"{"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"},{"index":1,"delta":{},"finish_reason":"length"}]}"#,
            r#"{"model":"m","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":3,"total_tokens":8}}"#,
            "[DONE]",
            "ignored after done",
        ] {
            a.push(data).unwrap();
        }
        assert!(a.done());
        let got = a.finish().unwrap();
        assert_eq!(got.model.as_deref(), Some("m"));
        assert_eq!(got.completions.len(), 2);
        assert_eq!(got.completions[0].text, "Hello");
        assert_eq!(got.completions[0].finish_reason, FinishReason::Stop);
        let ids: Vec<Option<u32>> = got.completions[0]
            .tokens
            .as_ref()
            .unwrap()
            .iter()
            .map(|t| t.id)
            .collect();
        assert_eq!(ids, [Some(7), Some(9)]);
        assert_eq!(got.completions[1].text, "Yo");
        assert_eq!(got.completions[1].finish_reason, FinishReason::Length);
        assert!(got.completions[1].tokens.is_none());
        let usage = got.usage.unwrap();
        assert_eq!(
            (usage.prompt_tokens, usage.completion_tokens),
            (Some(5), Some(3))
        );
    }

    #[test]
    fn bad_and_cut_streams_are_errors() {
        let mut a = Assembler::default();
        let err = a.push("{not json").unwrap_err();
        assert!(err.starts_with("a stream chunk is not JSON"), "{err}");
        let err = a
            .push(r#"{"error":{"message":"out of memory"}}"#)
            .unwrap_err();
        assert_eq!(
            err,
            "the server reported an error mid-stream: out of memory"
        );
        a.push(r#"{"choices":[{"index":0,"delta":{"content":"x"}}]}"#)
            .unwrap();
        let err = a.finish().unwrap_err();
        assert!(err.contains("before [DONE]"), "{err}");
        assert!(Assembler::default().finish().is_err());
    }
}
