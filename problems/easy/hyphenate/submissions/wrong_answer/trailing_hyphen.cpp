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
    std::string s;
    std::getline(std::cin, s);
    std::cout << solve(s) << "\n";
}
