//! The third batch of training tasks, of the number families (arithmetic, loops,
//! conditions): fifteen new tasks, each a classic beginner computation that no other
//! task of the set (training, validation or held out) computes, so that training sees a
//! breadth of distinct solvers. Each comes in two layouts.

use crate::families::{E6, E15, Family, Size, value, values};
use crate::tasks::{E9, E18, JOINED, NUMBERED, PER_LINE, ints, text, yes};
use crate::variants::{Layout, Record, Shape, Task};

/// The hands of rock, paper, scissors, each followed by the hand it beats.
const HANDS: [(&str, &str); 3] = [
    ("rock", "scissors"),
    ("scissors", "paper"),
    ("paper", "rock"),
];

/// The years until a balance of `s` growing by `p` percent a year (rounded down) reaches
/// `g`.
fn savings_years(s: i64, p: i64, g: i64) -> i64 {
    let (mut balance, mut years) = (s, 0);
    while balance < g {
        balance += balance * p / 100;
        years += 1;
    }
    years
}

/// The day on which a snail climbing `u` a day and sliding `d` a night leaves a well `h`
/// deep.
fn snail_days(h: i64, u: i64, d: i64) -> i64 {
    let (mut height, mut day) = (0, 0);
    loop {
        day += 1;
        height += u;
        if height >= h {
            return day;
        }
        height -= d;
    }
}

/// The most complete levels of a pyramid whose level `i` takes `1 + 2 + ... + i` cubes.
fn pyramid_levels(n: i64) -> i64 {
    let (mut levels, mut used) = (0, 0);
    while used + (levels + 1) * (levels + 2) / 2 <= n {
        levels += 1;
        used += levels * (levels + 1) / 2;
    }
    levels
}

/// The winner of rock, paper, scissors: `first`, `second` or `draw`.
fn hand_game(s: &str) -> String {
    let (a, b) = s.split_once(' ').expect("two hands");
    let beats = |x: &str, y: &str| HANDS.iter().any(|&(h, beaten)| h == x && beaten == y);
    if a == b {
        "draw"
    } else if beats(a, b) {
        "first"
    } else {
        "second"
    }
    .to_owned()
}

/// The tasks with their layouts. It is long because it is a table of data: each task's
/// shape, solver, generator and code.
pub(crate) fn tasks() -> Vec<(Task, Vec<Layout>)> {
    vec![
        (
            Task {
                id: "fahrenheit",
                title: "Celsius to Fahrenheit",
                family: Family::Arithmetic,
                legend: "A temperature of $c$ degrees Celsius is $f = 9c / 5 + 32$ degrees Fahrenheit. Convert $c$ to degrees Fahrenheit. The value $c$ is a multiple of 5, so $f$ is an integer.",
                shape: Shape::Ints(&[("c", -E6, E6)]),
                answer: "the temperature $f$ in degrees Fahrenheit",
                token: true,
                rule: "v[0] % 5 == 0",
                random: |rng, size, _| ints(&[value(rng, size, -E6 / 5, E6 / 5) * 5]),
                solve: |r| (r.ints()[0] * 9 / 5 + 32).to_string(),
                samples: || [ints(&[100]), ints(&[-40])],
                edges: || {
                    vec![
                        ints(&[0]),
                        ints(&[5]),
                        ints(&[-5]),
                        ints(&[-20]),
                        ints(&[E6]),
                        ints(&[-E6]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(c):\n    return c * 9 // 5 + 32\n",
                cpp: "std::string solve(long long c) {\n    return std::to_string(c * 9 / 5 + 32);\n}\n",
                wrong: vec![
                    (
                        "int_ratio.cpp",
                        "// Writes the factor as 9 / 5 in integers: it is 1, so only 32 is added.\nstd::string solve(long long c) {\n    return std::to_string(c * (9 / 5) + 32);\n}\n",
                    ),
                    (
                        "backwards.py",
                        "# Uses the formula of the other direction, Fahrenheit to Celsius.\ndef solve(c):\n    return (c - 32) * 5 // 9\n",
                    ),
                ],
            },
            vec![Layout::Single, Layout::Eof],
        ),
        (
            Task {
                id: "progression",
                title: "Evenly Spaced Sum",
                family: Family::Arithmetic,
                legend: "An arithmetic progression starts at $a$, and each term is $d$ more than the one before it: $a, a + d, a + 2d, \\ldots$ Find the sum of its first $n$ terms. It may not fit in a 32-bit integer.",
                shape: Shape::Ints(&[("a", -E6, E6), ("d", -E6, E6), ("n", 1, E6)]),
                answer: "the sum $a + (a + d) + \\cdots + (a + (n - 1)d)$",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    let v = values(rng, size, 2, -E6, E6);
                    ints(&[v[0], v[1], value(rng, size, 1, E6)])
                },
                solve: |r| {
                    let (a, d, n) = (r.ints()[0], r.ints()[1], r.ints()[2]);
                    (n * a + d * (n * (n - 1) / 2)).to_string()
                },
                samples: || [ints(&[1, 2, 5]), ints(&[10, -3, 4])],
                edges: || {
                    vec![
                        ints(&[5, 0, 1]),
                        ints(&[-7, 9, 1]),
                        ints(&[7, -7, 2]),
                        ints(&[E6, E6, E6]),
                        ints(&[-E6, -E6, E6]),
                        ints(&[E6, -E6, E6]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a, d, n):\n    return n * a + d * (n * (n - 1) // 2)\n",
                cpp: "std::string solve(long long a, long long d, long long n) {\n    return std::to_string(n * a + d * (n * (n - 1) / 2));\n}\n",
                wrong: vec![
                    (
                        "one_step_more.py",
                        "# Counts n steps of d instead of n - 1: the terms run from a + d to a + nd.\ndef solve(a, d, n):\n    return n * a + d * (n * (n + 1) // 2)\n",
                    ),
                    (
                        "int_overflow.cpp",
                        "// Adds the terms up in a 32-bit int: a large sum overflows.\nstd::string solve(long long a, long long d, long long n) {\n    int total = 0;\n    for (long long i = 0; i < n; i++) total = (int)((unsigned)total + (unsigned)(a + i * d));\n    return std::to_string(total);\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, Layout::Lines],
        ),
        (
            Task {
                id: "discount",
                title: "Sale Price",
                family: Family::Arithmetic,
                legend: "An item costs $p$ coins, and today the shop takes $d$ percent off the whole bill. You buy $q$ items: you pay their total price $p \\cdot q$ less $d$ percent of it, rounded down to a whole number of coins. Find what you pay.",
                shape: Shape::Ints(&[("p", 1, E6), ("q", 1, E6), ("d", 0, 100)]),
                answer: "what you pay, $\\lfloor p q (100 - d) / 100 \\rfloor$",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    let v = values(rng, size, 2, 1, E6);
                    ints(&[v[0], v[1], rng.range(0, 100)])
                },
                solve: |r| {
                    let (p, q, d) = (r.ints()[0], r.ints()[1], r.ints()[2]);
                    (p * q * (100 - d) / 100).to_string()
                },
                samples: || [ints(&[250, 4, 10]), ints(&[19, 5, 30])],
                edges: || {
                    vec![
                        ints(&[1, 1, 0]),
                        ints(&[1, 1, 100]),
                        ints(&[3, 1, 50]),
                        ints(&[E6, E6, 0]),
                        ints(&[E6, E6, 99]),
                        ints(&[1, E6, 1]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(p, q, d):\n    return p * q * (100 - d) // 100\n",
                cpp: "std::string solve(long long p, long long q, long long d) {\n    return std::to_string(p * q * (100 - d) / 100);\n}\n",
                wrong: vec![
                    (
                        "per_item.py",
                        "# Rounds the price of each item down before multiplying by q.\ndef solve(p, q, d):\n    return p * (100 - d) // 100 * q\n",
                    ),
                    (
                        "percent_first.cpp",
                        "// Divides (100 - d) by 100 first, in integers: it is 0 unless d is 0.\nstd::string solve(long long p, long long q, long long d) {\n    return std::to_string(p * q * ((100 - d) / 100));\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, NUMBERED],
        ),
        (
            Task {
                id: "coins",
                title: "Small Change",
                family: Family::Arithmetic,
                legend: "Coins are worth 1, 2 and 5 cents, and there are as many of each as you like. Pay exactly $n$ cents with as few coins as possible.",
                shape: Shape::Ints(&[("n", 1, E18)]),
                answer: "the smallest number of coins worth $n$ cents in total",
                token: true,
                rule: "",
                random: |rng, size, _| ints(&[value(rng, size, 1, E18)]),
                solve: |r| {
                    let n = r.ints()[0];
                    (n / 5 + n % 5 / 2 + n % 5 % 2).to_string()
                },
                samples: || [ints(&[13]), ints(&[4])],
                edges: || {
                    vec![
                        ints(&[1]),
                        ints(&[2]),
                        ints(&[3]),
                        ints(&[5]),
                        ints(&[9]),
                        ints(&[E18]),
                        ints(&[E18 - 1]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(n):\n    fives, rest = divmod(n, 5)\n    return fives + rest // 2 + rest % 2\n",
                cpp: "std::string solve(long long n) {\n    long long rest = n % 5;\n    return std::to_string(n / 5 + rest / 2 + rest % 2);\n}\n",
                wrong: vec![
                    (
                        "no_twos.py",
                        "# Forgets the 2-cent coin: pays the rest after the fives in 1-cent coins.\ndef solve(n):\n    return n // 5 + n % 5\n",
                    ),
                    (
                        "twos_first.cpp",
                        "// Takes the 2-cent coins before the 5-cent ones: far too many coins.\nstd::string solve(long long n) {\n    return std::to_string(n / 2 + n % 2);\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, JOINED],
        ),
        (
            Task {
                id: "quadratic",
                title: "Polynomial Value",
                family: Family::Arithmetic,
                legend: "Evaluate the quadratic polynomial $a x^2 + b x + c$ at the point $x$. The value may not fit in a 32-bit integer.",
                shape: Shape::Ints(&[
                    ("a", -E9, E9),
                    ("b", -E9, E9),
                    ("c", -E9, E9),
                    ("x", -10_000, 10_000),
                ]),
                answer: "the value $a x^2 + b x + c$",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    let v = values(rng, size, 3, -E9, E9);
                    ints(&[v[0], v[1], v[2], value(rng, size, -10_000, 10_000)])
                },
                solve: |r| {
                    let (a, b, c, x) = (r.ints()[0], r.ints()[1], r.ints()[2], r.ints()[3]);
                    (a * x * x + b * x + c).to_string()
                },
                samples: || [ints(&[1, -3, 2, 5]), ints(&[2, 0, -7, -3])],
                edges: || {
                    vec![
                        ints(&[0, 0, 0, 0]),
                        ints(&[1, 0, 0, -1]),
                        ints(&[0, 5, 3, 2]),
                        ints(&[E9, E9, E9, 10_000]),
                        ints(&[-E9, -E9, -E9, -10_000]),
                        ints(&[E9, -E9, E9, 1]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a, b, c, x):\n    return a * x * x + b * x + c\n",
                cpp: "std::string solve(long long a, long long b, long long c, long long x) {\n    return std::to_string(a * x * x + b * x + c);\n}\n",
                wrong: vec![
                    (
                        "xor.cpp",
                        "// Writes x^2 with ^, which is exclusive or in C++ (and binds after +).\nstd::string solve(long long a, long long b, long long c, long long x) {\n    return std::to_string(a * x ^ 2 + b * x + c);\n}\n",
                    ),
                    (
                        "times_two.py",
                        "# Reads x^2 as x * 2.\ndef solve(a, b, c, x):\n    return a * x * 2 + b * x + c\n",
                    ),
                ],
            },
            vec![Layout::Single, PER_LINE],
        ),
        (
            Task {
                id: "snail",
                title: "Up the Well",
                family: Family::Loops,
                legend: "A snail sits at the bottom of a well $h$ metres deep. Every day it climbs $u$ metres up, and every night it slides $d$ metres back down, less than it climbed ($d < u$). On which day does it reach the top of the well, the height $h$? Once there, it does not slide back.",
                shape: Shape::Ints(&[("h", 1, 100_000), ("u", 1, 100_000), ("d", 0, 99_999)]),
                answer: "the number of the day on which the snail reaches the top (the first day is day 1)",
                token: true,
                rule: "v[2] < v[1]",
                random: |rng, size, _| {
                    let (h, u) = match size {
                        Size::Small => (rng.range(1, 30), rng.range(1, 10)),
                        Size::Large => (rng.range(1, 100_000), rng.range(1, 1000)),
                        Size::Max => (100_000 - rng.range(0, 100), rng.range(1, 3)),
                    };
                    let d = match size {
                        Size::Max => u - 1,
                        _ => rng.range(0, u - 1),
                    };
                    ints(&[h, u, d])
                },
                solve: |r| snail_days(r.ints()[0], r.ints()[1], r.ints()[2]).to_string(),
                samples: || [ints(&[10, 3, 2]), ints(&[6, 6, 5])],
                edges: || {
                    vec![
                        ints(&[1, 1, 0]),
                        ints(&[100_000, 1, 0]),
                        ints(&[100_000, 100_000, 99_999]),
                        ints(&[100_000, 2, 1]),
                        ints(&[5, 4, 3]),
                        ints(&[8, 4, 0]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(h, u, d):\n    height = 0\n    day = 0\n    while True:\n        day += 1\n        height += u\n        if height >= h:\n            return day\n        height -= d\n",
                cpp: "std::string solve(long long h, long long u, long long d) {\n    long long height = 0, day = 0;\n    while (true) {\n        day++;\n        height += u;\n        if (height >= h) return std::to_string(day);\n        height -= d;\n    }\n}\n",
                wrong: vec![
                    (
                        "net_climb.py",
                        "# Divides the depth by the net climb of a whole day: forgets that on its last day\n# the snail is out before it slides back.\ndef solve(h, u, d):\n    return (h + (u - d) - 1) // (u - d)\n",
                    ),
                    (
                        "slides_first.cpp",
                        "// Checks the height only after the night's slide.\nstd::string solve(long long h, long long u, long long d) {\n    long long height = 0, day = 0;\n    while (height < h) {\n        day++;\n        height += u - d;\n    }\n    return std::to_string(day);\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, Layout::Lines],
        ),
        (
            Task {
                id: "savings",
                title: "Interest Years",
                family: Family::Loops,
                legend: "A bank account holds $s$ coins. At the end of every year the bank adds $p$ percent of the balance, rounded down to whole coins: a balance $x$ becomes $x + \\lfloor x p / 100 \\rfloor$. After how many years does the balance first reach $g$ coins or more? If $s \\ge g$, the answer is 0.",
                shape: Shape::Ints(&[("s", 100, E9), ("p", 1, 100), ("g", 1, E15)]),
                answer: "the number of years until the balance is at least $g$",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    let (s, p) = match size {
                        Size::Small => (rng.range(100, 1000), rng.range(1, 20)),
                        Size::Large => (rng.range(100, E9), rng.range(1, 100)),
                        Size::Max => (rng.range(100, 200), rng.range(1, 3)),
                    };
                    let g = match size {
                        Size::Small => s * rng.range(1, 10) + rng.range(0, 100),
                        Size::Large => rng.range(s, E15),
                        Size::Max => E15 - rng.range(0, 1000),
                    };
                    ints(&[s, p, g])
                },
                solve: |r| savings_years(r.ints()[0], r.ints()[1], r.ints()[2]).to_string(),
                samples: || [ints(&[100, 10, 150]), ints(&[1000, 5, 1000])],
                edges: || {
                    vec![
                        ints(&[100, 1, 101]),
                        ints(&[199, 1, 200]),
                        ints(&[100, 1, E15]),
                        ints(&[E9, 100, E15]),
                        ints(&[E9, 1, 1]),
                        ints(&[100, 100, 1600]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(s, p, g):\n    years = 0\n    while s < g:\n        s += s * p // 100\n        years += 1\n    return years\n",
                cpp: "std::string solve(long long s, long long p, long long g) {\n    long long years = 0;\n    while (s < g) {\n        s += s * p / 100;\n        years++;\n    }\n    return std::to_string(years);\n}\n",
                wrong: vec![
                    (
                        "float.py",
                        "# Grows the balance in floating point: it is never rounded down to whole coins.\ndef solve(s, p, g):\n    x = s\n    years = 0\n    while x < g:\n        x = x * (100 + p) / 100\n        years += 1\n    return years\n",
                    ),
                    (
                        "at_least_one_year.cpp",
                        "// Adds a year before looking at the balance: s >= g still takes one year.\nstd::string solve(long long s, long long p, long long g) {\n    long long years = 0;\n    do {\n        s += s * p / 100;\n        years++;\n    } while (s < g);\n    return std::to_string(years);\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, PER_LINE],
        ),
        (
            Task {
                id: "timestable",
                title: "Times Table",
                family: Family::Loops,
                legend: "Write out the first $k$ multiples of $n$: the numbers $n \\cdot 1, n \\cdot 2, \\ldots, n \\cdot k$, in this order.",
                shape: Shape::Ints(&[("n", -E9, E9), ("k", 1, 100)]),
                answer: "the $k$ numbers $n \\cdot 1, n \\cdot 2, \\ldots, n \\cdot k$, separated by spaces",
                token: false,
                rule: "",
                random: |rng, size, _| {
                    let k = match size {
                        Size::Small => rng.range(1, 10),
                        Size::Large => rng.range(1, 100),
                        Size::Max => 100,
                    };
                    ints(&[value(rng, size, -E9, E9), k])
                },
                solve: |r| {
                    let (n, k) = (r.ints()[0], r.ints()[1]);
                    let row: Vec<String> = (1..=k).map(|i| (n * i).to_string()).collect();
                    row.join(" ")
                },
                samples: || [ints(&[7, 5]), ints(&[-3, 3])],
                edges: || {
                    vec![
                        ints(&[1, 1]),
                        ints(&[5, 1]),
                        ints(&[0, 100]),
                        ints(&[E9, 100]),
                        ints(&[-E9, 100]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(n, k):\n    return \" \".join(str(n * i) for i in range(1, k + 1))\n",
                cpp: "std::string solve(long long n, long long k) {\n    std::string row;\n    for (long long i = 1; i <= k; i++) {\n        if (i > 1) row += \" \";\n        row += std::to_string(n * i);\n    }\n    return row;\n}\n",
                wrong: vec![
                    (
                        "stops_early.py",
                        "# Stops one multiple short: range(1, k) leaves out n * k.\ndef solve(n, k):\n    return \" \".join(str(n * i) for i in range(1, k))\n",
                    ),
                    (
                        "int_overflow.cpp",
                        "// Keeps each multiple in a 32-bit int: n * i overflows for a large n.\nstd::string solve(long long n, long long k) {\n    std::string row;\n    for (int i = 1; i <= k; i++) {\n        int x = (int)(n * i);\n        if (i > 1) row += \" \";\n        row += std::to_string(x);\n    }\n    return row;\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, Layout::Eof],
        ),
        (
            Task {
                id: "fibonacci",
                title: "Rabbit Pairs",
                family: Family::Loops,
                legend: "The Fibonacci numbers start with $F_1 = 1$ and $F_2 = 1$, and each next one is the sum of the two before it, $F_i = F_{i-1} + F_{i-2}$: 1, 1, 2, 3, 5, 8, 13, and so on. Find $F_n$. It may not fit in a 32-bit integer.",
                shape: Shape::Ints(&[("n", 1, 90)]),
                answer: "$F_n$",
                token: true,
                rule: "",
                random: |rng, _, _| ints(&[rng.range(1, 90)]),
                solve: |r| {
                    let (mut a, mut b) = (1_i64, 1_i64);
                    for _ in 1..r.ints()[0] {
                        (a, b) = (b, a + b);
                    }
                    a.to_string()
                },
                samples: || [ints(&[7]), ints(&[12])],
                edges: || {
                    vec![
                        ints(&[1]),
                        ints(&[2]),
                        ints(&[3]),
                        ints(&[46]),
                        ints(&[47]),
                        ints(&[90]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(n):\n    a, b = 1, 1\n    for _ in range(n - 1):\n        a, b = b, a + b\n    return a\n",
                cpp: "std::string solve(long long n) {\n    long long a = 1, b = 1;\n    for (long long i = 1; i < n; i++) {\n        long long c = a + b;\n        a = b;\n        b = c;\n    }\n    return std::to_string(a);\n}\n",
                wrong: vec![
                    (
                        "int_overflow.cpp",
                        "// Keeps the numbers in 32-bit ints: F_47 and beyond overflow.\nstd::string solve(long long n) {\n    int a = 1, b = 1;\n    for (long long i = 1; i < n; i++) {\n        int c = (int)((unsigned)a + (unsigned)b);\n        a = b;\n        b = c;\n    }\n    return std::to_string(a);\n}\n",
                    ),
                    (
                        "zero_start.py",
                        "# Starts the sequence at 0, 1: gives F_(n-1) instead of F_n.\ndef solve(n):\n    a, b = 0, 1\n    for _ in range(n - 1):\n        a, b = b, a + b\n    return a\n",
                    ),
                ],
            },
            vec![Layout::Single, JOINED],
        ),
        (
            Task {
                id: "pyramid",
                title: "Stacking Cubes",
                family: Family::Loops,
                legend: "You build a pyramid of cubes from the top down: the top level takes 1 cube, the second $1 + 2 = 3$ cubes, the third $1 + 2 + 3 = 6$ cubes, and level $i$ takes $1 + 2 + \\cdots + i$ cubes. You have $n$ cubes. Find the largest number of complete levels you can build.",
                shape: Shape::Ints(&[("n", 1, E9)]),
                answer: "the largest number of complete levels",
                token: true,
                rule: "",
                random: |rng, size, _| ints(&[value(rng, size, 1, E9)]),
                solve: |r| pyramid_levels(r.ints()[0]).to_string(),
                samples: || [ints(&[25]), ints(&[10])],
                edges: || {
                    vec![
                        ints(&[1]),
                        ints(&[3]),
                        ints(&[4]),
                        ints(&[9]),
                        ints(&[20]),
                        ints(&[E9]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(n):\n    levels = 0\n    used = 0\n    while used + (levels + 1) * (levels + 2) // 2 <= n:\n        levels += 1\n        used += levels * (levels + 1) // 2\n    return levels\n",
                cpp: "std::string solve(long long n) {\n    long long levels = 0, used = 0;\n    while (used + (levels + 1) * (levels + 2) / 2 <= n) {\n        levels++;\n        used += levels * (levels + 1) / 2;\n    }\n    return std::to_string(levels);\n}\n",
                wrong: vec![
                    (
                        "one_too_many.py",
                        "# Stops only once the cubes have run out: the unfinished level is counted too.\ndef solve(n):\n    levels = 0\n    used = 0\n    while used <= n:\n        levels += 1\n        used += levels * (levels + 1) // 2\n    return levels\n",
                    ),
                    (
                        "flat_levels.cpp",
                        "// Gives level i only i cubes, as in a staircase.\nstd::string solve(long long n) {\n    long long levels = 0, used = 0;\n    while (used + levels + 1 <= n) {\n        levels++;\n        used += levels;\n    }\n    return std::to_string(levels);\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, NUMBERED],
        ),
        (
            Task {
                id: "rps",
                title: "Hand Game",
                family: Family::Conditions,
                legend: "Two players play rock, paper, scissors: rock beats scissors, scissors beats paper and paper beats rock, and two equal hands are a draw. Find who wins.",
                shape: Shape::Text {
                    pattern: "(rock|paper|scissors) (rock|paper|scissors)",
                    max: 17,
                    what: "the hands of the first and the second player, separated by a space, each `rock`, `paper` or `scissors`",
                },
                answer: "`first` if the first player wins, `second` if the second player wins and `draw` if nobody does",
                token: true,
                rule: "",
                random: |rng, _, _| {
                    let a = rng.pick(&HANDS).0;
                    let b = rng.pick(&HANDS).0;
                    Record::Text(format!("{a} {b}"))
                },
                solve: |r| hand_game(r.text()),
                samples: || [text("rock scissors"), text("paper scissors")],
                edges: || {
                    let mut all = Vec::new();
                    for (a, _) in HANDS {
                        for (b, _) in HANDS {
                            all.push(text(&format!("{a} {b}")));
                        }
                    }
                    all
                },
                case_sensitive: false,
                py: "BEATS = {\"rock\": \"scissors\", \"scissors\": \"paper\", \"paper\": \"rock\"}\n\n\ndef solve(s):\n    a, b = s.split(\" \")\n    if a == b:\n        return \"draw\"\n    return \"first\" if BEATS[a] == b else \"second\"\n",
                cpp: "std::string solve(const std::string &s) {\n    std::string a = s.substr(0, s.find(' ')), b = s.substr(s.find(' ') + 1);\n    if (a == b) return \"draw\";\n    if ((a == \"rock\" && b == \"scissors\") || (a == \"scissors\" && b == \"paper\") ||\n        (a == \"paper\" && b == \"rock\"))\n        return \"first\";\n    return \"second\";\n}\n",
                wrong: vec![
                    (
                        "reversed.py",
                        "# Has the rules backwards: scissors beat rock, paper beats scissors, rock beats paper.\nBEATS = {\"scissors\": \"rock\", \"paper\": \"scissors\", \"rock\": \"paper\"}\n\n\ndef solve(s):\n    a, b = s.split(\" \")\n    if a == b:\n        return \"draw\"\n    return \"first\" if BEATS[a] == b else \"second\"\n",
                    ),
                    (
                        "no_draw.cpp",
                        "// Forgets the draw: when the first player does not win, the second one does.\nstd::string solve(const std::string &s) {\n    std::string a = s.substr(0, s.find(' ')), b = s.substr(s.find(' ') + 1);\n    if ((a == \"rock\" && b == \"scissors\") || (a == \"scissors\" && b == \"paper\") ||\n        (a == \"paper\" && b == \"rock\"))\n        return \"first\";\n    return \"second\";\n}\n",
                    ),
                ],
            },
            vec![PER_LINE, Layout::Eof],
        ),
        (
            Task {
                id: "speeding",
                title: "Speed Camera",
                family: Family::Conditions,
                legend: "On a road with a speed limit of $l$ km/h, a camera measures a car at $s$ km/h. A car at or under the limit pays nothing. A car over the limit by 1 to 20 km/h pays a fine of 100, by 21 to 40 km/h a fine of 300, and by more than 40 km/h a fine of 800. Find the fine.",
                shape: Shape::Ints(&[("l", 10, 200), ("s", 1, 400)]),
                answer: "the fine (0 if there is none)",
                token: true,
                rule: "",
                random: |rng, size, _| match size {
                    Size::Small => {
                        let l = rng.range(10, 200);
                        ints(&[l, (l + rng.range(-10, 60)).clamp(1, 400)])
                    }
                    Size::Large => ints(&[rng.range(10, 200), rng.range(1, 400)]),
                    Size::Max => ints(&[rng.range(150, 200), rng.range(150, 400)]),
                },
                solve: |r| {
                    match r.ints()[1] - r.ints()[0] {
                        ..=0 => "0",
                        1..=20 => "100",
                        21..=40 => "300",
                        _ => "800",
                    }
                    .to_owned()
                },
                samples: || [ints(&[50, 63]), ints(&[90, 85])],
                edges: || {
                    vec![
                        ints(&[50, 50]),
                        ints(&[50, 51]),
                        ints(&[50, 70]),
                        ints(&[50, 71]),
                        ints(&[50, 90]),
                        ints(&[50, 91]),
                        ints(&[10, 1]),
                        ints(&[200, 400]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(l, s):\n    over = s - l\n    if over <= 0:\n        return 0\n    if over <= 20:\n        return 100\n    if over <= 40:\n        return 300\n    return 800\n",
                cpp: "std::string solve(long long l, long long s) {\n    long long over = s - l;\n    if (over <= 0) return \"0\";\n    if (over <= 20) return \"100\";\n    if (over <= 40) return \"300\";\n    return \"800\";\n}\n",
                wrong: vec![
                    (
                        "band_edges.py",
                        "# Puts the band edges on the wrong side: 20 km/h over is fined 300, 40 over 800.\ndef solve(l, s):\n    over = s - l\n    if over <= 0:\n        return 0\n    if over < 20:\n        return 100\n    if over < 40:\n        return 300\n    return 800\n",
                    ),
                    (
                        "fines_the_limit.cpp",
                        "// Tests over < 0 for no fine: a car exactly at the limit is fined 100.\nstd::string solve(long long l, long long s) {\n    long long over = s - l;\n    if (over < 0) return \"0\";\n    if (over <= 20) return \"100\";\n    if (over <= 40) return \"300\";\n    return \"800\";\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, PER_LINE],
        ),
        (
            Task {
                id: "incometax",
                title: "Tax Brackets",
                family: Family::Conditions,
                legend: "Income tax is charged in bands. The first 10\\,000 coins of an income are free of tax, the part of it between 10\\,000 and 50\\,000 coins is taxed at 10 percent, and the part above 50\\,000 coins at 20 percent. Find the tax on an income of $x$ coins, rounded down to a whole coin.",
                shape: Shape::Ints(&[("x", 0, E9)]),
                answer: "the tax, rounded down",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    ints(&[match size {
                        Size::Small => rng.range(0, 100_000),
                        _ => value(rng, size, 0, E9),
                    }])
                },
                solve: |r| {
                    let x = r.ints()[0];
                    if x <= 10_000 {
                        0
                    } else if x <= 50_000 {
                        (x - 10_000) / 10
                    } else {
                        4_000 + (x - 50_000) / 5
                    }
                    .to_string()
                },
                samples: || [ints(&[30_000]), ints(&[75_000])],
                edges: || {
                    vec![
                        ints(&[0]),
                        ints(&[10_000]),
                        ints(&[10_009]),
                        ints(&[10_010]),
                        ints(&[50_000]),
                        ints(&[50_004]),
                        ints(&[50_005]),
                        ints(&[E9]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(x):\n    if x <= 10000:\n        return 0\n    if x <= 50000:\n        return (x - 10000) // 10\n    return 4000 + (x - 50000) // 5\n",
                cpp: "std::string solve(long long x) {\n    if (x <= 10000) return \"0\";\n    if (x <= 50000) return std::to_string((x - 10000) / 10);\n    return std::to_string(4000 + (x - 50000) / 5);\n}\n",
                wrong: vec![
                    (
                        "whole_income.py",
                        "# Taxes the whole income at the rate of its highest band.\ndef solve(x):\n    if x <= 10000:\n        return 0\n    if x <= 50000:\n        return x // 10\n    return x // 5\n",
                    ),
                    (
                        "forgets_middle.cpp",
                        "// Above 50000, taxes only the top part: the 4000 of the middle band is lost.\nstd::string solve(long long x) {\n    if (x <= 10000) return \"0\";\n    if (x <= 50000) return std::to_string((x - 10000) / 10);\n    return std::to_string((x - 50000) / 5);\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, JOINED],
        ),
        (
            Task {
                id: "twoshops",
                title: "Shop Around",
                family: Family::Conditions,
                legend: "Shop A sells a notebook for $a$ coins. Shop B sells it for $b$ coins, but adds a delivery fee of $f$ coins to the whole order. You need $q$ notebooks, all from the same shop. Which shop is cheaper?",
                shape: Shape::Ints(&[("a", 1, E6), ("b", 1, E6), ("f", 0, E9), ("q", 1, E6)]),
                answer: "`A` if buying at shop A costs less, `B` if buying at shop B costs less and `same` if both cost the same",
                token: true,
                rule: "",
                random: |rng, size, _| match size {
                    Size::Small => ints(&[
                        rng.range(1, 20),
                        rng.range(1, 20),
                        rng.range(0, 50),
                        rng.range(1, 20),
                    ]),
                    _ => {
                        let v = values(rng, size, 3, 1, E6);
                        let (a, b, q) = (v[0], v[1], v[2]);
                        let gap = (a - b) * q;
                        let f = (gap + rng.range(-1000, 1000)).clamp(0, E9);
                        ints(&[a, b, f, q])
                    }
                },
                solve: |r| {
                    let (a, b, f, q) = (r.ints()[0], r.ints()[1], r.ints()[2], r.ints()[3]);
                    match (a * q).cmp(&(b * q + f)) {
                        std::cmp::Ordering::Less => "A",
                        std::cmp::Ordering::Greater => "B",
                        std::cmp::Ordering::Equal => "same",
                    }
                    .to_owned()
                },
                samples: || [ints(&[10, 8, 15, 5]), ints(&[10, 8, 15, 10])],
                edges: || {
                    vec![
                        ints(&[5, 4, 3, 3]),
                        ints(&[1, 1, 0, 1]),
                        ints(&[1, 1, 1, 1]),
                        ints(&[E6, 1, E9, E6]),
                        ints(&[E6, E6 - 1, E6, E6]),
                        ints(&[E6, E6 - 1, E6 - 1, E6]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a, b, f, q):\n    cost_a = a * q\n    cost_b = b * q + f\n    if cost_a < cost_b:\n        return \"A\"\n    if cost_b < cost_a:\n        return \"B\"\n    return \"same\"\n",
                cpp: "std::string solve(long long a, long long b, long long f, long long q) {\n    long long costA = a * q, costB = b * q + f;\n    if (costA < costB) return \"A\";\n    if (costB < costA) return \"B\";\n    return \"same\";\n}\n",
                wrong: vec![
                    (
                        "ignores_fee.py",
                        "# Compares the prices of one notebook and forgets the delivery fee.\ndef solve(a, b, f, q):\n    if a < b:\n        return \"A\"\n    if b < a:\n        return \"B\"\n    return \"same\"\n",
                    ),
                    (
                        "fee_per_notebook.cpp",
                        "// Charges the delivery fee for every notebook instead of once.\nstd::string solve(long long a, long long b, long long f, long long q) {\n    long long costA = a * q, costB = (b + f) * q;\n    if (costA < costB) return \"A\";\n    if (costB < costA) return \"B\";\n    return \"same\";\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, Layout::Lines],
        ),
        (
            Task {
                id: "rollercoaster",
                title: "Ride Check",
                family: Family::Conditions,
                legend: "A roller coaster lets on riders who are at least 140 cm tall. A rider from 120 to 139 cm tall may ride only together with an adult, and a rider shorter than 120 cm may not ride at all. A rider is $h$ cm tall, and $c$ is 1 if an adult comes along and 0 otherwise. May the rider ride?",
                shape: Shape::Ints(&[("h", 50, 250), ("c", 0, 1)]),
                answer: "`YES` if the rider may ride and `NO` otherwise",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    let h = match size {
                        Size::Small => rng.range(110, 150),
                        _ => rng.range(50, 250),
                    };
                    ints(&[h, rng.range(0, 1)])
                },
                solve: |r| {
                    let (h, c) = (r.ints()[0], r.ints()[1]);
                    yes(h >= 140 || (h >= 120 && c == 1))
                },
                samples: || [ints(&[150, 0]), ints(&[125, 0])],
                edges: || {
                    vec![
                        ints(&[140, 0]),
                        ints(&[139, 0]),
                        ints(&[139, 1]),
                        ints(&[120, 1]),
                        ints(&[119, 1]),
                        ints(&[50, 1]),
                        ints(&[250, 0]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(h, c):\n    if h >= 140:\n        return \"YES\"\n    if h >= 120 and c == 1:\n        return \"YES\"\n    return \"NO\"\n",
                cpp: "std::string solve(long long h, long long c) {\n    return h >= 140 || (h >= 120 && c == 1) ? \"YES\" : \"NO\";\n}\n",
                wrong: vec![
                    (
                        "adult_always.py",
                        "# Lets any rider on with an adult, forgetting the 120 cm minimum.\ndef solve(h, c):\n    return \"YES\" if h >= 140 or c == 1 else \"NO\"\n",
                    ),
                    (
                        "strict.cpp",
                        "// Uses > where >= is meant: riders of exactly 140 or 120 cm are turned away.\nstd::string solve(long long h, long long c) {\n    return h > 140 || (h > 120 && c == 1) ? \"YES\" : \"NO\";\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, Layout::Eof],
        ),
    ]
}
