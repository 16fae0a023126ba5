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

use std::path::PathBuf;
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
    let built = target_dir
        .join(if release { "release" } else { "debug" })
        .join("judge-supervisor");
    let dest = out_dir.join("judge-supervisor");
    std::fs::copy(&built, &dest).unwrap_or_else(|err| {
        panic!(
            "cannot copy {} to {}: {err}",
            built.display(),
            dest.display()
        )
    });
}
