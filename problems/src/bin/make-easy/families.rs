//! The problem families and their problems: statement, input lines, samples, edge cases,
//! a random input by size, the solver that writes the answers, the reference solutions
//! and the wrong ones (each with the mistake it makes in a comment).

use std::collections::BTreeMap;

use crate::rng::Rng;

/// A family of problems (the split holds some families out of training).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Family {
    Arithmetic,
    Strings,
    Lists,
    Loops,
    Conditions,
    Counting,
    Math,
    Bits,
    Geometry,
    Dates,
}

impl Family {
    /// Its name in `problem.yaml` keywords and `split.yaml`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Family::Arithmetic => "arithmetic",
            Family::Strings => "strings",
            Family::Lists => "lists",
            Family::Loops => "loops",
            Family::Conditions => "conditions",
            Family::Counting => "counting",
            Family::Math => "math",
            Family::Bits => "bits",
            Family::Geometry => "geometry",
            Family::Dates => "dates",
        }
    }
}

/// How large a random input is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Size {
    Small,
    Large,
    Max,
}

/// One input line, for the input validator.
pub(crate) enum Line {
    /// Integers, each in its inclusive bounds.
    Ints(Vec<(i64, i64)>),
    /// As many integers as the first integer of the input says, each in the bounds.
    List(i64, i64),
    /// A line matching a Python regular expression, its length in the bounds.
    Text(&'static str, usize, usize),
}

/// One problem.
pub(crate) struct Easy {
    pub(crate) name: &'static str,
    pub(crate) title: &'static str,
    pub(crate) family: Family,
    pub(crate) statement: &'static str,
    pub(crate) lines: Vec<Line>,
    pub(crate) samples: [&'static str; 2],
    pub(crate) edges: Vec<&'static str>,
    pub(crate) random: fn(&mut Rng, Size) -> String,
    pub(crate) solve: fn(&str) -> String,
    pub(crate) case_sensitive: bool,
    pub(crate) cpp: &'static str,
    pub(crate) py: &'static str,
    /// (folder under `submissions/`, file name, source).
    pub(crate) wrong: Vec<(&'static str, &'static str, &'static str)>,
}

// Powers of ten for bounds, here for every batch of tasks (the task modules use this one).
pub(crate) const E6: i64 = 1_000_000;
pub(crate) const E9: i64 = 1_000_000_000;
const E10: i64 = 10_000_000_000;
pub(crate) const E12: i64 = 1_000_000_000_000;
pub(crate) const E15: i64 = 1_000_000_000_000_000;
pub(crate) const E18: i64 = 1_000_000_000_000_000_000;
const MOD: i64 = 1_000_000_007;
const NMAX: i64 = 10_000;

fn nums(input: &str) -> Vec<i64> {
    input
        .split_whitespace()
        .map(|t| t.parse().expect("an integer"))
        .collect()
}

fn line(values: &[i64]) -> String {
    let words: Vec<String> = values.iter().map(i64::to_string).collect();
    format!("{}\n", words.join(" "))
}

fn one<T: std::fmt::Display>(value: T) -> String {
    format!("{value}\n")
}

/// A value in `lo..=hi`, small, anywhere, or near the top.
pub(crate) fn value(rng: &mut Rng, size: Size, lo: i64, hi: i64) -> i64 {
    match size {
        Size::Small => {
            let (a, b) = (lo.max(-100), hi.min(100));
            if a <= b {
                rng.range(a, b)
            } else {
                rng.range(lo, hi.min(lo.saturating_add(100)))
            }
        }
        Size::Large => rng.range(lo, hi),
        Size::Max => rng.range(lo.max(hi - 1000), hi),
    }
}

pub(crate) fn values(rng: &mut Rng, size: Size, count: usize, lo: i64, hi: i64) -> Vec<i64> {
    (0..count).map(|_| value(rng, size, lo, hi)).collect()
}

/// `n` then `n` values, `n <= NMAX`.
fn list(rng: &mut Rng, size: Size, min_n: i64, lo: i64, hi: i64) -> (i64, Vec<i64>) {
    let n = match size {
        Size::Small => rng.range(min_n, 10),
        Size::Large => rng.range(100, NMAX / 2),
        Size::Max => NMAX,
    };
    let vs = match size {
        Size::Max => (0..n).map(|_| rng.range(lo, hi)).collect(),
        _ => values(rng, size, n as usize, lo, hi),
    };
    (n, vs)
}

fn list_input(n: i64, vs: &[i64]) -> String {
    format!("{n}\n{}", line(vs))
}

pub(crate) fn word(rng: &mut Rng, len: usize, letters: &[u8]) -> String {
    (0..len).map(|_| *rng.pick(letters) as char).collect()
}

/// A word of 1 to `max` lowercase letters.
pub(crate) fn short_word(rng: &mut Rng, max: i64) -> String {
    let len = rng.range(1, max) as usize;
    word(rng, len, LOWER)
}

/// A lowercase letter other than the lowercase letter `c`.
pub(crate) fn other_letter(rng: &mut Rng, c: u8) -> u8 {
    b'a' + (c - b'a' + rng.range(1, 25) as u8) % 26
}

pub(crate) const LOWER: &[u8] = b"abcdefghijklmnopqrstuvwxyz";
pub(crate) const MIXED: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

pub(crate) fn text_len(rng: &mut Rng, size: Size) -> usize {
    match size {
        Size::Small => rng.range(1, 12) as usize,
        Size::Large => rng.range(50, 900) as usize,
        Size::Max => 1000,
    }
}

/// Words of lowercase letters joined by single spaces, at most 1000 characters.
pub(crate) fn sentence(rng: &mut Rng, size: Size) -> String {
    let target = text_len(rng, size);
    let mut out = short_word(rng, 8);
    loop {
        let w = short_word(rng, 8);
        if out.len() + 1 + w.len() > target {
            break;
        }
        out.push(' ');
        out.push_str(&w);
    }
    out
}

fn yes(b: bool) -> String {
    one(if b { "YES" } else { "NO" })
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Every problem, in family order.
pub(crate) fn all() -> Vec<Easy> {
    let mut all = Vec::new();
    all.extend(arithmetic());
    all.extend(strings());
    all.extend(lists());
    all.extend(loops());
    all.extend(conditions());
    all.extend(counting());
    all.extend(math());
    all
}

/// The arithmetic family. It is long because it is a table of data: each problem's
/// statement, generator, solver and wrong submissions.
fn arithmetic() -> Vec<Easy> {
    vec![
        Easy {
            name: "aplusb",
            title: "Add Two Numbers",
            family: Family::Arithmetic,
            statement: "You are given two integers $a$ and $b$. Print their sum.\n\n## Input\n\nOne line with two integers $a$ and $b$ ($-10^9 \\le a, b \\le 10^9$), separated by a space.\n\n## Output\n\nPrint one integer: $a + b$.\n",
            lines: vec![Line::Ints(vec![(-E9, E9), (-E9, E9)])],
            samples: ["3 4\n", "-5 12\n"],
            edges: vec![
                "1000000000 1000000000\n",
                "-1000000000 -1000000000\n",
                "0 0\n",
            ],
            random: |rng, size| line(&values(rng, size, 2, -E9, E9)),
            solve: |input| {
                let v = nums(input);
                one(v[0] + v[1])
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n\nint main() {\n    long long a, b;\n    std::cin >> a >> b;\n    std::cout << a + b << \"\\n\";\n}\n",
            py: "a, b = map(int, input().split())\nprint(a + b)\n",
            wrong: vec![(
                "wrong_answer",
                "concatenates.py",
                "# Adds the two numbers as text: 3 and 4 give 34.\na, b = input().split()\nprint(a + b)\n",
            )],
        },
        Easy {
            name: "aminusb",
            title: "Difference",
            family: Family::Arithmetic,
            statement: "You are given two integers $a$ and $b$. Print $a - b$.\n\n## Input\n\nOne line with two integers $a$ and $b$ ($-10^9 \\le a, b \\le 10^9$), separated by a space.\n\n## Output\n\nPrint one integer: $a - b$.\n",
            lines: vec![Line::Ints(vec![(-E9, E9), (-E9, E9)])],
            samples: ["10 3\n", "-2 7\n"],
            edges: vec![
                "1000000000 -1000000000\n",
                "-1000000000 1000000000\n",
                "5 5\n",
            ],
            random: |rng, size| line(&values(rng, size, 2, -E9, E9)),
            solve: |input| {
                let v = nums(input);
                one(v[0] - v[1])
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n\nint main() {\n    long long a, b;\n    std::cin >> a >> b;\n    std::cout << a - b << \"\\n\";\n}\n",
            py: "a, b = map(int, input().split())\nprint(a - b)\n",
            wrong: vec![(
                "wrong_answer",
                "reversed.py",
                "# Subtracts the wrong way round: b - a.\na, b = map(int, input().split())\nprint(b - a)\n",
            )],
        },
        Easy {
            name: "atimesb",
            title: "Product",
            family: Family::Arithmetic,
            statement: "You are given two integers $a$ and $b$. Print their product.\n\n## Input\n\nOne line with two integers $a$ and $b$ ($-10^9 \\le a, b \\le 10^9$), separated by a space.\n\n## Output\n\nPrint one integer: $a \\cdot b$.\n\nNote that the product may not fit in a 32-bit integer.\n",
            lines: vec![Line::Ints(vec![(-E9, E9), (-E9, E9)])],
            samples: ["6 7\n", "-3 5\n"],
            edges: vec![
                "1000000000 1000000000\n",
                "-1000000000 1000000000\n",
                "0 -7\n",
            ],
            random: |rng, size| line(&values(rng, size, 2, -E9, E9)),
            solve: |input| {
                let v = nums(input);
                one(v[0] * v[1])
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n\nint main() {\n    long long a, b;\n    std::cin >> a >> b;\n    std::cout << a * b << \"\\n\";\n}\n",
            py: "a, b = map(int, input().split())\nprint(a * b)\n",
            wrong: vec![(
                "wrong_answer",
                "int_overflow.cpp",
                "// Reads long long but multiplies as int: the product overflows.\n#include <iostream>\n\nint main() {\n    long long a, b;\n    std::cin >> a >> b;\n    int product = (int)((unsigned)a * (unsigned)b);\n    std::cout << product << \"\\n\";\n}\n",
            )],
        },
        Easy {
            name: "divmod",
            title: "Quotient and Remainder",
            family: Family::Arithmetic,
            statement: "You are given two positive integers $a$ and $b$. Divide $a$ by $b$: print the quotient rounded down and the remainder.\n\n## Input\n\nOne line with two integers $a$ and $b$ ($1 \\le a, b \\le 10^9$), separated by a space.\n\n## Output\n\nPrint two integers separated by a space: the largest integer $q$ with $q \\cdot b \\le a$, and $a - q \\cdot b$.\n",
            lines: vec![Line::Ints(vec![(1, E9), (1, E9)])],
            samples: ["17 5\n", "20 4\n"],
            edges: vec!["1 1000000000\n", "1000000000 1\n", "999999999 1000000000\n"],
            random: |rng, size| line(&values(rng, size, 2, 1, E9)),
            solve: |input| {
                let v = nums(input);
                format!("{} {}\n", v[0] / v[1], v[0] % v[1])
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n\nint main() {\n    long long a, b;\n    std::cin >> a >> b;\n    std::cout << a / b << \" \" << a % b << \"\\n\";\n}\n",
            py: "a, b = map(int, input().split())\nprint(a // b, a % b)\n",
            wrong: vec![(
                "wrong_answer",
                "rounds_up.py",
                "# Rounds the quotient up instead of down.\na, b = map(int, input().split())\nq = (a + b - 1) // b\nprint(q, a - q * b)\n",
            )],
        },
        Easy {
            name: "rectangle",
            title: "Fence and Field",
            family: Family::Arithmetic,
            statement: "A rectangular field is $w$ metres wide and $h$ metres long. Print the length of a fence around it and its area.\n\n## Input\n\nOne line with two integers $w$ and $h$ ($1 \\le w, h \\le 10^9$), separated by a space.\n\n## Output\n\nPrint two integers separated by a space: the perimeter $2(w + h)$ and the area $w \\cdot h$.\n",
            lines: vec![Line::Ints(vec![(1, E9), (1, E9)])],
            samples: ["3 4\n", "10 1\n"],
            edges: vec!["1 1\n", "1000000000 1000000000\n", "1 1000000000\n"],
            random: |rng, size| line(&values(rng, size, 2, 1, E9)),
            solve: |input| {
                let v = nums(input);
                format!("{} {}\n", 2 * (v[0] + v[1]), v[0] * v[1])
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n\nint main() {\n    long long w, h;\n    std::cin >> w >> h;\n    std::cout << 2 * (w + h) << \" \" << w * h << \"\\n\";\n}\n",
            py: "w, h = map(int, input().split())\nprint(2 * (w + h), w * h)\n",
            wrong: vec![(
                "wrong_answer",
                "int_overflow.cpp",
                "// 32-bit ints: the area (and a long perimeter) overflow.\n#include <iostream>\n\nint main() {\n    int w, h;\n    std::cin >> w >> h;\n    int perimeter = (int)(2u * ((unsigned)w + (unsigned)h));\n    int area = (int)((unsigned)w * (unsigned)h);\n    std::cout << perimeter << \" \" << area << \"\\n\";\n}\n",
            )],
        },
        Easy {
            name: "sumthree",
            title: "Three Coins",
            family: Family::Arithmetic,
            statement: "You are given three integers $a$, $b$ and $c$. Print their sum.\n\n## Input\n\nOne line with three integers $a$, $b$ and $c$ ($-10^9 \\le a, b, c \\le 10^9$), separated by spaces.\n\n## Output\n\nPrint one integer: $a + b + c$.\n",
            lines: vec![Line::Ints(vec![(-E9, E9), (-E9, E9), (-E9, E9)])],
            samples: ["1 2 3\n", "-4 10 -1\n"],
            edges: vec![
                "1000000000 1000000000 1000000000\n",
                "-1000000000 -1000000000 -1000000000\n",
                "0 0 0\n",
            ],
            random: |rng, size| line(&values(rng, size, 3, -E9, E9)),
            solve: |input| one(nums(input).iter().sum::<i64>()),
            case_sensitive: false,
            cpp: "#include <iostream>\n\nint main() {\n    long long a, b, c;\n    std::cin >> a >> b >> c;\n    std::cout << a + b + c << \"\\n\";\n}\n",
            py: "a, b, c = map(int, input().split())\nprint(a + b + c)\n",
            wrong: vec![(
                "wrong_answer",
                "int_overflow.cpp",
                "// The sum in a 32-bit int.\n#include <iostream>\n\nint main() {\n    int a, b, c;\n    std::cin >> a >> b >> c;\n    int sum = (int)((unsigned)a + (unsigned)b + (unsigned)c);\n    std::cout << sum << \"\\n\";\n}\n",
            )],
        },
        Easy {
            name: "hms",
            title: "Hours, Minutes, Seconds",
            family: Family::Arithmetic,
            statement: "A stopwatch shows $s$ seconds. Write this time as hours, minutes and seconds: $s = 3600h + 60m + x$ with $0 \\le m < 60$ and $0 \\le x < 60$. The number of hours $h$ may be 24 or more.\n\n## Input\n\nOne line with one integer $s$ ($0 \\le s \\le 10^9$).\n\n## Output\n\nPrint three integers $h$, $m$ and $x$, separated by spaces.\n",
            lines: vec![Line::Ints(vec![(0, E9)])],
            samples: ["3725\n", "59\n"],
            edges: vec!["0\n", "1000000000\n", "86400\n", "3600\n"],
            random: |rng, size| line(&[value(rng, size, 0, E9)]),
            solve: |input| {
                let s = nums(input)[0];
                format!("{} {} {}\n", s / 3600, s / 60 % 60, s % 60)
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n\nint main() {\n    long long s;\n    std::cin >> s;\n    std::cout << s / 3600 << \" \" << s / 60 % 60 << \" \" << s % 60 << \"\\n\";\n}\n",
            py: "s = int(input())\nprint(s // 3600, s // 60 % 60, s % 60)\n",
            wrong: vec![(
                "wrong_answer",
                "wraps_days.py",
                "# Wraps the hours at 24, as a clock would.\ns = int(input())\nprint(s // 3600 % 24, s // 60 % 60, s % 60)\n",
            )],
        },
    ]
}

/// The strings family. It is long because it is a table of data: each problem's
/// statement, generator, solver and wrong submissions.
fn strings() -> Vec<Easy> {
    vec![
        Easy {
            name: "reverse",
            title: "Backwards",
            family: Family::Strings,
            statement: "You are given a word. Print it backwards.\n\n## Input\n\nOne line with a word $s$ of lowercase English letters ($1 \\le |s| \\le 1000$).\n\n## Output\n\nPrint the letters of $s$ in reverse order.\n",
            lines: vec![Line::Text("[a-z]+", 1, 1000)],
            samples: ["hello\n", "abc\n"],
            edges: vec!["a\n", "ab\n", "racecar\n"],
            random: |rng, size| {
                let n = text_len(rng, size);
                format!("{}\n", word(rng, n, LOWER))
            },
            solve: |input| format!("{}\n", input.trim().chars().rev().collect::<String>()),
            case_sensitive: false,
            cpp: "#include <iostream>\n#include <string>\n\nint main() {\n    std::string s;\n    std::cin >> s;\n    for (int i = (int)s.size() - 1; i >= 0; i--) std::cout << s[i];\n    std::cout << \"\\n\";\n}\n",
            py: "s = input().strip()\nprint(s[::-1])\n",
            wrong: vec![(
                "wrong_answer",
                "off_by_one.cpp",
                "// Stops one letter early: the first letter is never printed.\n#include <iostream>\n#include <string>\n\nint main() {\n    std::string s;\n    std::cin >> s;\n    for (int i = (int)s.size() - 1; i > 0; i--) std::cout << s[i];\n    std::cout << \"\\n\";\n}\n",
            )],
        },
        Easy {
            name: "countvowels",
            title: "Vowel Counter",
            family: Family::Strings,
            statement: "You are given a word. Count its vowels: the letters `a`, `e`, `i`, `o` and `u`.\n\n## Input\n\nOne line with a word $s$ of lowercase English letters ($1 \\le |s| \\le 1000$).\n\n## Output\n\nPrint one integer: how many letters of $s$ are vowels.\n",
            lines: vec![Line::Text("[a-z]+", 1, 1000)],
            samples: ["programming\n", "sky\n"],
            edges: vec!["a\n", "yyy\n", "aeiouy\n", "bcd\n"],
            random: |rng, size| {
                let n = text_len(rng, size);
                format!("{}\n", word(rng, n, b"aeiouybcdy"))
            },
            solve: |input| {
                one(input
                    .trim()
                    .chars()
                    .filter(|c| "aeiou".contains(*c))
                    .count())
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n#include <string>\n\nint main() {\n    std::string s;\n    std::cin >> s;\n    int count = 0;\n    for (char c : s)\n        if (c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u') count++;\n    std::cout << count << \"\\n\";\n}\n",
            py: "s = input().strip()\nprint(sum(1 for c in s if c in \"aeiou\"))\n",
            wrong: vec![(
                "wrong_answer",
                "counts_y.py",
                "# Counts y as a vowel too.\ns = input().strip()\nprint(sum(1 for c in s if c in \"aeiouy\"))\n",
            )],
        },
        Easy {
            name: "palindrome",
            title: "Same Both Ways",
            family: Family::Strings,
            statement: "A word is a palindrome when it reads the same forwards and backwards. Decide whether the given word is one.\n\n## Input\n\nOne line with a word $s$ of lowercase English letters ($1 \\le |s| \\le 1000$).\n\n## Output\n\nPrint `YES` if $s$ is a palindrome and `NO` otherwise.\n",
            lines: vec![Line::Text("[a-z]+", 1, 1000)],
            samples: ["level\n", "ab\n"],
            edges: vec!["a\n", "abca\n", "abba\n", "abcda\n"],
            random: |rng, size| {
                let n = text_len(rng, size);
                let half = word(rng, n.div_ceil(2), b"ab");
                let mut s: String = half.clone();
                let back: String = half.chars().rev().skip(n % 2).collect();
                s.push_str(&back);
                if rng.range(0, 1) == 0 && s.len() > 2 {
                    let mut b = s.into_bytes();
                    let i = rng.range(1, b.len() as i64 - 2) as usize;
                    b[i] = if b[i] == b'a' { b'c' } else { b'a' };
                    s = String::from_utf8(b).expect("ASCII");
                }
                format!("{s}\n")
            },
            solve: |input| {
                let s = input.trim();
                yes(s.chars().rev().collect::<String>() == s)
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n#include <string>\n\nint main() {\n    std::string s;\n    std::cin >> s;\n    std::string r(s.rbegin(), s.rend());\n    std::cout << (r == s ? \"YES\" : \"NO\") << \"\\n\";\n}\n",
            py: "s = input().strip()\nprint(\"YES\" if s == s[::-1] else \"NO\")\n",
            wrong: vec![(
                "wrong_answer",
                "ends_only.py",
                "# Compares only the first and the last letter.\ns = input().strip()\nprint(\"YES\" if s[0] == s[-1] else \"NO\")\n",
            )],
        },
        Easy {
            name: "uppercase",
            title: "Shout",
            family: Family::Strings,
            statement: "You are given a line of words. Print it with every letter in upper case.\n\n## Input\n\nOne line $s$ of lowercase English letters and spaces ($1 \\le |s| \\le 1000$): words separated by single spaces, with no space at the start or the end.\n\n## Output\n\nPrint $s$ with every letter replaced by its upper-case form; the spaces stay as they are.\n",
            lines: vec![Line::Text("[a-z]+( [a-z]+)*", 1, 1000)],
            samples: ["hello world\n", "abc\n"],
            edges: vec!["a\n", "z y x\n"],
            random: |rng, size| format!("{}\n", sentence(rng, size)),
            solve: |input| format!("{}\n", input.trim_end_matches('\n').to_uppercase()),
            case_sensitive: true,
            cpp: "#include <cctype>\n#include <iostream>\n#include <string>\n\nint main() {\n    std::string s;\n    std::getline(std::cin, s);\n    for (char &c : s) c = (char)std::toupper((unsigned char)c);\n    std::cout << s << \"\\n\";\n}\n",
            py: "print(input().upper())\n",
            wrong: vec![(
                "wrong_answer",
                "shifts_spaces.cpp",
                "// Subtracts 32 from every character, the spaces too.\n#include <iostream>\n#include <string>\n\nint main() {\n    std::string s;\n    std::getline(std::cin, s);\n    for (char &c : s) c = (char)(c - 32);\n    std::cout << s << \"\\n\";\n}\n",
            )],
        },
        Easy {
            name: "swapcase",
            title: "Upside Down Letters",
            family: Family::Strings,
            statement: "You are given a word of English letters. Change every lower-case letter to upper case and every upper-case letter to lower case.\n\n## Input\n\nOne line with a word $s$ of English letters, lower and upper case ($1 \\le |s| \\le 1000$).\n\n## Output\n\nPrint $s$ with the case of every letter swapped.\n",
            lines: vec![Line::Text("[a-zA-Z]+", 1, 1000)],
            samples: ["HeLLo\n", "abcXYZ\n"],
            edges: vec!["a\n", "Z\n", "ABC\n"],
            random: |rng, size| {
                let n = text_len(rng, size);
                format!("{}\n", word(rng, n, MIXED))
            },
            solve: |input| {
                let s: String = input
                    .trim()
                    .chars()
                    .map(|c| {
                        if c.is_ascii_lowercase() {
                            c.to_ascii_uppercase()
                        } else {
                            c.to_ascii_lowercase()
                        }
                    })
                    .collect();
                format!("{s}\n")
            },
            case_sensitive: true,
            cpp: "#include <cctype>\n#include <iostream>\n#include <string>\n\nint main() {\n    std::string s;\n    std::cin >> s;\n    for (char &c : s)\n        c = std::islower((unsigned char)c) ? (char)std::toupper((unsigned char)c) : (char)std::tolower((unsigned char)c);\n    std::cout << s << \"\\n\";\n}\n",
            py: "print(input().strip().swapcase())\n",
            wrong: vec![(
                "wrong_answer",
                "one_way.py",
                "# Turns lower case into upper case but forgets the other way.\ns = input().strip()\nprint(\"\".join(c.upper() if c.islower() else c for c in s))\n",
            )],
        },
        Easy {
            name: "acronym",
            title: "Initials",
            family: Family::Strings,
            statement: "You are given a line of words. Make an acronym: the first letter of every word, in upper case, in order.\n\n## Input\n\nOne line of lowercase English letters and spaces, at most 1000 characters: words separated by single spaces, with no space at the start or the end.\n\n## Output\n\nPrint the acronym: one upper-case letter per word, with nothing between them.\n",
            lines: vec![Line::Text("[a-z]+( [a-z]+)*", 1, 1000)],
            samples: ["portable network graphics\n", "as soon as possible\n"],
            edges: vec!["a\n", "hello\n", "x y z\n"],
            random: |rng, size| format!("{}\n", sentence(rng, size)),
            solve: |input| {
                let s: String = input
                    .split_whitespace()
                    .map(|w| w.chars().next().expect("a letter").to_ascii_uppercase())
                    .collect();
                format!("{s}\n")
            },
            case_sensitive: true,
            cpp: "#include <cctype>\n#include <iostream>\n#include <string>\n\nint main() {\n    std::string word, out;\n    while (std::cin >> word) out += (char)std::toupper((unsigned char)word[0]);\n    std::cout << out << \"\\n\";\n}\n",
            py: "print(\"\".join(w[0].upper() for w in input().split()))\n",
            wrong: vec![(
                "wrong_answer",
                "lower_case.py",
                "# Forgets to change the letters to upper case.\nprint(\"\".join(w[0] for w in input().split()))\n",
            )],
        },
        Easy {
            name: "removevowels",
            title: "Consonants Only",
            family: Family::Strings,
            statement: "You are given a word. Remove every vowel (the letters `a`, `e`, `i`, `o` and `u`) and print what is left.\n\n## Input\n\nOne line with a word $s$ of lowercase English letters ($1 \\le |s| \\le 1000$). At least one letter of $s$ is not a vowel.\n\n## Output\n\nPrint the letters of $s$ that are not vowels, in their order.\n",
            lines: vec![Line::Text("[a-z]*[b-df-hj-np-tv-z][a-z]*", 1, 1000)],
            samples: ["programming\n", "queue\n"],
            edges: vec!["b\n", "aeioux\n", "uuuuz\n"],
            random: |rng, size| {
                let n = text_len(rng, size);
                format!("{}z\n", word(rng, n - 1, b"aeioubcdfu"))
            },
            solve: |input| {
                let s: String = input
                    .trim()
                    .chars()
                    .filter(|c| !"aeiou".contains(*c))
                    .collect();
                format!("{s}\n")
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n#include <string>\n\nint main() {\n    std::string s, out;\n    std::cin >> s;\n    for (char c : s)\n        if (std::string(\"aeiou\").find(c) == std::string::npos) out += c;\n    std::cout << out << \"\\n\";\n}\n",
            py: "s = input().strip()\nprint(\"\".join(c for c in s if c not in \"aeiou\"))\n",
            wrong: vec![(
                "wrong_answer",
                "forgets_u.py",
                "# Forgets the vowel u.\ns = input().strip()\nprint(\"\".join(c for c in s if c not in \"aeio\"))\n",
            )],
        },
    ]
}

const LIST_INPUT: &str = "The first line contains one integer $n$ ($1 \\le n \\le 10\\,000$), the number of values.\nThe second line contains $n$ integers $a_1, \\ldots, a_n$ ($-10^9 \\le a_i \\le 10^9$), separated by spaces.";

fn list_lines(min_n: i64) -> Vec<Line> {
    vec![Line::Ints(vec![(min_n, NMAX)]), Line::List(-E9, E9)]
}

fn random_list(rng: &mut Rng, size: Size) -> String {
    let (n, vs) = list(rng, size, 1, -E9, E9);
    list_input(n, &vs)
}

/// The lists family. It is long because it is a table of data: each problem's
/// statement, generator, solver and wrong submissions.
fn lists() -> Vec<Easy> {
    vec![
        Easy {
            name: "listsum",
            title: "Total",
            family: Family::Lists,
            statement: list_statement(
                "You are given a list of integers. Print their sum.",
                "Print one integer: $a_1 + a_2 + \\cdots + a_n$.",
            ),
            lines: list_lines(1),
            samples: ["3\n1 2 3\n", "2\n-5 5\n"],
            edges: vec!["1\n-1000000000\n", "3\n1000000000 1000000000 1000000000\n"],
            random: random_list,
            solve: |input| one(nums(input)[1..].iter().sum::<i64>()),
            case_sensitive: false,
            cpp: "#include <iostream>\n\nint main() {\n    int n;\n    std::cin >> n;\n    long long total = 0;\n    for (int i = 0; i < n; i++) {\n        long long x;\n        std::cin >> x;\n        total += x;\n    }\n    std::cout << total << \"\\n\";\n}\n",
            py: "n = int(input())\nprint(sum(map(int, input().split())))\n",
            wrong: vec![(
                "wrong_answer",
                "int_overflow.cpp",
                "// Sums in a 32-bit int.\n#include <iostream>\n\nint main() {\n    int n;\n    std::cin >> n;\n    int total = 0;\n    for (int i = 0; i < n; i++) {\n        int x;\n        std::cin >> x;\n        total = (int)((unsigned)total + (unsigned)x);\n    }\n    std::cout << total << \"\\n\";\n}\n",
            )],
        },
        Easy {
            name: "listmax",
            title: "Tallest",
            family: Family::Lists,
            statement: list_statement(
                "You are given a list of integers. Print the largest of them.",
                "Print one integer: the largest $a_i$.",
            ),
            lines: list_lines(1),
            samples: ["4\n3 9 2 7\n", "1\n5\n"],
            edges: vec!["3\n-5 -2 -9\n", "1\n-1000000000\n", "2\n7 7\n"],
            random: random_list,
            solve: |input| one(nums(input)[1..].iter().max().expect("n >= 1")),
            case_sensitive: false,
            cpp: "#include <iostream>\n\nint main() {\n    int n;\n    std::cin >> n;\n    long long best;\n    std::cin >> best;\n    for (int i = 1; i < n; i++) {\n        long long x;\n        std::cin >> x;\n        if (x > best) best = x;\n    }\n    std::cout << best << \"\\n\";\n}\n",
            py: "n = int(input())\nprint(max(map(int, input().split())))\n",
            wrong: vec![(
                "wrong_answer",
                "starts_at_zero.cpp",
                "// Starts the maximum at 0: wrong when every value is negative.\n#include <iostream>\n\nint main() {\n    int n;\n    std::cin >> n;\n    long long best = 0;\n    for (int i = 0; i < n; i++) {\n        long long x;\n        std::cin >> x;\n        if (x > best) best = x;\n    }\n    std::cout << best << \"\\n\";\n}\n",
            )],
        },
        Easy {
            name: "listmin",
            title: "Smallest",
            family: Family::Lists,
            statement: list_statement(
                "You are given a list of integers. Print the smallest of them.",
                "Print one integer: the smallest $a_i$.",
            ),
            lines: list_lines(1),
            samples: ["4\n3 9 2 7\n", "2\n-1 -8\n"],
            edges: vec!["3\n5 2 9\n", "1\n1000000000\n", "2\n7 7\n"],
            random: random_list,
            solve: |input| one(nums(input)[1..].iter().min().expect("n >= 1")),
            case_sensitive: false,
            cpp: "#include <iostream>\n\nint main() {\n    int n;\n    std::cin >> n;\n    long long best;\n    std::cin >> best;\n    for (int i = 1; i < n; i++) {\n        long long x;\n        std::cin >> x;\n        if (x < best) best = x;\n    }\n    std::cout << best << \"\\n\";\n}\n",
            py: "n = int(input())\nprint(min(map(int, input().split())))\n",
            wrong: vec![(
                "wrong_answer",
                "starts_at_zero.py",
                "# Starts the minimum at 0: wrong when every value is positive.\nn = int(input())\nbest = 0\nfor x in map(int, input().split()):\n    if x < best:\n        best = x\nprint(best)\n",
            )],
        },
        Easy {
            name: "sortlist",
            title: "In Order",
            family: Family::Lists,
            statement: list_statement(
                "You are given a list of integers. Print them in non-decreasing order.",
                "Print the $n$ integers in non-decreasing order, separated by spaces.",
            ),
            lines: list_lines(1),
            samples: ["4\n3 9 2 7\n", "3\n-1 10 -8\n"],
            edges: vec!["1\n0\n", "5\n5 4 3 2 1\n", "4\n100 9 20 3\n"],
            random: random_list,
            solve: |input| {
                let mut v = nums(input)[1..].to_vec();
                v.sort();
                line(&v)
            },
            case_sensitive: false,
            cpp: "#include <algorithm>\n#include <iostream>\n#include <vector>\n\nint main() {\n    int n;\n    std::cin >> n;\n    std::vector<long long> a(n);\n    for (auto &x : a) std::cin >> x;\n    std::sort(a.begin(), a.end());\n    for (int i = 0; i < n; i++) std::cout << a[i] << (i + 1 < n ? ' ' : '\\n');\n}\n",
            py: "n = int(input())\nprint(*sorted(map(int, input().split())))\n",
            wrong: vec![(
                "wrong_answer",
                "sorts_text.py",
                "# Sorts the numbers as text: \"10\" comes before \"9\".\nn = int(input())\nprint(*sorted(input().split()))\n",
            )],
        },
        Easy {
            name: "counteven",
            title: "Even Ones",
            family: Family::Lists,
            statement: list_statement(
                "You are given a list of integers. Count how many of them are even.",
                "Print one integer: how many $a_i$ are divisible by 2.",
            ),
            lines: list_lines(1),
            samples: ["5\n1 2 3 4 6\n", "3\n7 9 11\n"],
            edges: vec!["3\n-3 -5 -7\n", "1\n0\n", "4\n-2 -1 1 2\n"],
            random: random_list,
            solve: |input| one(nums(input)[1..].iter().filter(|x| *x % 2 == 0).count()),
            case_sensitive: false,
            cpp: "#include <iostream>\n\nint main() {\n    int n, count = 0;\n    std::cin >> n;\n    for (int i = 0; i < n; i++) {\n        long long x;\n        std::cin >> x;\n        if (x % 2 == 0) count++;\n    }\n    std::cout << count << \"\\n\";\n}\n",
            py: "n = int(input())\nprint(sum(1 for x in map(int, input().split()) if x % 2 == 0))\n",
            wrong: vec![(
                "wrong_answer",
                "negative_odd.cpp",
                "// Counts the odd ones with x % 2 == 1, which is -1 for negative odd numbers in C++.\n#include <iostream>\n\nint main() {\n    int n, odd = 0;\n    std::cin >> n;\n    for (int i = 0; i < n; i++) {\n        long long x;\n        std::cin >> x;\n        if (x % 2 == 1) odd++;\n    }\n    std::cout << n - odd << \"\\n\";\n}\n",
            )],
        },
        Easy {
            name: "secondlargest",
            title: "Runner-up",
            family: Family::Lists,
            statement: "You are given a list of integers with at least two different values. Print the second largest value: the largest value that is smaller than the maximum.\n\n## Input\n\nThe first line contains one integer $n$ ($2 \\le n \\le 10\\,000$), the number of values.\nThe second line contains $n$ integers $a_1, \\ldots, a_n$ ($-10^9 \\le a_i \\le 10^9$), separated by spaces. Not all $a_i$ are equal.\n\n## Output\n\nPrint one integer: the largest $a_i$ that is smaller than $\\max_j a_j$.\n",
            lines: vec![Line::Ints(vec![(2, NMAX)]), Line::List(-E9, E9)],
            samples: ["4\n3 9 2 7\n", "3\n5 5 1\n"],
            edges: vec![
                "2\n-1000000000 1000000000\n",
                "5\n8 8 8 8 7\n",
                "3\n-3 -1 -1\n",
            ],
            random: |rng, size| {
                let (n, mut vs) = list(rng, size, 2, -E9, E9);
                let top = *vs.iter().max().expect("n >= 2");
                let len = vs.len();
                vs[rng.range(0, len as i64 - 1) as usize] = top;
                if vs.iter().all(|v| *v == top) {
                    vs[0] = top - 1;
                }
                list_input(n, &vs)
            },
            solve: |input| {
                let v = &nums(input)[1..];
                let top = *v.iter().max().expect("n >= 2");
                one(v.iter().filter(|x| **x < top).max().expect("two values"))
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n#include <vector>\n\nint main() {\n    int n;\n    std::cin >> n;\n    std::vector<long long> a(n);\n    for (auto &x : a) std::cin >> x;\n    long long top = a[0];\n    for (auto x : a) if (x > top) top = x;\n    bool found = false;\n    long long second = 0;\n    for (auto x : a)\n        if (x < top && (!found || x > second)) second = x, found = true;\n    std::cout << second << \"\\n\";\n}\n",
            py: "n = int(input())\na = list(map(int, input().split()))\ntop = max(a)\nprint(max(x for x in a if x < top))\n",
            wrong: vec![(
                "wrong_answer",
                "sorted_index.py",
                "# Sorts and takes the second to last value: wrong when the maximum repeats.\nn = int(input())\na = sorted(map(int, input().split()))\nprint(a[-2])\n",
            )],
        },
        Easy {
            name: "listrange",
            title: "Spread",
            family: Family::Lists,
            statement: list_statement(
                "You are given a list of integers. Print the difference between the largest and the smallest of them.",
                "Print one integer: $\\max_i a_i - \\min_i a_i$.",
            ),
            lines: list_lines(1),
            samples: ["4\n3 9 2 7\n", "1\n5\n"],
            edges: vec!["2\n-1000000000 1000000000\n", "3\n4 4 4\n"],
            random: random_list,
            solve: |input| {
                let v = &nums(input)[1..];
                one(v.iter().max().expect("n") - v.iter().min().expect("n"))
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n\nint main() {\n    int n;\n    std::cin >> n;\n    long long lo, hi, x;\n    std::cin >> x;\n    lo = hi = x;\n    for (int i = 1; i < n; i++) {\n        std::cin >> x;\n        if (x < lo) lo = x;\n        if (x > hi) hi = x;\n    }\n    std::cout << hi - lo << \"\\n\";\n}\n",
            py: "n = int(input())\na = list(map(int, input().split()))\nprint(max(a) - min(a))\n",
            wrong: vec![(
                "wrong_answer",
                "starts_at_zero.cpp",
                "// Starts both the minimum and the maximum at 0: wrong unless the values straddle 0.\n#include <iostream>\n\nint main() {\n    int n;\n    std::cin >> n;\n    long long lo = 0, hi = 0, x;\n    for (int i = 0; i < n; i++) {\n        std::cin >> x;\n        if (x < lo) lo = x;\n        if (x > hi) hi = x;\n    }\n    std::cout << hi - lo << \"\\n\";\n}\n",
            )],
        },
        Easy {
            name: "reverselist",
            title: "Last to First",
            family: Family::Lists,
            statement: list_statement(
                "You are given a list of integers. Print it in reverse order.",
                "Print $a_n, a_{n-1}, \\ldots, a_1$, separated by spaces.",
            ),
            lines: list_lines(1),
            samples: ["4\n3 9 2 7\n", "2\n-1 1\n"],
            edges: vec!["1\n42\n", "3\n1 2 3\n"],
            random: random_list,
            solve: |input| {
                let mut v = nums(input)[1..].to_vec();
                v.reverse();
                line(&v)
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n#include <vector>\n\nint main() {\n    int n;\n    std::cin >> n;\n    std::vector<long long> a(n);\n    for (auto &x : a) std::cin >> x;\n    for (int i = n - 1; i >= 0; i--) std::cout << a[i] << (i > 0 ? ' ' : '\\n');\n}\n",
            py: "n = int(input())\nprint(*reversed(input().split()))\n",
            wrong: vec![(
                "wrong_answer",
                "off_by_one.cpp",
                "// Stops one early: the first value is never printed.\n#include <iostream>\n#include <vector>\n\nint main() {\n    int n;\n    std::cin >> n;\n    std::vector<long long> a(n);\n    for (auto &x : a) std::cin >> x;\n    for (int i = n - 1; i > 0; i--) std::cout << a[i] << ' ';\n    std::cout << \"\\n\";\n}\n",
            )],
        },
    ]
}

/// A list statement: the legend, the common input section and the output.
fn list_statement(legend: &'static str, output: &'static str) -> &'static str {
    let text = format!("{legend}\n\n## Input\n\n{LIST_INPUT}\n\n## Output\n\n{output}\n");
    Box::leak(text.into_boxed_str())
}

fn loops() -> Vec<Easy> {
    vec![
        Easy {
            name: "sumton",
            title: "Staircase",
            family: Family::Loops,
            statement: "Print the sum of all integers from 1 to $n$.\n\n## Input\n\nOne line with one integer $n$ ($1 \\le n \\le 10^9$).\n\n## Output\n\nPrint one integer: $1 + 2 + \\cdots + n$.\n",
            lines: vec![Line::Ints(vec![(1, E9)])],
            samples: ["4\n", "10\n"],
            edges: vec!["1\n", "1000000000\n", "65536\n"],
            random: |rng, size| line(&[value(rng, size, 1, E9)]),
            solve: |input| {
                let n = nums(input)[0];
                one(n * (n + 1) / 2)
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n\nint main() {\n    long long n;\n    std::cin >> n;\n    std::cout << n * (n + 1) / 2 << \"\\n\";\n}\n",
            py: "n = int(input())\nprint(n * (n + 1) // 2)\n",
            wrong: vec![(
                "wrong_answer",
                "int_overflow.cpp",
                "// The formula in 32-bit ints.\n#include <iostream>\n\nint main() {\n    int n;\n    std::cin >> n;\n    int sum = (int)((unsigned)n * (unsigned)(n + 1) / 2u);\n    std::cout << sum << \"\\n\";\n}\n",
            )],
        },
        Easy {
            name: "factorialmod",
            title: "Big Factorial",
            family: Family::Loops,
            statement: "Print $n!$ (the product $1 \\cdot 2 \\cdots n$; $0! = 1$) modulo $10^9 + 7$.\n\n## Input\n\nOne line with one integer $n$ ($0 \\le n \\le 100\\,000$).\n\n## Output\n\nPrint one integer: the remainder of $n!$ divided by $1\\,000\\,000\\,007$.\n",
            lines: vec![Line::Ints(vec![(0, 100_000)])],
            samples: ["5\n", "0\n"],
            edges: vec!["1\n", "100000\n", "13\n"],
            random: |rng, size| line(&[value(rng, size, 0, 100_000)]),
            solve: |input| {
                let n = nums(input)[0];
                one((1..=n).fold(1i64, |acc, i| acc * i % MOD))
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n\nint main() {\n    long long n, result = 1;\n    std::cin >> n;\n    for (long long i = 2; i <= n; i++) result = result * i % 1000000007;\n    std::cout << result << \"\\n\";\n}\n",
            py: "n = int(input())\nresult = 1\nfor i in range(2, n + 1):\n    result = result * i % 1000000007\nprint(result)\n",
            wrong: vec![(
                "wrong_answer",
                "int_overflow.cpp",
                "// Multiplies in 32-bit ints before taking the remainder.\n#include <iostream>\n\nint main() {\n    int n, result = 1;\n    std::cin >> n;\n    for (int i = 2; i <= n; i++) result = (int)((unsigned)result * (unsigned)i) % 1000000007;\n    std::cout << result << \"\\n\";\n}\n",
            )],
        },
        Easy {
            name: "fizzbuzzcount",
            title: "Threes and Fives",
            family: Family::Loops,
            statement: "Count the integers from 1 to $n$ that are divisible by 3 or by 5 (or both).\n\n## Input\n\nOne line with one integer $n$ ($1 \\le n \\le 10^{12}$).\n\n## Output\n\nPrint one integer: how many of $1, 2, \\ldots, n$ are divisible by 3 or 5.\n",
            lines: vec![Line::Ints(vec![(1, E12)])],
            samples: ["15\n", "7\n"],
            edges: vec!["1\n", "1000000000000\n", "30\n"],
            random: |rng, size| line(&[value(rng, size, 1, E12)]),
            solve: |input| {
                let n = nums(input)[0];
                one(n / 3 + n / 5 - n / 15)
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n\nint main() {\n    long long n;\n    std::cin >> n;\n    std::cout << n / 3 + n / 5 - n / 15 << \"\\n\";\n}\n",
            py: "n = int(input())\nprint(n // 3 + n // 5 - n // 15)\n",
            wrong: vec![
                (
                    "wrong_answer",
                    "counts_twice.py",
                    "# Counts the multiples of 15 twice.\nn = int(input())\nprint(n // 3 + n // 5)\n",
                ),
                (
                    "time_limit_exceeded",
                    "loop.cpp",
                    "// Tries every number: up to 10^12 steps.\n#include <iostream>\n\nint main() {\n    long long n, count = 0;\n    std::cin >> n;\n    for (long long i = 1; i <= n; i++)\n        if (i % 3 == 0 || i % 5 == 0) count++;\n    std::cout << count << \"\\n\";\n}\n",
                ),
            ],
        },
        Easy {
            name: "fizzbuzz",
            title: "Fizz and Buzz",
            family: Family::Loops,
            statement: "Print the integers from 1 to $n$, one per line, but print `Fizz` instead of a number divisible by 3 and not by 5, `Buzz` instead of a number divisible by 5 and not by 3, and `FizzBuzz` instead of a number divisible by both.\n\n## Input\n\nOne line with one integer $n$ ($1 \\le n \\le 1000$).\n\n## Output\n\nPrint $n$ lines as described.\n",
            lines: vec![Line::Ints(vec![(1, 1000)])],
            samples: ["5\n", "15\n"],
            edges: vec!["1\n", "1000\n", "3\n"],
            random: |rng, size| line(&[value(rng, size, 1, 1000)]),
            solve: |input| {
                let n = nums(input)[0];
                (1..=n)
                    .map(|i| match (i % 3, i % 5) {
                        (0, 0) => "FizzBuzz\n".to_owned(),
                        (0, _) => "Fizz\n".to_owned(),
                        (_, 0) => "Buzz\n".to_owned(),
                        _ => format!("{i}\n"),
                    })
                    .collect()
            },
            case_sensitive: true,
            cpp: "#include <iostream>\n\nint main() {\n    int n;\n    std::cin >> n;\n    for (int i = 1; i <= n; i++) {\n        if (i % 15 == 0) std::cout << \"FizzBuzz\\n\";\n        else if (i % 3 == 0) std::cout << \"Fizz\\n\";\n        else if (i % 5 == 0) std::cout << \"Buzz\\n\";\n        else std::cout << i << \"\\n\";\n    }\n}\n",
            py: "n = int(input())\nfor i in range(1, n + 1):\n    if i % 15 == 0:\n        print(\"FizzBuzz\")\n    elif i % 3 == 0:\n        print(\"Fizz\")\n    elif i % 5 == 0:\n        print(\"Buzz\")\n    else:\n        print(i)\n",
            wrong: vec![(
                "wrong_answer",
                "three_first.py",
                "# Tests 3 before 15: FizzBuzz is never printed.\nn = int(input())\nfor i in range(1, n + 1):\n    if i % 3 == 0:\n        print(\"Fizz\")\n    elif i % 5 == 0:\n        print(\"Buzz\")\n    elif i % 15 == 0:\n        print(\"FizzBuzz\")\n    else:\n        print(i)\n",
            )],
        },
        Easy {
            name: "sumsquares",
            title: "Square Pyramid",
            family: Family::Loops,
            statement: "Print the sum of the squares of the integers from 1 to $n$.\n\n## Input\n\nOne line with one integer $n$ ($1 \\le n \\le 10^6$).\n\n## Output\n\nPrint one integer: $1^2 + 2^2 + \\cdots + n^2$.\n",
            lines: vec![Line::Ints(vec![(1, 1_000_000)])],
            samples: ["3\n", "10\n"],
            edges: vec!["1\n", "1000000\n", "1860\n"],
            random: |rng, size| line(&[value(rng, size, 1, 1_000_000)]),
            solve: |input| {
                let n = nums(input)[0];
                one(n * (n + 1) * (2 * n + 1) / 6)
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n\nint main() {\n    long long n, total = 0;\n    std::cin >> n;\n    for (long long i = 1; i <= n; i++) total += i * i;\n    std::cout << total << \"\\n\";\n}\n",
            py: "n = int(input())\nprint(n * (n + 1) * (2 * n + 1) // 6)\n",
            wrong: vec![(
                "wrong_answer",
                "int_overflow.cpp",
                "// Adds the squares in a 32-bit int.\n#include <iostream>\n\nint main() {\n    int n;\n    std::cin >> n;\n    unsigned total = 0;\n    for (int i = 1; i <= n; i++) total += (unsigned)i * (unsigned)i;\n    std::cout << (int)total << \"\\n\";\n}\n",
            )],
        },
        Easy {
            name: "stars",
            title: "Star Triangle",
            family: Family::Loops,
            statement: "Draw a triangle of stars: $n$ lines, where line $i$ holds $i$ characters `*` and nothing else.\n\n## Input\n\nOne line with one integer $n$ ($1 \\le n \\le 100$).\n\n## Output\n\nPrint $n$ lines: the $i$-th line has exactly $i$ stars.\n",
            lines: vec![Line::Ints(vec![(1, 100)])],
            samples: ["3\n", "1\n"],
            edges: vec!["100\n", "2\n"],
            random: |rng, size| line(&[value(rng, size, 1, 100)]),
            solve: |input| {
                let n = nums(input)[0] as usize;
                (1..=n).map(|i| format!("{}\n", "*".repeat(i))).collect()
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n#include <string>\n\nint main() {\n    int n;\n    std::cin >> n;\n    for (int i = 1; i <= n; i++) std::cout << std::string(i, '*') << \"\\n\";\n}\n",
            py: "n = int(input())\nfor i in range(1, n + 1):\n    print(\"*\" * i)\n",
            wrong: vec![(
                "wrong_answer",
                "from_zero.py",
                "# Counts the lines from 0: one line short, the longest missing.\nn = int(input())\nfor i in range(n):\n    print(\"*\" * i)\n",
            )],
        },
    ]
}

/// The conditions family. It is long because it is a table of data: each problem's
/// statement, generator, solver and wrong submissions.
fn conditions() -> Vec<Easy> {
    vec![
        Easy {
            name: "maxofthree",
            title: "Best of Three",
            family: Family::Conditions,
            statement: "You are given three integers. Print the largest of them.\n\n## Input\n\nOne line with three integers $a$, $b$ and $c$ ($-10^9 \\le a, b, c \\le 10^9$), separated by spaces.\n\n## Output\n\nPrint one integer: the largest of $a$, $b$ and $c$.\n",
            lines: vec![Line::Ints(vec![(-E9, E9), (-E9, E9), (-E9, E9)])],
            samples: ["1 5 3\n", "-2 -7 -4\n"],
            edges: vec!["5 1 9\n", "7 7 7\n", "3 2 1\n"],
            random: |rng, size| line(&values(rng, size, 3, -E9, E9)),
            solve: |input| one(nums(input).into_iter().max().expect("three")),
            case_sensitive: false,
            cpp: "#include <algorithm>\n#include <iostream>\n\nint main() {\n    long long a, b, c;\n    std::cin >> a >> b >> c;\n    std::cout << std::max({a, b, c}) << \"\\n\";\n}\n",
            py: "print(max(map(int, input().split())))\n",
            wrong: vec![(
                "wrong_answer",
                "chained.py",
                "# Compares a with b, then b with c: misses a < c when a > b.\na, b, c = map(int, input().split())\nif a > b:\n    print(a)\nelif b > c:\n    print(b)\nelse:\n    print(c)\n",
            )],
        },
        Easy {
            name: "leapyear",
            title: "February the 29th",
            family: Family::Conditions,
            statement: "In the Gregorian calendar a year is a leap year when it is divisible by 4, except that a year divisible by 100 is a leap year only when it is also divisible by 400. Decide whether year $y$ is a leap year.\n\n## Input\n\nOne line with one integer $y$ ($1 \\le y \\le 10^9$).\n\n## Output\n\nPrint `YES` if $y$ is a leap year and `NO` otherwise.\n",
            lines: vec![Line::Ints(vec![(1, E9)])],
            samples: ["2024\n", "2023\n"],
            edges: vec!["1900\n", "2000\n", "1\n", "1000000000\n"],
            random: |rng, size| {
                let y = value(rng, size, 1, E9);
                let y = match rng.range(0, 2) {
                    0 => y - y % 100 + 100,
                    1 => y - y % 4 + 4,
                    _ => y,
                };
                line(&[y.min(E9)])
            },
            solve: |input| {
                let y = nums(input)[0];
                yes(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0))
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n\nint main() {\n    long long y;\n    std::cin >> y;\n    bool leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);\n    std::cout << (leap ? \"YES\" : \"NO\") << \"\\n\";\n}\n",
            py: "y = int(input())\nprint(\"YES\" if y % 4 == 0 and (y % 100 != 0 or y % 400 == 0) else \"NO\")\n",
            wrong: vec![(
                "wrong_answer",
                "every_fourth.py",
                "# Forgets the century rule.\ny = int(input())\nprint(\"YES\" if y % 4 == 0 else \"NO\")\n",
            )],
        },
        Easy {
            name: "sign",
            title: "Above or Below",
            family: Family::Conditions,
            statement: "You are given an integer $n$. Say whether it is positive, negative or zero.\n\n## Input\n\nOne line with one integer $n$ ($-10^{18} \\le n \\le 10^{18}$).\n\n## Output\n\nPrint `positive` if $n > 0$, `negative` if $n < 0$ and `zero` if $n = 0$.\n",
            lines: vec![Line::Ints(vec![(-E18, E18)])],
            samples: ["5\n", "-3\n"],
            edges: vec!["0\n", "1000000000000000000\n", "-1000000000000000000\n"],
            random: |rng, size| line(&[value(rng, size, -E18, E18)]),
            solve: |input| {
                let n = nums(input)[0];
                one(match n.signum() {
                    1 => "positive",
                    -1 => "negative",
                    _ => "zero",
                })
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n\nint main() {\n    long long n;\n    std::cin >> n;\n    if (n > 0) std::cout << \"positive\\n\";\n    else if (n < 0) std::cout << \"negative\\n\";\n    else std::cout << \"zero\\n\";\n}\n",
            py: "n = int(input())\nprint(\"positive\" if n > 0 else \"negative\" if n < 0 else \"zero\")\n",
            wrong: vec![(
                "wrong_answer",
                "forgets_zero.py",
                "# Forgets zero: 0 counts as positive.\nn = int(input())\nprint(\"positive\" if n >= 0 else \"negative\")\n",
            )],
        },
        Easy {
            name: "evenodd",
            title: "Parity",
            family: Family::Conditions,
            statement: "You are given an integer $n$. Say whether it is even or odd.\n\n## Input\n\nOne line with one integer $n$ ($-10^{18} \\le n \\le 10^{18}$).\n\n## Output\n\nPrint `even` if $n$ is divisible by 2 and `odd` otherwise.\n",
            lines: vec![Line::Ints(vec![(-E18, E18)])],
            samples: ["4\n", "7\n"],
            edges: vec![
                "-7\n",
                "0\n",
                "-1000000000000000000\n",
                "999999999999999999\n",
            ],
            random: |rng, size| line(&[value(rng, size, -E18, E18)]),
            solve: |input| {
                one(if nums(input)[0] % 2 == 0 {
                    "even"
                } else {
                    "odd"
                })
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n\nint main() {\n    long long n;\n    std::cin >> n;\n    std::cout << (n % 2 == 0 ? \"even\" : \"odd\") << \"\\n\";\n}\n",
            py: "n = int(input())\nprint(\"even\" if n % 2 == 0 else \"odd\")\n",
            wrong: vec![(
                "wrong_answer",
                "negative_odd.cpp",
                "// Tests n % 2 == 1, which is false for negative odd numbers in C++.\n#include <iostream>\n\nint main() {\n    long long n;\n    std::cin >> n;\n    std::cout << (n % 2 == 1 ? \"odd\" : \"even\") << \"\\n\";\n}\n",
            )],
        },
        Easy {
            name: "grade",
            title: "Report Card",
            family: Family::Conditions,
            statement: "A test is marked out of 100. A score of 90 or more gets grade `A`, 80 to 89 gets `B`, 70 to 79 gets `C`, 60 to 69 gets `D`, and less than 60 gets `F`. Print the grade of a score.\n\n## Input\n\nOne line with one integer $s$ ($0 \\le s \\le 100$).\n\n## Output\n\nPrint one letter: the grade of $s$.\n",
            lines: vec![Line::Ints(vec![(0, 100)])],
            samples: ["95\n", "42\n"],
            edges: vec!["90\n", "80\n", "70\n", "60\n", "0\n", "100\n"],
            random: |rng, size| line(&[value(rng, size, 0, 100)]),
            solve: |input| {
                let s = nums(input)[0];
                one(match s {
                    90.. => "A",
                    80..=89 => "B",
                    70..=79 => "C",
                    60..=69 => "D",
                    _ => "F",
                })
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n\nint main() {\n    int s;\n    std::cin >> s;\n    char g = s >= 90 ? 'A' : s >= 80 ? 'B' : s >= 70 ? 'C' : s >= 60 ? 'D' : 'F';\n    std::cout << g << \"\\n\";\n}\n",
            py: "s = int(input())\nif s >= 90:\n    print(\"A\")\nelif s >= 80:\n    print(\"B\")\nelif s >= 70:\n    print(\"C\")\nelif s >= 60:\n    print(\"D\")\nelse:\n    print(\"F\")\n",
            wrong: vec![(
                "wrong_answer",
                "strict_bounds.py",
                "# Uses > where >= is meant: a score on a boundary gets the lower grade.\ns = int(input())\nif s > 90:\n    print(\"A\")\nelif s > 80:\n    print(\"B\")\nelif s > 70:\n    print(\"C\")\nelif s > 60:\n    print(\"D\")\nelse:\n    print(\"F\")\n",
            )],
        },
        Easy {
            name: "triangle",
            title: "Three Sticks",
            family: Family::Conditions,
            statement: "You have three sticks of lengths $a$, $b$ and $c$. Decide whether they form a triangle of positive area: each length must be smaller than the sum of the other two.\n\n## Input\n\nOne line with three integers $a$, $b$ and $c$ ($1 \\le a, b, c \\le 10^9$), separated by spaces.\n\n## Output\n\nPrint `YES` if the sticks form a triangle of positive area and `NO` otherwise.\n",
            lines: vec![Line::Ints(vec![(1, E9), (1, E9), (1, E9)])],
            samples: ["3 4 5\n", "1 2 5\n"],
            edges: vec![
                "1 2 3\n",
                "1000000000 1000000000 1000000000\n",
                "5 3 2\n",
                "1 1 1\n",
            ],
            random: |rng, size| {
                let mut v = values(rng, size, 3, 1, E9);
                if rng.range(0, 1) == 0 {
                    v[2] = (v[0] + v[1] - rng.range(0, 1)).clamp(1, E9);
                }
                line(&v)
            },
            solve: |input| {
                let v = nums(input);
                yes(v[0] < v[1] + v[2] && v[1] < v[0] + v[2] && v[2] < v[0] + v[1])
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n\nint main() {\n    long long a, b, c;\n    std::cin >> a >> b >> c;\n    bool ok = a < b + c && b < a + c && c < a + b;\n    std::cout << (ok ? \"YES\" : \"NO\") << \"\\n\";\n}\n",
            py: "a, b, c = map(int, input().split())\nprint(\"YES\" if a < b + c and b < a + c and c < a + b else \"NO\")\n",
            wrong: vec![(
                "wrong_answer",
                "flat_counts.py",
                "# Uses <= where < is meant: a flat triangle counts.\na, b, c = map(int, input().split())\nprint(\"YES\" if a <= b + c and b <= a + c and c <= a + b else \"NO\")\n",
            )],
        },
    ]
}

fn counting() -> Vec<Easy> {
    vec![
        Easy {
            name: "distinct",
            title: "Different Values",
            family: Family::Counting,
            statement: list_statement(
                "You are given a list of integers. Count how many different values it holds.",
                "Print one integer: the number of distinct values among $a_1, \\ldots, a_n$.",
            ),
            lines: list_lines(1),
            samples: ["5\n1 2 1 3 2\n", "3\n7 7 7\n"],
            edges: vec!["1\n0\n", "6\n1 2 1 2 1 2\n", "4\n-1 1 -1 1\n"],
            random: |rng, size| {
                let (n, vs) = list(rng, size, 1, -E9, E9);
                let vs: Vec<i64> = vs.iter().map(|v| v % (n / 2 + 2)).collect();
                list_input(n, &vs)
            },
            solve: |input| {
                let v: std::collections::BTreeSet<i64> = nums(input)[1..].iter().copied().collect();
                one(v.len())
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n#include <set>\n\nint main() {\n    int n;\n    std::cin >> n;\n    std::set<long long> seen;\n    for (int i = 0; i < n; i++) {\n        long long x;\n        std::cin >> x;\n        seen.insert(x);\n    }\n    std::cout << seen.size() << \"\\n\";\n}\n",
            py: "n = int(input())\nprint(len(set(input().split())))\n",
            wrong: vec![(
                "wrong_answer",
                "adjacent_only.py",
                "# Counts changes between neighbours, as if the list were sorted.\nn = int(input())\na = input().split()\nprint(1 + sum(1 for i in range(1, n) if a[i] != a[i - 1]))\n",
            )],
        },
        Easy {
            name: "occurrences",
            title: "How Many Times",
            family: Family::Counting,
            statement: "You are given a list of integers and an integer $x$. Count how many elements of the list are equal to $x$.\n\n## Input\n\nThe first line contains two integers $n$ and $x$ ($1 \\le n \\le 10\\,000$, $-10^9 \\le x \\le 10^9$).\nThe second line contains $n$ integers $a_1, \\ldots, a_n$ ($-10^9 \\le a_i \\le 10^9$), separated by spaces.\n\n## Output\n\nPrint one integer: how many $a_i$ are equal to $x$.\n",
            lines: vec![Line::Ints(vec![(1, NMAX), (-E9, E9)]), Line::List(-E9, E9)],
            samples: ["5 2\n1 2 3 2 2\n", "3 4\n1 2 3\n"],
            edges: vec!["3 1\n11 1 21\n", "1 -5\n-5\n", "4 2\n-2 22 2 12\n"],
            random: |rng, size| {
                let (n, vs) = list(rng, size, 1, -E9, E9);
                let vs: Vec<i64> = vs.iter().map(|v| v % 13).collect();
                let x = rng.range(-12, 12);
                format!("{n} {x}\n{}", line(&vs))
            },
            solve: |input| {
                let v = nums(input);
                one(v[2..].iter().filter(|a| **a == v[1]).count())
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n\nint main() {\n    int n;\n    long long x;\n    std::cin >> n >> x;\n    int count = 0;\n    for (int i = 0; i < n; i++) {\n        long long a;\n        std::cin >> a;\n        if (a == x) count++;\n    }\n    std::cout << count << \"\\n\";\n}\n",
            py: "n, x = map(int, input().split())\nprint(sum(1 for a in map(int, input().split()) if a == x))\n",
            wrong: vec![(
                "wrong_answer",
                "substring.py",
                "# Counts x as text in the line: 1 is found in 11 and 21 too.\nn, x = input().split()\nprint(input().count(x))\n",
            )],
        },
        Easy {
            name: "mostfrequent",
            title: "Most Common",
            family: Family::Counting,
            statement: "You are given a list of integers. Print the value that occurs most often; if several values occur equally often, print the smallest of them.\n\n## Input\n\nThe first line contains one integer $n$ ($1 \\le n \\le 10\\,000$), the number of values.\nThe second line contains $n$ integers $a_1, \\ldots, a_n$ ($-10^9 \\le a_i \\le 10^9$), separated by spaces.\n\n## Output\n\nPrint one integer: the most frequent value, the smallest one on a tie.\n",
            lines: list_lines(1),
            samples: ["5\n1 2 1 3 2\n", "4\n5 5 9 5\n"],
            edges: vec!["1\n7\n", "4\n3 -3 3 -3\n", "3\n9 8 7\n"],
            random: |rng, size| {
                let (n, vs) = list(rng, size, 1, -E9, E9);
                let vs: Vec<i64> = vs.iter().map(|v| v % 7).collect();
                list_input(n, &vs)
            },
            solve: |input| {
                let mut counts: BTreeMap<i64, usize> = BTreeMap::new();
                for v in &nums(input)[1..] {
                    *counts.entry(*v).or_default() += 1;
                }
                let top = *counts.values().max().expect("n >= 1");
                one(counts.iter().find(|(_, c)| **c == top).expect("a value").0)
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n#include <map>\n\nint main() {\n    int n;\n    std::cin >> n;\n    std::map<long long, int> count;\n    for (int i = 0; i < n; i++) {\n        long long x;\n        std::cin >> x;\n        count[x]++;\n    }\n    long long best = 0;\n    int most = 0;\n    for (auto [value, c] : count)\n        if (c > most) most = c, best = value;\n    std::cout << best << \"\\n\";\n}\n",
            py: "from collections import Counter\n\nn = int(input())\ncount = Counter(map(int, input().split()))\nmost = max(count.values())\nprint(min(v for v, c in count.items() if c == most))\n",
            wrong: vec![(
                "wrong_answer",
                "largest_on_tie.cpp",
                "// Uses >= when comparing counts: the largest value wins a tie.\n#include <iostream>\n#include <map>\n\nint main() {\n    int n;\n    std::cin >> n;\n    std::map<long long, int> count;\n    for (int i = 0; i < n; i++) {\n        long long x;\n        std::cin >> x;\n        count[x]++;\n    }\n    long long best = 0;\n    int most = 0;\n    for (auto [value, c] : count)\n        if (c >= most) most = c, best = value;\n    std::cout << best << \"\\n\";\n}\n",
            )],
        },
        Easy {
            name: "countwords",
            title: "Word Count",
            family: Family::Counting,
            statement: "You are given a line of text. Count its words: the maximal runs of letters. Words may be separated by more than one space, and the line may start or end with spaces.\n\n## Input\n\nOne line of lowercase English letters and spaces, at most 1000 characters, with at least one letter.\n\n## Output\n\nPrint one integer: the number of words.\n",
            lines: vec![Line::Text(" *[a-z]+( +[a-z]+)* *", 1, 1000)],
            samples: ["hello world\n", "  one   two three \n"],
            edges: vec!["a\n", "   a\n", "x  y\n"],
            random: |rng, size| {
                let target = text_len(rng, size);
                let mut out = " ".repeat(rng.range(0, 2) as usize);
                out.push_str(&short_word(rng, 6));
                loop {
                    let gap = " ".repeat(rng.range(1, 3) as usize);
                    let w = short_word(rng, 6);
                    if out.len() + gap.len() + w.len() + 2 > target {
                        break;
                    }
                    out.push_str(&gap);
                    out.push_str(&w);
                }
                out.push_str(&" ".repeat(rng.range(0, 2) as usize));
                format!("{out}\n")
            },
            solve: |input| one(input.split_whitespace().count()),
            case_sensitive: false,
            cpp: "#include <iostream>\n#include <string>\n\nint main() {\n    std::string word;\n    int count = 0;\n    while (std::cin >> word) count++;\n    std::cout << count << \"\\n\";\n}\n",
            py: "print(len(input().split()))\n",
            wrong: vec![(
                "wrong_answer",
                "count_spaces.py",
                "# Counts the spaces and adds one: wrong with extra spaces.\nprint(input().count(\" \") + 1)\n",
            )],
        },
    ]
}

/// The math family. It is long because it is a table of data: each problem's
/// statement, generator, solver and wrong submissions.
fn math() -> Vec<Easy> {
    vec![
        Easy {
            name: "gcd",
            title: "Greatest Common Divisor",
            family: Family::Math,
            statement: "Print the greatest common divisor of two positive integers $a$ and $b$: the largest integer that divides both.\n\n## Input\n\nOne line with two integers $a$ and $b$ ($1 \\le a, b \\le 10^9$), separated by a space.\n\n## Output\n\nPrint one integer: $\\gcd(a, b)$.\n",
            lines: vec![Line::Ints(vec![(1, E9), (1, E9)])],
            samples: ["12 18\n", "7 5\n"],
            edges: vec!["1 1\n", "1000000000 1\n", "999999937 999999937\n"],
            random: |rng, size| {
                let g = value(rng, size, 1, 1000);
                let a = value(rng, size, 1, E9 / g) * g;
                let b = value(rng, size, 1, E9 / g) * g;
                line(&[a, b])
            },
            solve: |input| {
                let v = nums(input);
                one(gcd(v[0], v[1]))
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n\nint main() {\n    long long a, b;\n    std::cin >> a >> b;\n    while (b != 0) {\n        long long r = a % b;\n        a = b;\n        b = r;\n    }\n    std::cout << a << \"\\n\";\n}\n",
            py: "import math\n\na, b = map(int, input().split())\nprint(math.gcd(a, b))\n",
            wrong: vec![(
                "wrong_answer",
                "smaller_divides.py",
                "# Takes the smaller number when it divides the larger, else 1.\na, b = map(int, input().split())\nsmall, big = min(a, b), max(a, b)\nprint(small if big % small == 0 else 1)\n",
            )],
        },
        Easy {
            name: "lcm",
            title: "Least Common Multiple",
            family: Family::Math,
            statement: "Print the least common multiple of two positive integers $a$ and $b$: the smallest positive integer divisible by both.\n\n## Input\n\nOne line with two integers $a$ and $b$ ($1 \\le a, b \\le 10^9$), separated by a space.\n\n## Output\n\nPrint one integer: $\\operatorname{lcm}(a, b)$.\n\nNote that it may not fit in a 32-bit integer.\n",
            lines: vec![Line::Ints(vec![(1, E9), (1, E9)])],
            samples: ["4 6\n", "3 7\n"],
            edges: vec!["1 1\n", "1000000000 999999999\n", "12 12\n"],
            random: |rng, size| line(&values(rng, size, 2, 1, E9)),
            solve: |input| {
                let v = nums(input);
                one(v[0] / gcd(v[0], v[1]) * v[1])
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n\nlong long gcd(long long a, long long b) { return b == 0 ? a : gcd(b, a % b); }\n\nint main() {\n    long long a, b;\n    std::cin >> a >> b;\n    std::cout << a / gcd(a, b) * b << \"\\n\";\n}\n",
            py: "import math\n\na, b = map(int, input().split())\nprint(a * b // math.gcd(a, b))\n",
            wrong: vec![(
                "wrong_answer",
                "int_overflow.cpp",
                "// The product a * b in 32-bit ints.\n#include <iostream>\n\nint gcd(int a, int b) { return b == 0 ? a : gcd(b, a % b); }\n\nint main() {\n    int a, b;\n    std::cin >> a >> b;\n    int product = (int)((unsigned)a * (unsigned)b);\n    std::cout << product / gcd(a, b) << \"\\n\";\n}\n",
            )],
        },
        Easy {
            name: "digitsum",
            title: "Sum of Digits",
            family: Family::Math,
            statement: "Print the sum of the decimal digits of a non-negative integer $n$.\n\n## Input\n\nOne line with one integer $n$ ($0 \\le n \\le 10^{18}$).\n\n## Output\n\nPrint one integer: the sum of the digits of $n$.\n",
            lines: vec![Line::Ints(vec![(0, E18)])],
            samples: ["1234\n", "905\n"],
            edges: vec![
                "0\n",
                "7\n",
                "1000000000000000000\n",
                "999999999999999999\n",
            ],
            random: |rng, size| line(&[value(rng, size, 0, E18)]),
            solve: |input| {
                one(input
                    .trim()
                    .bytes()
                    .map(|b| u32::from(b - b'0'))
                    .sum::<u32>())
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n\nint main() {\n    long long n;\n    std::cin >> n;\n    int sum = 0;\n    while (n > 0) {\n        sum += n % 10;\n        n /= 10;\n    }\n    std::cout << sum << \"\\n\";\n}\n",
            py: "print(sum(int(c) for c in input().strip()))\n",
            wrong: vec![(
                "wrong_answer",
                "stops_early.py",
                "# Stops while n > 9: the leading digit is never added.\nn = int(input())\ntotal = 0\nwhile n > 9:\n    total += n % 10\n    n //= 10\nprint(total)\n",
            )],
        },
        Easy {
            name: "powermod",
            title: "Power Remainder",
            family: Family::Math,
            statement: "Print $a^b$ modulo $m$: the remainder of $a$ to the power $b$ divided by $m$ (with $a^0 = 1$, also for $a = 0$).\n\n## Input\n\nOne line with three integers $a$, $b$ and $m$ ($0 \\le a \\le 10^9$, $0 \\le b \\le 10^{18}$, $1 \\le m \\le 10^9$), separated by spaces.\n\n## Output\n\nPrint one integer: $a^b \\bmod m$, a value from $0$ to $m - 1$.\n",
            lines: vec![Line::Ints(vec![(0, E9), (0, E18), (1, E9)])],
            samples: ["2 10 1000\n", "3 0 7\n"],
            edges: vec![
                "5 0 1\n",
                "0 0 13\n",
                "0 5 13\n",
                "1000000000 1000000000000000000 999999937\n",
            ],
            random: |rng, size| {
                let a = value(rng, size, 0, E9);
                let b = value(rng, size, 0, E18);
                let m = value(rng, size, 1, E9);
                line(&[a, b, m])
            },
            solve: |input| {
                let v = nums(input);
                let (mut base, mut exp, m) = (v[0] as i128 % v[2] as i128, v[1], v[2] as i128);
                let mut result: i128 = 1 % m;
                while exp > 0 {
                    if exp & 1 == 1 {
                        result = result * base % m;
                    }
                    base = base * base % m;
                    exp >>= 1;
                }
                one(result)
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n\nint main() {\n    long long a, b, m;\n    std::cin >> a >> b >> m;\n    long long result = 1 % m, base = a % m;\n    while (b > 0) {\n        if (b & 1) result = result * base % m;\n        base = base * base % m;\n        b >>= 1;\n    }\n    std::cout << result << \"\\n\";\n}\n",
            py: "a, b, m = map(int, input().split())\nprint(pow(a, b, m))\n",
            wrong: vec![
                (
                    "wrong_answer",
                    "mod_one.cpp",
                    "// Starts the result at 1 without reducing it: prints 1 when b = 0 and m = 1.\n#include <iostream>\n\nint main() {\n    long long a, b, m;\n    std::cin >> a >> b >> m;\n    long long result = 1, base = a % m;\n    while (b > 0) {\n        if (b & 1) result = result * base % m;\n        base = base * base % m;\n        b >>= 1;\n    }\n    std::cout << result << \"\\n\";\n}\n",
                ),
                (
                    "time_limit_exceeded",
                    "loop.py",
                    "# Multiplies b times: up to 10^18 steps.\na, b, m = map(int, input().split())\nresult = 1 % m\nfor _ in range(b):\n    result = result * a % m\nprint(result)\n",
                ),
            ],
        },
        Easy {
            name: "isprime",
            title: "Prime Test",
            family: Family::Math,
            statement: "Decide whether $n$ is prime: an integer greater than 1 whose only positive divisors are 1 and itself.\n\n## Input\n\nOne line with one integer $n$ ($1 \\le n \\le 10^{10}$).\n\n## Output\n\nPrint `YES` if $n$ is prime and `NO` otherwise.\n",
            lines: vec![Line::Ints(vec![(1, E10)])],
            samples: ["7\n", "12\n"],
            edges: vec!["1\n", "2\n", "9999999967\n", "9998200081\n"],
            random: |rng, size| {
                let n = value(rng, size, 1, E10);
                line(&[if rng.range(0, 2) == 0 { n | 1 } else { n }.min(E10)])
            },
            solve: |input| {
                let n = nums(input)[0];
                let mut d = 2;
                let mut prime = n > 1;
                while d * d <= n {
                    if n % d == 0 {
                        prime = false;
                        break;
                    }
                    d += 1;
                }
                yes(prime)
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n\nint main() {\n    long long n;\n    std::cin >> n;\n    bool prime = n > 1;\n    for (long long d = 2; d * d <= n; d++)\n        if (n % d == 0) {\n            prime = false;\n            break;\n        }\n    std::cout << (prime ? \"YES\" : \"NO\") << \"\\n\";\n}\n",
            py: "n = int(input())\nprime = n > 1\nd = 2\nwhile d * d <= n:\n    if n % d == 0:\n        prime = False\n        break\n    d += 1\nprint(\"YES\" if prime else \"NO\")\n",
            wrong: vec![
                (
                    "wrong_answer",
                    "one_is_prime.py",
                    "# Forgets that 1 is not prime.\nn = int(input())\nprime = True\nd = 2\nwhile d * d <= n:\n    if n % d == 0:\n        prime = False\n        break\n    d += 1\nprint(\"YES\" if prime else \"NO\")\n",
                ),
                (
                    "time_limit_exceeded",
                    "every_divisor.cpp",
                    "// Tries every divisor below n: 10^10 steps for a large prime.\n#include <iostream>\n\nint main() {\n    long long n;\n    std::cin >> n;\n    bool prime = n > 1;\n    for (long long d = 2; d < n; d++)\n        if (n % d == 0) prime = false;\n    std::cout << (prime ? \"YES\" : \"NO\") << \"\\n\";\n}\n",
                ),
            ],
        },
        Easy {
            name: "divisors",
            title: "Divisor Count",
            family: Family::Math,
            statement: "Count the positive divisors of $n$.\n\n## Input\n\nOne line with one integer $n$ ($1 \\le n \\le 10^{10}$).\n\n## Output\n\nPrint one integer: how many positive integers divide $n$.\n",
            lines: vec![Line::Ints(vec![(1, E10)])],
            samples: ["12\n", "7\n"],
            edges: vec!["1\n", "36\n", "10000000000\n", "9998200081\n"],
            random: |rng, size| {
                let n = value(rng, size, 1, E10);
                line(&[if rng.range(0, 1) == 0 {
                    let r = (n as f64).sqrt() as i64;
                    r * r
                } else {
                    n
                }
                .max(1)])
            },
            solve: |input| {
                let n = nums(input)[0];
                let mut count = 0;
                let mut d = 1;
                while d * d <= n {
                    if n % d == 0 {
                        count += if d * d == n { 1 } else { 2 };
                    }
                    d += 1;
                }
                one(count)
            },
            case_sensitive: false,
            cpp: "#include <iostream>\n\nint main() {\n    long long n, count = 0;\n    std::cin >> n;\n    for (long long d = 1; d * d <= n; d++)\n        if (n % d == 0) count += (d * d == n) ? 1 : 2;\n    std::cout << count << \"\\n\";\n}\n",
            py: "n = int(input())\ncount = 0\nd = 1\nwhile d * d <= n:\n    if n % d == 0:\n        count += 1 if d * d == n else 2\n    d += 1\nprint(count)\n",
            wrong: vec![(
                "wrong_answer",
                "square_twice.cpp",
                "// Counts the square root of a perfect square twice.\n#include <iostream>\n\nint main() {\n    long long n, count = 0;\n    std::cin >> n;\n    for (long long d = 1; d * d <= n; d++)\n        if (n % d == 0) count += 2;\n    std::cout << count << \"\\n\";\n}\n",
            )],
        },
    ]
}
