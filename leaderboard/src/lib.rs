//! The `leaderboard` crate (being written).
