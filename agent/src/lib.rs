//! The agent: model clients, the staged solve loop, the contest client and trajectories.
//!
//! - [`model`]: the one model trait ([`model::ChatModel`]) and its plain data types.

pub mod model;
