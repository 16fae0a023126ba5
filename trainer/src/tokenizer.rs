//! The tokenizer (`tokenizer.json`, through the `tokenizers` crate), the model's own chat
//! template (`chat_template.jinja`, or `chat_template` inside `tokenizer_config.json`) and
//! the stop tokens (`generation_config.json`'s `eos_token_id`, an id or a list, with the
//! tokenizer's `eos_token`).
//!
//! The template is rendered by minijinja as transformers renders it with jinja2
//! (`apply_chat_template`): `trim_blocks` and `lstrip_blocks`, loop controls, Python's
//! string, dict and list methods (`minijinja_contrib::pycompat`), the globals
//! `raise_exception` and `strftime_now`, a `tojson` filter that writes what Python's
//! `json.dumps` writes (", " and ": " separators, `indent`, no HTML escaping, keys in
//! their order), the special tokens and `add_generation_prompt` in the context, and
//! extra variables such as `enable_thinking`. transformers' `{% generation %}` tag (its
//! assistant masks) renders its body. A template that uses anything else fails with the
//! template's line.

use std::fmt::Write as _;
use std::path::Path;

use minijinja::value::{Kwargs, Value, ValueKind};
use minijinja::{Environment, ErrorKind};
use serde::{Deserialize, Serialize};

use crate::{Error, Result};

/// One chat message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    /// `system`, `user` or `assistant`.
    pub role: String,
    /// The text.
    pub content: String,
}

/// The special tokens transformers puts in a template's context (`special_tokens_map`).
const SPECIAL_TOKENS: [&str; 7] = [
    "bos_token",
    "eos_token",
    "unk_token",
    "sep_token",
    "pad_token",
    "cls_token",
    "mask_token",
];

/// A tokenizer with its chat template and end-of-turn tokens.
pub struct ChatTokenizer {
    tokenizer: tokenizers::Tokenizer,
    env: Environment<'static>,
    /// The template's lines, to quote one in an error.
    source: String,
    special: Vec<(String, String)>,
    /// Token ids that end a generation: the tokenizer's `eos_token` first (the end of a
    /// turn, which a training target ends with), then `generation_config.json`'s.
    pub eos_ids: Vec<i64>,
}

fn config_error(path: &Path, message: impl std::fmt::Display) -> Error {
    Error::Config(format!("{}: {message}", path.display()))
}

impl ChatTokenizer {
    /// Loads `tokenizer.json`, `tokenizer_config.json`, the chat template and
    /// `generation_config.json` (when present) from `dir`.
    pub fn load(dir: &Path) -> Result<ChatTokenizer> {
        let path = dir.join("tokenizer.json");
        let tokenizer =
            tokenizers::Tokenizer::from_file(&path).map_err(|err| config_error(&path, err))?;
        let config_path = dir.join("tokenizer_config.json");
        let config = read_json(&config_path)?;
        let token = |key: &str| -> Option<String> {
            match &config[key] {
                serde_json::Value::String(s) => Some(s.clone()),
                value => value["content"].as_str().map(str::to_owned),
            }
        };
        let template_path = dir.join("chat_template.jinja");
        let template = match std::fs::read_to_string(&template_path) {
            Ok(template) => template,
            Err(_) => config["chat_template"]
                .as_str()
                .map(str::to_owned)
                .ok_or_else(|| {
                    config_error(
                        dir,
                        "no chat template (chat_template.jinja or tokenizer_config.json)",
                    )
                })?,
        };
        let special: Vec<(String, String)> = SPECIAL_TOKENS
            .iter()
            .filter_map(|k| token(k).map(|v| ((*k).to_owned(), v)))
            .collect();
        let mut eos_ids: Vec<i64> = token("eos_token")
            .and_then(|t| tokenizer.token_to_id(&t))
            .map(|id| vec![i64::from(id)])
            .unwrap_or_default();
        let generation_path = dir.join("generation_config.json");
        if generation_path.is_file() {
            let generation = read_json(&generation_path)?;
            for id in eos_list(&generation["eos_token_id"])
                .map_err(|m| config_error(&generation_path, format!("eos_token_id: {m}")))?
            {
                if !eos_ids.contains(&id) {
                    eos_ids.push(id);
                }
            }
        }
        Ok(ChatTokenizer {
            tokenizer,
            env: environment(&template)?,
            source: template,
            special,
            eos_ids,
        })
    }

    /// The prompt text for `messages`, ending with the assistant's turn when asked.
    pub fn apply_chat_template(
        &self,
        messages: &[Message],
        add_generation_prompt: bool,
    ) -> Result<String> {
        let messages = serde_json::to_value(messages)
            .map_err(|err| Error::Config(format!("chat messages: {err}")))?;
        self.render(&messages, add_generation_prompt, &serde_json::Map::new())
    }

    /// The template rendered with `messages` (any JSON list of message objects, as
    /// transformers takes them) and `extra` variables (`enable_thinking`, `date_string`,
    /// ...), as transformers' `apply_chat_template(..., tokenize=False)` renders it.
    pub fn render(
        &self,
        messages: &serde_json::Value,
        add_generation_prompt: bool,
        extra: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<String> {
        let template = self
            .env
            .get_template("chat")
            .map_err(|err| self.template_error(&err))?;
        let mut context: Vec<(String, Value)> = vec![
            ("messages".to_owned(), Value::from_serialize(messages)),
            ("tools".to_owned(), Value::from(())),
            ("documents".to_owned(), Value::from(())),
            (
                "add_generation_prompt".to_owned(),
                Value::from(add_generation_prompt),
            ),
        ];
        for (k, v) in &self.special {
            context.push((k.clone(), Value::from(v.as_str())));
        }
        for (k, v) in extra {
            context.push((k.clone(), Value::from_serialize(v)));
        }
        let context: Value = context.into_iter().collect();
        template
            .render(context)
            .map_err(|err| self.template_error(&err))
    }

    /// A template error with its line number and the line.
    fn template_error(&self, err: &minijinja::Error) -> Error {
        let detail = err.detail().map_or(String::new(), |d| format!(": {d}"));
        let message = format!("{}{detail}", err.kind());
        match err.line() {
            Some(line) => {
                let text = self
                    .source
                    .lines()
                    .nth(line.saturating_sub(1))
                    .unwrap_or_default()
                    .trim();
                Error::Config(format!(
                    "chat template line {line}: {message} (in `{text}`)"
                ))
            }
            None => Error::Config(format!("chat template: {message}")),
        }
    }

    /// Token ids of `text` (special tokens written in the text are recognised; none added).
    pub fn encode(&self, text: &str) -> Result<Vec<i64>> {
        let encoding = self
            .tokenizer
            .encode(text, false)
            .map_err(|err| Error::Config(format!("tokenizer: {err}")))?;
        Ok(encoding.get_ids().iter().map(|&id| i64::from(id)).collect())
    }

    /// The text of `ids`, special tokens left out.
    pub fn decode(&self, ids: &[i64]) -> Result<String> {
        let ids: Vec<u32> = ids.iter().map(|&id| id as u32).collect();
        self.tokenizer
            .decode(&ids, true)
            .map_err(|err| Error::Config(format!("tokenizer: {err}")))
    }

    /// The tokens of the vocabulary, added (special) tokens included.
    pub fn vocab_size(&self) -> usize {
        self.tokenizer.get_vocab_size(true)
    }

    /// The id of a token of the vocabulary (special tokens included).
    pub fn token_id(&self, token: &str) -> Option<i64> {
        self.tokenizer.token_to_id(token).map(i64::from)
    }
}

fn read_json(path: &Path) -> Result<serde_json::Value> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|err| config_error(path, err))
}

/// `eos_token_id`: absent, an id, or a list of ids.
fn eos_list(value: &serde_json::Value) -> std::result::Result<Vec<i64>, String> {
    match value {
        serde_json::Value::Null => Ok(Vec::new()),
        serde_json::Value::Number(n) => n
            .as_i64()
            .map(|id| vec![id])
            .ok_or_else(|| format!("`{n}` is not a token id")),
        serde_json::Value::Array(items) => items
            .iter()
            .map(|v| v.as_i64().ok_or_else(|| format!("`{v}` is not a token id")))
            .collect(),
        other => Err(format!("`{other}` is not an id or a list of ids")),
    }
}

/// transformers' `{% generation %}` ... `{% endgeneration %}` (which marks the assistant's
/// tokens for its masks) as a block that always renders, whitespace control kept.
fn without_generation_tags(template: &str) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find("{%") {
        let Some(len) = rest[start..].find("%}") else {
            break;
        };
        let tag = &rest[start..start + len + 2];
        let inner = &tag[2..tag.len() - 2];
        let word = inner.trim_matches(|c: char| c == '-' || c == '+' || c.is_whitespace());
        out.push_str(&rest[..start]);
        let replacement = match word {
            "generation" => Some("if true"),
            "endgeneration" => Some("endif"),
            _ => None,
        };
        match replacement {
            Some(r) => out.push_str(&tag.replacen(word, r, 1)),
            None => out.push_str(tag),
        }
        rest = &rest[start + len + 2..];
    }
    out.push_str(rest);
    out
}

/// The environment transformers' renderer gives a template (see the module doc).
fn environment(template: &str) -> Result<Environment<'static>> {
    let mut env = Environment::new();
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    env.set_unknown_method_callback(minijinja_contrib::pycompat::unknown_method_callback);
    env.add_function(
        "raise_exception",
        |message: String| -> std::result::Result<Value, minijinja::Error> {
            Err(minijinja::Error::new(ErrorKind::InvalidOperation, message))
        },
    );
    env.add_function("strftime_now", |format: String| -> String {
        chrono::Local::now().format(&format).to_string()
    });
    env.add_filter("tojson", tojson);
    let source = without_generation_tags(template);
    env.add_template_owned("chat", source).map_err(|err| {
        let line = err.line().unwrap_or(0);
        let text = template
            .lines()
            .nth(line.saturating_sub(1))
            .unwrap_or_default()
            .trim();
        let detail = err.detail().map_or(String::new(), |d| format!(": {d}"));
        Error::Config(format!(
            "chat template line {line}: {}{detail} (in `{text}`)",
            err.kind()
        ))
    })?;
    Ok(env)
}

/// Python's `json.dumps(value, ensure_ascii=False, indent=indent)`, as transformers'
/// `tojson` calls it.
#[expect(
    clippy::needless_pass_by_value,
    reason = "minijinja hands a filter its keyword arguments by value"
)]
fn tojson(value: &Value, kwargs: Kwargs) -> std::result::Result<Value, minijinja::Error> {
    let indent: Option<usize> = kwargs.get("indent")?;
    let _: Option<bool> = kwargs.get("ensure_ascii")?;
    kwargs.assert_all_used()?;
    let mut out = String::new();
    write_json(&mut out, value, indent, 0)?;
    Ok(Value::from_safe_string(out))
}

fn write_json(
    out: &mut String,
    value: &Value,
    indent: Option<usize>,
    depth: usize,
) -> std::result::Result<(), minijinja::Error> {
    let item_sep = if indent.is_some() { "," } else { ", " };
    let newline = |out: &mut String, depth: usize| {
        if let Some(n) = indent {
            out.push('\n');
            out.push_str(&" ".repeat(n * depth));
        }
    };
    match value.kind() {
        ValueKind::Undefined | ValueKind::None => out.push_str("null"),
        ValueKind::Bool => out.push_str(if value.is_true() { "true" } else { "false" }),
        ValueKind::Number => {
            if value.is_integer() {
                let _ = write!(out, "{value}");
            } else {
                let f = f64::try_from(value.clone())?;
                if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e16 {
                    let _ = write!(out, "{f:.1}");
                } else {
                    let _ = write!(out, "{f}");
                }
            }
        }
        ValueKind::String => write_string(out, value.as_str().unwrap_or_default()),
        ValueKind::Seq | ValueKind::Iterable => {
            let items: Vec<Value> = value.try_iter()?.collect();
            if items.is_empty() {
                out.push_str("[]");
                return Ok(());
            }
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(item_sep);
                }
                newline(out, depth + 1);
                write_json(out, item, indent, depth + 1)?;
            }
            newline(out, depth);
            out.push(']');
        }
        ValueKind::Map => {
            let keys: Vec<Value> = value.try_iter()?.collect();
            if keys.is_empty() {
                out.push_str("{}");
                return Ok(());
            }
            out.push('{');
            for (i, key) in keys.iter().enumerate() {
                if i > 0 {
                    out.push_str(item_sep);
                }
                newline(out, depth + 1);
                write_string(out, &key.to_string());
                out.push_str(": ");
                write_json(out, &value.get_item(key)?, indent, depth + 1)?;
            }
            newline(out, depth);
            out.push('}');
        }
        other => {
            return Err(minijinja::Error::new(
                ErrorKind::InvalidOperation,
                format!("tojson cannot write a value of kind {other:?}"),
            ));
        }
    }
    Ok(())
}

/// A JSON string as Python writes it with `ensure_ascii=False`.
fn write_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(template: &str, context: Value) -> std::result::Result<String, String> {
        let env = environment(template).map_err(|e| e.to_string())?;
        env.get_template("chat")
            .and_then(|t| t.render(context))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn tojson_writes_what_python_json_dumps_writes() {
        let value = Value::from_serialize(serde_json::json!({
            "name": "add", "b": [1, 2.0, true, null], "text": "<a & 'b'>\n\"é\"", "empty": {}
        }));
        // serde_json's map keeps key order only with preserve_order: compare parsed forms
        // for the structure, and the exact bytes on a one-key map.
        let text = render(
            "{{ v | tojson }}",
            minijinja::context! { v => value.clone() },
        )
        .expect("renders");
        assert!(text.contains("\"b\": [1, 2.0, true, null]"), "{text}");
        assert!(
            text.contains("\"text\": \"<a & 'b'>\\n\\\"é\\\"\""),
            "{text}"
        );
        assert!(text.contains("\"empty\": {}"), "{text}");
        let one = Value::from_serialize(serde_json::json!({"a": [1, {"b": "c"}]}));
        assert_eq!(
            render(
                "{{ v | tojson(indent=2) }}",
                minijinja::context! { v => one }
            )
            .expect("renders"),
            "{\n  \"a\": [\n    1,\n    {\n      \"b\": \"c\"\n    }\n  ]\n}"
        );
    }

    #[test]
    fn python_methods_namespaces_and_generation_tags_render() {
        let template = "{%- set ns = namespace(last=0) %}\
            {%- for m in messages %}{%- if m.content.startswith('x') %}{%- set ns.last = loop.index %}{%- endif %}{%- endfor %}\
            {{ ns.last }}|{% generation %}{{ messages[0].content.strip().split(' ')[1] }}{% endgeneration %}";
        let messages = Value::from_serialize(serde_json::json!([
            {"content": " a b "}, {"content": "xyz"}, {"content": "q"}
        ]));
        assert_eq!(
            render(template, minijinja::context! { messages => messages }).expect("renders"),
            "2|b"
        );
    }

    #[test]
    fn errors_name_the_template_line() {
        let err = render(
            "line one\n{{ raise_exception('no tools here') }}",
            minijinja::context! {},
        )
        .expect_err("raises");
        assert!(err.contains("no tools here"), "{err}");
        let Err(err) = environment("ok\n{% frobnicate %}\n") else {
            panic!("an unknown tag is refused");
        };
        let text = err.to_string();
        assert!(
            text.contains("chat template line 2") && text.contains("{% frobnicate %}"),
            "{text}"
        );
    }

    #[test]
    fn eos_token_id_is_an_id_or_a_list() {
        assert_eq!(eos_list(&serde_json::json!(5)), Ok(vec![5]));
        assert_eq!(eos_list(&serde_json::json!([7, 9])), Ok(vec![7, 9]));
        assert_eq!(eos_list(&serde_json::Value::Null), Ok(vec![]));
        assert!(eos_list(&serde_json::json!("x")).is_err());
    }
}
