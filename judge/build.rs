//! Builds the sandbox supervisor (the `judge-supervisor` package in `judge/supervisor/`)
//! and hands it to the library, which embeds it (`judge::sandbox::supervisor`): every
//! program that links the judge library (the `judge` binary, the agent, the trainer, their
//! tests, a user's own crate) carries the supervisor of its own protocol version and needs
//! no path set by hand.
//!
//! A library cannot depend on a binary through Cargo (artifact dependencies are unstable),
//! so this runs a nested `cargo build -p judge-supervisor` with its own target folder
//! under `OUT_DIR`, offline (the outer build has already fetched its three dependencies:
//! serde, serde_json, libc), with the same profile as the outer build. The nested cargo
//! shares the outer build's job slots through the inherited jobserver.
//!
//! The package also has a library target, the protocol (`judge_supervisor::protocol`),
//! which the judge library depends on as an ordinary dependency: building the binary
//! compiles it too, so the embedded supervisor and the host speak the same types. Cargo
//! reruns this script when anything under `judge/supervisor/src` changes (a folder given
//! to `rerun-if-changed` is scanned whole), the binary's and the protocol's files alike.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let manifest_dir = PathBuf::from(
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"),
    );
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let supervisor = manifest_dir.join("supervisor");
    // The whole source folder: the binary (main.rs) and its library (the protocol).
    for path in ["src", "Cargo.toml"] {
        println!("cargo:rerun-if-changed={}", supervisor.join(path).display());
    }
    println!(
        "cargo:rerun-if-changed={}",
        manifest_dir.join("../Cargo.lock").display()
    );
    let release = std::env::var("PROFILE").is_ok_and(|p| p == "release");
    let target_dir = out_dir.join("supervisor-target");
    let profile_dir = target_dir.join(if release { "release" } else { "debug" });
    // The nested cargo judges its binary fresh by modification times, so a source put
    // back with an older time than the last build (seen: a release trainer that embedded
    // a supervisor one protocol field behind its own source) would be kept. The sources'
    // contents decide instead: when they differ from the last build's, its fingerprints
    // go and the binary is built again.
    let stamp = profile_dir.join("judge-supervisor.sources");
    let digest = sources_digest(&supervisor, &manifest_dir.join("../Cargo.lock"));
    if std::fs::read_to_string(&stamp).ok().as_deref() != Some(digest.as_str()) {
        forget_built(&profile_dir.join(".fingerprint"));
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args([
        "build",
        "--offline",
        "--quiet",
        "-p",
        "judge-supervisor",
        "--bin",
        "judge-supervisor",
    ])
    .arg("--manifest-path")
    .arg(supervisor.join("Cargo.toml"))
    .arg("--target-dir")
    .arg(&target_dir);
    if release {
        cmd.arg("--release");
    }
    // The library embeds the binary: no debug info (9 MiB of it in a debug build).
    cmd.env("CARGO_PROFILE_DEV_STRIP", "debuginfo")
        .env("CARGO_PROFILE_RELEASE_STRIP", "debuginfo");
    // The outer build's wrappers (clippy-driver under `cargo clippy`) and target settings
    // are not the supervisor's: it is built with plain rustc for the host.
    for var in [
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET",
        "CARGO_BUILD_TARGET_DIR",
        "CLIPPY_ARGS",
        "CARGO_PRIMARY_PACKAGE",
    ] {
        cmd.env_remove(var);
    }
    let status = cmd
        .status()
        .expect("cannot run cargo to build judge-supervisor");
    assert!(
        status.success(),
        "building judge-supervisor failed ({status}); see the output above"
    );
    let built = profile_dir.join("judge-supervisor");
    std::fs::write(&stamp, &digest)
        .unwrap_or_else(|err| panic!("cannot write {}: {err}", stamp.display()));
    let dest = out_dir.join("judge-supervisor");
    std::fs::copy(&built, &dest).unwrap_or_else(|err| {
        panic!(
            "cannot copy {} to {}: {err}",
            built.display(),
            dest.display()
        )
    });
}

/// A digest of the supervisor's sources (every file under `src/`, its `Cargo.toml`) and
/// the workspace's `Cargo.lock`, names and contents.
fn sources_digest(supervisor: &Path, lock: &Path) -> String {
    use std::hash::{Hash, Hasher};
    let mut files = vec![supervisor.join("Cargo.toml"), lock.to_path_buf()];
    let mut dirs = vec![supervisor.join("src")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for file in &files {
        file.hash(&mut hasher);
        std::fs::read(file).unwrap_or_default().hash(&mut hasher);
    }
    format!("{:016x}", hasher.finish())
}

/// Removes the nested build's fingerprints of `judge-supervisor` (its binary and its
/// library), so that the next `cargo build` compiles both again.
fn forget_built(fingerprints: &Path) {
    for entry in std::fs::read_dir(fingerprints)
        .into_iter()
        .flatten()
        .flatten()
    {
        if entry
            .file_name()
            .to_string_lossy()
            .starts_with("judge-supervisor-")
        {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}
