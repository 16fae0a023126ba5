#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::string &s) {
    size_t best = 0, run = 0;
    for (char c : s) {
        run = c == ' ' ? 0 : run + 1;
        best = std::max(best, run);
    }
    return std::to_string(best);
}

int main() {
    std::string s;
    std::getline(std::cin, s);
    std::cout << solve(s) << "\n";
}
