//! The supervisor protocol: the job the host writes (`judge-supervisor SPEC.json`) and
//! the lines the supervisor prints on its standard output, declared once for both sides.
//!
//! Every struct is `#[serde(deny_unknown_fields)]`: a field that one side writes and the
//! other does not know is an error on the reading side, never silently dropped. Each
//! field is written on every message (an absent option as `null`), and `Option` fields
//! may be left out by a writer.
//!
//! Output lines ([`Line`]) are JSON objects with a single key naming their kind:
//! `{"run":{..}}` as each run finishes ([`RunReport`]), then `{"done":{}}` when every run
//! was reported, or `{"error":"..."}` when the supervisor itself failed (it then exits
//! with code 3).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// What to run: the JSON file named on the supervisor's command line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Job {
    /// The user the programs run as.
    pub uid: u32,
    /// Their group.
    pub gid: u32,
    /// The programs' working folder (writable by `uid`).
    pub workdir: PathBuf,
    /// Files copied (as root, then handed to `uid`, or to the third element when given)
    /// into a work folder before the runs: `(from, to, owner)`, sandbox paths.
    pub copy_in: Vec<(PathBuf, PathBuf, Option<u32>)>,
    /// The program and its arguments; the program is looked up in the `PATH` of `env`.
    pub command: Vec<String>,
    /// The programs' whole environment.
    pub env: Vec<(String, String)>,
    /// The limits of each run.
    pub limits: JobLimits,
    /// The memory cgroup file with an `oom_kill N` line (`memory.oom_control` on cgroup
    /// v1, `memory.events` on v2), when the sandbox has one (filled in by the backend).
    pub oom_file: Option<PathBuf>,
    /// One entry per run of `command`, in order.
    pub runs: Vec<RunIo>,
    /// After the runs, when all exited with 0: copy the regular files directly in
    /// `workdir` here (not following links, not descending into folders).
    pub copy_out: Option<PathBuf>,
    /// The runs may not keep what they write (a test job): `workdir` is root's and
    /// read-only to `uid` during the runs (a write there fails, as the package format's
    /// default `allow_file_writing: false` says), and after each run (with its validator
    /// or interactor) everything in the shared temporary folders (`/tmp`, `/dev/shm`) is
    /// removed, so nothing one run wrote reaches the next.
    pub discard_writes: bool,
}

/// The limits of one run (of a program, a validator or an interactor).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobLimits {
    /// CPU time in milliseconds: the verdict compares the measured time with it;
    /// RLIMIT_CPU is set to the next whole second + 1 as a backstop.
    pub cpu_ms: u64,
    /// Wall time in milliseconds: the whole process group is killed at it.
    pub wall_ms: u64,
    /// RLIMIT_FSIZE, the largest file a run may write (standard output and error
    /// included): writing past it raises SIGXFSZ.
    pub output_bytes: u64,
    /// RLIMIT_STACK (the stack may use the whole memory limit).
    pub stack_bytes: u64,
    /// RLIMIT_NPROC for the unprivileged user (the cgroup's pids limit is the real bound;
    /// `u64::MAX` is RLIM_INFINITY).
    pub processes: u64,
    /// RLIMIT_NOFILE.
    pub open_files: u64,
}

/// How much of a program's own standard error is kept (the rest is dropped).
pub const STDERR_KEPT_BYTES: u64 = 64 << 10;

/// One run's files, as sandbox paths.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunIo {
    /// Standard input (`/dev/null` when absent).
    pub stdin: Option<PathBuf>,
    /// Standard output, created by the supervisor.
    pub stdout: PathBuf,
    /// Standard error, created by the supervisor (the same file as stdout when equal).
    /// When it is its own file, the program writes it through a pipe: its first
    /// [`STDERR_KEPT_BYTES`] are kept and the rest is read and dropped, so standard error
    /// never counts towards the output limit.
    pub stderr: PathBuf,
    /// An output validator to run after the program, when it exited with 0 in time.
    pub validator: Option<ValidatorStep>,
    /// An interactor to run together with the program, the two connected by pipes (the
    /// program's standard input and output are then the pipes; `stdin` is not used and
    /// `stdout` receives nothing).
    pub interactor: Option<ValidatorStep>,
}

impl RunIo {
    /// A run without input whose standard output and error both go to `log`, with
    /// neither validator nor interactor (a compile, a version command).
    pub fn logged(log: &Path) -> RunIo {
        RunIo {
            stdin: None,
            stdout: log.to_path_buf(),
            stderr: log.to_path_buf(),
            validator: None,
            interactor: None,
        }
    }
}

/// An output validator's (or interactor's) run: another user, its own limits, its own
/// files.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValidatorStep {
    /// The full command, arguments included.
    pub command: Vec<String>,
    /// Its user.
    pub uid: u32,
    /// Its group.
    pub gid: u32,
    /// Its working folder.
    pub workdir: PathBuf,
    /// Standard input (the team's output, for Kattis validators).
    pub stdin: Option<PathBuf>,
    /// Standard output.
    pub stdout: PathBuf,
    /// Standard error.
    pub stderr: PathBuf,
    /// Created empty before the run and handed to `uid` (Kattis' feedback folder).
    pub feedback_dir: Option<PathBuf>,
    /// Hand the program's standard output file to `uid` (testlib checkers open it by path).
    pub give_output: bool,
    /// Its limits.
    pub limits: JobLimits,
    /// The most passes (1 but for multi-pass problems): after a pass the validator
    /// accepted (42) having written `nextpass.in` in `feedback_dir`, that file, moved out
    /// of the folder, is the program's input on the next pass, while passes remain. A
    /// `nextpass.in` left in the folder after the run tells the host the validator asked
    /// for a pass it may not have (or wrote it and rejected). On a later pass the output
    /// validator's input file (see `input_arg`) is that pass's input, a copy of its own.
    ///
    /// An interactor's passes run the program and the interactor again, both afresh, with
    /// the feedback folder kept; the next pass's input is the interactor's (see
    /// `input_arg`), the program has none.
    pub passes: u32,
    /// The index in `command` of the argument that names the test's input. On each later
    /// pass of a multi-pass problem it is replaced by that pass's input: the `nextpass.in`
    /// the validator or interactor wrote, moved out of the feedback folder (for an output
    /// validator, a copy) and kept by `uid`, readable by no one else.
    #[serde(default)]
    pub input_arg: Option<usize>,
}

/// One line of the supervisor's standard output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Line {
    /// A run finished: `{"run":{..}}`, one per entry of [`Job::runs`], in order.
    Run(RunReport),
    /// The supervisor itself failed (`{"error":"..."}`): the last line; it exits with 3.
    Error(String),
    /// Every run was reported (and the work folder copied out): `{"done":{}}`, the last
    /// line.
    Done {},
}

/// What the supervisor measured for one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunReport {
    /// Index of the run in [`Job::runs`].
    pub index: usize,
    /// Exit code, when the program exited.
    pub exit_code: Option<i32>,
    /// Signal, when the program was killed.
    pub signal: Option<i32>,
    /// CPU time in milliseconds, user + system, all threads and waited-for children.
    pub cpu_ms: f64,
    /// Wall time in milliseconds.
    pub wall_ms: f64,
    /// Peak resident memory in KiB (`ru_maxrss`).
    pub peak_kib: u64,
    /// Bytes written to standard output (0 for an interactive run).
    pub stdout_bytes: u64,
    /// Whether the memory cgroup's `oom_kill` counter rose during the run.
    pub oom_kill: bool,
    /// Whether the wall-clock limit killed it.
    pub wall_timeout: bool,
    /// The program could not be started (errno text): a judge or language-table problem.
    pub exec_error: Option<String>,
    /// The output validator's (or interactor's) run, when one ran (on a multi-pass
    /// problem, the last pass's).
    pub validator: Option<StepReport>,
    /// How many passes the program ran (1 but on multi-pass problems; the measurements
    /// above are the largest of any pass, the exit the last pass's).
    pub passes: u32,
}

/// How a validator's (or interactor's) run ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepReport {
    /// Exit code, when it exited.
    pub exit_code: Option<i32>,
    /// Signal, when it was killed.
    pub signal: Option<i32>,
    /// CPU time in milliseconds.
    pub cpu_ms: f64,
    /// Wall time in milliseconds.
    pub wall_ms: f64,
    /// Killed at its wall-clock limit.
    pub wall_timeout: bool,
    /// It could not be started.
    pub exec_error: Option<String>,
    /// An interactor that ended before the program (the supervisor lets neither see the
    /// other's end before reaping it, so the order is causal); false for a validator.
    pub ended_first: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    use serde::de::DeserializeOwned;
    use serde_json::{Value, json};

    fn limits() -> JobLimits {
        JobLimits {
            cpu_ms: 1000,
            wall_ms: 3000,
            output_bytes: 1 << 20,
            stack_bytes: 64 << 20,
            processes: 64,
            open_files: 64,
        }
    }

    /// A validator step with every option set (`full`) or none.
    fn step(full: bool) -> ValidatorStep {
        ValidatorStep {
            command: vec!["/validator/run".to_owned(), "/judge/ans/1.in".to_owned()],
            uid: 65533,
            gid: 65533,
            workdir: "/validator".into(),
            stdin: full.then(|| "/judge/out/1.out".into()),
            stdout: "/judge/out/1.val.out".into(),
            stderr: "/judge/out/1.val.err".into(),
            feedback_dir: full.then(|| "/judge/out/1.feedback".into()),
            give_output: full,
            limits: limits(),
            passes: if full { 3 } else { 1 },
            input_arg: full.then_some(1),
        }
    }

    fn run_io(full: bool) -> RunIo {
        RunIo {
            stdin: full.then(|| "/judge/in/1.in".into()),
            stdout: "/judge/out/1.out".into(),
            stderr: "/judge/out/1.err".into(),
            validator: full.then(|| step(true)),
            interactor: full.then(|| step(false)),
        }
    }

    fn job(full: bool) -> Job {
        Job {
            uid: 65534,
            gid: 65534,
            workdir: "/box".into(),
            copy_in: if full {
                vec![
                    ("/judge/src/a.out".into(), "/box/a.out".into(), None),
                    ("/judge/src/v".into(), "/validator/v".into(), Some(65533)),
                ]
            } else {
                Vec::new()
            },
            command: vec!["./a.out".to_owned()],
            env: vec![("PATH".to_owned(), "/usr/bin:/bin".to_owned())],
            limits: limits(),
            oom_file: full.then(|| "/sys/fs/cgroup/memory.events".into()),
            runs: vec![run_io(full), run_io(false)],
            copy_out: full.then(|| "/judge/out/build".into()),
            discard_writes: full,
        }
    }

    fn step_report(full: bool) -> StepReport {
        StepReport {
            exit_code: full.then_some(42),
            signal: full.then_some(9),
            cpu_ms: 1.5,
            wall_ms: 2.25,
            wall_timeout: full,
            exec_error: full.then(|| "execve errno 2".to_owned()),
            ended_first: full,
        }
    }

    fn run_report(full: bool) -> RunReport {
        RunReport {
            index: 3,
            exit_code: full.then_some(0),
            signal: full.then_some(24),
            cpu_ms: 100.5,
            wall_ms: 120.125,
            peak_kib: 2048,
            stdout_bytes: 10,
            oom_kill: full,
            wall_timeout: full,
            exec_error: full.then(|| "chdir errno 13".to_owned()),
            validator: full.then(|| step_report(true)),
            passes: if full { 2 } else { 1 },
        }
    }

    /// Every message type, each with every option set and with none, and each line kind.
    fn messages() -> Vec<(&'static str, Value)> {
        let mut all = Vec::new();
        for full in [true, false] {
            all.extend([
                ("job", serde_json::to_value(job(full)).expect("job")),
                ("limits", serde_json::to_value(limits()).expect("limits")),
                (
                    "run io",
                    serde_json::to_value(run_io(full)).expect("run io"),
                ),
                ("step", serde_json::to_value(step(full)).expect("step")),
                ("run", serde_json::to_value(run_report(full)).expect("run")),
                (
                    "step report",
                    serde_json::to_value(step_report(full)).expect("step report"),
                ),
            ]);
        }
        all
    }

    fn round_trip<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(value: &T) {
        let text = serde_json::to_string(value).expect("serializes");
        let back: T = serde_json::from_str(&text).expect("deserializes");
        assert_eq!(&back, value, "{text}");
    }

    #[test]
    fn every_message_round_trips_with_options_set_and_unset() {
        for full in [true, false] {
            round_trip(&job(full));
            round_trip(&run_io(full));
            round_trip(&step(full));
            round_trip(&run_report(full));
            round_trip(&step_report(full));
            round_trip(&Line::Run(run_report(full)));
        }
        round_trip(&limits());
        round_trip(&Line::Error("bad spec /judge/in/job-1.json".to_owned()));
        round_trip(&Line::Done {});
    }

    #[test]
    fn lines_are_objects_with_one_key_naming_their_kind() {
        let line = |line: &Line| serde_json::to_value(line).expect("serializes");
        assert_eq!(line(&Line::Done {}), json!({ "done": {} }));
        assert_eq!(
            line(&Line::Error("boom".to_owned())),
            json!({ "error": "boom" })
        );
        let run = line(&Line::Run(run_report(false)));
        assert_eq!(run["run"]["index"], 3);
        assert_eq!(run["run"]["validator"], Value::Null, "{run}");
    }

    /// Adds a field `unexpected` to the object at `pointer` in `value`.
    fn with_unknown_field(mut value: Value, pointer: &str) -> String {
        value
            .pointer_mut(pointer)
            .and_then(Value::as_object_mut)
            .unwrap_or_else(|| panic!("no object at {pointer}"))
            .insert("unexpected".to_owned(), json!(1));
        value.to_string()
    }

    fn rejects<T: DeserializeOwned + std::fmt::Debug>(text: &str) {
        let err = serde_json::from_str::<T>(text).expect_err(text).to_string();
        assert!(err.contains("unknown field `unexpected`"), "{text}: {err}");
    }

    #[test]
    fn an_unknown_field_is_rejected_in_every_message() {
        for (what, value) in messages() {
            let text = with_unknown_field(value, "");
            match what {
                "job" => rejects::<Job>(&text),
                "limits" => rejects::<JobLimits>(&text),
                "run io" => rejects::<RunIo>(&text),
                "step" => rejects::<ValidatorStep>(&text),
                "run" => rejects::<RunReport>(&text),
                "step report" => rejects::<StepReport>(&text),
                _ => unreachable!("{what}"),
            }
        }
        // Nested, at every depth of a job and of a report line.
        let job = serde_json::to_value(job(true)).expect("job");
        for pointer in [
            "/limits",
            "/runs/0",
            "/runs/0/validator",
            "/runs/0/validator/limits",
            "/runs/0/interactor",
        ] {
            rejects::<Job>(&with_unknown_field(job.clone(), pointer));
        }
        let run = serde_json::to_value(Line::Run(run_report(true))).expect("line");
        for pointer in ["/run", "/run/validator"] {
            rejects::<Line>(&with_unknown_field(run.clone(), pointer));
        }
        rejects::<Line>(r#"{"done":{"unexpected":1}}"#);
    }

    #[test]
    fn a_line_of_an_unknown_kind_or_with_two_kinds_is_rejected() {
        let err = serde_json::from_str::<Line>(r#"{"finished":{}}"#).expect_err("unknown kind");
        assert!(
            err.to_string().contains("unknown variant `finished`"),
            "{err}"
        );
        assert!(serde_json::from_str::<Line>(r#"{"done":{},"error":"x"}"#).is_err());
        assert!(serde_json::from_str::<Line>(r#"{"done":true}"#).is_err());
    }
}
