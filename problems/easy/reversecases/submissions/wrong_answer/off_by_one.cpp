#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

// Stops one early: the first letter is never written.
std::string solve(const std::string &s) {
    std::string out;
    for (size_t i = s.size() - 1; i > 0; i--) out += s[i];
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
