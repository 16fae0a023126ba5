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
    std::string s;
    std::getline(std::cin, s);
    std::cout << solve(s) << "\n";
}
