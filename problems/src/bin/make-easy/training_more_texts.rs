//! The fourth batch of training tasks, of the strings and lists families: new solvers, each a distinct
//! beginner computation that no other task of the set (training, validation or held out)
//! computes, for more breadth of distinct solvers in training.

use crate::variants::{Layout, Task};

/// The tasks with their layouts.
pub(crate) fn tasks() -> Vec<(Task, Vec<Layout>)> {
    vec![]
}
