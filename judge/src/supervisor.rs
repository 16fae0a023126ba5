//! The sandbox supervisor, embedded in the library.
//!
//! `judge/build.rs` builds the `judge-supervisor` package and this module carries its
//! bytes, so a program that links the judge library (the `judge` binary, the agent, the
//! trainer, their tests, a user's own crate) finds a supervisor of its own protocol
//! version with nothing set by hand. [`install`] writes it once into the cache folder,
//! under the first 16 hex digits of its SHA-256, where both sandboxes mount it read-only.
//!
//! Lookup order of [`crate::sandbox::SandboxConfig::discover`]: `JUDGE_SUPERVISOR` when
//! set (a supervisor built elsewhere), else the embedded one installed here.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use sha2::Digest;

use crate::{Error, Result};

/// The supervisor binary built for this library.
const BINARY: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/judge-supervisor"));

/// The first 16 hex digits of the embedded supervisor's SHA-256: its folder name.
pub fn digest() -> String {
    hex::encode(sha2::Sha256::digest(BINARY))[..16].to_owned()
}

/// Writes the embedded supervisor to `dir/<digest>/judge-supervisor` (mode 0755) unless
/// a file of the same size is there, and returns its path. The write goes to a temporary
/// file in the same folder that is renamed into place, so concurrent processes never see
/// a partial binary.
pub fn install(dir: &Path) -> Result<PathBuf> {
    let folder = dir.join(digest());
    let path = folder.join("judge-supervisor");
    if std::fs::metadata(&path).is_ok_and(|meta| meta.len() == BINARY.len() as u64) {
        return Ok(path);
    }
    let io = |what: &'static str, at: &Path| {
        let at = at.to_path_buf();
        move |source| Error::Io {
            what,
            path: at,
            source,
        }
    };
    std::fs::create_dir_all(&folder).map_err(io("cannot create", &folder))?;
    let mut tmp =
        tempfile::NamedTempFile::new_in(&folder).map_err(io("cannot write in", &folder))?;
    tmp.write_all(BINARY)
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(io("cannot write", tmp.path()))?;
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755))
        .map_err(io("cannot make executable", tmp.path()))?;
    tmp.persist(&path).map_err(|err| Error::Io {
        what: "cannot move the supervisor to",
        path: path.clone(),
        source: err.error,
    })?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tests that write an executable and those that run one take turns: a file
    /// being written while another thread forks stays open for writing in that child
    /// until it execs, and running it then fails with "Text file busy" (ETXTBSY).
    static EXCLUSIVE: std::sync::Mutex<()> = std::sync::Mutex::new(());

    fn exclusive() -> std::sync::MutexGuard<'static, ()> {
        EXCLUSIVE
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    #[test]
    fn the_embedded_supervisor_is_an_elf_executable() {
        assert!(BINARY.len() > 100_000, "{} bytes", BINARY.len());
        assert_eq!(&BINARY[..4], b"\x7fELF");
    }

    #[test]
    fn install_writes_it_once_executable_and_whole() {
        let _turn = exclusive();
        let dir = tempfile::tempdir().expect("tempdir");
        let path = install(dir.path()).expect("install");
        assert_eq!(path, dir.path().join(digest()).join("judge-supervisor"));
        assert_eq!(std::fs::read(&path).expect("read"), BINARY);
        let mode = std::fs::metadata(&path)
            .expect("metadata")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o755);
        let before = std::fs::metadata(&path)
            .expect("metadata")
            .modified()
            .expect("mtime");
        assert_eq!(install(dir.path()).expect("again"), path);
        let after = std::fs::metadata(&path)
            .expect("metadata")
            .modified()
            .expect("mtime");
        assert_eq!(before, after, "a second install rewrote the file");
        let leftovers = std::fs::read_dir(path.parent().expect("folder"))
            .expect("list")
            .count();
        assert_eq!(leftovers, 1, "temporary files were left behind");
    }

    #[test]
    fn a_truncated_copy_is_replaced() {
        let _turn = exclusive();
        let dir = tempfile::tempdir().expect("tempdir");
        let path = install(dir.path()).expect("install");
        std::fs::write(&path, b"partial").expect("truncate");
        assert_eq!(install(dir.path()).expect("again"), path);
        assert_eq!(std::fs::read(&path).expect("read"), BINARY);
    }

    /// A job of this library's protocol, every field written as the host writes it, runs
    /// to its end in the embedded supervisor: a binary built from older sources (a field
    /// behind) would refuse the spec, as a stale nested build once made every episode of
    /// an evaluation a judge error.
    #[test]
    fn the_embedded_supervisor_speaks_this_librarys_protocol() {
        let _turn = exclusive();
        use judge_supervisor::protocol::{Job, JobLimits};
        let dir = tempfile::tempdir().expect("tempdir");
        let path = install(dir.path()).expect("install");
        // The test's own user: the owner of the folder it just made.
        let meta = std::fs::metadata(dir.path()).expect("stat");
        let (uid, gid) = (
            std::os::unix::fs::MetadataExt::uid(&meta),
            std::os::unix::fs::MetadataExt::gid(&meta),
        );
        let job = Job {
            uid,
            gid,
            workdir: dir.path().to_path_buf(),
            copy_in: Vec::new(),
            command: vec!["/bin/true".to_owned()],
            env: vec![("PATH".to_owned(), "/usr/bin:/bin".to_owned())],
            limits: JobLimits {
                cpu_ms: 1000,
                wall_ms: 3000,
                output_bytes: 1 << 20,
                stack_bytes: 8 << 20,
                processes: 16,
                open_files: 64,
            },
            oom_file: None,
            runs: Vec::new(),
            copy_out: None,
            discard_writes: false,
        };
        let spec = dir.path().join("job.json");
        std::fs::write(&spec, serde_json::to_string(&job).expect("json")).expect("spec");
        let out = std::process::Command::new(&path)
            .arg(&spec)
            .output()
            .expect("the supervisor starts");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{out:?}");
        assert_eq!(stdout.trim(), r#"{"done":{}}"#);
    }

    #[test]
    fn the_supervisor_runs_and_rejects_a_missing_spec() {
        let _turn = exclusive();
        let dir = tempfile::tempdir().expect("tempdir");
        let path = install(dir.path()).expect("install");
        let out = std::process::Command::new(&path)
            .arg(dir.path().join("no-such-spec.json"))
            .output()
            .expect("the supervisor starts");
        assert_eq!(out.status.code(), Some(3), "{out:?}");
        let line = String::from_utf8_lossy(&out.stdout);
        assert!(
            line.contains("\"error\"") && line.contains("no-such-spec.json"),
            "{line}"
        );
    }
}
