#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Writes a hyphen after every letter, the last one too.
std::string solve(const std::string &s) {
    std::string out;
    for (char c : s) {
        out += c;
        out += '-';
    }
    return out;
}

int main() {
    std::string first;
    std::getline(std::cin, first);
    int t = std::stoi(first);
    for (int i = 1; i <= t; i++) {
        std::string s;
        std::getline(std::cin, s);
        std::cout << solve(s) << "\n";
    }
}
