#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::string &s) {
    bool seen[26] = {false};
    for (char c : s) {
        if (seen[c - 'a']) return std::string(1, c);
        seen[c - 'a'] = true;
    }
    return "none";
}

int main() {
    std::string first;
    std::getline(std::cin, first);
    int t = std::stoi(first);
    for (int i = 1; i <= t; i++) {
        std::string s;
        std::getline(std::cin, s);
        std::cout << "Case #" << i << ": " << solve(s) << "\n";
    }
}
