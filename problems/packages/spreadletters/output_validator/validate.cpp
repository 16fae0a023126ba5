// Output validator for `spreadletters` in the 2025-09 (Kattis) convention:
//
//     validate INPUT ANSWER FEEDBACK_DIR [args] < team_output
//
// Exit 42 accepts and 43 rejects, with the reason in FEEDBACK_DIR/judgemessage.txt; any
// other exit is a judge error (here 1, when the jury's own files are wrong).
//
// The output must be one word (surrounding whitespace is ignored): IMPOSSIBLE, or lowercase
// letters. A row with spaces between the letters is a wrong answer (one word was asked
// for). The answer file only tells whether an order exists; it is checked too. Any bytes in
// the output are handled without crashing; words are quoted shortened in messages.
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

namespace {

enum Outcome { OK, WA, FAIL };

std::string feedback_dir;

[[noreturn]] void quit(Outcome outcome, const std::string& message) {
    const char* word = outcome == OK ? "accepted" : outcome == WA ? "wrong answer" : "judge error";
    std::string path = feedback_dir + "judgemessage.txt";
    if (FILE* f = std::fopen(path.c_str(), "w")) {
        std::fprintf(f, "%s: %s\n", word, message.c_str());
        std::fclose(f);
    }
    std::fprintf(stderr, "%s: %s\n", word, message.c_str());
    std::exit(outcome == OK ? 42 : outcome == WA ? 43 : 1);
}

// A word as it may be shown: at most 20 bytes, non-printable bytes as \xNN.
std::string show(const std::string& word) {
    std::string res;
    for (size_t i = 0; i < word.size() && i < 20; i++) {
        unsigned char c = word[i];
        if (c >= 0x20 && c < 0x7f) {
            res += static_cast<char>(c);
        } else {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            res += buf;
        }
    }
    if (word.size() > 20) res += "...";
    return "`" + res + "`";
}

// The whitespace-separated words of a text.
std::vector<std::string> split(const std::string& text) {
    std::vector<std::string> res;
    auto space = [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f'; };
    size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && space(text[i])) i++;
        size_t start = i;
        while (i < text.size() && !space(text[i])) i++;
        if (i > start) res.push_back(text.substr(start, i - start));
    }
    return res;
}

// The words of a jury file (a missing file is a judge error).
std::vector<std::string> words(const char* path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) quit(FAIL, std::string("cannot open ") + path);
    return split(std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()));
}

bool lowercase(const std::string& word) {
    for (char c : word) {
        if (c < 'a' || c > 'z') return false;
    }
    return !word.empty();
}

using Counts = std::array<long long, 26>;

Counts count(const std::string& word) {
    Counts res{};
    for (char c : word) res[c - 'a']++;
    return res;
}

// Why `t` is not a correct order of the tiles `s`, or an empty string when it is.
std::string wrong(const std::string& s, const std::string& t) {
    if (t.size() != s.size()) {
        return "the row has " + std::to_string(t.size()) + " letters, expected " + std::to_string(s.size());
    }
    Counts want = count(s), got = count(t);
    for (int c = 0; c < 26; c++) {
        if (want[c] != got[c]) {
            return std::string("letter ") + static_cast<char>('a' + c) + " occurs " + std::to_string(got[c]) +
                   " times, the tiles have " + std::to_string(want[c]);
        }
    }
    for (size_t i = 0; i + 1 < t.size(); i++) {
        if (t[i] == t[i + 1]) {
            return "letters " + std::to_string(i + 1) + " and " + std::to_string(i + 2) + " are both " + t[i];
        }
    }
    return "";
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: validate INPUT ANSWER FEEDBACK_DIR < team_output\n");
        return 1;
    }
    feedback_dir = argv[3];
    if (!feedback_dir.empty() && feedback_dir.back() != '/') feedback_dir += '/';

    std::vector<std::string> input = words(argv[1]);
    if (input.size() != 1 || !lowercase(input[0]) || input[0].size() > 200000) {
        quit(FAIL, "the input is not one word of 1 to 200000 lowercase letters");
    }
    const std::string& s = input[0];

    std::vector<std::string> jury = words(argv[2]);
    if (jury.size() != 1) quit(FAIL, "the answer file is not one word");
    bool possible = jury[0] != "IMPOSSIBLE";
    if (possible) {
        if (!lowercase(jury[0])) quit(FAIL, "the answer file is neither IMPOSSIBLE nor letters");
        std::string why = wrong(s, jury[0]);
        if (!why.empty()) quit(FAIL, "the jury's order is wrong: " + why);
    }

    std::vector<std::string> team =
        split(std::string((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>()));
    if (team.empty()) quit(WA, "expected a word, found the end of the output");
    if (team.size() > 1) {
        quit(WA, "expected one word, found " + std::to_string(team.size()) + " (the second is " + show(team[1]) + ")");
    }
    const std::string& t = team[0];
    if (t == "IMPOSSIBLE") {
        if (possible) quit(WA, "IMPOSSIBLE, but the tiles can be ordered");
        quit(OK, "IMPOSSIBLE, as expected");
    }
    if (!lowercase(t)) quit(WA, "expected IMPOSSIBLE or lowercase letters, found " + show(t));
    std::string why = wrong(s, t);
    if (!why.empty()) quit(WA, why);
    if (!possible) quit(FAIL, "the team found an order, but the answer file says IMPOSSIBLE");
    quit(OK, std::to_string(t.size()) + (t.size() == 1 ? " letter" : " letters, no two equal neighbours"));
}
