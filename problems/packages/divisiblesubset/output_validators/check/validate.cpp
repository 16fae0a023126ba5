// Output validator for `divisiblesubset`, Kattis/ICPC convention:
//
//     validate INPUT ANSWER FEEDBACK_DIR [args...] < team_output
//
// Exit 42: the team's group is correct. Exit 43: it is not, and the reason is written to
// FEEDBACK_DIR/judgemessage.txt (FEEDBACK_DIR ends with '/'). Any other exit (1 here, with
// the reason on stderr and in judgemessage.txt) means the judge's own files are broken: a
// judge error, never the team's fault. Extra arguments are ignored.
//
// The team output is read as whitespace-separated tokens: k, then k distinct indices in
// 1..n whose values sum to a multiple of n, then nothing else. Line breaks are not checked.
// Any bytes at all are handled without crashing; tokens are quoted shortened in messages.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace {

const int ACCEPT = 42;
const int REJECT = 43;
const int JUDGE_ERROR = 1;

std::string feedback_dir;

// Also written to judgemessage.txt when the feedback folder is known, for the judge to show.
[[noreturn]] void judge_error(const std::string& why) {
    std::fprintf(stderr, "judge error: %s\n", why.c_str());
    if (!feedback_dir.empty()) {
        std::ofstream msg(feedback_dir + "judgemessage.txt", std::ios::app);
        msg << "judge error: " << why << "\n";
    }
    std::exit(JUDGE_ERROR);
}

[[noreturn]] void reject(const std::string& why) {
    {
        // Closed before exit(), which runs no destructors of locals.
        std::ofstream msg(feedback_dir + "judgemessage.txt", std::ios::app);
        msg << why << "\n";
    }
    std::exit(REJECT);
}

// A token as it may be shown: at most 20 bytes, non-printable bytes as \xNN.
std::string show(const std::string& token) {
    std::string res;
    for (size_t i = 0; i < token.size() && i < 20; i++) {
        unsigned char c = token[i];
        if (c >= 0x20 && c < 0x7f) {
            res += static_cast<char>(c);
        } else {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            res += buf;
        }
    }
    if (token.size() > 20) res += "...";
    return "`" + res + "`";
}

std::vector<std::string> tokens(const std::string& text) {
    std::vector<std::string> res;
    size_t i = 0;
    auto space = [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f'; };
    while (i < text.size()) {
        while (i < text.size() && space(text[i])) i++;
        size_t start = i;
        while (i < text.size() && !space(text[i])) i++;
        if (i > start) res.push_back(text.substr(start, i - start));
    }
    return res;
}

// The token as a decimal integer in [lo, hi], or false (digits only, no sign, no overflow).
bool parse(const std::string& token, long long lo, long long hi, long long& value) {
    if (token.empty() || token.size() > 18) return false;
    value = 0;
    for (char c : token) {
        if (c < '0' || c > '9') return false;
        value = value * 10 + (c - '0');
    }
    return lo <= value && value <= hi;
}

std::string read_file(const char* path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) judge_error(std::string("cannot open ") + path);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Checks a group given as tokens; returns an empty string when it is correct, else why not.
std::string check(const std::vector<std::string>& toks, const std::vector<long long>& a) {
    long long n = static_cast<long long>(a.size());
    if (toks.empty()) return "empty output: expected the size of the group";
    long long k;
    if (!parse(toks[0], 1, n, k)) {
        return "the group size " + show(toks[0]) + " is not an integer from 1 to " + std::to_string(n);
    }
    if (static_cast<long long>(toks.size()) - 1 < k) {
        return "the group has size " + std::to_string(k) + " but only " + std::to_string(toks.size() - 1) +
               " of its indices follow";
    }
    if (static_cast<long long>(toks.size()) - 1 > k) {
        return "extra output after the " + std::to_string(k) + " indices: " + show(toks[k + 1]);
    }
    std::vector<bool> seen(n + 1, false);
    long long sum = 0;
    for (long long j = 1; j <= k; j++) {
        long long i;
        if (!parse(toks[j], 1, n, i)) {
            return "index " + std::to_string(j) + " of the group, " + show(toks[j]) +
                   ", is not an integer from 1 to " + std::to_string(n);
        }
        if (seen[i]) return "friend " + std::to_string(i) + " is in the group twice";
        seen[i] = true;
        sum = (sum + a[i - 1]) % n;
    }
    if (sum != 0) {
        return "the group's coins leave remainder " + std::to_string(sum) + " when divided by n = " +
               std::to_string(n);
    }
    return "";
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) judge_error("usage: validate INPUT ANSWER FEEDBACK_DIR [args] < team_output");
    feedback_dir = argv[3];

    // The input, trusted but checked: n, then n values.
    std::istringstream input(read_file(argv[1]));
    long long n;
    if (!(input >> n) || n < 1 || n > 1000000) judge_error("bad n in the input");
    std::vector<long long> a(n);
    for (auto& x : a) {
        if (!(input >> x) || x < 1) judge_error("bad value in the input");
    }

    // The judge's answer must itself be correct.
    std::string why = check(tokens(read_file(argv[2])), a);
    if (!why.empty()) judge_error("the answer file is wrong: " + why);

    std::string team(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>{});
    why = check(tokens(team), a);
    if (!why.empty()) reject(why);
    return ACCEPT;
}
