//! Code extraction: the program the model meant, out of a free-text reply.
//!
//! Models wrap code in Markdown fences, most of the time. The rest of the time they write
//! several blocks (a sketch, then the program; or the program, then a sample session),
//! forget the fence, tag a C++ block `c` or `python`, or stop mid-fence at `max_tokens`.
//! The rule, in order (the first that finds something wins):
//!
//! 1. the **last complete block tagged with the wanted language** (or, with no wanted
//!    language, the last complete block tagged with any language the judge runs);
//! 2. the **last complete block whose content looks like the wanted language** whatever
//!    its tag says (untagged or mistagged: `Rule::Untagged`, `Rule::Mistagged`);
//! 3. the **unterminated last block** (a fence opened and never closed), when its content
//!    looks like code;
//! 4. **no fence at all**: the text from the first line that looks like code to the end,
//!    when the reply as a whole looks like code;
//! 5. otherwise [`Extraction::NoCode`], a recorded outcome with its reason, never an error.
//!
//! "Looks like" is a small set of markers per language ([`detect`]); the language of an
//! extracted program is the wanted one, else its tag, else what its content looks like.

use serde::{Deserialize, Serialize};

/// The judge language ids the agent writes in (see `judge/languages.yaml`).
pub const LANGUAGES: [&str; 2] = ["cpp", "python3"];

/// Which rule found the code (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// A complete block tagged with the language.
    Tagged,
    /// A complete block without a tag (or with a tag naming no language).
    Untagged,
    /// A complete block tagged with another language than its content.
    Mistagged,
    /// A fence opened and never closed (the reply was cut).
    Unterminated,
    /// No fence: the reply itself is the code.
    Unfenced,
}

/// What came out of a reply.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "outcome")]
pub enum Extraction {
    /// A program.
    Code {
        /// The judge language id (`cpp`, `python3`, ...).
        language: String,
        /// The source.
        code: String,
        /// Which rule found it.
        rule: Rule,
        /// How many fenced blocks the reply held.
        blocks: usize,
    },
    /// No program in the reply.
    NoCode {
        /// Why (for the record and for the next prompt).
        reason: String,
        /// How many fenced blocks the reply held.
        blocks: usize,
    },
}

impl Extraction {
    /// The language and code, when there is code.
    pub fn code(&self) -> Option<(&str, &str)> {
        match self {
            Extraction::Code { language, code, .. } => Some((language, code)),
            Extraction::NoCode { .. } => None,
        }
    }
}

/// One fenced block.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Block {
    tag: Option<String>,
    content: String,
    complete: bool,
}

/// The judge language id a fence tag names, if any (`c++`, `cc`, `cpp17` are `cpp`;
/// `py`, `python` are `python3`).
pub fn language_of_tag(tag: &str) -> Option<&'static str> {
    let tag = tag.trim().to_ascii_lowercase();
    let word = tag
        .split(|c: char| c.is_whitespace() || c == '{' || c == ',')
        .next()
        .unwrap_or("");
    match word {
        "cpp" | "c++" | "cc" | "cxx" | "hpp" | "h++" => Some("cpp"),
        w if w.starts_with("cpp") || w.starts_with("c++") || w.starts_with("gnu++") => Some("cpp"),
        "py" | "py3" | "python" | "python3" | "pypy" | "pypy3" => Some("python3"),
        "c" => Some("c"),
        "java" => Some("java"),
        _ => None,
    }
}

/// The language a piece of code looks like, by a few markers; `None` when it looks like
/// none (prose, or too little to tell).
pub fn detect(code: &str) -> Option<&'static str> {
    let has = |s: &str| code.contains(s);
    let cpp = [
        "#include",
        "int main",
        "std::",
        "using namespace",
        "cout",
        "cin >>",
        "printf(",
        "scanf(",
    ]
    .iter()
    .filter(|m| has(m))
    .count();
    let python = code.lines().any(|l| {
        let l = l.trim_start();
        l.starts_with("def ")
            || l.starts_with("import ")
            || l.starts_with("from ")
            || l.starts_with("print(")
            || l.starts_with("for ") && l.trim_end().ends_with(':')
            || l.starts_with("if __name__")
    }) || has("input()")
        || has("sys.stdin");
    let java = has("public static void main") || has("public class");
    if java {
        return Some("java");
    }
    if cpp > 0 {
        if !has("std::") && !has("using namespace") && !has("cout") && has("#include <stdio.h>") {
            return Some("c");
        }
        return Some("cpp");
    }
    if python {
        return Some("python3");
    }
    None
}

/// Whether a language id fits the wanted one (C is accepted by a C++ compiler, so a C
/// program passes for C++; nothing else crosses).
fn fits(found: &str, wanted: &str) -> bool {
    found == wanted || (wanted == "cpp" && found == "c")
}

fn blocks(reply: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<(String, String, Option<String>)> = None; // (fence, content, tag)
    for line in reply.split_inclusive('\n') {
        let trimmed = line.trim_start();
        match &mut open {
            None => {
                let fence = if trimmed.starts_with("```") {
                    "```"
                } else if trimmed.starts_with("~~~") {
                    "~~~"
                } else {
                    continue;
                };
                let run = trimmed
                    .chars()
                    .take_while(|c| *c == fence.as_bytes()[0] as char);
                let fence_str: String = run.collect();
                let tag = trimmed[fence_str.len()..].trim();
                // A fence and its closing on one line (```code```) holds inline code, skip.
                if tag.contains(fence) {
                    continue;
                }
                let tag = (!tag.is_empty()).then(|| tag.to_owned());
                open = Some((fence_str, String::new(), tag));
            }
            Some((fence, content, tag)) => {
                let t = trimmed.trim_end();
                if t.starts_with(fence.as_str())
                    && t.chars().all(|c| c == fence.as_bytes()[0] as char)
                {
                    out.push(Block {
                        tag: tag.take(),
                        content: std::mem::take(content),
                        complete: true,
                    });
                    open = None;
                } else {
                    content.push_str(line);
                }
            }
        }
    }
    if let Some((_, content, tag)) = open {
        out.push(Block {
            tag,
            content,
            complete: false,
        });
    }
    out
}

/// Extract the program from a reply; `wanted` is the judge language id asked for, or
/// `None` when the model may choose (then the result is one of [`LANGUAGES`] or what the
/// tag or content says).
pub fn extract(reply: &str, wanted: Option<&str>) -> Extraction {
    let all = blocks(reply);
    let count = all.len();
    let code = |language: &str, content: &str, rule: Rule| Extraction::Code {
        language: language.to_owned(),
        code: normalise(content),
        rule,
        blocks: count,
    };
    let complete: Vec<&Block> = all
        .iter()
        .filter(|b| b.complete && !b.content.trim().is_empty())
        .collect();
    // 1. The last complete block tagged with the wanted (or any known) language.
    let tagged = complete.iter().rev().find_map(|b| {
        let lang = language_of_tag(b.tag.as_deref()?)?;
        match wanted {
            Some(w) if !fits(lang, w) => None,
            _ => Some((lang, b)),
        }
    });
    if let Some((lang, block)) = tagged {
        // A tag that says C over C++ content: the content decides.
        let lang = match (wanted, detect(&block.content)) {
            (Some(w), _) => w,
            (None, Some(found)) if fits(found, lang) || fits(lang, found) => found,
            (None, _) => lang,
        };
        return code(lang, &block.content, Rule::Tagged);
    }
    // 2. The last complete block that looks like the wanted language, whatever its tag.
    let looks = complete.iter().rev().find_map(|b| {
        let found = detect(&b.content)?;
        match wanted {
            Some(w) if !fits(found, w) => None,
            _ => Some((found, b)),
        }
    });
    if let Some((found, block)) = looks {
        let rule = match block.tag.as_deref().and_then(language_of_tag) {
            Some(_) => Rule::Mistagged,
            None => Rule::Untagged,
        };
        return code(wanted.unwrap_or(found), &block.content, rule);
    }
    // 3. An unterminated last block.
    if let Some(last) = all.last().filter(|b| !b.complete) {
        let by_tag = last.tag.as_deref().and_then(language_of_tag);
        let found = detect(&last.content).or(by_tag);
        if let Some(found) = found
            && wanted.is_none_or(|w| fits(found, w))
        {
            return code(wanted.unwrap_or(found), &last.content, Rule::Unterminated);
        }
    }
    // 4. No fence: the reply itself, from its first line of code.
    if count == 0
        && let Some(found) = detect(reply)
        && wanted.is_none_or(|w| fits(found, w))
    {
        let start = reply
            .lines()
            .position(|l| detect(l).is_some() || l.trim_start().starts_with('#'))
            .unwrap_or(0);
        let text: Vec<&str> = reply.lines().skip(start).collect();
        return code(wanted.unwrap_or(found), &text.join("\n"), Rule::Unfenced);
    }
    let reason = match (count, wanted) {
        (0, Some(w)) => format!("no code block and no {w} code in the reply"),
        (0, None) => "no code block and no code in the reply".to_owned(),
        (n, Some(w)) => format!("{n} block(s), none of them {w} code"),
        (n, None) => format!("{n} block(s), none of them code in a known language"),
    };
    Extraction::NoCode {
        reason,
        blocks: count,
    }
}

/// The code as a file: one trailing newline.
fn normalise(content: &str) -> String {
    let mut s = content.trim_end().to_owned();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(reply: &str, wanted: Option<&str>) -> String {
        match extract(reply, wanted) {
            Extraction::Code {
                language,
                code,
                rule,
                blocks,
            } => format!("{language} {rule:?} {blocks}: {}", code.trim_end()),
            Extraction::NoCode { reason, blocks } => format!("none {blocks}: {reason}"),
        }
    }

    #[test]
    fn one_tagged_block() {
        let reply = "Here:\n```cpp\n#include <cstdio>\nint main() {}\n```\nDone.";
        assert_eq!(
            check(reply, Some("cpp")),
            "cpp Tagged 1: #include <cstdio>\nint main() {}"
        );
        assert_eq!(
            check(reply, None),
            "cpp Tagged 1: #include <cstdio>\nint main() {}"
        );
    }

    #[test]
    fn several_blocks_the_last_in_the_wanted_language_wins() {
        let reply = "Sketch:\n```python\nprint(1)\n```\nFinal:\n```cpp\nint main() { return 0; }\n```\nSample run:\n```\n3\n1 2 3\n```\n";
        assert_eq!(
            check(reply, Some("cpp")),
            "cpp Tagged 3: int main() { return 0; }"
        );
        assert_eq!(check(reply, Some("python3")), "python3 Tagged 3: print(1)");
        // Free choice: the last tagged block in a known language.
        assert_eq!(check(reply, None), "cpp Tagged 3: int main() { return 0; }");
        let two = "```py\nprint(1)\n```\n```python\nprint(2)\n```";
        assert_eq!(check(two, None), "python3 Tagged 2: print(2)");
    }

    #[test]
    fn untagged_and_mistagged_blocks() {
        let untagged = "```\nimport sys\nprint(sum(map(int, sys.stdin.read().split()[1:])))\n```";
        assert_eq!(
            check(untagged, Some("python3")),
            "python3 Untagged 1: import sys\nprint(sum(map(int, sys.stdin.read().split()[1:])))"
        );
        let mistagged = "```python\n#include <iostream>\nint main() { std::cout << 1; }\n```";
        assert_eq!(
            check(mistagged, Some("cpp")),
            "cpp Mistagged 1: #include <iostream>\nint main() { std::cout << 1; }"
        );
        // The tag `c` on C++ content, with no wanted language: the content decides.
        let c_tag = "```c\n#include <iostream>\nint main() { std::cout << 1; }\n```";
        assert_eq!(
            check(c_tag, None),
            "cpp Tagged 1: #include <iostream>\nint main() { std::cout << 1; }"
        );
        // A C program is fine for C++.
        let c = "```c\n#include <stdio.h>\nint main(void) { printf(\"1\"); }\n```";
        assert_eq!(
            check(c, Some("cpp")),
            "cpp Tagged 1: #include <stdio.h>\nint main(void) { printf(\"1\"); }"
        );
    }

    #[test]
    fn no_fence() {
        let reply = "#include <cstdio>\nint main() { puts(\"6\"); }\n";
        assert_eq!(
            check(reply, Some("cpp")),
            "cpp Unfenced 0: #include <cstdio>\nint main() { puts(\"6\"); }"
        );
        let prose_first = "Sure, here it is.\nimport sys\nprint(6)";
        assert_eq!(
            check(prose_first, None),
            "python3 Unfenced 0: import sys\nprint(6)"
        );
    }

    #[test]
    fn unterminated_fence() {
        let reply = "Code:\n```cpp\n#include <cstdio>\nint main() {\n  int n;";
        assert_eq!(
            check(reply, Some("cpp")),
            "cpp Unterminated 1: #include <cstdio>\nint main() {\n  int n;"
        );
        // A complete block wins over a cut one after it.
        let reply = "```python\nprint(1)\n```\n```python\nprint(";
        assert_eq!(check(reply, Some("python3")), "python3 Tagged 2: print(1)");
    }

    #[test]
    fn no_code_is_an_outcome() {
        assert_eq!(
            check("I think the answer is to add the numbers.", Some("cpp")),
            "none 0: no code block and no cpp code in the reply"
        );
        assert_eq!(
            check("```\n3\n1 2 3\n```", None),
            "none 1: 1 block(s), none of them code in a known language"
        );
        assert_eq!(
            check("```python\nprint(1)\n```", Some("cpp")),
            "none 1: 1 block(s), none of them cpp code"
        );
        assert_eq!(
            check("", None),
            "none 0: no code block and no code in the reply"
        );
        assert_eq!(
            check("```cpp\n```", Some("cpp")),
            "none 1: 1 block(s), none of them cpp code"
        );
    }

    #[test]
    fn tags_name_languages() {
        assert_eq!(language_of_tag("C++"), Some("cpp"));
        assert_eq!(language_of_tag("cpp17"), Some("cpp"));
        assert_eq!(language_of_tag("python3 title=x"), Some("python3"));
        assert_eq!(language_of_tag("text"), None);
    }
}
