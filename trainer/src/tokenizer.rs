//! The tokenizer (`tokenizer.json`, through the `tokenizers` crate) and the chat template
//! (`chat_template.jinja`, or `chat_template` inside `tokenizer_config.json`), rendered
//! with minijinja as the model's own template says.

use std::path::Path;

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

/// A tokenizer with its chat template and end-of-turn tokens.
pub struct ChatTokenizer {
    tokenizer: tokenizers::Tokenizer,
    template: String,
    bos_token: String,
    eos_token: String,
    /// Token ids that end a turn (the EOS token).
    pub eos_ids: Vec<i64>,
}

fn config_error(path: &Path, message: impl std::fmt::Display) -> Error {
    Error::Config(format!("{}: {message}", path.display()))
}

impl ChatTokenizer {
    /// Loads `tokenizer.json`, `tokenizer_config.json` and the chat template from `dir`.
    pub fn load(dir: &Path) -> Result<ChatTokenizer> {
        let path = dir.join("tokenizer.json");
        let tokenizer =
            tokenizers::Tokenizer::from_file(&path).map_err(|err| config_error(&path, err))?;
        let config_path = dir.join("tokenizer_config.json");
        let text = std::fs::read_to_string(&config_path).map_err(|source| Error::Io {
            path: config_path.clone(),
            source,
        })?;
        let config: serde_json::Value =
            serde_json::from_str(&text).map_err(|err| config_error(&config_path, err))?;
        let token = |key: &str| -> String {
            match &config[key] {
                serde_json::Value::String(s) => s.clone(),
                value => value["content"].as_str().unwrap_or_default().to_owned(),
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
        let eos_token = token("eos_token");
        let eos_ids = tokenizer
            .token_to_id(&eos_token)
            .map(|id| vec![i64::from(id)])
            .unwrap_or_default();
        Ok(ChatTokenizer {
            tokenizer,
            template,
            bos_token: token("bos_token"),
            eos_token,
            eos_ids,
        })
    }

    /// The prompt text for `messages`, ending with the assistant's turn when asked.
    pub fn apply_chat_template(
        &self,
        messages: &[Message],
        add_generation_prompt: bool,
    ) -> Result<String> {
        let mut env = minijinja::Environment::new();
        env.add_function(
            "raise_exception",
            |message: String| -> std::result::Result<String, minijinja::Error> {
                Err(minijinja::Error::new(
                    minijinja::ErrorKind::InvalidOperation,
                    message,
                ))
            },
        );
        env.add_template("chat", &self.template)
            .map_err(|err| Error::Config(format!("chat template: {err}")))?;
        let template = env
            .get_template("chat")
            .map_err(|err| Error::Config(format!("chat template: {err}")))?;
        template
            .render(minijinja::context! {
                messages => messages,
                add_generation_prompt => add_generation_prompt,
                bos_token => self.bos_token,
                eos_token => self.eos_token,
            })
            .map_err(|err| Error::Config(format!("chat template: {err}")))
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
}
