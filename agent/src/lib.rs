//! The agent: model clients, the staged solve loop, the contest client and trajectories.
//!
//! - [`model`]: the one model trait ([`model::ChatModel`]) and its plain data types.
//! - [`client`]: the OpenAI-compatible HTTP client ([`client::OpenAiClient`]), the only
//!   module that names reqwest.

pub mod client;
pub mod model;
