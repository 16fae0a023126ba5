//! An evaluation's per-episode records, and resuming an interrupted evaluation from them.
//!
//! `trainer eval --out NAME.json` appends each finished episode to `NAME.episodes.jsonl`
//! ([`records_path`]) as one JSON line ([`EpisodeRecord`]), flushed as it finishes, with
//! the evaluation's key ([`super::cache::EvalKey`]). On start it reads the file back
//! ([`read`]), keeps each record whose key matches and whose problem and sample the
//! evaluation plans, once ([`keep`]), rewrites the file with those, and runs only the
//! episodes no record covers ([`missing`]). A line that does not parse (the one being
//! written when the process died) is dropped and counted. The report is built from the
//! records, kept and new alike, so a resumed evaluation reports what an uninterrupted
//! one would have from the same episodes.

use std::collections::BTreeSet;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use agent::step::Count;

/// One finished episode.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EpisodeRecord {
    /// The evaluation's key (`EvalKey::id`; empty inside the training loop).
    pub key: String,
    /// The problem's name.
    pub problem: String,
    /// The sample's index (its sampling seed derives from it).
    pub sample: usize,
    /// It left on a judge or sandbox error (not scored).
    pub judge_error: bool,
    /// Its last submission passed every hidden test.
    pub solved: bool,
    /// Its program compiled.
    pub compiled: bool,
    /// Its program passed every sample.
    pub samples_passed: bool,
    /// Hidden tests its last submission passed, of all (`None`: it never submitted).
    pub hidden: Option<Count>,
    /// Reply tokens.
    pub tokens: u64,
    /// The verification tiers reached (`compiled`, `samples`, ...).
    pub tiers: Vec<String>,
}

impl EpisodeRecord {
    /// The fraction of hidden tests its last submission passed (0 without a submission;
    /// a judgement without test counts is 1 when accepted, else 0).
    pub fn tests_fraction(&self) -> f64 {
        match self.hidden {
            Some(Count { passed, total }) if total > 0 => passed as f64 / total as f64,
            _ => f64::from(u8::from(self.solved)),
        }
    }
}

/// The records file beside `out`: `eval.json` gives `eval.episodes.jsonl`.
pub fn records_path(out: &Path) -> PathBuf {
    out.with_extension("episodes.jsonl")
}

/// The records in `path` (none when it does not exist) and how many lines did not parse.
pub fn read(path: &Path) -> anyhow::Result<(Vec<EpisodeRecord>, usize)> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), 0)),
        Err(e) => return Err(anyhow::format_err!("{}: {e}", path.display())),
    };
    let mut records = Vec::new();
    let mut unparsed = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        match serde_json::from_str(line) {
            Ok(record) => records.push(record),
            Err(_) => unparsed += 1,
        }
    }
    Ok((records, unparsed))
}

/// The records of the evaluation keyed `key` over `names` x `samples`, the first of each
/// problem and sample, in file order.
pub fn keep(
    records: Vec<EpisodeRecord>,
    key: &str,
    names: &[&str],
    samples: usize,
) -> Vec<EpisodeRecord> {
    let mut seen = BTreeSet::new();
    records
        .into_iter()
        .filter(|r| r.key == key && r.sample < samples && names.contains(&r.problem.as_str()))
        .filter(|r| seen.insert((r.problem.clone(), r.sample)))
        .collect()
}

/// The episodes (problem index, sample) of `names` x `samples` that `done` lacks, in
/// order.
pub fn missing(names: &[&str], samples: usize, done: &[EpisodeRecord]) -> Vec<(usize, usize)> {
    let done: BTreeSet<(&str, usize)> = done
        .iter()
        .map(|r| (r.problem.as_str(), r.sample))
        .collect();
    names
        .iter()
        .enumerate()
        .flat_map(|(i, name)| (0..samples).map(move |k| (i, name, k)))
        .filter(|(_, name, k)| !done.contains(&(**name, *k)))
        .map(|(i, _, k)| (i, k))
        .collect()
}

/// `path` with `.tmp` added.
fn tmp_path(path: &Path) -> PathBuf {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    PathBuf::from(tmp)
}

/// Appends records to a records file, one flushed line each.
pub struct Writer {
    file: std::fs::File,
    path: PathBuf,
}

impl Writer {
    /// Rewrites `path` with `kept` (through a temporary file, so an interruption leaves
    /// the old file or the new one) and opens it for appending.
    pub fn start(path: &Path, kept: &[EpisodeRecord]) -> anyhow::Result<Writer> {
        let io = |e: std::io::Error| anyhow::format_err!("{}: {e}", path.display());
        let mut text = String::new();
        for r in kept {
            text.push_str(&serde_json::to_string(r)?);
            text.push('\n');
        }
        let tmp = tmp_path(path);
        std::fs::write(&tmp, text).map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)?;
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(io)?;
        Ok(Writer {
            file,
            path: path.to_path_buf(),
        })
    }

    /// Appends one record and flushes it.
    pub fn append(&mut self, record: &EpisodeRecord) -> anyhow::Result<()> {
        let line = serde_json::to_string(record)? + "\n";
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| anyhow::format_err!("{}: {e}", self.path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(key: &str, problem: &str, sample: usize, solved: bool) -> EpisodeRecord {
        EpisodeRecord {
            key: key.to_owned(),
            problem: problem.to_owned(),
            sample,
            judge_error: false,
            solved,
            compiled: true,
            samples_passed: solved,
            hidden: Some(Count {
                passed: if solved { 4 } else { 1 },
                total: 4,
            }),
            tokens: 7,
            tiers: vec!["compiled".to_owned()],
        }
    }

    #[test]
    fn resuming_keeps_matching_records_once_and_runs_the_rest() {
        let names = ["gcd", "hms"];
        let records = vec![
            record("k1", "gcd", 0, true),
            record("k0", "gcd", 1, true), // another evaluation's
            record("k1", "hms", 1, false),
            record("k1", "gcd", 0, false), // a repeat: the first one counts
            record("k1", "gcd", 5, true),  // beyond the samples planned
            record("k1", "lcm", 0, true),  // a problem not evaluated
        ];
        let kept = keep(records, "k1", &names, 2);
        assert_eq!(
            kept.iter()
                .map(|r| (r.problem.as_str(), r.sample, r.solved))
                .collect::<Vec<_>>(),
            [("gcd", 0, true), ("hms", 1, false)]
        );
        assert_eq!(missing(&names, 2, &kept), [(0, 1), (1, 0)]);
        assert_eq!(missing(&names, 2, &[]).len(), 4);
    }

    #[test]
    fn the_records_file_round_trips_and_a_torn_line_is_dropped() {
        let tmp = tempfile::tempdir().expect("tmp");
        let out = tmp.path().join("eval-before.json");
        let path = records_path(&out);
        assert_eq!(path, tmp.path().join("eval-before.episodes.jsonl"));
        assert_eq!(read(&path).expect("no file"), (Vec::new(), 0));
        let first = record("k", "gcd", 0, true);
        let mut writer = Writer::start(&path, std::slice::from_ref(&first)).expect("start");
        let second = record("k", "gcd", 1, false);
        writer.append(&second).expect("append");
        drop(writer);
        // The process died while writing a third line.
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .expect("open");
        file.write_all(b"{\"key\":\"k\",\"prob").expect("torn line");
        drop(file);
        let (records, unparsed) = read(&path).expect("read");
        assert_eq!(records, [first.clone(), second]);
        assert_eq!(unparsed, 1);
        // Starting again rewrites the file with what is kept.
        Writer::start(&path, std::slice::from_ref(&first)).expect("restart");
        assert_eq!(read(&path).expect("read"), (vec![first], 0));
        assert!(!tmp_path(&path).exists());
    }

    #[test]
    fn the_tests_fraction_of_an_episode() {
        let mut r = record("k", "gcd", 0, false);
        assert_eq!(r.tests_fraction(), 0.25);
        r.hidden = None;
        assert_eq!(r.tests_fraction(), 0.0, "never submitted");
        r.solved = true;
        assert_eq!(r.tests_fraction(), 1.0, "accepted without counts");
    }
}
