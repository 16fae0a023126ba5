//! A problem package uploaded as a zip, unpacked with stated limits ([`LIMITS`]): the
//! zip's own size, the bytes it unpacks to and the number of its entries. Every entry is
//! checked before anything is written: a name that is absolute or climbs out of the
//! folder (`..`), and a symbolic link, are refused naming the entry; the sizes the zip
//! declares are added up first, and the bytes really written are counted too, so a zip
//! bomb that lies about its sizes is cut off at the limit. A package zipped inside one
//! folder (`sum/problem.yaml`) has that folder as its root.
//!
//! Unpacking goes into a fresh folder beside the destination, which is renamed into
//! place only once complete, so a reader never sees half a package.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// Limits on an uploaded package.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The zip's own size, in bytes.
    pub compressed: u64,
    /// The bytes its files unpack to, together.
    pub uncompressed: u64,
    /// Its entries (files and folders).
    pub entries: usize,
}

/// The limits of an upload: real packages reach 60 to 120 MB zipped.
pub const LIMITS: Limits = Limits {
    compressed: 200 << 20,
    uncompressed: 1 << 30,
    entries: 10_000,
};

impl std::fmt::Display for Limits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "at most {} zipped, {} unpacked, {} files and folders",
            size(self.compressed),
            size(self.uncompressed),
            self.entries
        )
    }
}

/// A byte count in the largest whole unit (`200 MiB`, `1 GiB`).
pub fn size(bytes: u64) -> String {
    for (unit, name) in [(1u64 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")] {
        if bytes >= unit && bytes.is_multiple_of(unit) {
            return format!("{} {name}", bytes / unit);
        }
    }
    format!("{bytes} bytes")
}

/// Why an upload was refused.
#[derive(Debug, thiserror::Error)]
pub enum UnzipError {
    /// The zip itself is over the limit.
    #[error("the zip is {} bytes, over the limit of {}", .size, self::size(*.limit))]
    TooLarge {
        /// Its size.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// Not a zip archive that can be read.
    #[error("not a zip archive: {0}")]
    NotZip(#[source] zip::result::ZipError),
    /// More entries than the limit.
    #[error("the zip holds {count} files and folders, over the limit of {limit}")]
    TooManyEntries {
        /// How many it holds.
        count: usize,
        /// The limit.
        limit: usize,
    },
    /// An entry whose name would land outside the package's folder.
    #[error("entry `{entry}`: {why}; nothing was unpacked")]
    UnsafeName {
        /// The entry's name as the zip gives it.
        entry: String,
        /// What is wrong with it.
        why: &'static str,
    },
    /// An entry that is a symbolic link.
    #[error(
        "entry `{entry}`: a symbolic link, which an uploaded package may not hold; nothing was unpacked"
    )]
    SymbolicLink {
        /// The entry's name.
        entry: String,
    },
    /// The files unpack to more than the limit (declared, or found while unpacking).
    #[error("the files unpack to more than {} (at entry `{entry}`); nothing was kept", size(*.limit))]
    TooLargeUnpacked {
        /// The entry at which the limit was passed.
        entry: String,
        /// The limit.
        limit: u64,
    },
    /// An entry could not be read from the zip.
    #[error("entry `{entry}`: cannot be read: {source}")]
    Entry {
        /// The entry's name.
        entry: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Writing the unpacked files failed.
    #[error("cannot write {}: {source}", path.display())]
    Io {
        /// Where.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
}

/// What was unpacked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unpacked {
    /// The package's folder: the destination, or its one folder holding everything.
    pub root: PathBuf,
    /// Files written.
    pub files: usize,
    /// Bytes written.
    pub bytes: u64,
}

/// Why `name` may not be unpacked, if it may not: absolute, a drive, or `..`.
fn unsafe_name(name: &str) -> Option<&'static str> {
    if name.starts_with('/') || name.starts_with('\\') {
        return Some("an absolute name");
    }
    if name.as_bytes().get(1) == Some(&b':') {
        return Some("a name with a drive letter");
    }
    if name.split(['/', '\\']).any(|part| part == "..") {
        return Some("a name that leaves the package's folder (`..`)");
    }
    if name.contains('\0') {
        return Some("a name with a NUL byte");
    }
    None
}

/// The relative path of a checked entry name (empty parts and `.` dropped).
fn relative(name: &str) -> PathBuf {
    Path::new(name)
        .components()
        .filter(|c| matches!(c, Component::Normal(_)))
        .collect()
}

/// Whether a zip entry's Unix mode says it is a symbolic link.
fn is_symlink(mode: Option<u32>) -> bool {
    mode.is_some_and(|m| m & 0o170_000 == 0o120_000)
}

/// Checks `bytes` against `limits` and unpacks it to `dest` (which must not exist; its
/// parent is created), all or nothing: on any refusal nothing is left at `dest`.
pub fn unpack(bytes: &[u8], dest: &Path, limits: &Limits) -> Result<Unpacked, UnzipError> {
    let io = |path: &Path| {
        let path = path.to_owned();
        move |source| UnzipError::Io { path, source }
    };
    if bytes.len() as u64 > limits.compressed {
        return Err(UnzipError::TooLarge {
            size: bytes.len() as u64,
            limit: limits.compressed,
        });
    }
    let mut archive =
        zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(UnzipError::NotZip)?;
    if archive.len() > limits.entries {
        return Err(UnzipError::TooManyEntries {
            count: archive.len(),
            limit: limits.entries,
        });
    }
    // Every name and the declared sizes first: a refusal writes nothing.
    let mut declared = 0u64;
    let mut tops = std::collections::BTreeSet::new();
    let mut top_level_file = false;
    for i in 0..archive.len() {
        let entry = archive.by_index_raw(i).map_err(UnzipError::NotZip)?;
        let name = entry.name().to_owned();
        if let Some(why) = unsafe_name(&name) {
            return Err(UnzipError::UnsafeName { entry: name, why });
        }
        if is_symlink(entry.unix_mode()) {
            return Err(UnzipError::SymbolicLink { entry: name });
        }
        declared = declared.saturating_add(entry.size());
        if declared > limits.uncompressed {
            return Err(UnzipError::TooLargeUnpacked {
                entry: name,
                limit: limits.uncompressed,
            });
        }
        let path = relative(&name);
        let mut parts = path.components();
        if let Some(first) = parts.next() {
            tops.insert(first.as_os_str().to_owned());
            top_level_file |= parts.next().is_none() && !entry.is_dir();
        }
    }
    let parent = dest.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(io(parent))?;
    let staging = tempfile::Builder::new()
        .prefix(".unpacking-")
        .tempdir_in(parent)
        .map_err(io(parent))?;
    let mut written = 0u64;
    let mut files = 0;
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).map_err(UnzipError::NotZip)?;
        let name = entry.name().to_owned();
        let path = staging.path().join(relative(&name));
        if entry.is_dir() {
            std::fs::create_dir_all(&path).map_err(io(&path))?;
            continue;
        }
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(io(dir))?;
        }
        let mut out = std::fs::File::create(&path).map_err(io(&path))?;
        // One byte past what is left: a file longer than it said is caught here.
        let left = limits.uncompressed - written;
        let copied =
            std::io::copy(&mut (&mut entry).take(left + 1), &mut out).map_err(|source| {
                UnzipError::Entry {
                    entry: name.clone(),
                    source,
                }
            })?;
        written += copied;
        if written > limits.uncompressed {
            return Err(UnzipError::TooLargeUnpacked {
                entry: name,
                limit: limits.uncompressed,
            });
        }
        files += 1;
    }
    let staged = staging.keep();
    std::fs::rename(&staged, dest).map_err(|source| {
        let _ = std::fs::remove_dir_all(&staged);
        UnzipError::Io {
            path: dest.to_owned(),
            source,
        }
    })?;
    let root = match (tops.len(), top_level_file) {
        (1, false) if !dest.join("problem.yaml").exists() => {
            dest.join(tops.into_iter().next().unwrap_or_default())
        }
        _ => dest.to_owned(),
    };
    Ok(Unpacked {
        root,
        files,
        bytes: written,
    })
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    /// A zip of `entries` (name, content; a name ending in `/` is a folder).
    fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for (name, content) in entries {
            if let Some(dir) = name.strip_suffix('/') {
                out.add_directory(dir, options).unwrap();
            } else {
                out.start_file(*name, options).unwrap();
                out.write_all(content).unwrap();
            }
        }
        out.finish().unwrap().into_inner()
    }

    fn limits(compressed: u64, uncompressed: u64, entries: usize) -> Limits {
        Limits {
            compressed,
            uncompressed,
            entries,
        }
    }

    #[test]
    fn a_package_unpacks_at_its_root_or_in_its_one_folder() {
        let dir = tempfile::tempdir().unwrap();
        let flat = zip_of(&[("problem.yaml", b"name: x\n"), ("data/secret/1.in", b"1\n")]);
        let got = unpack(&flat, &dir.path().join("a"), &LIMITS).unwrap();
        assert_eq!(got.root, dir.path().join("a"));
        assert_eq!((got.files, got.bytes), (2, 10));
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a/data/secret/1.in")).unwrap(),
            "1\n"
        );
        let nested = zip_of(&[("sum/", b""), ("sum/problem.yaml", b"name: x\n")]);
        let got = unpack(&nested, &dir.path().join("b"), &LIMITS).unwrap();
        assert_eq!(got.root, dir.path().join("b/sum"));
        assert!(got.root.join("problem.yaml").is_file());
    }

    #[test]
    fn bad_names_links_and_sizes_are_refused_naming_the_entry_and_leave_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let big = vec![b'0'; 10_000];
        let cases: Vec<(Vec<u8>, Limits, &str)> = vec![
            (
                zip_of(&[("ok", b"1"), ("../evil", b"x")]),
                LIMITS,
                "entry `../evil`: a name that leaves the package's folder (`..`)",
            ),
            (
                zip_of(&[("data/../../evil", b"x")]),
                LIMITS,
                "entry `data/../../evil`: a name that leaves",
            ),
            (
                zip_of(&[("/etc/evil", b"x")]),
                LIMITS,
                "entry `/etc/evil`: an absolute name",
            ),
            (
                zip_of(&[("C:\\evil", b"x")]),
                LIMITS,
                "entry `C:\\evil`: a name with a drive letter",
            ),
            (
                // Ten thousand zeros deflate to a few bytes: a small bomb.
                zip_of(&[("a", &big)]),
                limits(1 << 20, 5_000, 10),
                "the files unpack to more than 5000 bytes (at entry `a`)",
            ),
            (
                zip_of(&[("a", b"1"), ("b", b"2"), ("c", b"3")]),
                limits(1 << 20, 1 << 20, 2),
                "the zip holds 3 files and folders, over the limit of 2",
            ),
            (
                zip_of(&[("a", &big)]),
                limits(10, 1 << 20, 10),
                "over the limit of 10 bytes",
            ),
            (b"not a zip".to_vec(), LIMITS, "not a zip archive"),
        ];
        for (i, (bytes, limits, says)) in cases.iter().enumerate() {
            let dest = dir.path().join(format!("case-{i}"));
            let err = unpack(bytes, &dest, limits).unwrap_err().to_string();
            assert!(err.contains(says), "case {i}: {err}");
            assert!(!dest.exists(), "case {i}: nothing unpacked");
        }
        // A bomb that says its file is 10 bytes: cut off at the limit as it is written.
        let mut liar = zip_of(&[("a", &big)]);
        let local = liar.windows(4).position(|w| w == b"PK\x03\x04").unwrap();
        liar[local + 22..local + 26].copy_from_slice(&10u32.to_le_bytes());
        let central = liar.windows(4).position(|w| w == b"PK\x01\x02").unwrap();
        liar[central + 24..central + 28].copy_from_slice(&10u32.to_le_bytes());
        let dest = dir.path().join("liar");
        let err = unpack(&liar, &dest, &limits(1 << 20, 5_000, 10))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("the files unpack to more than 5000 bytes (at entry `a`)"),
            "{err}"
        );
        assert!(!dest.exists());
        // A symbolic link, written as zip tools write one.
        let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default();
        out.add_symlink("data/link", "/etc/passwd", options)
            .unwrap();
        let link = out.finish().unwrap().into_inner();
        let dest = dir.path().join("link");
        let err = unpack(&link, &dest, &LIMITS).unwrap_err().to_string();
        assert!(err.contains("entry `data/link`: a symbolic link"), "{err}");
        assert!(!dest.exists());
        // Only the staging folders' parent is left, empty of packages.
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert!(left.is_empty(), "{left:?}");
    }

    #[test]
    fn the_limits_are_stated_in_words() {
        assert_eq!(
            LIMITS.to_string(),
            "at most 200 MiB zipped, 1 GiB unpacked, 10000 files and folders"
        );
        assert_eq!(size(1500), "1500 bytes");
    }
}
