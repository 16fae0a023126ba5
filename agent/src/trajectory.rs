//! Trajectories on disk: a run folder with `manifest.json` and one JSON Lines file per
//! problem, `trajectories/<problem>.jsonl`, each line a step or, last, the outcome,
//! written and flushed as the loop makes them (see README, "Trajectories", for every
//! field).
//!
//! Resuming: a run started again with the same folder reads each problem's file; a
//! problem whose file ends in an outcome is finished and skipped; an unfinished one is
//! started again as the next attempt, appended to the same file (its earlier steps stay,
//! under their attempt number). The manifest is written once; a second start must name
//! the same model and pipeline, or it is refused (one run folder, one configuration).

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::pipeline::{Budget, Pipeline};
use crate::step::{Observer, Outcome, Step};

/// The version of the file format described in the README.
pub const FORMAT: u32 = 1;

/// One line of a trajectory file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Line {
    /// A step.
    Step(Box<Step>),
    /// The end of an attempt.
    Outcome(Box<Outcome>),
}

/// The model a run talks to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelInfo {
    /// Its name.
    pub name: String,
    /// Where it is served (never a secret).
    pub endpoint: String,
    /// The client's settings (for the HTTP client: its `ClientConfig`, which names the
    /// API key's environment variable, never the key).
    pub client: serde_json::Value,
}

/// A run's manifest (`manifest.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// The file format's version ([`FORMAT`]).
    pub format: u32,
    /// The run's id.
    pub run: String,
    /// When it was first started (RFC 3339, UTC).
    pub created: String,
    /// The agent's version (the workspace's) and, when known, the git commit.
    pub version: String,
    /// The model.
    pub model: ModelInfo,
    /// The seed.
    pub seed: u64,
    /// The pipeline, with its sampling settings and per-problem budget.
    pub pipeline: Pipeline,
    /// The run's budget.
    pub run_budget: Budget,
    /// The sandbox backend (`docker`, `bwrap`), or what stands in for it.
    pub backend: String,
    /// Problems run at the same time.
    pub concurrency: usize,
    /// The problems, by id, with the folder each came from.
    pub problems: Vec<ProblemEntry>,
}

/// A problem of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProblemEntry {
    /// Its id.
    pub id: String,
    /// Its package folder (or contest URL).
    pub source: String,
}

/// A run folder.
#[derive(Debug, Clone)]
pub struct RunDir {
    /// Its path.
    pub path: PathBuf,
}

/// Where a problem stands in a run folder.
#[derive(Debug, Clone, PartialEq)]
pub enum Progress {
    /// Never started.
    New,
    /// Started, not finished: the next attempt's number.
    Unfinished {
        /// The next attempt.
        next_attempt: u32,
    },
    /// Finished: its last outcome.
    Finished(Box<Outcome>),
}

impl RunDir {
    /// The run folder at `path` (made when missing).
    pub fn create(path: &Path) -> Result<RunDir> {
        let dir = path.join("trajectories");
        std::fs::create_dir_all(&dir).map_err(|source| Error::Io {
            path: dir.clone(),
            source,
        })?;
        Ok(RunDir {
            path: path.to_path_buf(),
        })
    }

    /// An existing run folder.
    pub fn open(path: &Path) -> Result<RunDir> {
        let manifest = path.join("manifest.json");
        if !manifest.is_file() {
            return Err(Error::Format {
                path: path.to_path_buf(),
                reason: "not a run folder (no manifest.json)".into(),
            });
        }
        Ok(RunDir {
            path: path.to_path_buf(),
        })
    }

    fn manifest_path(&self) -> PathBuf {
        self.path.join("manifest.json")
    }

    /// The problem's trajectory file.
    pub fn trajectory_path(&self, problem: &str) -> PathBuf {
        self.path
            .join("trajectories")
            .join(format!("{problem}.jsonl"))
    }

    /// The manifest, if written.
    pub fn manifest(&self) -> Result<Option<Manifest>> {
        let path = self.manifest_path();
        if !path.exists() {
            return Ok(None);
        }
        let text = std::fs::read_to_string(&path).map_err(|source| Error::Io {
            path: path.clone(),
            source,
        })?;
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|err| Error::Format {
                path,
                reason: format!("not a manifest: {err}"),
            })
    }

    /// Write the manifest of a new run, or check that a resumed run has the same model
    /// and pipeline; returns the manifest in force (the first one, on a resume).
    pub fn start(&self, manifest: Manifest) -> Result<Manifest> {
        if let Some(old) = self.manifest()? {
            let differs = |what: &str, a: String, b: String| Error::Resume {
                path: self.path.clone(),
                reason: format!(
                    "this run folder holds a run with {what} {a}, not {b}; use another --out"
                ),
            };
            if old.model.name != manifest.model.name {
                return Err(differs("model", old.model.name, manifest.model.name));
            }
            if old.pipeline != manifest.pipeline {
                return Err(differs(
                    "pipeline",
                    old.pipeline.name.clone(),
                    format!("{} (or its settings differ)", manifest.pipeline.name),
                ));
            }
            if old.seed != manifest.seed {
                return Err(differs(
                    "seed",
                    old.seed.to_string(),
                    manifest.seed.to_string(),
                ));
            }
            let mut merged = old;
            for p in manifest.problems {
                if !merged.problems.iter().any(|q| q.id == p.id) {
                    merged.problems.push(p);
                }
            }
            self.write_manifest(&merged)?;
            return Ok(merged);
        }
        self.write_manifest(&manifest)?;
        Ok(manifest)
    }

    fn write_manifest(&self, manifest: &Manifest) -> Result<()> {
        let path = self.manifest_path();
        let tmp = self.path.join("manifest.json.tmp");
        let text = serde_json::to_string_pretty(manifest).map_err(|err| Error::Format {
            path: path.clone(),
            reason: err.to_string(),
        })?;
        std::fs::write(&tmp, text + "\n")
            .and_then(|()| std::fs::rename(&tmp, &path))
            .map_err(|source| Error::Io { path, source })
    }

    /// Every line of a problem's file that parses, and how many did not (a line cut by a
    /// crash).
    pub fn read(&self, problem: &str) -> Result<(Vec<Line>, usize)> {
        read_lines(&self.trajectory_path(problem))
    }

    /// Where a problem stands.
    pub fn progress(&self, problem: &str) -> Result<Progress> {
        let path = self.trajectory_path(problem);
        if !path.exists() {
            return Ok(Progress::New);
        }
        let (lines, _) = read_lines(&path)?;
        let mut last_attempt = 0;
        let mut finished: Option<Box<Outcome>> = None;
        for line in lines {
            match line {
                Line::Step(s) => {
                    last_attempt = last_attempt.max(s.attempt);
                    if finished.as_ref().is_some_and(|o| o.attempt < s.attempt) {
                        finished = None;
                    }
                }
                Line::Outcome(o) => {
                    last_attempt = last_attempt.max(o.attempt);
                    finished = Some(o);
                }
            }
        }
        Ok(match finished {
            Some(o) => Progress::Finished(o),
            None => Progress::Unfinished {
                next_attempt: last_attempt + 1,
            },
        })
    }

    /// The problems with a trajectory file, by id.
    pub fn problems(&self) -> Result<Vec<String>> {
        let dir = self.path.join("trajectories");
        let entries = std::fs::read_dir(&dir).map_err(|source| Error::Io {
            path: dir.clone(),
            source,
        })?;
        let mut ids: Vec<String> = entries
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                e.file_name()
                    .to_str()
                    .and_then(|n| n.strip_suffix(".jsonl"))
                    .map(str::to_owned)
            })
            .collect();
        ids.sort();
        Ok(ids)
    }

    /// A writer appending to a problem's file.
    pub fn writer(&self, problem: &str) -> Result<Writer> {
        Writer::append(&self.trajectory_path(problem))
    }
}

fn read_lines(path: &Path) -> Result<(Vec<Line>, usize)> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let mut lines = Vec::new();
    let mut bad = 0;
    for raw in text.lines().filter(|l| !l.trim().is_empty()) {
        match serde_json::from_str(raw) {
            Ok(line) => lines.push(line),
            Err(_) => bad += 1,
        }
    }
    Ok((lines, bad))
}

/// Appends lines to one trajectory file, each flushed as it is written; an
/// [`Observer`].
#[derive(Debug)]
pub struct Writer {
    path: PathBuf,
    file: Mutex<File>,
}

impl Writer {
    /// Open `path` for appending; a last line cut short by a crash is ended first, so
    /// the next line starts on its own.
    pub fn append(path: &Path) -> Result<Writer> {
        let io = |source| Error::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(path)
            .map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        if len > 0 {
            let mut last = [0u8; 1];
            file.seek(SeekFrom::End(-1)).map_err(io)?;
            file.read_exact(&mut last).map_err(io)?;
            if last[0] != b'\n' {
                file.write_all(b"\n").map_err(io)?;
            }
        }
        Ok(Writer {
            path: path.to_path_buf(),
            file: Mutex::new(file),
        })
    }

    /// Write one line and flush it.
    pub fn write(&self, line: &Line) -> Result<(), String> {
        let mut text = serde_json::to_string(line).map_err(|e| e.to_string())?;
        text.push('\n');
        let mut file = self
            .file
            .lock()
            .map_err(|_| format!("{}: writer poisoned", self.path.display()))?;
        file.write_all(text.as_bytes())
            .and_then(|()| file.flush())
            .map_err(|e| format!("{}: {e}", self.path.display()))
    }
}

impl Observer for Writer {
    fn step(&self, step: &Step) -> Result<(), String> {
        self.write(&Line::Step(Box::new(step.clone())))
    }
    fn outcome(&self, outcome: &Outcome) -> Result<(), String> {
        self.write(&Line::Outcome(Box::new(outcome.clone())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Usage;
    use crate::pipeline::Stage;
    use crate::step::{End, Signals, Timing};

    fn step(attempt: u32, n: u32) -> Step {
        Step {
            run: "r".into(),
            problem: "sum".into(),
            attempt,
            step: n,
            stage: Stage::Code,
            action: "ask".into(),
            started_ms: 0,
            call: None,
            extraction: None,
            program: None,
            compile_log: None,
            tests: Vec::new(),
            signals: Signals::default(),
            usage: Usage::default(),
            timing: Timing::default(),
            note: String::new(),
        }
    }

    fn outcome(attempt: u32) -> Outcome {
        Outcome {
            run: "r".into(),
            problem: "sum".into(),
            attempt,
            solved: false,
            verdict: None,
            hidden: None,
            end: End::PipelineDone,
            steps: 1,
            model_calls: 1,
            submissions: 0,
            usage: Usage::default(),
            timing: Timing::default(),
            wall_ms: 1.0,
            program: None,
        }
    }

    fn manifest(model: &str) -> Manifest {
        Manifest {
            format: FORMAT,
            run: "r".into(),
            created: "2026-01-01T00:00:00Z".into(),
            version: "0.0.0".into(),
            model: ModelInfo {
                name: model.into(),
                endpoint: "http://x".into(),
                client: serde_json::Value::Null,
            },
            seed: 1,
            pipeline: Pipeline::short(),
            run_budget: Budget::default(),
            backend: "bwrap".into(),
            concurrency: 1,
            problems: vec![ProblemEntry {
                id: "sum".into(),
                source: "x".into(),
            }],
        }
    }

    #[test]
    fn resume_skips_finished_problems_and_continues_unfinished_ones() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let run = RunDir::create(tmp.path()).expect("create");
        assert_eq!(run.progress("sum").expect("progress"), Progress::New);
        {
            let w = run.writer("sum").expect("writer");
            w.step(&step(1, 1)).expect("write");
        }
        // Interrupted mid-line.
        let path = run.trajectory_path("sum");
        let mut f = OpenOptions::new().append(true).open(&path).expect("open");
        f.write_all(b"{\"type\":\"step\",\"run\":").expect("write");
        drop(f);
        assert_eq!(
            run.progress("sum").expect("progress"),
            Progress::Unfinished { next_attempt: 2 }
        );
        let w = run.writer("sum").expect("writer");
        w.step(&step(2, 1)).expect("write");
        w.outcome(&outcome(2)).expect("write");
        let (lines, bad) = run.read("sum").expect("read");
        assert_eq!(bad, 1, "the cut line is skipped, not fatal");
        assert_eq!(lines.len(), 3, "nothing recorded before is lost");
        match run.progress("sum").expect("progress") {
            Progress::Finished(o) => assert_eq!(o.attempt, 2),
            other => panic!("{other:?}"),
        }
        assert_eq!(run.problems().expect("problems"), ["sum"]);
    }

    #[test]
    fn a_resumed_run_keeps_its_model_and_pipeline() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let run = RunDir::create(tmp.path()).expect("create");
        run.start(manifest("a")).expect("first start");
        let mut second = manifest("a");
        second.run = "another id".into();
        second.problems[0].id = "other".into();
        let kept = run.start(second).expect("same model resumes");
        assert_eq!(kept.run, "r", "the first manifest stays");
        assert_eq!(kept.problems.len(), 2, "new problems join the run");
        let err = run.start(manifest("b")).unwrap_err().to_string();
        assert!(err.contains("model a, not b"), "{err}");
        let mut other = manifest("a");
        other.pipeline = Pipeline::full();
        let err = run.start(other).unwrap_err().to_string();
        assert!(err.contains("pipeline short"), "{err}");
        assert_eq!(
            RunDir::open(tmp.path())
                .expect("open")
                .manifest()
                .expect("read"),
            Some(kept)
        );
    }

    #[test]
    fn lines_round_trip() {
        let line = Line::Step(Box::new(step(1, 1)));
        let text = serde_json::to_string(&line).expect("json");
        assert!(
            text.starts_with("{\"type\":\"step\",\"run\":\"r\""),
            "{text}"
        );
        assert_eq!(serde_json::from_str::<Line>(&text).expect("parse"), line);
        let end = Line::Outcome(Box::new(outcome(1)));
        let text = serde_json::to_string(&end).expect("json");
        assert!(
            text.contains("\"end\":{\"kind\":\"pipeline_done\"}"),
            "{text}"
        );
        assert_eq!(serde_json::from_str::<Line>(&text).expect("parse"), end);
    }
}
