//! Verdicts, their precedence, and their names in CLICS and in Kattis `submissions/` folders.

use serde::{Deserialize, Serialize};

/// The outcome of judging one test case or one whole submission.
///
/// A wrong answer, a time-out or a compile error is data; `JE` (judge error) means the
/// judge failed and is never the contestant's fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Verdict {
    /// Accepted.
    AC,
    /// Wrong answer.
    WA,
    /// Time limit exceeded (CPU or wall time).
    TLE,
    /// Memory limit exceeded (the kernel's limit was hit).
    MLE,
    /// Run-time error (non-zero exit or a signal not caused by a limit).
    RTE,
    /// Output limit exceeded.
    OLE,
    /// Compile error.
    CE,
    /// Judge error: the judge itself failed.
    JE,
}

impl Verdict {
    /// All verdicts, in precedence order (see [`Verdict::precedence`]).
    pub const ALL: [Verdict; 8] = [
        Verdict::JE,
        Verdict::CE,
        Verdict::TLE,
        Verdict::MLE,
        Verdict::OLE,
        Verdict::RTE,
        Verdict::WA,
        Verdict::AC,
    ];

    /// The precedence used when one test ends with several failures at once,
    /// lower is stronger: JE, CE, TLE, MLE, OLE, RTE, WA, AC.
    ///
    /// A program killed at the time limit is TLE whatever else it did; a kernel OOM kill is
    /// MLE even though it shows as a signal; an output cut at the limit is OLE even when
    /// the program then dies of SIGXFSZ or SIGPIPE; any other abnormal end is RTE, and
    /// only a program that ran normally can be WA.
    pub fn precedence(self) -> u8 {
        Verdict::ALL
            .iter()
            .position(|it| *it == self)
            .expect("invariant: ALL lists every verdict") as u8
    }

    /// The CLICS judgement type id (ccs-specs 2023-06).
    pub fn clics_id(self) -> &'static str {
        match self {
            Verdict::AC => "AC",
            Verdict::WA => "WA",
            Verdict::TLE => "TLE",
            Verdict::MLE => "MLE",
            Verdict::RTE => "RTE",
            Verdict::OLE => "OLE",
            Verdict::CE => "CE",
            Verdict::JE => "JE",
        }
    }

    /// Parses the short name (`AC`, `WA`, ...), case-insensitively.
    pub fn from_short(name: &str) -> Option<Verdict> {
        Verdict::ALL
            .iter()
            .copied()
            .find(|it| it.clics_id().eq_ignore_ascii_case(name))
    }

    /// The verdicts a submission in the Kattis `submissions/<folder>/` may get.
    ///
    /// Kattis has no folder for MLE or OLE: as in Kattis' own tools and the ICPC CCS
    /// mapping, MLE counts as `run_time_error` and OLE as `wrong_answer`. Our own
    /// folders `memory_limit_exceeded`, `output_limit_exceeded` and `compile_error`
    /// name one verdict each. `partially_accepted` (legacy, scored problems) allows any
    /// verdict of a program that ran: what it must meet is its expected score (see
    /// [`crate::ReferenceSubmission::score`]).
    pub fn for_submission_folder(folder: &str) -> Option<&'static [Verdict]> {
        Some(match folder {
            "accepted" => &[Verdict::AC],
            "wrong_answer" => &[Verdict::WA, Verdict::OLE],
            "time_limit_exceeded" => &[Verdict::TLE],
            "run_time_error" => &[Verdict::RTE, Verdict::MLE],
            "memory_limit_exceeded" => &[Verdict::MLE],
            "output_limit_exceeded" => &[Verdict::OLE],
            "compile_error" => &[Verdict::CE],
            // 2025-09: `rejected` requires one of RTE, TLE, WA; `brute_force` one of RTE, TLE
            // (with MLE counted as RTE and OLE as WA, as above).
            "rejected" => &[
                Verdict::WA,
                Verdict::OLE,
                Verdict::TLE,
                Verdict::RTE,
                Verdict::MLE,
            ],
            "brute_force" => &[Verdict::TLE, Verdict::RTE, Verdict::MLE],
            "partially_accepted" => &[
                Verdict::AC,
                Verdict::WA,
                Verdict::OLE,
                Verdict::TLE,
                Verdict::RTE,
                Verdict::MLE,
            ],
            _ => return None,
        })
    }

    /// Whether this verdict accepts.
    pub fn is_accepted(self) -> bool {
        self == Verdict::AC
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.clics_id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn submission_folders() {
        let folders = [
            "accepted",
            "wrong_answer",
            "time_limit_exceeded",
            "run_time_error",
            "memory_limit_exceeded",
            "output_limit_exceeded",
            "compile_error",
            "rejected",
            "brute_force",
            "partially_accepted",
            "slow",
        ];
        let res: Vec<String> = folders
            .iter()
            .map(|folder| format!("{folder}: {:?}", Verdict::for_submission_folder(folder)))
            .collect();
        expect_test::expect![[r#"
            accepted: Some([AC])
            wrong_answer: Some([WA, OLE])
            time_limit_exceeded: Some([TLE])
            run_time_error: Some([RTE, MLE])
            memory_limit_exceeded: Some([MLE])
            output_limit_exceeded: Some([OLE])
            compile_error: Some([CE])
            rejected: Some([WA, OLE, TLE, RTE, MLE])
            brute_force: Some([TLE, RTE, MLE])
            partially_accepted: Some([AC, WA, OLE, TLE, RTE, MLE])
            slow: None"#]]
        .assert_eq(&res.join("\n"));
    }

    #[test]
    fn precedence_follows_all() {
        let mut sorted = Verdict::ALL;
        sorted.sort_by_key(|it| std::cmp::Reverse(it.precedence()));
        assert_eq!(sorted.first(), Some(&Verdict::AC));
        assert_eq!(Verdict::JE.precedence(), 0);
        assert!(Verdict::TLE.precedence() < Verdict::RTE.precedence());
        assert_eq!(Verdict::from_short("tle"), Some(Verdict::TLE));
    }
}
