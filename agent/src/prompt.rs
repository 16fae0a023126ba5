//! The prompts of each stage, as plain functions of the task and the loop's state, so
//! they are easy to read, test and change. Test data in a prompt is cut to a few
//! thousand characters; hidden test data never enters one (the loop only has a verdict).

use std::fmt::Write;

use crate::task::Task;

/// The most characters of one test's input or output shown in a prompt.
pub const SHOW_CHARS: usize = 1500;

/// The system message.
pub fn system() -> String {
    "You are an expert competitive programmer. You solve problems exactly as stated, \
     read standard input and write standard output, and keep within the time and memory \
     limits. When asked for code, reply with one complete program in one fenced code block."
        .to_owned()
}

/// A language id in words and as a fence tag.
pub fn language_words(language: Option<&str>) -> (&'static str, &'static str) {
    match language {
        Some("python3") => ("Python 3", "python"),
        Some("cpp") => ("C++ (C++20, g++)", "cpp"),
        Some("c") => ("C", "c"),
        Some("java") => ("Java", "java"),
        _ => ("C++ or Python 3 (your choice)", "cpp"),
    }
}

/// Text cut to `max` characters, saying how much was left out.
pub fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let head: String = text.chars().take(max).collect();
    format!(
        "{head}\n... ({} more characters)",
        text.chars().count() - max
    )
}

/// The statement, limits and samples.
pub fn problem(task: &Task) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "Problem: {}\n", task.name);
    let _ = writeln!(s, "{}", task.statement.trim_end());
    let _ = writeln!(
        s,
        "\nTime limit: {} s per test. Memory limit: {} MiB.",
        task.time_limit.as_secs_f64(),
        task.memory_bytes / (1024 * 1024)
    );
    if task.samples.is_empty() {
        let _ = writeln!(s, "\nThis problem has no sample tests.");
    }
    for (i, sample) in task.samples.iter().enumerate() {
        let _ = writeln!(
            s,
            "\nSample {} input:\n```\n{}```\nSample {} output:\n```\n{}```",
            i + 1,
            with_newline(&cut(&sample.input, SHOW_CHARS)),
            i + 1,
            with_newline(&cut(&sample.answer, SHOW_CHARS))
        );
    }
    s
}

fn with_newline(s: &str) -> String {
    if s.ends_with('\n') {
        s.to_owned()
    } else {
        format!("{s}\n")
    }
}

/// Ask for a restatement.
pub fn restate() -> String {
    "Restate the problem in your own words: what is given, what is asked, the constraints. \
     Then explain why each sample's output is what it is. Do not write code yet."
        .to_owned()
}

/// Ask for approaches.
pub fn approaches() -> String {
    "Propose two or three approaches. For each, give its time and memory complexity and \
     whether it fits the limits for the largest inputs. Then pick one and say why. \
     Do not write code yet."
        .to_owned()
}

/// How to fence the program: with the language's tag, or either tag when the model
/// chooses.
fn fence(language: Option<&str>) -> String {
    match language {
        Some(_) => format!("one ```{} code block", language_words(language).1),
        None => "one code block tagged with its language (```cpp or ```python)".to_owned(),
    }
}

/// Ask for the program.
pub fn code(language: Option<&str>) -> String {
    let (words, _) = language_words(language);
    format!(
        "Write the complete solution in {words}. It reads standard input and writes standard \
         output. Print only what the Output section asks for: no prompts, no labels, no \
         extra words. Reply with the whole program in {}.",
        fence(language)
    )
}

/// A worked example placed before the problem (one-shot prompting, for small models):
/// a problem in the same layout as [`problem`], the [`code`] request, and a short correct
/// reply in the language asked for (Python 3 when the model chooses). The example is none
/// of the bundled problems.
pub fn worked_example(language: Option<&str>) -> [String; 3] {
    let statement = "Problem: negatives\n\n\
        You are given a list of integers. Print how many of them are negative.\n\n\
        ## Input\n\n\
        The first line has an integer $n$ ($1 \\le n \\le 100$). The second line has $n$ \
        integers $a_1, \\ldots, a_n$ ($-1000 \\le a_i \\le 1000$), separated by spaces.\n\n\
        ## Output\n\n\
        Print one integer: the number of negative $a_i$.\n\n\
        Time limit: 1 s per test. Memory limit: 256 MiB.\n\n\
        Sample 1 input:\n```\n4\n3 -1 0 -7\n```\nSample 1 output:\n```\n2\n```\n";
    let reply = if language == Some("cpp") {
        "```cpp\n#include <iostream>\nint main() {\n    int n;\n    std::cin >> n;\n    \
         int count = 0;\n    for (int i = 0; i < n; i++) {\n        int x;\n        \
         std::cin >> x;\n        if (x < 0) count++;\n    }\n    \
         std::cout << count << \"\\n\";\n}\n```"
    } else {
        "```python\nn = int(input())\na = list(map(int, input().split()))\ncount = 0\n\
         for x in a:\n    if x < 0:\n        count += 1\nprint(count)\n```"
    };
    let asked = match language {
        Some(_) => language,
        None => Some("python3"),
    };
    [statement.to_owned(), code(asked), reply.to_owned()]
}

/// Ask again after a reply without code.
pub fn no_code(reason: &str, language: Option<&str>) -> String {
    let (words, _) = language_words(language);
    format!(
        "Your reply held no program ({reason}). Reply with the whole program in {words}, in \
         {}.",
        fence(language)
    )
}

/// Ask for a generator.
pub fn generator() -> String {
    "Write a Python 3 program that prints one random valid input for this problem. \
     It seeds `random` with int(sys.argv[1]). Without a second argument it prints a SMALL \
     input (a few values, so that a brute force solves it at once); when sys.argv[2] is \
     \"max\" it prints an input of the largest size the constraints allow. \
     Reply with the program in one ```python code block."
        .to_owned()
}

/// Ask for a brute force.
pub fn brute() -> String {
    "Write a brute-force solution in Python 3: the simplest program that is surely correct, \
     however slow, for small inputs (try every possibility if needed). It reads standard \
     input and writes standard output. Reply with the program in one ```python code block."
        .to_owned()
}

/// What failed, for the debug prompt.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// The program did not compile.
    Compile {
        /// The compiler's log.
        log: String,
    },
    /// A test with an input and expected answer.
    Case {
        /// Where the test came from (`sample 1`, `own test 3`).
        name: String,
        /// The input.
        input: String,
        /// The expected answer.
        expected: String,
        /// What the program printed.
        got: String,
        /// The verdict on it.
        verdict: String,
        /// The validator's message.
        message: String,
    },
    /// Too slow on a maximum-size input.
    Slow {
        /// The input's size in bytes.
        bytes: usize,
        /// Its start.
        head: String,
        /// The status (TLE, MLE, RTE).
        status: String,
    },
    /// The judge rejected a submission (no test data: only the verdict).
    Verdict {
        /// The verdict.
        verdict: String,
        /// What the judge may show (a compile log).
        message: String,
    },
}

/// Ask for a fix.
pub fn debug(program: &str, language: &str, failure: &Failure) -> String {
    let (words, tag) = language_words(Some(language));
    let mut s = format!(
        "Here is your current program:\n```{tag}\n{}```\n",
        with_newline(program)
    );
    match failure {
        Failure::Compile { log } => {
            let _ = writeln!(
                s,
                "It does not compile:\n```\n{}```",
                with_newline(&cut(log, SHOW_CHARS))
            );
        }
        Failure::Case {
            name,
            input,
            expected,
            got,
            verdict,
            message,
        } => {
            let _ = writeln!(
                s,
                "It fails {name} ({verdict}).\nInput:\n```\n{}```\nExpected output:\n```\n{}```\nIts output:\n```\n{}```",
                with_newline(&cut(input, SHOW_CHARS)),
                with_newline(&cut(expected, SHOW_CHARS)),
                with_newline(&cut(got, SHOW_CHARS)),
            );
            if !message.trim().is_empty() {
                let _ = writeln!(s, "The checker said: {}", cut(message.trim(), 300));
            }
        }
        Failure::Slow {
            bytes,
            head,
            status,
        } => {
            let _ = writeln!(
                s,
                "On a maximum-size input ({bytes} bytes, starting with `{}`) it ends with {status}: it is too slow or uses too much memory.",
                cut(head, 200)
            );
        }
        Failure::Verdict { verdict, message } => {
            let _ = writeln!(s, "The judge rejected it on its hidden tests: {verdict}.");
            if !message.trim().is_empty() {
                let _ = writeln!(
                    s,
                    "The judge said:\n```\n{}```",
                    with_newline(&cut(message, SHOW_CHARS))
                );
            }
        }
    }
    let _ = write!(
        s,
        "Find the bug, explain it in a few sentences, then reply with the whole corrected \
         program in {words}, in one ```{tag} code block."
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_with_a_note() {
        assert_eq!(cut("abc", 5), "abc");
        assert_eq!(cut("abcdefgh", 3), "abc\n... (5 more characters)");
    }

    #[test]
    fn the_code_prompt_names_the_language_or_leaves_the_choice() {
        assert_eq!(
            code(Some("python3")),
            "Write the complete solution in Python 3. It reads standard input and writes standard output. Print only what the Output section asks for: no prompts, no labels, no extra words. Reply with the whole program in one ```python code block."
        );
        assert_eq!(
            code(None),
            "Write the complete solution in C++ or Python 3 (your choice). It reads standard input and writes standard output. Print only what the Output section asks for: no prompts, no labels, no extra words. Reply with the whole program in one code block tagged with its language (```cpp or ```python)."
        );
    }

    /// The worked example's reply is one program of the language asked for, and the
    /// Python one prints the sample's answer.
    #[test]
    fn the_worked_example_is_a_correct_program() {
        for language in [Some("python3"), Some("cpp"), None] {
            let [statement, ask, reply] = worked_example(language);
            assert!(
                statement.contains("Sample 1 output:\n```\n2\n```"),
                "{statement}"
            );
            let extraction = crate::extract::extract(&reply, language.or(Some("python3")));
            let (lang, _) = extraction.code().expect("one program");
            assert_eq!(lang, language.unwrap_or("python3"), "{ask}");
        }
        let [_, _, reply] = worked_example(Some("python3"));
        let extraction = crate::extract::extract(&reply, Some("python3"));
        let (_, program) = extraction.code().expect("program");
        let mut child = std::process::Command::new("python3")
            .args(["-c", program])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("python3 runs");
        use std::io::Write as _;
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(b"4\n3 -1 0 -7\n")
            .expect("input");
        let out = child.wait_with_output().expect("output");
        assert_eq!(String::from_utf8_lossy(&out.stdout), "2\n");
    }

    #[test]
    fn a_debug_prompt_shows_the_failing_case() {
        let failure = Failure::Case {
            name: "sample 1".into(),
            input: "3\n1 2 3\n".into(),
            expected: "6\n".into(),
            got: "5".into(),
            verdict: "WA".into(),
            message: String::new(),
        };
        let text = debug("print(5)\n", "python3", &failure);
        assert_eq!(
            text,
            "Here is your current program:\n```python\nprint(5)\n```\nIt fails sample 1 (WA).\nInput:\n```\n3\n1 2 3\n```\nExpected output:\n```\n6\n```\nIts output:\n```\n5\n```\nFind the bug, explain it in a few sentences, then reply with the whole corrected program in Python 3, in one ```python code block."
        );
    }
}
