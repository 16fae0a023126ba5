//! The fourth batch of training tasks, of the strings and lists families: 20 new solvers,
//! each a distinct beginner computation that no other task of the set (training,
//! validation or held out) computes (comparing and merging two words, brackets, word
//! games and codes, Roman numerals; best blocks, missing values, stable moves, balance
//! points, shuffles, trades, jumps), for more breadth of distinct solvers in training.

use crate::families::{Family, LOWER, Size, other_letter, text_len, word};
use crate::rng::Rng;
use crate::tasks::{
    E9, JOINED, LIST, NUMBERED, PER_LINE, WORD, any_list, ints, list_values, random_word, text, yes,
};
use crate::variants::{Layout, Record, Shape, Task, join};

/// Two words on one line, at most 1000 characters in all.
const TWO_WORDS: Shape = Shape::Text {
    pattern: "[a-z]+ [a-z]+",
    max: 1000,
    what: "two words $u$ and $v$ of lowercase English letters, separated by one space (at most 1000 characters in all)",
};

/// The length of one word of a pair: at most 499 letters, so that the line fits.
fn pair_len(rng: &mut Rng, size: Size) -> usize {
    text_len(rng, size).min(499)
}

/// The two words of a record.
fn two_words(r: &Record) -> (&str, &str) {
    r.text().split_once(' ').expect("two words")
}

/// A balanced line of `2 * pairs` round brackets.
fn balanced(rng: &mut Rng, pairs: usize) -> Vec<u8> {
    let (mut open, mut depth) = (pairs, 0);
    let mut out = Vec::with_capacity(2 * pairs);
    while out.len() < 2 * pairs {
        if open > 0 && (depth == 0 || rng.range(0, 1) == 0) {
            out.push(b'(');
            open -= 1;
            depth += 1;
        } else {
            out.push(b')');
            depth -= 1;
        }
    }
    out
}

/// The usual Roman numeral of `n` (1 to 3999).
fn roman(mut n: i64) -> String {
    const STEPS: [(i64, &str); 13] = [
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ];
    let mut out = String::new();
    for (value, letters) in STEPS {
        while n >= value {
            out.push_str(letters);
            n -= value;
        }
    }
    out
}

/// The value of one Roman letter.
fn roman_value(c: u8) -> i64 {
    match c {
        b'I' => 1,
        b'V' => 5,
        b'X' => 10,
        b'L' => 50,
        b'C' => 100,
        b'D' => 500,
        _ => 1000,
    }
}

/// A list that balances somewhere (or, half the time, values at random).
fn balance_list(rng: &mut Rng, size: Size, n: usize) -> Record {
    if rng.range(0, 2) == 0 {
        return any_list(rng, size, n);
    }
    let mut v = list_values(rng, size, n, -1000, 1000);
    let p = rng.range(0, n as i64 - 1) as usize;
    let left: i64 = v[..p].iter().sum();
    let right: i64 = v[p + 1..].iter().sum();
    if p + 1 < n {
        v[n - 1] += left - right;
    } else if p > 0 {
        v[0] -= left;
    }
    Record::Ints(v)
}

/// Stones for the frog: small jumps with some zeros.
fn stones(rng: &mut Rng, _: Size, n: usize) -> Record {
    let top = rng.range(1, 4);
    let zeros = rng.range(2, 30);
    Record::Ints(
        (0..n)
            .map(|_| {
                if rng.range(1, zeros) == 1 {
                    0
                } else {
                    rng.range(1, top)
                }
            })
            .collect(),
    )
}

/// The tasks with their layouts. It is long because it is a table of data: each task's
/// shape, solver, generator and code.
pub(crate) fn tasks() -> Vec<(Task, Vec<Layout>)> {
    vec![
        (
            Task {
                id: "anagram",
                title: "Shuffled Letters",
                family: Family::Strings,
                legend: "Two words are anagrams when one is the other with its letters in another order, each letter used as many times: `listen` and `silent` are anagrams, `aab` and `abb` are not. A word is an anagram of itself. Decide whether the two given words are anagrams.",
                shape: TWO_WORDS,
                answer: "`YES` if $u$ and $v$ are anagrams and `NO` otherwise",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    let len = pair_len(rng, size);
                    let u = word(rng, len, LOWER);
                    let mut letters = u.as_bytes().to_vec();
                    rng.shuffle(&mut letters);
                    match rng.range(0, 3) {
                        0 | 1 => {}
                        2 => {
                            let i = rng.range(0, len as i64 - 1) as usize;
                            letters[i] = other_letter(rng, letters[i]);
                        }
                        _ if len < 499 => letters.push(*rng.pick(LOWER)),
                        _ => {
                            letters.pop();
                        }
                    }
                    let v = String::from_utf8(letters).expect("ascii");
                    Record::Text(format!("{u} {v}"))
                },
                solve: |r| {
                    let (u, v) = two_words(r);
                    let mut u = u.as_bytes().to_vec();
                    let mut v = v.as_bytes().to_vec();
                    u.sort_unstable();
                    v.sort_unstable();
                    yes(u == v)
                },
                samples: || [text("listen silent"), text("aab abb")],
                edges: || {
                    vec![
                        text("a a"),
                        text("a b"),
                        text("ab ba"),
                        text("abc abcd"),
                        text("aabb abab"),
                        text("zz z"),
                    ]
                },
                case_sensitive: false,
                py: "def solve(s):\n    u, v = s.split(\" \")\n    return \"YES\" if sorted(u) == sorted(v) else \"NO\"\n",
                cpp: "std::string solve(const std::string &s) {\n    size_t space = s.find(' ');\n    std::string u = s.substr(0, space), v = s.substr(space + 1);\n    std::sort(u.begin(), u.end());\n    std::sort(v.begin(), v.end());\n    return u == v ? \"YES\" : \"NO\";\n}\n",
                wrong: vec![(
                    "same_letters.py",
                    "# Compares which letters occur, not how many times: aab and abb come out anagrams.\ndef solve(s):\n    u, v = s.split(\" \")\n    return \"YES\" if set(u) == set(v) else \"NO\"\n",
                )],
            },
            vec![Layout::Single, JOINED],
        ),
        (
            Task {
                id: "interleave",
                title: "Zipper",
                family: Family::Strings,
                legend: "You are given two words $u$ and $v$. Merge them letter by letter: the first letter of $u$, the first letter of $v$, the second letter of $u$, the second letter of $v$, and so on. When one word runs out, the rest of the other follows as it is: `abc` and `xy` give `axbyc`.",
                shape: TWO_WORDS,
                answer: "the two words merged letter by letter",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    let (m, n) = (pair_len(rng, size), pair_len(rng, size));
                    Record::Text(format!("{} {}", word(rng, m, LOWER), word(rng, n, LOWER)))
                },
                solve: |r| {
                    let (u, v) = two_words(r);
                    let (u, v) = (u.as_bytes(), v.as_bytes());
                    let mut out = String::new();
                    for i in 0..u.len().max(v.len()) {
                        for w in [u, v] {
                            if let Some(&c) = w.get(i) {
                                out.push(c as char);
                            }
                        }
                    }
                    out
                },
                samples: || [text("abc xy"), text("ab wxyz")],
                edges: || vec![text("a b"), text("a bcd"), text("abcd e"), text("aa bb")],
                case_sensitive: false,
                py: "def solve(s):\n    u, v = s.split(\" \")\n    out = []\n    for i in range(max(len(u), len(v))):\n        out.append(u[i:i + 1] + v[i:i + 1])\n    return \"\".join(out)\n",
                cpp: "std::string solve(const std::string &s) {\n    size_t space = s.find(' ');\n    std::string u = s.substr(0, space), v = s.substr(space + 1), out;\n    for (size_t i = 0; i < u.size() || i < v.size(); i++) {\n        if (i < u.size()) out += u[i];\n        if (i < v.size()) out += v[i];\n    }\n    return out;\n}\n",
                wrong: vec![
                    (
                        "zip_stops.py",
                        "# Merges with zip, which stops at the end of the shorter word: the rest of the longer one is lost.\ndef solve(s):\n    u, v = s.split(\" \")\n    return \"\".join(a + b for a, b in zip(u, v))\n",
                    ),
                    (
                        "v_first.cpp",
                        "// Starts with the letters of v: abc and xy give xaybc.\nstd::string solve(const std::string &s) {\n    size_t space = s.find(' ');\n    std::string u = s.substr(0, space), v = s.substr(space + 1), out;\n    for (size_t i = 0; i < u.size() || i < v.size(); i++) {\n        if (i < v.size()) out += v[i];\n        if (i < u.size()) out += u[i];\n    }\n    return out;\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, PER_LINE],
        ),
        (
            Task {
                id: "commonprefix",
                title: "Same Start",
                family: Family::Strings,
                legend: "You are given two words $u$ and $v$. Find the length of their longest common beginning: the largest $k$ such that the first $k$ letters of $u$ and the first $k$ letters of $v$ are the same. It is 0 when the words start with different letters.",
                shape: TWO_WORDS,
                answer: "the length of the longest common beginning of $u$ and $v$",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    let len = pair_len(rng, size);
                    let u = word(rng, len, LOWER);
                    if rng.range(0, 3) == 0 {
                        let other = pair_len(rng, size);
                        return Record::Text(format!("{u} {}", word(rng, other, LOWER)));
                    }
                    let k = rng.range(0, len as i64) as usize;
                    let tail = rng.range(i64::from(k == 0), (499 - k as i64).min(20)) as usize;
                    Record::Text(format!("{u} {}{}", &u[..k], word(rng, tail, LOWER)))
                },
                solve: |r| {
                    let (u, v) = two_words(r);
                    u.bytes()
                        .zip(v.bytes())
                        .take_while(|(a, b)| a == b)
                        .count()
                        .to_string()
                },
                samples: || [text("flower flow"), text("dog racecar")],
                edges: || {
                    vec![
                        text("a a"),
                        text("a b"),
                        text("ab abc"),
                        text("abcd abxd"),
                        text("zzzz zzzz"),
                    ]
                },
                case_sensitive: false,
                py: "def solve(s):\n    u, v = s.split(\" \")\n    k = 0\n    while k < len(u) and k < len(v) and u[k] == v[k]:\n        k += 1\n    return k\n",
                cpp: "std::string solve(const std::string &s) {\n    size_t space = s.find(' ');\n    std::string u = s.substr(0, space), v = s.substr(space + 1);\n    size_t k = 0;\n    while (k < u.size() && k < v.size() && u[k] == v[k]) k++;\n    return std::to_string(k);\n}\n",
                wrong: vec![
                    (
                        "counts_all_matches.py",
                        "# Counts every position where the letters agree, not stopping at the first difference.\ndef solve(s):\n    u, v = s.split(\" \")\n    return sum(1 for a, b in zip(u, v) if a == b)\n",
                    ),
                    (
                        "shorter_length.py",
                        "# Assumes the shorter word always begins the longer one and answers its length.\ndef solve(s):\n    u, v = s.split(\" \")\n    return min(len(u), len(v))\n",
                    ),
                ],
            },
            vec![Layout::Single, Layout::Eof],
        ),
        (
            Task {
                id: "hamming",
                title: "Spot the Differences",
                family: Family::Strings,
                legend: "You are given two words $u$ and $v$ of the same length. Count the positions where they differ: the number of $i$ with $u_i \\ne v_i$.",
                shape: Shape::Text {
                    pattern: "[a-z]+ [a-z]+",
                    max: 999,
                    what: "two words $u$ and $v$ of lowercase English letters, of the same length (at most 499 letters each), separated by one space",
                },
                answer: "the number of positions where $u$ and $v$ differ",
                token: true,
                rule: "v.index(\" \") * 2 + 1 == len(v)",
                random: |rng, size, _| {
                    let len = pair_len(rng, size);
                    let u = word(rng, len, LOWER);
                    let changes = rng.range(0, 4);
                    let v: Vec<u8> = u
                        .bytes()
                        .map(|c| {
                            if rng.range(0, 9) < changes {
                                other_letter(rng, c)
                            } else {
                                c
                            }
                        })
                        .collect();
                    Record::Text(format!("{u} {}", String::from_utf8(v).expect("ascii")))
                },
                solve: |r| {
                    let (u, v) = two_words(r);
                    u.bytes()
                        .zip(v.bytes())
                        .filter(|(a, b)| a != b)
                        .count()
                        .to_string()
                },
                samples: || [text("karolin kathrin"), text("abc abc")],
                edges: || {
                    vec![
                        text("a a"),
                        text("a z"),
                        text("ab ac"),
                        text("za aa"),
                        text("abcd dcba"),
                    ]
                },
                case_sensitive: false,
                py: "def solve(s):\n    u, v = s.split(\" \")\n    return sum(1 for a, b in zip(u, v) if a != b)\n",
                cpp: "std::string solve(const std::string &s) {\n    size_t space = s.find(' ');\n    std::string u = s.substr(0, space), v = s.substr(space + 1);\n    int count = 0;\n    for (size_t i = 0; i < u.size(); i++)\n        if (u[i] != v[i]) count++;\n    return std::to_string(count);\n}\n",
                wrong: vec![
                    (
                        "skips_last.cpp",
                        "// Stops the loop one letter early (i + 1 < size): a difference in the last letter is missed.\nstd::string solve(const std::string &s) {\n    size_t space = s.find(' ');\n    std::string u = s.substr(0, space), v = s.substr(space + 1);\n    int count = 0;\n    for (size_t i = 0; i + 1 < u.size(); i++)\n        if (u[i] != v[i]) count++;\n    return std::to_string(count);\n}\n",
                    ),
                    (
                        "counts_same.py",
                        "# Counts the positions where the letters agree instead of where they differ.\ndef solve(s):\n    u, v = s.split(\" \")\n    return sum(1 for a, b in zip(u, v) if a == b)\n",
                    ),
                ],
            },
            vec![Layout::Single, NUMBERED],
        ),
        (
            Task {
                id: "subsequence",
                title: "Hidden Word",
                family: Family::Strings,
                legend: "A word $u$ is hidden in a word $v$ when $u$ can be made from $v$ by deleting some of its letters (or none) without changing the order of the others: `ace` is hidden in `abcde`, `aec` is not. Decide whether $u$ is hidden in $v$.",
                shape: TWO_WORDS,
                answer: "`YES` if $u$ is hidden in $v$ and `NO` otherwise",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    let len = pair_len(rng, size);
                    let v = word(rng, len, LOWER);
                    let keep = rng.range(1, 9);
                    let mut u: Vec<u8> = v.bytes().filter(|_| rng.range(0, 9) < keep).collect();
                    if u.is_empty() {
                        u.push(v.as_bytes()[0]);
                    }
                    match rng.range(0, 4) {
                        0 | 1 => {}
                        2 => {
                            let i = rng.range(0, u.len() as i64 - 1) as usize;
                            u[i] = other_letter(rng, u[i]);
                        }
                        3 => rng.shuffle(&mut u),
                        _ => {
                            let short = rng.range(1, 5) as usize;
                            u = word(rng, short, LOWER).into_bytes();
                        }
                    }
                    Record::Text(format!("{} {v}", String::from_utf8(u).expect("ascii")))
                },
                solve: |r| {
                    let (u, v) = two_words(r);
                    let mut rest = v.bytes();
                    yes(u.bytes().all(|c| rest.any(|d| d == c)))
                },
                samples: || [text("ace abcde"), text("aec abcde")],
                edges: || {
                    vec![
                        text("a a"),
                        text("a b"),
                        text("aa a"),
                        text("ab ba"),
                        text("abc abc"),
                        text("zz azbz"),
                    ]
                },
                case_sensitive: false,
                py: "def solve(s):\n    u, v = s.split(\" \")\n    i = 0\n    for c in v:\n        if i < len(u) and u[i] == c:\n            i += 1\n    return \"YES\" if i == len(u) else \"NO\"\n",
                cpp: "std::string solve(const std::string &s) {\n    size_t space = s.find(' ');\n    std::string u = s.substr(0, space), v = s.substr(space + 1);\n    size_t i = 0;\n    for (char c : v)\n        if (i < u.size() && u[i] == c) i++;\n    return i == u.size() ? \"YES\" : \"NO\";\n}\n",
                wrong: vec![
                    (
                        "letters_only.py",
                        "# Checks only that every letter of u occurs somewhere in v, ignoring their order and how often they occur.\ndef solve(s):\n    u, v = s.split(\" \")\n    return \"YES\" if all(c in v for c in u) else \"NO\"\n",
                    ),
                    (
                        "substring.py",
                        "# Looks for u as one unbroken piece of v: ace is not found in abcde.\ndef solve(s):\n    u, v = s.split(\" \")\n    return \"YES\" if u in v else \"NO\"\n",
                    ),
                ],
            },
            vec![Layout::Single, Layout::Eof],
        ),
        (
            Task {
                id: "brackets",
                title: "Balanced Brackets",
                family: Family::Strings,
                legend: "A line of round brackets is balanced when, reading it from left to right, the number of `)` read so far never exceeds the number of `(` read so far, and the two numbers are equal at the end: `(()())` is balanced, `())(` and `(()` are not. Decide whether the given line is balanced.",
                shape: Shape::Text {
                    pattern: "[()]+",
                    max: 1000,
                    what: "a line $s$ of the characters `(` and `)` ($1 \\le |s| \\le 1000$)",
                },
                answer: "`YES` if $s$ is balanced and `NO` otherwise",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    let pairs = (text_len(rng, size) / 2).max(1);
                    let mut s = balanced(rng, pairs);
                    let (i, j) = (
                        rng.range(0, 2 * pairs as i64 - 1) as usize,
                        rng.range(0, 2 * pairs as i64 - 1) as usize,
                    );
                    match rng.range(0, 3) {
                        0 | 1 => {}
                        2 => s.swap(i, j),
                        _ => s[i] = if s[i] == b'(' { b')' } else { b'(' },
                    }
                    Record::Text(String::from_utf8(s).expect("ascii"))
                },
                solve: |r| {
                    let mut depth = 0i64;
                    for c in r.text().bytes() {
                        depth += if c == b'(' { 1 } else { -1 };
                        if depth < 0 {
                            return yes(false);
                        }
                    }
                    yes(depth == 0)
                },
                samples: || [text("(()())"), text("())(")],
                edges: || {
                    vec![
                        text("("),
                        text(")"),
                        text("()"),
                        text(")("),
                        text("(("),
                        text("(())"),
                        text("()()"),
                        text("(()"),
                    ]
                },
                case_sensitive: false,
                py: "def solve(s):\n    depth = 0\n    for c in s:\n        depth += 1 if c == \"(\" else -1\n        if depth < 0:\n            return \"NO\"\n    return \"YES\" if depth == 0 else \"NO\"\n",
                cpp: "std::string solve(const std::string &s) {\n    int depth = 0;\n    for (char c : s) {\n        depth += c == '(' ? 1 : -1;\n        if (depth < 0) return \"NO\";\n    }\n    return depth == 0 ? \"YES\" : \"NO\";\n}\n",
                wrong: vec![
                    (
                        "counts_only.py",
                        "# Compares only the numbers of ( and ): )( comes out balanced.\ndef solve(s):\n    return \"YES\" if s.count(\"(\") == s.count(\")\") else \"NO\"\n",
                    ),
                    (
                        "never_below.cpp",
                        "// Checks that the depth never drops below zero but forgets that it must end at zero: (() comes out balanced.\nstd::string solve(const std::string &s) {\n    int depth = 0;\n    for (char c : s) {\n        depth += c == '(' ? 1 : -1;\n        if (depth < 0) return \"NO\";\n    }\n    return \"YES\";\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, PER_LINE],
        ),
        (
            Task {
                id: "abbreviate",
                title: "Too Long Words",
                family: Family::Strings,
                legend: "Long words are tiring to write. A word of more than 10 letters is abbreviated: its first letter, then the number of letters between the first and the last, then its last letter, so `localization` becomes `l10n`. A word of at most 10 letters stays as it is. Write the given word as it should be written.",
                shape: WORD,
                answer: "the word, abbreviated if it has more than 10 letters",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    let len = if rng.range(0, 1) == 0 {
                        rng.range(8, 13) as usize
                    } else {
                        text_len(rng, size)
                    };
                    Record::Text(word(rng, len, LOWER))
                },
                solve: |r| {
                    let s = r.text();
                    if s.len() > 10 {
                        format!("{}{}{}", &s[..1], s.len() - 2, &s[s.len() - 1..])
                    } else {
                        s.to_owned()
                    }
                },
                samples: || [text("localization"), text("word")],
                edges: || {
                    vec![
                        text("a"),
                        text("abcdefghij"),
                        text("abcdefghijk"),
                        text("zzzzzzzzzzzzzzzzzzzz"),
                    ]
                },
                case_sensitive: false,
                py: "def solve(s):\n    if len(s) > 10:\n        return s[0] + str(len(s) - 2) + s[-1]\n    return s\n",
                cpp: "std::string solve(const std::string &s) {\n    if (s.size() <= 10) return s;\n    return s.front() + std::to_string(s.size() - 2) + s.back();\n}\n",
                wrong: vec![
                    (
                        "ten_too.py",
                        "# Abbreviates words of exactly 10 letters too (>= instead of >).\ndef solve(s):\n    if len(s) >= 10:\n        return s[0] + str(len(s) - 2) + s[-1]\n    return s\n",
                    ),
                    (
                        "whole_length.cpp",
                        "// Writes the length of the whole word in the middle, not the number of letters between the ends.\nstd::string solve(const std::string &s) {\n    if (s.size() <= 10) return s;\n    return s.front() + std::to_string(s.size()) + s.back();\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, JOINED],
        ),
        (
            Task {
                id: "piglatin",
                title: "Igpay Atinlay",
                family: Family::Strings,
                legend: "Pig Latin turns a word into a secret one. If the word begins with a vowel (`a`, `e`, `i`, `o` or `u`), add `way` at its end: `apple` becomes `appleway`. Otherwise move all the letters before its first vowel to its end and add `ay`: `string` becomes `ingstray`. A word with no vowel just gets `ay`: `rhythm` becomes `rhythmay`. Translate the given word.",
                shape: WORD,
                answer: "the word in Pig Latin",
                token: true,
                rule: "",
                random: random_word,
                solve: |r| {
                    let s = r.text();
                    match s.find(|c| "aeiou".contains(c)) {
                        Some(0) => format!("{s}way"),
                        Some(i) => format!("{}{}ay", &s[i..], &s[..i]),
                        None => format!("{s}ay"),
                    }
                },
                samples: || [text("string"), text("apple")],
                edges: || {
                    vec![
                        text("a"),
                        text("b"),
                        text("rhythm"),
                        text("eat"),
                        text("xyzzyu"),
                        text("queen"),
                    ]
                },
                case_sensitive: false,
                py: "def solve(s):\n    if s[0] in \"aeiou\":\n        return s + \"way\"\n    for i, c in enumerate(s):\n        if c in \"aeiou\":\n            return s[i:] + s[:i] + \"ay\"\n    return s + \"ay\"\n",
                cpp: "std::string solve(const std::string &s) {\n    size_t i = s.find_first_of(\"aeiou\");\n    if (i == 0) return s + \"way\";\n    if (i == std::string::npos) return s + \"ay\";\n    return s.substr(i) + s.substr(0, i) + \"ay\";\n}\n",
                wrong: vec![
                    (
                        "first_letter_only.py",
                        "# Moves only the first letter, not every letter before the first vowel: string becomes tringsay.\ndef solve(s):\n    if s[0] in \"aeiou\":\n        return s + \"way\"\n    return s[1:] + s[0] + \"ay\"\n",
                    ),
                    (
                        "no_way.py",
                        "# Adds ay to a word that begins with a vowel too, instead of way.\ndef solve(s):\n    for i, c in enumerate(s):\n        if c in \"aeiou\":\n            return s[i:] + s[:i] + \"ay\"\n    return s + \"ay\"\n",
                    ),
                ],
            },
            vec![Layout::Single, NUMBERED],
        ),
        (
            Task {
                id: "keypad",
                title: "Phone Keys",
                family: Family::Strings,
                legend: "On an old phone keypad the letters are on the digit keys: `abc` on 2, `def` on 3, `ghi` on 4, `jkl` on 5, `mno` on 6, `pqrs` on 7, `tuv` on 8 and `wxyz` on 9. Write the keys to press to type the given word, one digit per letter: `hello` is `43556`.",
                shape: WORD,
                answer: "the digits of the keys of the letters of $s$, in order, with nothing between them",
                token: true,
                rule: "",
                random: random_word,
                solve: |r| {
                    const KEYS: &[u8; 26] = b"22233344455566677778889999";
                    r.text()
                        .bytes()
                        .map(|c| KEYS[(c - b'a') as usize] as char)
                        .collect()
                },
                samples: || [text("hello"), text("pqrs")],
                edges: || {
                    vec![
                        text("a"),
                        text("z"),
                        text("s"),
                        text("abcdefghijklmnopqrstuvwxyz"),
                    ]
                },
                case_sensitive: false,
                py: "KEYS = \"22233344455566677778889999\"\n\n\ndef solve(s):\n    return \"\".join(KEYS[ord(c) - ord(\"a\")] for c in s)\n",
                cpp: "std::string solve(std::string s) {\n    const std::string keys = \"22233344455566677778889999\";\n    for (char &c : s) c = keys[c - 'a'];\n    return s;\n}\n",
                wrong: vec![(
                    "three_per_key.cpp",
                    "// Puts three letters on every key, so s, v, y and z get the wrong key (y and z not even a digit).\nstd::string solve(std::string s) {\n    for (char &c : s) c = '2' + (c - 'a') / 3;\n    return s;\n}\n",
                )],
            },
            vec![Layout::Single, Layout::Eof],
        ),
        (
            Task {
                id: "roman",
                title: "Roman Numerals",
                family: Family::Strings,
                legend: "Roman numerals write numbers with the letters `I` = 1, `V` = 5, `X` = 10, `L` = 50, `C` = 100, `D` = 500 and `M` = 1000, from the largest value to the smallest, adding the values: `XVI` is 16. A letter placed just before a letter of larger value is subtracted instead: `IV` is 4, `XC` is 90 and `MCMXCIV` is 1994. Find the value of the given numeral.",
                shape: Shape::Text {
                    pattern: "M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})",
                    max: 15,
                    what: "a Roman numeral $s$, written in the usual way, of a number from 1 to 3999",
                },
                answer: "the value of $s$",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    let n = match size {
                        Size::Small => rng.range(1, 100),
                        Size::Large => rng.range(1, 3999),
                        Size::Max => rng.range(3000, 3999),
                    };
                    Record::Text(roman(n))
                },
                solve: |r| {
                    let s = r.text().as_bytes();
                    let mut total = 0;
                    for (i, &c) in s.iter().enumerate() {
                        let value = roman_value(c);
                        if s.get(i + 1).is_some_and(|&d| roman_value(d) > value) {
                            total -= value;
                        } else {
                            total += value;
                        }
                    }
                    total.to_string()
                },
                samples: || [text("XVI"), text("MCMXCIV")],
                edges: || {
                    vec![
                        text("I"),
                        text("IV"),
                        text("IX"),
                        text("XL"),
                        text("XC"),
                        text("CD"),
                        text("CM"),
                        text("MMMCMXCIX"),
                        text("MMMDCCCLXXXVIII"),
                    ]
                },
                case_sensitive: false,
                py: "VALUES = {\"I\": 1, \"V\": 5, \"X\": 10, \"L\": 50, \"C\": 100, \"D\": 500, \"M\": 1000}\n\n\ndef solve(s):\n    total = 0\n    for i, c in enumerate(s):\n        if i + 1 < len(s) and VALUES[c] < VALUES[s[i + 1]]:\n            total -= VALUES[c]\n        else:\n            total += VALUES[c]\n    return total\n",
                cpp: "int value(char c) {\n    switch (c) {\n        case 'I': return 1;\n        case 'V': return 5;\n        case 'X': return 10;\n        case 'L': return 50;\n        case 'C': return 100;\n        case 'D': return 500;\n        default: return 1000;\n    }\n}\n\nstd::string solve(const std::string &s) {\n    int total = 0;\n    for (size_t i = 0; i < s.size(); i++) {\n        if (i + 1 < s.size() && value(s[i]) < value(s[i + 1])) total -= value(s[i]);\n        else total += value(s[i]);\n    }\n    return std::to_string(total);\n}\n",
                wrong: vec![(
                    "adds_all.py",
                    "# Adds every letter's value, forgetting that a smaller letter before a larger one is subtracted: IV comes out 6.\nVALUES = {\"I\": 1, \"V\": 5, \"X\": 10, \"L\": 50, \"C\": 100, \"D\": 500, \"M\": 1000}\n\n\ndef solve(s):\n    return sum(VALUES[c] for c in s)\n",
                )],
            },
            vec![Layout::Single, JOINED],
        ),
        (
            Task {
                id: "maxsubarray",
                title: "Best Stretch",
                family: Family::Lists,
                legend: "You are given a list of integers. Choose a block of one or more neighbouring values $a_l, a_{l+1}, \\ldots, a_r$ whose sum is as large as possible, and find that sum. When every value is negative, the best block is the largest value alone.",
                shape: LIST,
                answer: "the largest sum of a block of neighbouring values",
                token: true,
                rule: "",
                random: any_list,
                solve: |r| {
                    let a = r.ints();
                    let (mut best, mut current) = (a[0], a[0]);
                    for &x in &a[1..] {
                        current = x.max(current + x);
                        best = best.max(current);
                    }
                    best.to_string()
                },
                samples: || [ints(&[-2, 1, -3, 4, -1, 2, 1, -5, 4]), ints(&[-3, -1, -2])],
                edges: || {
                    vec![
                        ints(&[-E9]),
                        ints(&[E9; 100]),
                        ints(&[5, -1, 5]),
                        ints(&[3, -5, 4]),
                        ints(&[-1, -E9]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a):\n    best = current = a[0]\n    for x in a[1:]:\n        current = max(x, current + x)\n        best = max(best, current)\n    return best\n",
                cpp: "std::string solve(const std::vector<long long> &a) {\n    long long best = a[0], current = a[0];\n    for (size_t i = 1; i < a.size(); i++) {\n        current = std::max(a[i], current + a[i]);\n        best = std::max(best, current);\n    }\n    return std::to_string(best);\n}\n",
                wrong: vec![
                    (
                        "empty_block.py",
                        "# Starts the best sum at 0, as if an empty block were allowed: a list of negative values gets 0.\ndef solve(a):\n    best = current = 0\n    for x in a:\n        current = max(0, current + x)\n        best = max(best, current)\n    return best\n",
                    ),
                    (
                        "all_positive.py",
                        "# Adds up every positive value, as if the chosen values need not be neighbours.\ndef solve(a):\n    positive = [x for x in a if x > 0]\n    return sum(positive) if positive else max(a)\n",
                    ),
                ],
            },
            vec![Layout::Single, Layout::Column],
        ),
        (
            Task {
                id: "missingnumber",
                title: "The Missing Number",
                family: Family::Lists,
                legend: "A list should hold every integer from 1 to $n + 1$, but one of them is missing: it holds the other $n$ integers, all different, in some order. Find the missing integer.",
                shape: Shape::List {
                    min_n: 1,
                    lo: 1,
                    hi: 10_001,
                },
                answer: "the integer from 1 to $n + 1$ that the list does not hold",
                token: true,
                rule: "len(set(v)) == len(v) and max(v) <= len(v) + 1",
                random: |rng, _, n| {
                    let missing = rng.range(1, n as i64 + 1);
                    let mut rest: Vec<i64> = (1..=n as i64 + 1).filter(|&x| x != missing).collect();
                    rng.shuffle(&mut rest);
                    Record::Ints(rest)
                },
                solve: |r| {
                    let a = r.ints();
                    let n = a.len() as i64;
                    ((n + 1) * (n + 2) / 2 - a.iter().sum::<i64>()).to_string()
                },
                samples: || [ints(&[3, 1, 4]), ints(&[1])],
                edges: || {
                    vec![
                        ints(&[2]),
                        ints(&[1, 2, 3]),
                        ints(&[2, 3, 4, 5]),
                        Record::Ints((1..=101).filter(|&x| x != 50).collect()),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a):\n    n = len(a)\n    return (n + 1) * (n + 2) // 2 - sum(a)\n",
                cpp: "std::string solve(const std::vector<long long> &a) {\n    long long n = a.size(), total = (n + 1) * (n + 2) / 2;\n    for (long long x : a) total -= x;\n    return std::to_string(total);\n}\n",
                wrong: vec![
                    (
                        "first_gap.py",
                        "# Sorts and looks for the first gap, but when n + 1 is the missing integer there is no gap, and it answers n.\ndef solve(a):\n    b = sorted(a)\n    for i, x in enumerate(b):\n        if x != i + 1:\n            return i + 1\n    return len(b)\n",
                    ),
                    (
                        "sum_to_n.py",
                        "# Takes the full sum to be 1 + ... + n, forgetting that the integers go up to n + 1.\ndef solve(a):\n    n = len(a)\n    return n * (n + 1) // 2 - sum(a)\n",
                    ),
                ],
            },
            vec![Layout::Single, Layout::Lines],
        ),
        (
            Task {
                id: "zerostoend",
                title: "Zeros to the Back",
                family: Family::Lists,
                legend: "You are given a list of integers. Move every zero to the end of the list, keeping the other values in their order.",
                shape: LIST,
                answer: "the values after the move, in order, separated by spaces",
                token: false,
                rule: "",
                random: |rng, size, n| {
                    let mut v = list_values(rng, size, n, -E9, E9);
                    for x in &mut v {
                        if rng.range(0, 2) == 0 {
                            *x = 0;
                        }
                    }
                    Record::Ints(v)
                },
                solve: |r| {
                    let a = r.ints();
                    let mut out: Vec<i64> = a.iter().copied().filter(|&x| x != 0).collect();
                    out.resize(a.len(), 0);
                    join(&out, " ")
                },
                samples: || [ints(&[0, 1, 0, 3, 12]), ints(&[0, 0])],
                edges: || {
                    vec![
                        ints(&[5]),
                        ints(&[0]),
                        ints(&[1, 0]),
                        ints(&[0, 1, 2]),
                        ints(&[0, -E9, 0, E9]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a):\n    b = [x for x in a if x != 0]\n    return \" \".join(map(str, b + [0] * (len(a) - len(b))))\n",
                cpp: "std::string solve(const std::vector<long long> &a) {\n    std::vector<long long> b;\n    for (long long x : a) if (x != 0) b.push_back(x);\n    b.resize(a.size(), 0);\n    std::string out;\n    for (size_t i = 0; i < b.size(); i++) out += (i ? \" \" : \"\") + std::to_string(b[i]);\n    return out;\n}\n",
                wrong: vec![
                    (
                        "swaps_with_last.cpp",
                        "// Swaps every zero with the last value not yet moved: the zeros end up at the end, but the other values lose their order.\nstd::string solve(std::vector<long long> a) {\n    size_t end = a.size();\n    for (size_t i = 0; i < end; i++)\n        if (a[i] == 0) {\n            while (end > i + 1 && a[end - 1] == 0) end--;\n            std::swap(a[i], a[end - 1]);\n            end--;\n        }\n    std::string out;\n    for (size_t i = 0; i < a.size(); i++) out += (i ? \" \" : \"\") + std::to_string(a[i]);\n    return out;\n}\n",
                    ),
                    (
                        "zeros_first.py",
                        "# Moves the zeros to the front instead of the end.\ndef solve(a):\n    b = [x for x in a if x != 0]\n    return \" \".join(map(str, [0] * (len(a) - len(b)) + b))\n",
                    ),
                ],
            },
            vec![Layout::Single, Layout::Inline],
        ),
        (
            Task {
                id: "balancepoint",
                title: "Balance Point",
                family: Family::Lists,
                legend: "You are given a list of integers $a_1, \\ldots, a_n$. Find the first position $i$, counting from 1, where the list balances: the sum of the values before $a_i$ equals the sum of the values after it, $a_1 + \\cdots + a_{i-1} = a_{i+1} + \\cdots + a_n$ (a sum of no values is 0). If the list balances nowhere, the answer is $-1$.",
                shape: LIST,
                answer: "the first position where the list balances, or $-1$",
                token: true,
                rule: "",
                random: balance_list,
                solve: |r| {
                    let a = r.ints();
                    let total: i64 = a.iter().sum();
                    let mut left = 0;
                    for (i, &x) in a.iter().enumerate() {
                        if left == total - left - x {
                            return (i + 1).to_string();
                        }
                        left += x;
                    }
                    "-1".to_owned()
                },
                samples: || [ints(&[1, 7, 3, 6, 5, 6]), ints(&[1, 2, 3])],
                edges: || {
                    vec![
                        ints(&[5]),
                        ints(&[0, 0]),
                        ints(&[2, -2, 5]),
                        ints(&[1, -1]),
                        ints(&[E9, E9, -E9]),
                        ints(&[3, 1, 3]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a):\n    left, total = 0, sum(a)\n    for i, x in enumerate(a):\n        if left == total - left - x:\n            return i + 1\n        left += x\n    return -1\n",
                cpp: "std::string solve(const std::vector<long long> &a) {\n    long long total = 0, left = 0;\n    for (long long x : a) total += x;\n    for (size_t i = 0; i < a.size(); i++) {\n        if (left == total - left - a[i]) return std::to_string(i + 1);\n        left += a[i];\n    }\n    return \"-1\";\n}\n",
                wrong: vec![
                    (
                        "zero_based.py",
                        "# Answers the position counting from 0.\ndef solve(a):\n    left, total = 0, sum(a)\n    for i, x in enumerate(a):\n        if left == total - left - x:\n            return i\n        left += x\n    return -1\n",
                    ),
                    (
                        "left_includes.py",
                        "# Counts a_i in the sum on the left: compares a_1 + ... + a_i with a_{i+1} + ... + a_n.\ndef solve(a):\n    left, total = 0, sum(a)\n    for i, x in enumerate(a):\n        left += x\n        if left == total - left:\n            return i + 1\n    return -1\n",
                    ),
                ],
            },
            vec![Layout::Single, JOINED],
        ),
        (
            Task {
                id: "riffle",
                title: "Riffle Shuffle",
                family: Family::Lists,
                legend: "You are given a list of an even number $n = 2m$ of integers: a top half $a_1, \\ldots, a_m$ and a bottom half $a_{m+1}, \\ldots, a_n$. Shuffle the halves together like two halves of a deck of cards: $a_1, a_{m+1}, a_2, a_{m+2}, \\ldots, a_m, a_n$.",
                shape: Shape::List {
                    min_n: 2,
                    lo: -E9,
                    hi: E9,
                },
                answer: "the shuffled values, in order, separated by spaces",
                token: false,
                rule: "len(v) % 2 == 0",
                random: |rng, size, n| any_list(rng, size, n - n % 2),
                solve: |r| {
                    let a = r.ints();
                    let (top, bottom) = a.split_at(a.len() / 2);
                    let out: Vec<i64> =
                        top.iter().zip(bottom).flat_map(|(&x, &y)| [x, y]).collect();
                    join(&out, " ")
                },
                samples: || [ints(&[1, 2, 3, 4, 5, 6]), ints(&[7, 8])],
                edges: || {
                    vec![
                        ints(&[1, 1]),
                        ints(&[E9, -E9, 0, 5]),
                        ints(&[-1, -2, -3, -4]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a):\n    m = len(a) // 2\n    return \" \".join(f\"{a[i]} {a[m + i]}\" for i in range(m))\n",
                cpp: "std::string solve(const std::vector<long long> &a) {\n    size_t m = a.size() / 2;\n    std::string out;\n    for (size_t i = 0; i < m; i++)\n        out += (i ? \" \" : \"\") + std::to_string(a[i]) + \" \" + std::to_string(a[m + i]);\n    return out;\n}\n",
                wrong: vec![(
                    "bottom_first.py",
                    "# Starts with the bottom half: a_{m+1}, a_1, a_{m+2}, a_2, ...\ndef solve(a):\n    m = len(a) // 2\n    return \" \".join(f\"{a[m + i]} {a[i]}\" for i in range(m))\n",
                )],
            },
            vec![Layout::Single, PER_LINE],
        ),
        (
            Task {
                id: "stockprofit",
                title: "Buy Low, Sell High",
                family: Family::Lists,
                legend: "The price of a share on each of $n$ days is $a_1, \\ldots, a_n$. You may buy one share on one day and sell it on a later day, or not trade at all. Find the largest profit you can make: the largest $a_j - a_i$ with $i < j$, or 0 if no trade makes money.",
                shape: Shape::List {
                    min_n: 1,
                    lo: 1,
                    hi: E9,
                },
                answer: "the largest profit",
                token: true,
                rule: "",
                random: |rng, size, n| Record::Ints(list_values(rng, size, n, 1, E9)),
                solve: |r| {
                    let a = r.ints();
                    let (mut low, mut best) = (a[0], 0);
                    for &x in a {
                        low = low.min(x);
                        best = best.max(x - low);
                    }
                    best.to_string()
                },
                samples: || [ints(&[7, 1, 5, 3, 6, 4]), ints(&[7, 6, 4, 3, 1])],
                edges: || {
                    vec![
                        ints(&[5]),
                        ints(&[1, E9]),
                        ints(&[E9, 1]),
                        ints(&[3, 3, 3]),
                        ints(&[9, 2, 8, 1, 3]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a):\n    low, best = a[0], 0\n    for x in a:\n        low = min(low, x)\n        best = max(best, x - low)\n    return best\n",
                cpp: "std::string solve(const std::vector<long long> &a) {\n    long long low = a[0], best = 0;\n    for (long long x : a) {\n        low = std::min(low, x);\n        best = std::max(best, x - low);\n    }\n    return std::to_string(best);\n}\n",
                wrong: vec![(
                    "ignores_order.py",
                    "# Takes the highest price minus the lowest, as if one could sell before buying.\ndef solve(a):\n    return max(a) - min(a)\n",
                )],
            },
            vec![Layout::Single, NUMBERED],
        ),
        (
            Task {
                id: "othersum",
                title: "All but One",
                family: Family::Lists,
                legend: "You are given a list of integers. For every $i$, find the sum of all the values except $a_i$.",
                shape: LIST,
                answer: "the $n$ sums, in order, separated by spaces",
                token: false,
                rule: "",
                random: any_list,
                solve: |r| {
                    let a = r.ints();
                    let total: i64 = a.iter().sum();
                    let out: Vec<i64> = a.iter().map(|x| total - x).collect();
                    join(&out, " ")
                },
                samples: || [ints(&[1, 2, 3, 4]), ints(&[5])],
                edges: || {
                    vec![
                        ints(&[E9; 100]),
                        ints(&[-E9, E9]),
                        ints(&[0, 0]),
                        ints(&[E9, E9, E9]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a):\n    total = sum(a)\n    return \" \".join(str(total - x) for x in a)\n",
                cpp: "std::string solve(const std::vector<long long> &a) {\n    long long total = 0;\n    for (long long x : a) total += x;\n    std::string out;\n    for (size_t i = 0; i < a.size(); i++) out += (i ? \" \" : \"\") + std::to_string(total - a[i]);\n    return out;\n}\n",
                wrong: vec![(
                    "int_total.cpp",
                    "// Keeps the total in a 32-bit int, which overflows.\nstd::string solve(const std::vector<long long> &a) {\n    int total = 0;\n    for (long long x : a) total = (int)((unsigned)total + (unsigned)x);\n    std::string out;\n    for (size_t i = 0; i < a.size(); i++) out += (i ? \" \" : \"\") + std::to_string(total - a[i]);\n    return out;\n}\n",
                )],
            },
            vec![Layout::Single, Layout::Bare],
        ),
        (
            Task {
                id: "maxproduct",
                title: "Best Pair Product",
                family: Family::Lists,
                legend: "You are given a list of at least two integers. Choose two values at different positions so that their product is as large as possible, and find that product. Remember that two negative values have a positive product.",
                shape: Shape::List {
                    min_n: 2,
                    lo: -E9,
                    hi: E9,
                },
                answer: "the largest product of two values at different positions",
                token: true,
                rule: "",
                random: any_list,
                solve: |r| {
                    let mut b = r.ints().to_vec();
                    b.sort_unstable();
                    let n = b.len();
                    (b[0] * b[1]).max(b[n - 1] * b[n - 2]).to_string()
                },
                samples: || [ints(&[3, 5, 2, 4]), ints(&[-10, -9, 1, 2])],
                edges: || {
                    vec![
                        ints(&[E9, E9]),
                        ints(&[-E9, -E9, 1]),
                        ints(&[-10, 9, 1]),
                        ints(&[-E9, E9]),
                        ints(&[0, -5, -6]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a):\n    b = sorted(a)\n    return max(b[0] * b[1], b[-1] * b[-2])\n",
                cpp: "std::string solve(std::vector<long long> a) {\n    std::sort(a.begin(), a.end());\n    size_t n = a.size();\n    return std::to_string(std::max(a[0] * a[1], a[n - 1] * a[n - 2]));\n}\n",
                wrong: vec![
                    (
                        "two_largest.py",
                        "# Multiplies the two largest values, forgetting that two negative values can give more.\ndef solve(a):\n    b = sorted(a)\n    return b[-1] * b[-2]\n",
                    ),
                    (
                        "largest_size.py",
                        "# Multiplies the two values farthest from zero: a large negative and a large positive value give a negative product.\ndef solve(a):\n    b = sorted(a, key=abs)\n    return b[-1] * b[-2]\n",
                    ),
                ],
            },
            vec![Layout::Single, Layout::Inline],
        ),
        (
            Task {
                id: "jumpgame",
                title: "Frog on the Stones",
                family: Family::Lists,
                legend: "A frog sits on the first of $n$ stones in a row. The number $a_i$ on stone $i$ is how far the frog can jump from there: from stone $i$ it can jump to any of the stones $i + 1, \\ldots, i + a_i$, and from a stone with 0 it cannot jump at all. Decide whether the frog can reach the last stone.",
                shape: Shape::List {
                    min_n: 1,
                    lo: 0,
                    hi: 10_000,
                },
                answer: "`YES` if the frog can reach the last stone and `NO` otherwise",
                token: true,
                rule: "",
                random: stones,
                solve: |r| {
                    let mut reach = 0;
                    for (i, &x) in r.ints().iter().enumerate() {
                        if i > reach {
                            return yes(false);
                        }
                        reach = reach.max(i + x as usize);
                    }
                    yes(true)
                },
                samples: || [ints(&[2, 3, 1, 1, 4]), ints(&[3, 2, 1, 0, 4])],
                edges: || {
                    vec![
                        ints(&[0]),
                        ints(&[0, 1]),
                        ints(&[1, 0]),
                        ints(&[2, 0, 1]),
                        ints(&[2, 3, 0, 0, 1]),
                        ints(&[10_000, 0]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a):\n    reach = 0\n    for i, x in enumerate(a):\n        if i > reach:\n            return \"NO\"\n        reach = max(reach, i + x)\n    return \"YES\"\n",
                cpp: "std::string solve(const std::vector<long long> &a) {\n    long long reach = 0;\n    for (long long i = 0; i < (long long)a.size(); i++) {\n        if (i > reach) return \"NO\";\n        reach = std::max(reach, i + a[i]);\n    }\n    return \"YES\";\n}\n",
                wrong: vec![
                    (
                        "no_zeros.py",
                        "# Says NO as soon as a stone before the last holds 0, though the frog may jump over it.\ndef solve(a):\n    return \"NO\" if 0 in a[:-1] else \"YES\"\n",
                    ),
                    (
                        "longest_jumps.py",
                        "# Always jumps as far as it can, which may land on a 0 that a shorter jump would have passed.\ndef solve(a):\n    i = 0\n    while i < len(a) - 1:\n        if a[i] == 0:\n            return \"NO\"\n        i += a[i]\n    return \"YES\"\n",
                    ),
                ],
            },
            vec![Layout::Single, Layout::Lines],
        ),
        (
            Task {
                id: "closesttozero",
                title: "Mildest Temperature",
                family: Family::Lists,
                legend: "You are given a list of temperatures. Find the one closest to zero: the value with the smallest absolute value. If a negative and a positive value are equally close, such as $-5$ and $5$, the answer is the positive one.",
                shape: LIST,
                answer: "the value closest to zero",
                token: true,
                rule: "",
                random: any_list,
                solve: |r| {
                    let best = r.ints().iter().min_by_key(|&&x| (x.abs(), -x));
                    best.expect("a value").to_string()
                },
                samples: || [ints(&[3, -2, 8]), ints(&[-5, 9, 5])],
                edges: || {
                    vec![
                        ints(&[-E9]),
                        ints(&[E9, -E9]),
                        ints(&[-E9, E9]),
                        ints(&[0, -1, 1]),
                        ints(&[-1, 1]),
                        ints(&[-7, -3]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a):\n    return min(a, key=lambda x: (abs(x), -x))\n",
                cpp: "std::string solve(const std::vector<long long> &a) {\n    long long best = a[0];\n    for (long long x : a)\n        if (std::llabs(x) < std::llabs(best) || (std::llabs(x) == std::llabs(best) && x > best)) best = x;\n    return std::to_string(best);\n}\n",
                wrong: vec![
                    (
                        "first_of_tie.py",
                        "# Keeps the first of two equally close values, which is the negative one when it comes first.\ndef solve(a):\n    best = a[0]\n    for x in a:\n        if abs(x) < abs(best):\n            best = x\n    return best\n",
                    ),
                    (
                        "distance.py",
                        "# Answers the distance to zero instead of the temperature itself: -3 comes out 3.\ndef solve(a):\n    return min(abs(x) for x in a)\n",
                    ),
                ],
            },
            vec![Layout::Single, Layout::Bare],
        ),
    ]
}
