//! The supervisor's protocol, as a library that both sides compile: the supervisor
//! binary (`src/main.rs`, which runs inside the sandbox) reads a [`protocol::Job`] and
//! prints [`protocol::Line`]s, and the judge library (`judge::sandbox`, on the host)
//! writes the job and parses the lines with the same types.
//!
//! The library is std and serde only (the binary adds libc and serde_json), so the judge
//! library can depend on it without pulling anything of the sandbox's into the host.

pub mod protocol;
