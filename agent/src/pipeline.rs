//! The stage pipeline and the budgets: what the loop does, and how much it may spend.
//!
//! A [`Pipeline`] is a list of [`Stage`]s and a few numbers; two presets (`full` for
//! strong models, `short` for small ones) and any YAML or JSON file with the same fields
//! (unknown fields are errors, so a typo does not silently run the default):
//!
//! ```yaml
//! stages: [restate, approaches, code, tests, check, submit]
//! language: cpp          # or python3; absent: the model chooses
//! stress_inputs: 20      # generated inputs per stress run
//! max_inputs: 2          # maximum-size inputs, run for time only
//! debug_rounds: 3        # revisions per check before submitting anyway
//! worked_example: false  # one solved example problem before the problem (small models)
//! sampling: { temperature: 0.7, top_p: 1.0, max_tokens: 1024 }
//! budget: { model_calls: 24, tokens: 60000, wall_seconds: 900, submissions: 3 }
//! ```

use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// One stage of the loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Restate the problem, with the samples' reasoning.
    Restate,
    /// Propose approaches with their complexity against the limits, and pick one.
    Approaches,
    /// Write the code.
    Code,
    /// Write a random input generator and a brute force; check the brute force on the
    /// samples, validate the generated inputs, make the own tests.
    Tests,
    /// Run the samples and the own tests (stress test and maximum-size inputs); on a
    /// failure, debug with the smallest failing case (the revert rule holds). Without a
    /// `tests` stage before it, only the samples: hence its other name, `samples`.
    #[serde(alias = "samples")]
    Check,
    /// Submit and read the verdict; on a rejection, back to `check` while the budget
    /// lasts.
    Submit,
}

impl Stage {
    /// Its name in files and records.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Restate => "restate",
            Stage::Approaches => "approaches",
            Stage::Code => "code",
            Stage::Tests => "tests",
            Stage::Check => "check",
            Stage::Submit => "submit",
        }
    }
}

/// Sampling settings the pipeline asks with (the rest of `model::Sampling` is fixed:
/// one completion, logprobs asked, the seed from the run).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SamplingSettings {
    /// Softmax temperature.
    pub temperature: f32,
    /// Nucleus mass.
    pub top_p: f32,
    /// The most tokens per reply.
    pub max_tokens: u32,
}

impl Default for SamplingSettings {
    fn default() -> Self {
        Self {
            temperature: 0.7,
            top_p: 1.0,
            max_tokens: 1024,
        }
    }
}

/// What one problem, or a whole run, may spend. `None` is no limit.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Budget {
    /// Model calls.
    pub model_calls: Option<u64>,
    /// Tokens (prompt and completion).
    pub tokens: Option<u64>,
    /// Wall time in seconds.
    pub wall_seconds: Option<u64>,
    /// Submissions.
    pub submissions: Option<u64>,
}

impl Budget {
    /// The wall time, when limited.
    pub fn wall(&self) -> Option<Duration> {
        self.wall_seconds.map(Duration::from_secs)
    }
}

/// The stages and their settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pipeline {
    /// The preset's name, or the file it came from.
    #[serde(default)]
    pub name: String,
    /// The stages, in order.
    pub stages: Vec<Stage>,
    /// The language to write in (`cpp`, `python3`); `None` lets the model choose.
    #[serde(default)]
    pub language: Option<String>,
    /// Generated inputs per stress run.
    #[serde(default = "default_stress")]
    pub stress_inputs: u32,
    /// Maximum-size inputs (run for time only).
    #[serde(default = "default_max_inputs")]
    pub max_inputs: u32,
    /// Revisions per check before going on.
    #[serde(default = "default_debug_rounds")]
    pub debug_rounds: u32,
    /// Submit a program that fails a test of its own (the samples, trusted own tests
    /// or maximum-size inputs) once the debug rounds are spent. On by default: offline the
    /// verdict is a signal worth having; live play may turn it off to save penalty.
    #[serde(default = "default_true")]
    pub submit_failing: bool,
    /// Show one worked example (a small problem and its correct program,
    /// `prompt::worked_example`) before the problem: one-shot prompting, which small models
    /// need to keep to the input and output format. Off by default.
    #[serde(default)]
    pub worked_example: bool,
    /// Sampling settings.
    #[serde(default)]
    pub sampling: SamplingSettings,
    /// The per-problem budget.
    #[serde(default = "default_problem_budget")]
    pub budget: Budget,
}

fn default_true() -> bool {
    true
}
fn default_stress() -> u32 {
    20
}
fn default_max_inputs() -> u32 {
    2
}
fn default_debug_rounds() -> u32 {
    3
}
fn default_problem_budget() -> Budget {
    Budget {
        model_calls: Some(24),
        tokens: Some(100_000),
        wall_seconds: Some(900),
        submissions: Some(3),
    }
}

impl Pipeline {
    /// The full loop, for strong models.
    pub fn full() -> Pipeline {
        Pipeline {
            name: "full".to_owned(),
            stages: vec![
                Stage::Restate,
                Stage::Approaches,
                Stage::Code,
                Stage::Tests,
                Stage::Check,
                Stage::Submit,
            ],
            language: None,
            stress_inputs: default_stress(),
            max_inputs: default_max_inputs(),
            debug_rounds: default_debug_rounds(),
            submit_failing: true,
            worked_example: false,
            sampling: SamplingSettings::default(),
            budget: default_problem_budget(),
        }
    }

    /// The short loop (code, samples, submit), for small models.
    pub fn short() -> Pipeline {
        Pipeline {
            name: "short".to_owned(),
            stages: vec![Stage::Code, Stage::Check, Stage::Submit],
            debug_rounds: 1,
            budget: Budget {
                model_calls: Some(6),
                tokens: Some(20_000),
                wall_seconds: Some(300),
                submissions: Some(2),
            },
            ..Pipeline::full()
        }
    }

    /// `full`, `short`, or a YAML/JSON file.
    pub fn named(name_or_file: &str) -> Result<Pipeline> {
        match name_or_file {
            "full" => Ok(Pipeline::full()),
            "short" => Ok(Pipeline::short()),
            file => Pipeline::load(Path::new(file)),
        }
    }

    /// A pipeline file (YAML, of which JSON is a subset).
    pub fn load(path: &Path) -> Result<Pipeline> {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let mut pipeline: Pipeline = serde_yaml::from_str(&text).map_err(|err| Error::Format {
            path: path.to_path_buf(),
            reason: format!("not a pipeline: {err}"),
        })?;
        if pipeline.name.is_empty() {
            pipeline.name = path.display().to_string();
        }
        pipeline.check().map_err(|reason| Error::Format {
            path: path.to_path_buf(),
            reason,
        })?;
        Ok(pipeline)
    }

    /// The rules a pipeline keeps: at least one stage; `code` before `tests`, `check` and
    /// `submit`; a known language.
    pub fn check(&self) -> Result<(), String> {
        let at = |s: Stage| self.stages.iter().position(|x| *x == s);
        let Some(code) = at(Stage::Code) else {
            return Err("stages: `code` is missing (nothing to check or submit without it)".into());
        };
        for later in [Stage::Tests, Stage::Check, Stage::Submit] {
            if at(later).is_some_and(|i| i < code) {
                return Err(format!("stages: `{}` comes before `code`", later.name()));
            }
        }
        if let Some(lang) = &self.language
            && !crate::extract::LANGUAGES.contains(&lang.as_str())
        {
            return Err(format!(
                "language: `{lang}` is not one of {}",
                crate::extract::LANGUAGES.join(", ")
            ));
        }
        Ok(())
    }

    /// Whether a stage is in the pipeline.
    pub fn has(&self, stage: Stage) -> bool {
        self.stages.contains(&stage)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_keep_the_rules() {
        assert_eq!(Pipeline::full().check(), Ok(()));
        assert_eq!(Pipeline::short().check(), Ok(()));
        assert_eq!(
            Pipeline::short().stages,
            [Stage::Code, Stage::Check, Stage::Submit]
        );
    }

    #[test]
    fn a_file_with_defaults_and_its_mistakes() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("p.yaml");
        std::fs::write(
            &path,
            "stages: [code, check]\nlanguage: python3\nbudget: {tokens: 5}\n",
        )
        .expect("write");
        let p = Pipeline::load(&path).expect("loads");
        assert_eq!(p.stages, [Stage::Code, Stage::Check]);
        assert_eq!(p.language.as_deref(), Some("python3"));
        assert_eq!(p.budget.tokens, Some(5));
        assert_eq!(p.budget.model_calls, None);
        assert_eq!(p.stress_inputs, 20);

        std::fs::write(&path, "stages: [code, samples, submit]\n").expect("write");
        let p = Pipeline::load(&path).expect("loads");
        assert_eq!(p.stages, Pipeline::short().stages, "`samples` is `check`");

        std::fs::write(&path, "stages: [check, code]\n").expect("write");
        let err = Pipeline::load(&path).unwrap_err().to_string();
        assert!(err.contains("`check` comes before `code`"), "{err}");
        std::fs::write(&path, "stages: [code]\nlanguag: cpp\n").expect("write");
        let err = Pipeline::load(&path).unwrap_err().to_string();
        assert!(err.contains("unknown field `languag`"), "{err}");
        std::fs::write(&path, "stages: [code, review]\n").expect("write");
        let err = Pipeline::load(&path).unwrap_err().to_string();
        assert!(err.contains("review"), "{err}");
        std::fs::write(&path, "stages: [code]\nlanguage: cobol\n").expect("write");
        let err = Pipeline::load(&path).unwrap_err().to_string();
        assert!(err.contains("`cobol` is not one of cpp, python3"), "{err}");
        let err = Pipeline::named("/nonexistent.yaml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("/nonexistent.yaml"), "{err}");
    }
}
