//! The second batch of validation tasks: new tasks of the training families (arithmetic,
//! strings, lists, loops, conditions), never trained on, so that the choices made on the
//! validation split rest on more than the first batch's nine tasks (`tasks::validation`).

use crate::families::{Family, LOWER, MIXED, Size, text_len, value, values, word};
use crate::tasks::{
    AB, E9, E18, JOINED, LIST, NUMBERED, PER_LINE, SENTENCE, WORD, any_list, ints, list_values,
    random_sentence, text, yes,
};
use crate::variants::{Layout, Record, Shape, Task};

/// The tasks with their layouts. It is long because it is a table of data: each task's
/// shape, solver, generator and code.
pub(crate) fn tasks() -> Vec<(Task, Vec<Layout>)> {
    vec![
        (
            Task {
                id: "twosquares",
                title: "Two Squares",
                family: Family::Arithmetic,
                legend: "You are given two integers $a$ and $b$. Find the sum of their squares, $a^2 + b^2$. It may not fit in a 32-bit integer.",
                shape: Shape::Ints(AB),
                answer: "$a^2 + b^2$",
                token: true,
                rule: "",
                random: |rng, size, _| ints(&values(rng, size, 2, -E9, E9)),
                solve: |r| (r.ints()[0] * r.ints()[0] + r.ints()[1] * r.ints()[1]).to_string(),
                samples: || [ints(&[3, 4]), ints(&[-2, 0])],
                edges: || {
                    vec![
                        ints(&[E9, E9]),
                        ints(&[-E9, E9]),
                        ints(&[0, 0]),
                        ints(&[1, -1]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a, b):\n    return a * a + b * b\n",
                cpp: "std::string solve(long long a, long long b) {\n    return std::to_string(a * a + b * b);\n}\n",
                wrong: vec![(
                    "square_of_sum.py",
                    "# Squares the sum: (a + b)^2 instead of a^2 + b^2.\ndef solve(a, b):\n    return (a + b) ** 2\n",
                )],
            },
            vec![Layout::Single, Layout::Lines],
        ),
        (
            Task {
                id: "posmod",
                title: "True Remainder",
                family: Family::Arithmetic,
                legend: "You are given an integer $a$ and a positive integer $b$. Find the remainder of $a$ divided by $b$ that is never negative: the integer $r$ with $0 \\le r < b$ such that $a - r$ is divisible by $b$.",
                shape: Shape::Ints(&[("a", -E18, E18), ("b", 1, E9)]),
                answer: "the remainder $r$ ($0 \\le r < b$)",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    let a = value(rng, size, -E18, E18);
                    let b = value(rng, size, 1, E9);
                    ints(&[if rng.range(0, 1) == 0 { -a } else { a }, b])
                },
                solve: |r| r.ints()[0].rem_euclid(r.ints()[1]).to_string(),
                samples: || [ints(&[17, 5]), ints(&[-7, 3])],
                edges: || {
                    vec![
                        ints(&[-E18, 7]),
                        ints(&[E18, E9]),
                        ints(&[-1, E9]),
                        ints(&[0, 1]),
                        ints(&[-6, 3]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a, b):\n    return a % b\n",
                cpp: "std::string solve(long long a, long long b) {\n    long long r = a % b;\n    return std::to_string(r < 0 ? r + b : r);\n}\n",
                wrong: vec![(
                    "negative.cpp",
                    "// Uses % alone, which gives a negative remainder for a negative a in C++.\nstd::string solve(long long a, long long b) {\n    return std::to_string(a % b);\n}\n",
                )],
            },
            vec![Layout::Single, JOINED],
        ),
        (
            Task {
                id: "multiples",
                title: "Counting Multiples",
                family: Family::Arithmetic,
                legend: "Count the multiples of $k$ among the integers from 1 to $n$: the numbers $k, 2k, 3k, \\ldots$ that are at most $n$.",
                shape: Shape::Ints(&[("n", 1, E18), ("k", 1, E18)]),
                answer: "how many of $1, 2, \\ldots, n$ are divisible by $k$",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    let n = value(rng, size, 1, E18);
                    let k = if rng.range(0, 1) == 0 {
                        value(rng, size, 1, E9)
                    } else {
                        value(rng, size, 1, E18)
                    };
                    ints(&[n, k])
                },
                solve: |r| (r.ints()[0] / r.ints()[1]).to_string(),
                samples: || [ints(&[10, 3]), ints(&[5, 7])],
                edges: || {
                    vec![
                        ints(&[1, 1]),
                        ints(&[E18, 1]),
                        ints(&[E18 - 1, E18]),
                        ints(&[E18, E18]),
                        ints(&[12, 4]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(n, k):\n    return n // k\n",
                cpp: "std::string solve(long long n, long long k) {\n    return std::to_string(n / k);\n}\n",
                wrong: vec![(
                    "counts_zero.py",
                    "# Counts 0 as a multiple too.\ndef solve(n, k):\n    return n // k + 1\n",
                )],
            },
            vec![Layout::Single, Layout::Eof],
        ),
        (
            Task {
                id: "countupper",
                title: "Capital Count",
                family: Family::Strings,
                legend: "You are given a word of English letters, lower and upper case. Count its upper-case letters.",
                shape: Shape::Text {
                    pattern: "[a-zA-Z]+",
                    max: 1000,
                    what: "a word $s$ of English letters, lower and upper case ($1 \\le |s| \\le 1000$)",
                },
                answer: "the number of upper-case letters of $s$",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    let len = text_len(rng, size);
                    Record::Text(word(rng, len, MIXED))
                },
                solve: |r| {
                    r.text()
                        .chars()
                        .filter(char::is_ascii_uppercase)
                        .count()
                        .to_string()
                },
                samples: || [text("HelloWorld"), text("abc")],
                edges: || vec![text("Z"), text("a"), text("AZaz"), text("ZZZ")],
                case_sensitive: false,
                py: "def solve(s):\n    return sum(1 for c in s if c.isupper())\n",
                cpp: "std::string solve(const std::string &s) {\n    int count = 0;\n    for (char c : s) if (std::isupper((unsigned char)c)) count++;\n    return std::to_string(count);\n}\n",
                wrong: vec![(
                    "misses_z.cpp",
                    "// Stops one letter short: tests c < 'Z', so Z is not counted.\nstd::string solve(const std::string &s) {\n    int count = 0;\n    for (char c : s) if (c >= 'A' && c < 'Z') count++;\n    return std::to_string(count);\n}\n",
                )],
            },
            vec![Layout::Single, NUMBERED],
        ),
        (
            Task {
                id: "reversewords",
                title: "Mirrored Words",
                family: Family::Strings,
                legend: "You are given a line of words. Reverse the letters of every word, keeping the words in their order.",
                shape: SENTENCE,
                answer: "$s$ with the letters of every word in reverse order and the words in their original order",
                token: false,
                rule: "",
                random: random_sentence,
                solve: |r| {
                    let words: Vec<String> = r
                        .text()
                        .split(' ')
                        .map(|w| w.chars().rev().collect())
                        .collect();
                    words.join(" ")
                },
                samples: || [text("hello world"), text("abc")],
                edges: || vec![text("a"), text("ab cd"), text("x yz abc")],
                case_sensitive: false,
                py: "def solve(s):\n    return \" \".join(w[::-1] for w in s.split(\" \"))\n",
                cpp: "std::string solve(std::string s) {\n    size_t start = 0;\n    for (size_t i = 0; i <= s.size(); i++)\n        if (i == s.size() || s[i] == ' ') {\n            std::reverse(s.begin() + start, s.begin() + i);\n            start = i + 1;\n        }\n    return s;\n}\n",
                wrong: vec![(
                    "whole_line.py",
                    "# Reverses the whole line: the words come out in reverse order too.\ndef solve(s):\n    return s[::-1]\n",
                )],
            },
            vec![Layout::Single, PER_LINE],
        ),
        (
            Task {
                id: "sortedword",
                title: "Alphabetical Word",
                family: Family::Strings,
                legend: "You are given a word. Decide whether its letters are in alphabetical order: every letter after the first is the same as the letter before it or comes later in the alphabet.",
                shape: WORD,
                answer: "`YES` if the letters of $s$ are in alphabetical order and `NO` otherwise",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    let len = text_len(rng, size);
                    let mut letters = word(rng, len, LOWER).into_bytes();
                    if rng.range(0, 1) == 0 {
                        letters.sort_unstable();
                    }
                    Record::Text(String::from_utf8(letters).expect("ascii"))
                },
                solve: |r| {
                    let b = r.text().as_bytes();
                    yes(b.windows(2).all(|w| w[0] <= w[1]))
                },
                samples: || [text("abbey"), text("hello")],
                edges: || {
                    vec![
                        text("a"),
                        text("aa"),
                        text("ba"),
                        text("abcz"),
                        text("abca"),
                    ]
                },
                case_sensitive: false,
                py: "def solve(s):\n    return \"YES\" if \"\".join(sorted(s)) == s else \"NO\"\n",
                cpp: "std::string solve(const std::string &s) {\n    for (size_t i = 1; i < s.size(); i++)\n        if (s[i] < s[i - 1]) return \"NO\";\n    return \"YES\";\n}\n",
                wrong: vec![(
                    "strict.py",
                    "# Compares with <: a repeated letter counts as out of order.\ndef solve(s):\n    return \"YES\" if all(s[i] < s[i + 1] for i in range(len(s) - 1)) else \"NO\"\n",
                )],
            },
            vec![Layout::Single, Layout::Eof],
        ),
        (
            Task {
                id: "countfirst",
                title: "Like the First",
                family: Family::Lists,
                legend: "You are given a list of integers. Count the values equal to the first one, $a_1$, counting $a_1$ itself.",
                shape: LIST,
                answer: "how many $a_i$ are equal to $a_1$",
                token: true,
                rule: "",
                random: |rng, size, n| Record::Ints(list_values(rng, size, n, -3, 3)),
                solve: |r| {
                    let first = r.ints()[0];
                    r.ints().iter().filter(|x| **x == first).count().to_string()
                },
                samples: || [ints(&[2, 5, 2, 2, 7]), ints(&[4, 1])],
                edges: || {
                    vec![
                        ints(&[E9]),
                        ints(&[-E9, -E9, E9]),
                        ints(&[7, 7, 7, 7]),
                        ints(&[1, 2, 3]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a):\n    return a.count(a[0])\n",
                cpp: "std::string solve(const std::vector<long long> &a) {\n    return std::to_string(std::count(a.begin(), a.end(), a[0]));\n}\n",
                wrong: vec![(
                    "skips_first.py",
                    "# Counts the equal values after the first one, leaving a_1 itself out.\ndef solve(a):\n    return sum(1 for x in a[1:] if x == a[0])\n",
                )],
            },
            vec![Layout::Single, Layout::Column],
        ),
        (
            Task {
                id: "countrises",
                title: "Going Up",
                family: Family::Lists,
                legend: "You are given a list of integers. Count the values greater than the value just before them: the positions $i > 1$ with $a_i > a_{i-1}$.",
                shape: LIST,
                answer: "how many $a_i$ are greater than $a_{i-1}$",
                token: true,
                rule: "",
                random: |rng, size, n| match size {
                    Size::Small => Record::Ints(list_values(rng, size, n, -5, 5)),
                    _ => any_list(rng, size, n),
                },
                solve: |r| {
                    r.ints()
                        .windows(2)
                        .filter(|w| w[1] > w[0])
                        .count()
                        .to_string()
                },
                samples: || [ints(&[1, 3, 2, 5]), ints(&[9, 9, 4])],
                edges: || {
                    vec![
                        ints(&[5]),
                        ints(&[7, 7]),
                        ints(&[1, 2, 3]),
                        ints(&[E9, -E9, E9]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a):\n    return sum(1 for i in range(1, len(a)) if a[i] > a[i - 1])\n",
                cpp: "std::string solve(const std::vector<long long> &a) {\n    int count = 0;\n    for (size_t i = 1; i < a.size(); i++) if (a[i] > a[i - 1]) count++;\n    return std::to_string(count);\n}\n",
                wrong: vec![(
                    "counts_ties.py",
                    "# Uses >=: a value equal to the one before it counts as a rise.\ndef solve(a):\n    return sum(1 for i in range(1, len(a)) if a[i] >= a[i - 1])\n",
                )],
            },
            vec![Layout::Single, Layout::Inline],
        ),
        (
            Task {
                id: "countdigits",
                title: "Digit Count",
                family: Family::Loops,
                legend: "Count the decimal digits of a non-negative integer $n$, written without leading zeros (0 has one digit).",
                shape: Shape::Ints(&[("n", 0, E18)]),
                answer: "the number of digits of $n$",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    ints(&[match size {
                        Size::Large => {
                            let digits = rng.range(1, 18) as u32;
                            let lo = if digits == 1 {
                                0
                            } else {
                                10_i64.pow(digits - 1)
                            };
                            rng.range(lo, 10_i64.pow(digits) - 1)
                        }
                        _ => value(rng, size, 0, E18),
                    }])
                },
                solve: |r| r.ints()[0].to_string().len().to_string(),
                samples: || [ints(&[2024]), ints(&[7])],
                edges: || {
                    vec![
                        ints(&[0]),
                        ints(&[10]),
                        ints(&[999_999_999_999_999_999]),
                        ints(&[E18]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(n):\n    digits = 1\n    while n >= 10:\n        n //= 10\n        digits += 1\n    return digits\n",
                cpp: "std::string solve(long long n) {\n    int digits = 1;\n    for (; n >= 10; n /= 10) digits++;\n    return std::to_string(digits);\n}\n",
                wrong: vec![
                    (
                        "zero_digits.py",
                        "# Counts while n > 0: 0 gets no digits.\ndef solve(n):\n    digits = 0\n    while n > 0:\n        n //= 10\n        digits += 1\n    return digits\n",
                    ),
                    (
                        "log10.py",
                        "# Takes the logarithm in floating point: 999999999999999999 rounds up to 10^18.\nimport math\n\n\ndef solve(n):\n    return int(math.log10(n)) + 1 if n > 0 else 1\n",
                    ),
                ],
            },
            vec![Layout::Single, JOINED],
        ),
        (
            Task {
                id: "reversedigits",
                title: "Backwards Number",
                family: Family::Loops,
                legend: "Write the decimal digits of a positive integer $n$ in reverse order and read them as a number: zeros at the front of the result are dropped, so 1200 gives 21.",
                shape: Shape::Ints(&[("n", 1, E18)]),
                answer: "the number $n$ with its digits reversed",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    let n = value(rng, size, 1, E18);
                    let zeros = 10_i64.pow(rng.range(0, 2) as u32);
                    ints(&[(n / zeros * zeros).max(1)])
                },
                solve: |r| {
                    let (mut n, mut reversed) = (r.ints()[0], 0);
                    while n > 0 {
                        reversed = reversed * 10 + n % 10;
                        n /= 10;
                    }
                    reversed.to_string()
                },
                samples: || [ints(&[123]), ints(&[1200])],
                edges: || {
                    vec![
                        ints(&[1]),
                        ints(&[10]),
                        ints(&[E18]),
                        ints(&[102_030]),
                        ints(&[987_654_321_123_456_789]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(n):\n    result = 0\n    while n > 0:\n        result = result * 10 + n % 10\n        n //= 10\n    return result\n",
                cpp: "std::string solve(long long n) {\n    long long result = 0;\n    for (; n > 0; n /= 10) result = result * 10 + n % 10;\n    return std::to_string(result);\n}\n",
                wrong: vec![(
                    "keeps_zeros.py",
                    "# Reverses the text: the zeros at the end of n become leading zeros.\ndef solve(n):\n    return str(n)[::-1]\n",
                )],
            },
            vec![Layout::Single, NUMBERED],
        ),
        (
            Task {
                id: "productsign",
                title: "Sign of a Product",
                family: Family::Conditions,
                legend: "You are given two integers $a$ and $b$. Say whether their product $a \\cdot b$ is positive, negative or zero. The product may not fit in a 64-bit integer.",
                shape: Shape::Ints(&[("a", -E18, E18), ("b", -E18, E18)]),
                answer: "`positive` if $a \\cdot b > 0$, `negative` if $a \\cdot b < 0$ and `zero` if $a \\cdot b = 0$",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    let v = values(rng, size, 2, -E18, E18);
                    let zero = rng.range(0, 5);
                    ints(&[
                        if zero == 0 { 0 } else { v[0] },
                        if zero == 1 { 0 } else { v[1] },
                    ])
                },
                solve: |r| {
                    match r.ints()[0].signum() * r.ints()[1].signum() {
                        1 => "positive",
                        -1 => "negative",
                        _ => "zero",
                    }
                    .to_owned()
                },
                samples: || [ints(&[3, -4]), ints(&[-2, -5])],
                edges: || {
                    vec![
                        ints(&[E18, E18]),
                        ints(&[-E18, E18]),
                        ints(&[E18, -3]),
                        ints(&[0, -E18]),
                        ints(&[5, 0]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a, b):\n    if a == 0 or b == 0:\n        return \"zero\"\n    return \"positive\" if (a > 0) == (b > 0) else \"negative\"\n",
                cpp: "std::string solve(long long a, long long b) {\n    if (a == 0 || b == 0) return \"zero\";\n    return (a > 0) == (b > 0) ? \"positive\" : \"negative\";\n}\n",
                wrong: vec![
                    (
                        "overflow.cpp",
                        "// Multiplies first: the product overflows 64 bits and its sign is lost.\nstd::string solve(long long a, long long b) {\n    long long p = (long long)((unsigned long long)a * (unsigned long long)b);\n    if (p == 0) return \"zero\";\n    return p > 0 ? \"positive\" : \"negative\";\n}\n",
                    ),
                    (
                        "forgets_zero.py",
                        "# Forgets zero: a product with a zero factor is called negative.\ndef solve(a, b):\n    return \"positive\" if (a > 0) == (b > 0) else \"negative\"\n",
                    ),
                ],
            },
            vec![Layout::Single, Layout::Lines],
        ),
        (
            Task {
                id: "season",
                title: "Four Seasons",
                family: Family::Conditions,
                legend: "In the northern hemisphere, December, January and February are winter, March to May are spring, June to August are summer, and September to November are autumn. Find the season of month $m$, where 1 is January and 12 is December.",
                shape: Shape::Ints(&[("m", 1, 12)]),
                answer: "the season of month $m$: `winter`, `spring`, `summer` or `autumn`",
                token: true,
                rule: "",
                random: |rng, _, _| ints(&[rng.range(1, 12)]),
                solve: |r| {
                    match r.ints()[0] {
                        3..=5 => "spring",
                        6..=8 => "summer",
                        9..=11 => "autumn",
                        _ => "winter",
                    }
                    .to_owned()
                },
                samples: || [ints(&[4]), ints(&[12])],
                edges: || {
                    vec![
                        ints(&[1]),
                        ints(&[2]),
                        ints(&[3]),
                        ints(&[6]),
                        ints(&[8]),
                        ints(&[9]),
                        ints(&[11]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(m):\n    if m in (12, 1, 2):\n        return \"winter\"\n    if m <= 5:\n        return \"spring\"\n    if m <= 8:\n        return \"summer\"\n    return \"autumn\"\n",
                cpp: "std::string solve(long long m) {\n    if (m == 12 || m <= 2) return \"winter\";\n    if (m <= 5) return \"spring\";\n    if (m <= 8) return \"summer\";\n    return \"autumn\";\n}\n",
                wrong: vec![(
                    "quarters.py",
                    "# Splits the year in quarters from January: March is winter and December autumn.\ndef solve(m):\n    return [\"winter\", \"spring\", \"summer\", \"autumn\"][(m - 1) // 3]\n",
                )],
            },
            vec![Layout::Single, PER_LINE],
        ),
    ]
}
