#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

std::string solve(const std::string &s) {
    if (s.size() <= 10) return s;
    return s.front() + std::to_string(s.size() - 2) + s.back();
}

int main() {
    std::string first;
    std::getline(std::cin, first);
    int t = std::stoi(first);
    for (int i = 1; i <= t; i++) {
        std::string s;
        std::getline(std::cin, s);
        std::cout << (i > 1 ? " " : "") << solve(s);
    }
    std::cout << "\n";
}
