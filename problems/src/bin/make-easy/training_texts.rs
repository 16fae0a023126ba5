//! The third batch of training tasks, of the strings and lists families: new solvers, each
//! a distinct beginner computation (changing case, comparing words, cutting, repeating and
//! joining letters; folding, mapping, rotating and pairing lists), so that training covers
//! more kinds of solver than the first two batches (`tasks::training` and
//! `tasks::new_training`). None repeats or rewords a validation or held-out task.

use crate::families::{Family, LOWER, MIXED, Size, other_letter, text_len, word};
use crate::rng::Rng;
use crate::tasks::{
    E9, JOINED, LIST, NUMBERED, PER_LINE, WORD, any_list, ints, list_values, random_word, text, yes,
};
use crate::variants::{Layout, Record, Shape, Task};

/// Every letter of `s` in upper or lower case at random.
fn recased(rng: &mut Rng, s: &str) -> String {
    s.chars()
        .map(|c| {
            if rng.range(0, 1) == 0 {
                c.to_ascii_uppercase()
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect()
}

/// Two words: the same word in other cases, the same word with one letter changed, one
/// word the other's beginning, or two words at random.
fn word_pair(rng: &mut Rng, size: Size, _: usize) -> Record {
    let len = text_len(rng, size).min(490);
    let u = word(rng, len, MIXED);
    let v = match rng.range(0, 4) {
        0 | 1 => recased(rng, &u),
        2 => {
            let mut letters = u.to_ascii_lowercase().into_bytes();
            let i = rng.range(0, len as i64 - 1) as usize;
            letters[i] = other_letter(rng, letters[i]);
            let changed = String::from_utf8(letters).expect("ascii");
            recased(rng, &changed)
        }
        3 => {
            let extra = rng.range(1, 3) as usize;
            let longer = format!("{}{}", recased(rng, &u), word(rng, extra, MIXED));
            return Record::Text(if rng.range(0, 1) == 0 {
                format!("{u} {longer}")
            } else {
                format!("{longer} {u}")
            });
        }
        _ => {
            let other = rng.range(1, len as i64) as usize;
            word(rng, other, MIXED)
        }
    };
    Record::Text(format!("{u} {v}"))
}

/// The tasks with their layouts. It is long because it is a table of data: each task's
/// shape, solver, generator and code.
pub(crate) fn tasks() -> Vec<(Task, Vec<Layout>)> {
    vec![
        (
            Task {
                id: "lowercase",
                title: "Small Letters",
                family: Family::Strings,
                legend: "You are given a word of English letters. Write it with every letter in lower case.",
                shape: Shape::Text {
                    pattern: "[a-zA-Z]+",
                    max: 1000,
                    what: "a word $s$ of English letters, lower and upper case ($1 \\le |s| \\le 1000$)",
                },
                answer: "$s$ with every upper-case letter changed to lower case",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    let len = text_len(rng, size);
                    Record::Text(word(rng, len, MIXED))
                },
                solve: |r| r.text().to_ascii_lowercase(),
                samples: || [text("HeLLo"), text("aBc")],
                edges: || vec![text("Z"), text("a"), text("AZaz"), text("XYZ")],
                case_sensitive: true,
                py: "def solve(s):\n    return s.lower()\n",
                cpp: "std::string solve(std::string s) {\n    for (char &c : s) c = std::tolower((unsigned char)c);\n    return s;\n}\n",
                wrong: vec![(
                    "misses_z.cpp",
                    "// Stops one letter short: tests c < 'Z', so Z stays upper case.\nstd::string solve(std::string s) {\n    for (char &c : s) if (c >= 'A' && c < 'Z') c = c - 'A' + 'a';\n    return s;\n}\n",
                )],
            },
            vec![Layout::Single, PER_LINE],
        ),
        (
            Task {
                id: "sameword",
                title: "Case Blind",
                family: Family::Strings,
                legend: "You are given two words. Decide whether they are the same word when upper and lower case are not told apart: `Apple` and `aPPLE` are the same word, `apple` and `apples` are not.",
                shape: Shape::Text {
                    pattern: "[a-zA-Z]+ [a-zA-Z]+",
                    max: 1000,
                    what: "two words $u$ and $v$ of English letters, lower and upper case, separated by one space (at most 1000 characters in all)",
                },
                answer: "`YES` if $u$ and $v$ are equal when case is ignored and `NO` otherwise",
                token: true,
                rule: "",
                random: word_pair,
                solve: |r| {
                    let (u, v) = r.text().split_once(' ').expect("two words");
                    yes(u.eq_ignore_ascii_case(v))
                },
                samples: || [text("Apple aPPLE"), text("apple Apples")],
                edges: || {
                    vec![
                        text("a A"),
                        text("a b"),
                        text("Zz zZ"),
                        text("ab ba"),
                        text("abc ABCD"),
                        text("Hello hello"),
                    ]
                },
                case_sensitive: false,
                py: "def solve(s):\n    u, v = s.split(\" \")\n    return \"YES\" if u.lower() == v.lower() else \"NO\"\n",
                cpp: "std::string solve(const std::string &s) {\n    size_t space = s.find(' ');\n    std::string u = s.substr(0, space), v = s.substr(space + 1);\n    if (u.size() != v.size()) return \"NO\";\n    for (size_t i = 0; i < u.size(); i++)\n        if (std::tolower((unsigned char)u[i]) != std::tolower((unsigned char)v[i])) return \"NO\";\n    return \"YES\";\n}\n",
                wrong: vec![
                    (
                        "case_matters.py",
                        "# Compares the words as they are: Apple and apple come out different.\ndef solve(s):\n    u, v = s.split(\" \")\n    return \"YES\" if u == v else \"NO\"\n",
                    ),
                    (
                        "no_length_check.cpp",
                        "// Compares the letters the two words both have, forgetting the lengths: apple and apples come out equal.\nstd::string solve(const std::string &s) {\n    size_t space = s.find(' ');\n    std::string u = s.substr(0, space), v = s.substr(space + 1);\n    for (size_t i = 0; i < u.size() && i < v.size(); i++)\n        if (std::tolower((unsigned char)u[i]) != std::tolower((unsigned char)v[i])) return \"NO\";\n    return \"YES\";\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, JOINED],
        ),
        (
            Task {
                id: "trimends",
                title: "Trim Both Ends",
                family: Family::Strings,
                legend: "You are given a word of at least three letters. Remove its first letter and its last letter.",
                shape: Shape::Text {
                    pattern: "[a-z]+",
                    max: 1000,
                    what: "a word $s$ of lowercase English letters ($3 \\le |s| \\le 1000$)",
                },
                answer: "$s$ without its first and last letters",
                token: true,
                rule: "len(v) >= 3",
                random: |rng, size, _| {
                    let len = text_len(rng, size).max(3);
                    Record::Text(word(rng, len, LOWER))
                },
                solve: |r| {
                    let s = r.text();
                    s[1..s.len() - 1].to_owned()
                },
                samples: || [text("hello"), text("abc")],
                edges: || vec![text("xyz"), text("abcd"), text("aaaaz"), text("zaaaa")],
                case_sensitive: false,
                py: "def solve(s):\n    return s[1:-1]\n",
                cpp: "std::string solve(const std::string &s) {\n    return s.substr(1, s.size() - 2);\n}\n",
                wrong: vec![(
                    "substr_end.cpp",
                    "// Passes substr the end position where it takes a length: the last letter stays.\nstd::string solve(const std::string &s) {\n    return s.substr(1, s.size() - 1);\n}\n",
                )],
            },
            vec![Layout::Single, Layout::Eof],
        ),
        (
            Task {
                id: "stutter",
                title: "Double Trouble",
                family: Family::Strings,
                legend: "You are given a word. Write every letter twice in a row: `abc` becomes `aabbcc`.",
                shape: WORD,
                answer: "$s$ with every letter written twice",
                token: true,
                rule: "",
                random: random_word,
                solve: |r| r.text().chars().flat_map(|c| [c, c]).collect(),
                samples: || [text("hello"), text("z")],
                edges: || vec![text("a"), text("ab"), text("zzz"), text("xyz")],
                case_sensitive: false,
                py: "def solve(s):\n    return \"\".join(c + c for c in s)\n",
                cpp: "std::string solve(const std::string &s) {\n    std::string out;\n    for (char c : s) {\n        out += c;\n        out += c;\n    }\n    return out;\n}\n",
                wrong: vec![(
                    "whole_word.py",
                    "# Doubles the whole word instead of each letter: abc becomes abcabc.\ndef solve(s):\n    return s * 2\n",
                )],
            },
            vec![Layout::Single, NUMBERED],
        ),
        (
            Task {
                id: "hyphenate",
                title: "Dash Between",
                family: Family::Strings,
                legend: "You are given a word. Write its letters with a hyphen `-` between every two neighbouring letters: `abc` becomes `a-b-c`.",
                shape: WORD,
                answer: "the letters of $s$ joined by hyphens",
                token: true,
                rule: "",
                random: random_word,
                solve: |r| {
                    let letters: Vec<String> = r.text().chars().map(String::from).collect();
                    letters.join("-")
                },
                samples: || [text("abc"), text("x")],
                edges: || vec![text("a"), text("ab"), text("zzzz")],
                case_sensitive: false,
                py: "def solve(s):\n    return \"-\".join(s)\n",
                cpp: "std::string solve(const std::string &s) {\n    std::string out(1, s[0]);\n    for (size_t i = 1; i < s.size(); i++) {\n        out += '-';\n        out += s[i];\n    }\n    return out;\n}\n",
                wrong: vec![(
                    "trailing_hyphen.cpp",
                    "// Writes a hyphen after every letter, the last one too.\nstd::string solve(const std::string &s) {\n    std::string out;\n    for (char c : s) {\n        out += c;\n        out += '-';\n    }\n    return out;\n}\n",
                )],
            },
            vec![Layout::Single, PER_LINE],
        ),
        (
            Task {
                id: "altcaps",
                title: "Up and Down",
                family: Family::Strings,
                legend: "You are given a word. Write its letters alternately in upper and lower case, starting with upper case: the letters at odd positions (the first, the third, and so on) in upper case and the others in lower case, so `hello` becomes `HeLlO`.",
                shape: WORD,
                answer: "$s$ with its letters alternately in upper and lower case, the first in upper case",
                token: true,
                rule: "",
                random: random_word,
                solve: |r| {
                    r.text()
                        .chars()
                        .enumerate()
                        .map(|(i, c)| {
                            if i % 2 == 0 {
                                c.to_ascii_uppercase()
                            } else {
                                c
                            }
                        })
                        .collect()
                },
                samples: || [text("hello"), text("ab")],
                edges: || vec![text("a"), text("z"), text("abc"), text("zzzz")],
                case_sensitive: true,
                py: "def solve(s):\n    return \"\".join(c.upper() if i % 2 == 0 else c for i, c in enumerate(s))\n",
                cpp: "std::string solve(std::string s) {\n    for (size_t i = 0; i < s.size(); i += 2) s[i] = std::toupper((unsigned char)s[i]);\n    return s;\n}\n",
                wrong: vec![(
                    "zero_based.cpp",
                    "// Takes the odd places to be the odd indices, which count from 0: the second, fourth, ... letters go upper case.\nstd::string solve(std::string s) {\n    for (size_t i = 0; i < s.size(); i++) if (i % 2 == 1) s[i] = std::toupper((unsigned char)s[i]);\n    return s;\n}\n",
                )],
            },
            vec![Layout::Single, NUMBERED],
        ),
        (
            Task {
                id: "repeatword",
                title: "Echo Echo",
                family: Family::Strings,
                legend: "You are given a word $w$ and a number $k$. Write the word $k$ times in a row, with nothing between the copies: `ab` three times is `ababab`.",
                shape: Shape::Text {
                    pattern: "[a-z]+ [1-9]",
                    max: 102,
                    what: "a word $w$ of lowercase English letters ($1 \\le |w| \\le 100$) and an integer $k$ ($1 \\le k \\le 9$), separated by one space",
                },
                answer: "$w$ written $k$ times",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    let len = text_len(rng, size).min(100);
                    let k = match size {
                        Size::Max => 9,
                        _ => rng.range(1, 9),
                    };
                    Record::Text(format!("{} {k}", word(rng, len, LOWER)))
                },
                solve: |r| {
                    let (w, k) = r.text().split_once(' ').expect("a word and k");
                    w.repeat(k.parse().expect("a digit"))
                },
                samples: || [text("ab 3"), text("hello 1")],
                edges: || vec![text("a 1"), text("z 9"), text("xy 2")],
                case_sensitive: false,
                py: "def solve(s):\n    w, k = s.split(\" \")\n    return w * int(k)\n",
                cpp: "std::string solve(const std::string &s) {\n    size_t space = s.find(' ');\n    std::string w = s.substr(0, space), out;\n    int k = std::stoi(s.substr(space + 1));\n    for (int i = 0; i < k; i++) out += w;\n    return out;\n}\n",
                wrong: vec![
                    (
                        "spaces.py",
                        "# Puts a space between the copies.\ndef solve(s):\n    w, k = s.split(\" \")\n    return \" \".join([w] * int(k))\n",
                    ),
                    (
                        "one_short.cpp",
                        "// Counts the copies from 1 with <: one copy too few.\nstd::string solve(const std::string &s) {\n    size_t space = s.find(' ');\n    std::string w = s.substr(0, space), out;\n    int k = std::stoi(s.substr(space + 1));\n    for (int i = 1; i < k; i++) out += w;\n    return out;\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, Layout::Eof],
        ),
        (
            Task {
                id: "productmod",
                title: "Big Product",
                family: Family::Lists,
                legend: "You are given a list of non-negative integers. Multiply them all and find the remainder of the product $a_1 \\cdot a_2 \\cdots a_n$ divided by $10^9 + 7$. The product itself may be far too large for a 64-bit integer.",
                shape: Shape::List {
                    min_n: 1,
                    lo: 0,
                    hi: E9,
                },
                answer: "the product of the values modulo $10^9 + 7$",
                token: true,
                rule: "",
                random: |rng, size, n| Record::Ints(list_values(rng, size, n, 0, E9)),
                solve: |r| {
                    const MOD: i64 = 1_000_000_007;
                    r.ints()
                        .iter()
                        .fold(1, |product, x| product * (x % MOD) % MOD)
                        .to_string()
                },
                samples: || [ints(&[2, 3, 4]), ints(&[E9, E9])],
                edges: || {
                    vec![
                        ints(&[0]),
                        ints(&[E9]),
                        ints(&[E9, E9, E9]),
                        ints(&[1, 0, 5]),
                        ints(&[E9; 100]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a):\n    product = 1\n    for x in a:\n        product = product * x % 1000000007\n    return product\n",
                cpp: "std::string solve(const std::vector<long long> &a) {\n    const long long MOD = 1000000007;\n    long long product = 1;\n    for (long long x : a) product = product * (x % MOD) % MOD;\n    return std::to_string(product);\n}\n",
                wrong: vec![(
                    "mod_at_end.cpp",
                    "// Takes the remainder only at the end: the product overflows 64 bits first.\nstd::string solve(const std::vector<long long> &a) {\n    unsigned long long product = 1;\n    for (long long x : a) product *= (unsigned long long)x;\n    return std::to_string((long long)product % 1000000007);\n}\n",
                )],
            },
            vec![Layout::Single, Layout::Bare],
        ),
        (
            Task {
                id: "lastminusfirst",
                title: "Start to Finish",
                family: Family::Lists,
                legend: "You are given a list of integers $a_1, \\ldots, a_n$. Find how much the last value is above the first one: $a_n - a_1$, which is negative when the last value is the smaller.",
                shape: LIST,
                answer: "$a_n - a_1$",
                token: true,
                rule: "",
                random: any_list,
                solve: |r| {
                    let a = r.ints();
                    (a[a.len() - 1] - a[0]).to_string()
                },
                samples: || [ints(&[3, 8, 1, 10]), ints(&[5, 2])],
                edges: || {
                    vec![
                        ints(&[7]),
                        ints(&[E9, -E9]),
                        ints(&[-E9, 5, E9]),
                        ints(&[4, 9, 4]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a):\n    return a[-1] - a[0]\n",
                cpp: "std::string solve(const std::vector<long long> &a) {\n    return std::to_string(a.back() - a.front());\n}\n",
                wrong: vec![(
                    "first_minus_last.py",
                    "# Subtracts the other way round: a_1 - a_n.\ndef solve(a):\n    return a[0] - a[-1]\n",
                )],
            },
            vec![Layout::Single, Layout::Column],
        ),
        (
            Task {
                id: "abssum",
                title: "Distance Travelled",
                family: Family::Lists,
                legend: "You are given a list of integers. Add up their absolute values: $|a_1| + |a_2| + \\cdots + |a_n|$.",
                shape: LIST,
                answer: "$|a_1| + |a_2| + \\cdots + |a_n|$",
                token: true,
                rule: "",
                random: any_list,
                solve: |r| r.ints().iter().map(|x| x.abs()).sum::<i64>().to_string(),
                samples: || [ints(&[3, -4, 5]), ints(&[-1, -2])],
                edges: || {
                    vec![
                        ints(&[0]),
                        ints(&[-E9]),
                        ints(&[E9, -E9]),
                        ints(&[-E9; 100]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a):\n    return sum(abs(x) for x in a)\n",
                cpp: "std::string solve(const std::vector<long long> &a) {\n    long long total = 0;\n    for (long long x : a) total += x < 0 ? -x : x;\n    return std::to_string(total);\n}\n",
                wrong: vec![(
                    "abs_of_sum.py",
                    "# Takes the absolute value of the sum instead of adding up the absolute values.\ndef solve(a):\n    return abs(sum(a))\n",
                )],
            },
            vec![Layout::Single, JOINED],
        ),
        (
            Task {
                id: "runningmax",
                title: "Record Highs",
                family: Family::Lists,
                legend: "You are given a list of integers. For every $i$, find the largest of the first $i$ values $a_1, \\ldots, a_i$.",
                shape: LIST,
                answer: "the $n$ largest values of the first $1, 2, \\ldots, n$ values, in order, separated by spaces",
                token: false,
                rule: "",
                random: any_list,
                solve: |r| {
                    let mut best = i64::MIN;
                    let words: Vec<String> = r
                        .ints()
                        .iter()
                        .map(|&x| {
                            best = best.max(x);
                            best.to_string()
                        })
                        .collect();
                    words.join(" ")
                },
                samples: || [ints(&[3, 1, 4, 1, 5]), ints(&[-2, -5, -1])],
                edges: || {
                    vec![
                        ints(&[-E9]),
                        ints(&[5, 4, 3, 2, 1]),
                        ints(&[-3, -3, -3]),
                        ints(&[-E9, E9]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a):\n    best, out = a[0], []\n    for x in a:\n        best = max(best, x)\n        out.append(best)\n    return \" \".join(map(str, out))\n",
                cpp: "std::string solve(const std::vector<long long> &a) {\n    std::string out;\n    long long best = a[0];\n    for (size_t i = 0; i < a.size(); i++) {\n        best = std::max(best, a[i]);\n        out += (i ? \" \" : \"\") + std::to_string(best);\n    }\n    return out;\n}\n",
                wrong: vec![(
                    "starts_at_zero.py",
                    "# Starts the maximum at 0: a list that begins with negative values gets zeros.\ndef solve(a):\n    best, out = 0, []\n    for x in a:\n        best = max(best, x)\n        out.append(best)\n    return \" \".join(map(str, out))\n",
                )],
            },
            vec![Layout::Single, Layout::Inline],
        ),
        (
            Task {
                id: "neighboursums",
                title: "Side by Side",
                family: Family::Lists,
                legend: "You are given a list of at least two integers. Add up every two neighbouring values: find $a_1 + a_2$, $a_2 + a_3$, and so on up to $a_{n-1} + a_n$.",
                shape: Shape::List {
                    min_n: 2,
                    lo: -E9,
                    hi: E9,
                },
                answer: "the $n - 1$ sums $a_i + a_{i+1}$, in order, separated by spaces",
                token: false,
                rule: "",
                random: any_list,
                solve: |r| {
                    let words: Vec<String> = r
                        .ints()
                        .windows(2)
                        .map(|w| (w[0] + w[1]).to_string())
                        .collect();
                    words.join(" ")
                },
                samples: || [ints(&[1, 2, 3, 4]), ints(&[5, -5])],
                edges: || {
                    vec![
                        ints(&[E9, E9]),
                        ints(&[-E9, -E9, -E9]),
                        ints(&[1, -1, 1, -1]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a):\n    return \" \".join(str(a[i] + a[i + 1]) for i in range(len(a) - 1))\n",
                cpp: "std::string solve(const std::vector<long long> &a) {\n    std::string out;\n    for (size_t i = 0; i + 1 < a.size(); i++)\n        out += (i ? \" \" : \"\") + std::to_string(a[i] + a[i + 1]);\n    return out;\n}\n",
                wrong: vec![
                    (
                        "wraps_around.py",
                        "# Runs over all n positions, adding a_n + a_1 at the end as if the list were a circle.\ndef solve(a):\n    return \" \".join(str(a[i] + a[(i + 1) % len(a)]) for i in range(len(a)))\n",
                    ),
                    (
                        "steps_of_two.py",
                        "# Steps by two: adds a_1 + a_2, then a_3 + a_4, so the pairs never overlap.\ndef solve(a):\n    return \" \".join(str(a[i] + a[i + 1]) for i in range(0, len(a) - 1, 2))\n",
                    ),
                ],
            },
            vec![Layout::Single, PER_LINE],
        ),
        (
            Task {
                id: "rotateleft",
                title: "First to the Back",
                family: Family::Lists,
                legend: "You are given a list of integers. Rotate it one place to the left: every value moves one place toward the front, and the first value goes to the end.",
                shape: LIST,
                answer: "the values $a_2, \\ldots, a_n, a_1$, separated by spaces",
                token: false,
                rule: "",
                random: any_list,
                solve: |r| {
                    let a = r.ints();
                    let words: Vec<String> =
                        a[1..].iter().chain(&a[..1]).map(i64::to_string).collect();
                    words.join(" ")
                },
                samples: || [ints(&[1, 2, 3, 4]), ints(&[7])],
                edges: || {
                    vec![
                        ints(&[E9]),
                        ints(&[1, 2]),
                        ints(&[5, 5, 6]),
                        ints(&[-1, 0, 1]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a):\n    return \" \".join(map(str, a[1:] + a[:1]))\n",
                cpp: "std::string solve(const std::vector<long long> &a) {\n    std::string out;\n    for (size_t i = 1; i <= a.size(); i++)\n        out += (i > 1 ? \" \" : \"\") + std::to_string(a[i % a.size()]);\n    return out;\n}\n",
                wrong: vec![(
                    "rotates_right.py",
                    "# Rotates the other way: the last value comes to the front.\ndef solve(a):\n    return \" \".join(map(str, a[-1:] + a[:-1]))\n",
                )],
            },
            vec![Layout::Single, Layout::Bare],
        ),
        (
            Task {
                id: "alternatingsum",
                title: "Plus Minus",
                family: Family::Lists,
                legend: "You are given a list of integers. Add and subtract them in turn: find $a_1 - a_2 + a_3 - a_4 + \\cdots$, where the values at odd positions are added and the values at even positions are subtracted.",
                shape: LIST,
                answer: "$a_1 - a_2 + a_3 - \\cdots$",
                token: true,
                rule: "",
                random: any_list,
                solve: |r| {
                    r.ints()
                        .iter()
                        .enumerate()
                        .map(|(i, x)| if i % 2 == 0 { *x } else { -x })
                        .sum::<i64>()
                        .to_string()
                },
                samples: || [ints(&[5, 3, 2]), ints(&[1, 10])],
                edges: || {
                    vec![
                        ints(&[-E9]),
                        ints(&[E9, -E9]),
                        ints(&[4, 4]),
                        Record::Ints([E9, -E9].repeat(50)),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a):\n    return sum(a[0::2]) - sum(a[1::2])\n",
                cpp: "std::string solve(const std::vector<long long> &a) {\n    long long total = 0;\n    for (size_t i = 0; i < a.size(); i++) total += i % 2 == 0 ? a[i] : -a[i];\n    return std::to_string(total);\n}\n",
                wrong: vec![
                    (
                        "flipped.py",
                        "# Subtracts at the odd positions and adds at the even ones: the sign comes out flipped.\ndef solve(a):\n    return sum(a[1::2]) - sum(a[0::2])\n",
                    ),
                    (
                        "int_overflow.cpp",
                        "// Keeps the total in a 32-bit int.\nstd::string solve(const std::vector<long long> &a) {\n    int total = 0;\n    for (size_t i = 0; i < a.size(); i++)\n        total = (int)((unsigned)total + (unsigned)(i % 2 == 0 ? a[i] : -a[i]));\n    return std::to_string(total);\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, NUMBERED],
        ),
        (
            Task {
                id: "swappairs",
                title: "Partners Swap",
                family: Family::Lists,
                legend: "You are given a list of integers. Swap the first value with the second, the third with the fourth, and so on. When $n$ is odd, the last value has no partner and stays where it is.",
                shape: LIST,
                answer: "the values after the swaps, in order, separated by spaces",
                token: false,
                rule: "",
                random: any_list,
                solve: |r| {
                    let mut a = r.ints().to_vec();
                    for pair in a.chunks_mut(2) {
                        pair.reverse();
                    }
                    let words: Vec<String> = a.iter().map(i64::to_string).collect();
                    words.join(" ")
                },
                samples: || [ints(&[1, 2, 3, 4]), ints(&[7, 8, 9])],
                edges: || {
                    vec![
                        ints(&[5]),
                        ints(&[1, 2]),
                        ints(&[E9, -E9, 0]),
                        ints(&[3, 3]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a):\n    b = a[:]\n    for i in range(0, len(b) - 1, 2):\n        b[i], b[i + 1] = b[i + 1], b[i]\n    return \" \".join(map(str, b))\n",
                cpp: "std::string solve(std::vector<long long> a) {\n    for (size_t i = 0; i + 1 < a.size(); i += 2) std::swap(a[i], a[i + 1]);\n    std::string out;\n    for (size_t i = 0; i < a.size(); i++) out += (i ? \" \" : \"\") + std::to_string(a[i]);\n    return out;\n}\n",
                wrong: vec![(
                    "drops_last.py",
                    "# Builds the pairs with zip: the last value of a list of odd length is lost.\ndef solve(a):\n    out = []\n    for x, y in zip(a[0::2], a[1::2]):\n        out += [y, x]\n    return \" \".join(map(str, out))\n",
                )],
            },
            vec![Layout::Single, Layout::Lines],
        ),
    ]
}
