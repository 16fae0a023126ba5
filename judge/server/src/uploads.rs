//! The jury's uploaded problem packages on this host: a zip is checked and unpacked
//! ([`crate::unzip`]) before it is kept in the database by its SHA-256
//! (`Store::put_package`), and each host unpacks a kept zip into its cache folder
//! (`packages/<sha256>` under [`judge::cache_dir`]) the first time it needs it, so every
//! host sharing a PostgreSQL database has every package. A package is then loaded with
//! the judge's own loader in its author mode (`problems::load`, as `judge verify` loads
//! it), which lists every problem found, and its own submissions can be judged on this
//! host in the background ([`verify`]: `judge verify`'s check, kept in memory).

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::error::ApiError;
use crate::store::{PackageRow, Store};
use crate::unzip::{self, LIMITS};

/// Where this host unpacks uploaded packages: `packages` in the cache folder.
pub fn packages_dir() -> PathBuf {
    judge::cache_dir().join("packages")
}

/// The SHA-256 of `bytes`, in lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether `text` is a SHA-256 in lower-case hex (so it is safe as a folder name).
pub fn is_sha256(text: &str) -> bool {
    text.len() == 64
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The package's folder inside the folder a zip was unpacked to: that folder when it
/// holds `problem.yaml`, else its one subfolder when it holds nothing else.
fn root_of(dest: &Path) -> PathBuf {
    if dest.join("problem.yaml").exists() {
        return dest.to_owned();
    }
    let entries: Vec<PathBuf> = std::fs::read_dir(dest)
        .map(|it| it.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    match entries.as_slice() {
        [only] if only.is_dir() => only.clone(),
        _ => dest.to_owned(),
    }
}

/// Checks and unpacks an uploaded zip, then keeps it in the database (once per
/// SHA-256, with `actor`'s audit line): its row and the package's folder on this host.
/// A zip refused by the limits or for an unsafe entry is a 400 (413 for its size)
/// naming why, and nothing is kept.
pub async fn upload(
    store: &Store,
    contest_id: &str,
    actor: &str,
    name: &str,
    bytes: &[u8],
) -> Result<(PackageRow, PathBuf), ApiError> {
    let sha256 = sha256_hex(bytes);
    let root = unpacked_from(&sha256, bytes)
        .await
        .map_err(|e| refused(name, &e))?;
    let row = PackageRow {
        sha256,
        name: name.to_owned(),
        size: bytes.len() as i64,
        time_ms: chrono::Utc::now().timestamp_millis(),
    };
    store.put_package(contest_id, actor, &row, bytes).await?;
    Ok((row, root))
}

/// The answer for a refused zip named `name`.
fn refused(name: &str, err: &unzip::UnzipError) -> ApiError {
    let status = match err {
        unzip::UnzipError::TooLarge { .. } => http::StatusCode::PAYLOAD_TOO_LARGE,
        unzip::UnzipError::Io { .. } => http::StatusCode::INTERNAL_SERVER_ERROR,
        _ => http::StatusCode::BAD_REQUEST,
    };
    ApiError::new(status, format!("`{name}`: {err}"))
}

/// The folder of package `sha256` on this host, unpacking `bytes` there first when it
/// is not (a race with another request unpacking the same zip is harmless: the same
/// files, and the first rename wins).
async fn unpacked_from(sha256: &str, bytes: &[u8]) -> Result<PathBuf, unzip::UnzipError> {
    let dest = packages_dir().join(sha256);
    if dest.is_dir() {
        return Ok(root_of(&dest));
    }
    let bytes = bytes.to_vec();
    let target = dest.clone();
    let done = tokio::task::spawn_blocking(move || unzip::unpack(&bytes, &target, &LIMITS))
        .await
        .unwrap_or_else(|join| {
            Err(unzip::UnzipError::Io {
                path: dest.clone(),
                source: std::io::Error::other(join.to_string()),
            })
        });
    match done {
        Ok(unpacked) => Ok(unpacked.root),
        // Unpacked meanwhile by another request.
        Err(unzip::UnzipError::Io { .. }) if dest.is_dir() => Ok(root_of(&dest)),
        Err(e) => Err(e),
    }
}

/// The folder of kept package `sha256` on this host, unpacked from the database when
/// this host has not yet; 404 for a package the database does not keep.
pub async fn unpacked(store: &Store, sha256: &str) -> Result<PathBuf, ApiError> {
    let missing = || ApiError::not_found(format!("no uploaded package `{sha256}`"));
    if !is_sha256(sha256) {
        return Err(missing());
    }
    let dest = packages_dir().join(sha256);
    if dest.is_dir() {
        return Ok(root_of(&dest));
    }
    let bytes = store.package_bytes(sha256).await?.ok_or_else(missing)?;
    unpacked_from(sha256, &bytes)
        .await
        .map_err(|e| refused(sha256, &e))
}

/// A package loaded as `judge verify` loads it: the problem when it loads, and every
/// diagnostic (errors and warnings).
pub struct Loaded {
    /// The problem, when the package loads.
    pub problem: Option<problems::Problem>,
    /// Every problem found, errors first.
    pub diagnostics: Vec<problems::Diagnostic>,
    /// Why it could not be read at all (not a package's diagnostic: a file unreadable).
    pub failure: Option<String>,
}

/// Loads the package at `root` in the judge's author mode.
pub async fn load(root: PathBuf) -> Loaded {
    let loaded = tokio::task::spawn_blocking(move || problems::load(&root)).await;
    let mut res = match loaded {
        Ok(Ok((problem, warnings))) => Loaded {
            problem: Some(problem),
            diagnostics: warnings,
            failure: None,
        },
        Ok(Err(problems::Error::Invalid { diagnostics, .. })) => Loaded {
            problem: None,
            diagnostics,
            failure: None,
        },
        Ok(Err(err)) => Loaded {
            problem: None,
            diagnostics: Vec::new(),
            failure: Some(crate::error::chain(&err)),
        },
        Err(join) => Loaded {
            problem: None,
            diagnostics: Vec::new(),
            failure: Some(format!("the loader failed: {join}")),
        },
    };
    res.diagnostics
        .sort_by_key(|d| d.severity != problems::Severity::Error);
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sha256_names_a_folder_safely() {
        let sha = sha256_hex(b"abc");
        assert_eq!(
            sha,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert!(is_sha256(&sha));
        for bad in ["../x", "", &sha.to_uppercase(), &sha[1..]] {
            assert!(!is_sha256(bad), "{bad}");
        }
    }
}

/// A package's own submissions judged on this host (`judge verify`'s check: each must
/// get a verdict its `submissions/<folder>/` allows), by the package's SHA-256.
#[derive(Debug, Default)]
pub struct Verifications(std::sync::Mutex<std::collections::HashMap<String, Verifying>>);

/// Where one package's verification stands.
#[derive(Debug, Clone)]
pub enum Verifying {
    /// Judging since this time (milliseconds since the epoch).
    Running(i64),
    /// Done.
    Done(Box<judge::verify::Verification>),
    /// The judge could not run them (the package's or the sandbox's failure).
    Failed(String),
}

impl Verifications {
    /// The state of package `sha256`'s verification, if one was started.
    pub fn get(&self, sha256: &str) -> Option<Verifying> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(sha256)
            .cloned()
    }

    /// Marks package `sha256` as running unless it is: whether it was started now.
    fn start(&self, sha256: &str) -> bool {
        let mut map = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if matches!(map.get(sha256), Some(Verifying::Running(_))) {
            return false;
        }
        map.insert(
            sha256.to_owned(),
            Verifying::Running(chrono::Utc::now().timestamp_millis()),
        );
        true
    }

    fn finish(&self, sha256: &str, state: Verifying) {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(sha256.to_owned(), state);
    }
}

/// Starts judging the reference submissions of the package at `root` (SHA-256
/// `sha256`) in `sandbox` with `options`, in the background, one at a time, unless that
/// runs already; its result is [`Verifications::get`]'s.
pub fn verify(
    verifications: &std::sync::Arc<Verifications>,
    sandbox: &judge::sandbox::SandboxConfig,
    options: &judge::grade::Options,
    sha256: &str,
    root: PathBuf,
) {
    if !verifications.start(sha256) {
        return;
    }
    let verifications = std::sync::Arc::clone(verifications);
    let (sandbox, options) = (sandbox.clone(), options.clone());
    let sha256 = sha256.to_owned();
    // On a blocking thread of its own, driven by the runtime's handle: the judge's
    // future is not one `tokio::spawn` takes (it borrows across its awaits).
    let runtime = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || {
        let timelimits = judge::timelimit::default_cache();
        let done = runtime.block_on(judge::verify::verify(
            &root,
            &sandbox,
            &options,
            1,
            Some(&timelimits),
            None,
        ));
        let result = match done {
            Ok(verification) => Verifying::Done(Box::new(verification)),
            Err(err) => Verifying::Failed(err.with_causes()),
        };
        verifications.finish(&sha256, result);
    });
}
