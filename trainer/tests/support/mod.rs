//! What the training-stage tests share: the easy set's folder, `trainer train` on it,
//! and a run folder's JSON-lines files.

// Each test binary that includes this module uses some of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The easy set (`problems/easy`).
pub(crate) fn easy() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../problems/easy")
}

/// `trainer train --problems <easy set> --model MODEL --out OUT --config CONFIG`.
pub(crate) fn train(model: &Path, out: &Path, config: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_trainer"))
        .arg("train")
        .arg("--problems")
        .arg(easy())
        .arg("--model")
        .arg(model)
        .arg("--out")
        .arg(out)
        .arg("--config")
        .arg(config)
        .output()
        .expect("trainer runs")
}

/// The JSON lines of `path`.
pub(crate) fn lines(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}
