//! The agent: model clients, the staged solve loop, the contest client and trajectories.
//!
//! - [`model`]: the one model trait ([`model::ChatModel`]) and its plain data types.
//! - [`client`]: the OpenAI-compatible HTTP client ([`client::OpenAiClient`]), the only
//!   module that names reqwest.
//! - [`solve`]: the loop ([`solve::solve`] runs one [`solve::Episode`]), with the revert
//!   rule ([`solve::revision_kept`]).
//! - [`step`]: what the loop records ([`step::Step`] with its [`step::Signals`], the
//!   [`step::Outcome`]) and who receives it ([`step::Observer`]).
//! - [`runner`]: the loop's view of running code ([`runner::Runner`]) and of submitting
//!   ([`runner::Submitter`]).
//! - [`pipeline`]: the stages ([`pipeline::Stage`]), presets and files
//!   ([`pipeline::Pipeline`]), budgets ([`pipeline::Budget`]); [`budget`] counts spending.
//! - [`play`]: live contest play as a team through the contest server's API
//!   ([`play::play`], what `agent play` runs), with its pure strategy
//!   ([`play::strategy`]).
//! - [`series`]: several problems in one run folder (what `agent solve` runs).
//! - [`trajectory`]: run folders: the manifest, one JSON line per step, resuming.
//! - [`report`]: a run folder summarised, a trajectory made readable.
//! - [`task`]: the problem as text and samples ([`task::Task`]).
//! - [`local`]: the offline runner and judge over `judge::workbench`.
//! - [`fake`]: test doubles (a scripted model, a runner without a sandbox).
//! - [`extract`]: code out of a reply; [`prompt`]: the prompts.
//! - [`error`]: [`Error`], what stops the agent itself. The boundaries with their own
//!   failures have their own types beside them: [`model::ModelError`],
//!   [`client::ConfigError`], [`client::contest::ContestError`], [`play::PlayError`] and
//!   [`play::package::PackageError`].
//!
//! The binary (`src/main.rs`) adds `agent demo` (`src/demo/`) and `agent evaluate`
//! (`src/evaluate/`), orchestration over this library that is not part of it.

pub mod budget;
pub mod client;
mod error;
pub mod extract;
pub mod fake;
pub mod local;
pub mod model;
pub mod pipeline;
pub mod play;
pub mod prompt;
pub mod report;
pub mod runner;
pub mod series;
pub mod solve;
pub mod step;
pub mod task;
pub mod trajectory;

pub use error::{Error, Result};
